// A single driven joint: it reaches its target, its step response has the configured natural
// frequency and damping ratio, and its torque cap is a real torque.

#include <gtest/gtest.h>

#include <cmath>

#include "stagger/physics/world.h"

namespace stagger::physics {
namespace {

// A 1 kg, 1 m rod hinged at one end to a static anchor, free to turn about Z.
struct Rod {
  explicit Rod(DriveSettings drive, Vec3 gravity = {}) : world(WorldSettings{240.0f, 10, gravity}) {
    BodySettings anchor;
    anchor.mass_kg = 0;
    anchor.shape = BodySettings::Shape::sphere;
    anchor.radius = 0.05f;
    anchor.position = {0, 1, 0};
    BodySettings rod;
    rod.mass_kg = 1;
    rod.shape = BodySettings::Shape::capsule_x;
    rod.radius = 0.05f;
    rod.half_length = 0.45f;
    rod.position = {0.5f, 1, 0};
    JointSettings hinge;
    hinge.parent = world.add_body(anchor);
    hinge.child = world.add_body(rod);
    hinge.pivot = {0, 1, 0};
    hinge.limits = {{0, 0, -3.0f}, {0, 0, 3.0f}};
    hinge.drive = drive;
    joint = world.add_joint(hinge);
  }
  float angle_deg() const { return rad_to_deg(world.joint_angles(joint).z); }

  World world;
  JointId joint{};
};

TEST(JointDrive, ReachesTargetWithinTwoDegrees) {
  for (float target : {-40.0f, 30.0f, 75.0f}) {
    Rod rod({6.0f, 1.0f, 100.0f});
    rod.world.set_joint_target(rod.joint, Quat::from_axis_angle({0, 0, 1}, deg_to_rad(target)));
    for (int i = 0; i < 480; ++i) rod.world.step();
    EXPECT_NEAR(rod.angle_deg(), target, 2.0f) << "target " << target;
  }
}

TEST(JointDrive, PositiveTargetTurnsChildPositivelyAboutTheAxis) {
  // Guards the sign conventions at the Bullet boundary (Bullet's Euler angles are negated).
  Rod rod({6.0f, 1.0f, 100.0f});
  rod.world.set_joint_target(rod.joint, Quat::from_axis_angle({0, 0, 1}, deg_to_rad(30)));
  for (int i = 0; i < 480; ++i) rod.world.step();
  const Vec3 tip = rod.world.body_state(BodyId{1}).rotation.rotate({1, 0, 0});
  EXPECT_GT(tip.y, 0.45f);  // +30° about +Z lifts the +X rod's tip
}

struct StepResponse {
  float overshoot;  // fraction of the step
  float peak_time_s;
};

StepResponse measure_step(float frequency_hz, float damping_ratio) {
  Rod rod({frequency_hz, damping_ratio, 1000.0f});
  const float target = 30.0f;
  rod.world.set_joint_target(rod.joint, Quat::from_axis_angle({0, 0, 1}, deg_to_rad(target)));
  float peak = 0;
  float peak_time = 0;
  for (int i = 0; i < 720; ++i) {
    rod.world.step();
    const float a = rod.angle_deg();
    if (a > peak) {
      peak = a;
      peak_time = static_cast<float>(rod.world.time());
    }
  }
  return {(peak - target) / target, peak_time};
}

TEST(JointDrive, StepResponseMatchesFrequencyAndDampingRatio) {
  for (float frequency : {1.5f, 2.0f, 3.0f}) {
    for (float zeta : {0.2f, 0.3f, 0.5f}) {
      const StepResponse r = measure_step(frequency, zeta);
      ASSERT_GT(r.overshoot, 0.0f);
      // Invert the textbook second-order response: overshoot gives ζ, the peak time ω_d.
      const float log_os = std::log(r.overshoot);
      const float zeta_measured = -log_os / std::sqrt(kPi * kPi + log_os * log_os);
      const float omega_d = kPi / r.peak_time_s;
      const float frequency_measured =
          omega_d / std::sqrt(1 - zeta_measured * zeta_measured) / (2 * kPi);
      EXPECT_NEAR(zeta_measured, zeta, 0.25f * zeta) << frequency << " Hz, ζ " << zeta;
      EXPECT_NEAR(frequency_measured, frequency, 0.25f * frequency)
          << frequency << " Hz, ζ " << zeta;
    }
  }
}

TEST(JointDrive, CriticallyDampedDoesNotOvershoot) {
  const StepResponse r = measure_step(4.0f, 1.0f);
  EXPECT_LT(r.overshoot, 0.02f);
}

TEST(JointDrive, TorqueCapIsATorqueThatGravityCanBeat) {
  // Holding the horizontal rod takes m·g·L/2 = 4.905 N·m.
  const float gravity_torque = 1.0f * kGravity * 0.5f;
  Rod strong({6.0f, 1.0f, 1.1f * gravity_torque}, {0, -kGravity, 0});
  Rod weak({6.0f, 1.0f, 0.8f * gravity_torque}, {0, -kGravity, 0});
  float strong_worst = 0;
  float weak_lowest = 0;
  for (int i = 0; i < 480; ++i) {
    strong.world.step();
    weak.world.step();
    strong_worst = std::max(strong_worst, std::fabs(strong.angle_deg()));
    weak_lowest = std::min(weak_lowest, weak.angle_deg());
  }
  EXPECT_LT(strong_worst, 2.0f);   // held within 2° the whole time
  EXPECT_LT(weak_lowest, -20.0f);  // the weaker cap gives way
}

}  // namespace
}  // namespace stagger::physics
