// Falls and get-ups: knocked down in seeded random directions, the ragdoll stands up again and
// stays up; a killed ragdoll never does.

#include <gtest/gtest.h>

#include <random>

#include "scenario.h"

namespace stagger {
namespace {

using physics::LocomotionState;

struct KnockDown {
  double stood_after_s = -1;  // from the push
  bool stayed_up = false;     // no fall in the 10 s after standing
  bool prone = false;
};

KnockDown knock_down(float direction_rad) {
  const Vec3 impulse = Vec3{std::sin(direction_rad), 0, std::cos(direction_rad)} * 150.0f;
  sim::Simulation s(sim::builtin_scene(1),
                    test::push_script("dummy", physics::BodyPart::chest, impulse, 1.0));
  const physics::Ragdoll& r = *s.scene().enemies()[0].ragdoll;
  KnockDown result;
  double stood_at = -1;
  int falls_after = 0;
  LocomotionState last = r.state();
  test::run_steps(s, 240 * 18, [&] {
    const double t = s.scene().world().time();
    if (stood_at < 0 && r.get_ups() > 0) stood_at = t;
    if (stood_at >= 0 && r.state() == LocomotionState::falling && last != LocomotionState::falling)
      ++falls_after;
    last = r.state();
  });
  if (stood_at >= 0) {
    result.stood_after_s = stood_at - 1.0;
    result.stayed_up = falls_after == 0 && s.scene().world().time() - stood_at >= 10.0;
  }
  result.prone = r.got_up_from_prone();
  return result;
}

TEST(GetUp, NineteenOfTwentyKnockDownsStandAgainWithinSixSecondsAndStayUp) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> direction(0.0f, 2.0f * kPi);
  int stood = 0;
  int stayed = 0;
  int prone = 0;
  for (int i = 0; i < 20; ++i) {
    const KnockDown k = knock_down(direction(rng));
    const bool in_time = k.stood_after_s >= 0 && k.stood_after_s <= 6.0;
    stood += in_time;
    stayed += in_time && k.stayed_up;
    prone += k.prone;
  }
  RecordProperty("prone", prone);
  EXPECT_GE(stood, 19);
  EXPECT_GE(stayed, 19);  // ... and of those, at least 19 stay up for the next 10 s
  EXPECT_GT(prone, 0);    // both sides of the body are exercised
  EXPECT_LT(prone, 20);
}

TEST(GetUp, TheReportTimesEachFallFromTheDecisionToLyingStill) {
  sim::Simulation s(sim::builtin_scene(1),
                    test::push_script("dummy", physics::BodyPart::chest, {0, 0, 150}, 1.0));
  double fell_at = -1;
  double down_at = -1;
  const physics::Ragdoll& r = *s.scene().enemies()[0].ragdoll;
  test::run_steps(s, 240 * 4, [&] {
    const double t = s.scene().world().time();
    if (fell_at < 0 && r.state() == LocomotionState::falling) fell_at = t;
    if (down_at < 0 && r.state() == LocomotionState::down) down_at = t;
  });
  const sim::EnemyStats e = s.result().enemies[0];
  ASSERT_EQ(e.fall_to_down_s.size(), 1u);
  EXPECT_NEAR(e.fall_to_down_s[0], down_at - fell_at, 1e-9);
  EXPECT_GT(e.fall_to_down_s[0], 0.3);  // it has to reach the ground first
  EXPECT_LT(e.fall_to_down_s[0], 3.0);
}

TEST(GetUp, KilledRagdollStaysDownAndSleeps) {
  sim::InputScript script = test::push_script("dummy", physics::BodyPart::chest, {0, 0, 40}, 1.0);
  script.kills.push_back({1.0, "dummy", 1, {}, std::nullopt});
  sim::Simulation s(sim::builtin_scene(1), script);
  const physics::Ragdoll& r = *s.scene().enemies()[0].ragdoll;
  float late_speed = 0;
  test::run_steps(s, 240 * 10, [&] {
    if (s.scene().world().time() > 8.0) {
      for (int b = 0; b < physics::kBodyPartCount; ++b) {
        late_speed =
            std::max(late_speed, length(r.body_state(physics::body_part_at(b)).linear_velocity));
      }
    }
  });
  EXPECT_EQ(r.state(), LocomotionState::dead);
  EXPECT_EQ(r.get_ups(), 0);
  EXPECT_LT(late_speed, 0.01f);  // at rest (asleep), no jitter
  EXPECT_EQ(s.result().enemies[0].final_state, "dead");
}

}  // namespace
}  // namespace stagger

namespace stagger {
namespace {

TEST(GetUp, ADropFromAMetreIsAFallAndItGetsUp) {
  sim::SceneDescription scene = sim::builtin_scene(1);
  scene.spawn_height_m = 1.0f;  // about 0.45 s in the air
  sim::Simulation s(scene, {});
  const physics::Ragdoll& r = *s.scene().enemies()[0].ragdoll;
  bool was_in_air = false;
  test::run_steps(s, 240 * 10,
                  [&] { was_in_air |= r.balance().state == physics::BalanceState::in_air; });
  EXPECT_TRUE(was_in_air);
  EXPECT_EQ(s.result().enemies[0].falls, 1);
  EXPECT_EQ(r.get_ups(), 1);
  EXPECT_EQ(r.state(), LocomotionState::standing);
}

}  // namespace
}  // namespace stagger
