// Acceptance: a default ragdoll dropped 2 cm onto flat ground stands for 60 s.

#include <gtest/gtest.h>

#include "scenario.h"

namespace stagger {
namespace {

TEST(Standing, SixtySecondsStillUprightAndInBalance) {
  sim::Simulation s(sim::builtin_scene(1), {});
  const physics::Ragdoll& r = *s.scene().enemies()[0].ragdoll;
  const int settle_steps = 2 * 240;  // the 2 cm drop and the bend into the standing pose
  int out_of_balance_steps = 0;
  test::run_steps(s, settle_steps, [&] {
    if (r.balance().state != physics::BalanceState::in_balance) ++out_of_balance_steps;
  });

  const float rest_pelvis = r.pelvis_height();
  const Vec3 rest_position = r.body_state(physics::BodyPart::pelvis).position;
  float pelvis_deviation = 0;
  float drift = 0;
  float max_speed = 0;
  test::run_steps(s, 58 * 240, [&] {
    if (r.balance().state != physics::BalanceState::in_balance) ++out_of_balance_steps;
    pelvis_deviation = std::max(pelvis_deviation, std::fabs(r.pelvis_height() - rest_pelvis));
    const Vec3 p = r.body_state(physics::BodyPart::pelvis).position;
    drift = std::max(drift, length(horizontal(p - rest_position)));
    for (int b = 0; b < physics::kBodyPartCount; ++b) {
      max_speed =
          std::max(max_speed, length(r.body_state(physics::body_part_at(b)).linear_velocity));
    }
  });

  RecordProperty("pelvis_deviation_mm", static_cast<int>(pelvis_deviation * 1000));
  RecordProperty("drift_mm", static_cast<int>(drift * 1000));
  RecordProperty("max_speed_mm_s", static_cast<int>(max_speed * 1000));
  EXPECT_EQ(out_of_balance_steps, 0);
  EXPECT_LT(pelvis_deviation, 0.03f);
  EXPECT_LT(drift, 0.05f);
  EXPECT_LT(max_speed, 0.2f);
  EXPECT_EQ(r.state(), physics::LocomotionState::standing);
  EXPECT_NEAR(rest_pelvis, 0.96f, 0.05f);  // standing, not crouching
}

}  // namespace
}  // namespace stagger

namespace stagger {
namespace {

class StandingAtHeading : public ::testing::TestWithParam<int> {};

TEST_P(StandingAtHeading, StandsStillForAMinuteWhicheverWayItFaces) {
  // Standing must not depend on luck in the solver's ordering: turn and move the ragdoll.
  const int k = GetParam();
  sim::SceneDescription scene = sim::builtin_scene(1);
  scene.enemies[0].yaw_deg = rad_to_deg(0.7f * static_cast<float>(k));
  scene.enemies[0].position = {0.37f * static_cast<float>(k), 0.0f, -0.21f * static_cast<float>(k)};
  sim::Simulation s(scene, {});
  const physics::Ragdoll& r = *s.scene().enemies()[0].ragdoll;
  test::run_steps(s, 2 * 240);
  const Vec3 rest = r.balance().com;
  float drift = 0;
  float max_speed = 0;
  bool always_in_balance = true;
  test::run_steps(s, 58 * 240, [&] {
    drift = std::max(drift, length(horizontal(r.balance().com - rest)));
    for (int b = 0; b < physics::kBodyPartCount; ++b) {
      max_speed =
          std::max(max_speed, length(r.body_state(physics::body_part_at(b)).linear_velocity));
    }
    always_in_balance &= r.balance().state == physics::BalanceState::in_balance;
  });
  EXPECT_LT(drift, 0.05f);
  EXPECT_LT(max_speed, 0.2f);
  EXPECT_TRUE(always_in_balance);
}

INSTANTIATE_TEST_SUITE_P(EightHeadings, StandingAtHeading, ::testing::Range(0, 8));

}  // namespace
}  // namespace stagger
