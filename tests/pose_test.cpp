// Whole poses: set at once, blended by slerp over a given time, and tracked by the drives.

#include <gtest/gtest.h>

#include "stagger/physics/ragdoll.h"

namespace stagger::physics {
namespace {

TEST(Pose, BlendIsPerJointSlerp) {
  Pose a;
  Pose b;
  b[JointName::elbow_l] = Quat::from_axis_angle({1, 0, 0}, deg_to_rad(-90));
  const Pose half = blend(a, b, 0.5f);
  EXPECT_NEAR(rad_to_deg(angle_between(half[JointName::elbow_l], Quat{})), 45.0f, 0.01f);
  EXPECT_NEAR(max_angle_between(blend(a, b, 1.0f), b), 0.0f, 1e-3f);
}

TEST(Pose, TwistYawIsTheHeadingOfABodyHoweverItLies) {
  // A body turned to 130°, then tilted about any horizontal axis short of upside down, keeps its
  // twist of 130°; the yaw of its forward direction does not (lying on its back, it points up).
  const float heading = deg_to_rad(130.0f);
  for (float axis_deg : {0.0f, 45.0f, 90.0f, 200.0f}) {
    const Vec3 axis{std::sin(deg_to_rad(axis_deg)), 0, std::cos(deg_to_rad(axis_deg))};
    for (float tilt_deg : {0.0f, 30.0f, 90.0f, 150.0f}) {
      const Quat q = Quat::from_axis_angle(axis, deg_to_rad(tilt_deg)) * Quat::from_yaw(heading);
      EXPECT_NEAR(wrap_angle(twist_yaw(q) - heading), 0.0f, 1e-4f)
          << "tilted " << tilt_deg << "° about the axis at " << axis_deg << "°";
    }
  }
}

TEST(Pose, RagdollBlendsToANewPoseOverTheGivenTime) {
  World world;
  world.add_static_box({{0, -0.5f, 0}, {10, 0.5f, 10}, {}, 0.9f});
  Ragdoll& r = world.add_ragdoll(RagdollSettings{}, {0, 0, 0}, 0.0f);
  for (int i = 0; i < 240; ++i) world.step();
  Pose wave = r.target_pose();
  wave[JointName::shoulder_r] = Quat::from_axis_angle({0, 0, 1}, deg_to_rad(-60));
  wave[JointName::elbow_r] = Quat::from_axis_angle({1, 0, 0}, deg_to_rad(-45));
  r.blend_to_pose(wave, 0.5f);
  for (int i = 0; i < 60; ++i) world.step();  // a quarter of a second: partway
  const float partway = max_angle_between(r.target_pose(), wave);
  EXPECT_GT(partway, deg_to_rad(5));
  EXPECT_LT(partway, deg_to_rad(55));
  for (int i = 0; i < 60; ++i) world.step();
  EXPECT_NEAR(max_angle_between(r.target_pose(), wave), 0.0f, 1e-4f);
  for (int i = 0; i < 240; ++i) world.step();
  // The drive tracked it: the right elbow sits within 2° of its target.
  const Vec3 elbow = world.joint_angles(r.joint(JointName::elbow_r));
  EXPECT_NEAR(rad_to_deg(elbow.x), -45.0f, 2.0f);
  r.set_pose(standing_pose());
  EXPECT_NEAR(max_angle_between(r.target_pose(), standing_pose()), 0.0f, 1e-6f);
}

}  // namespace
}  // namespace stagger::physics
