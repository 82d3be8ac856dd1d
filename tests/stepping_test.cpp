// Acceptance: balance steps. Chest pushes of 15-25 N·s from standing are caught by stepping and
// the body stands still again within 4 s; 120 N·s and more always knock it down.

#include <gtest/gtest.h>

#include "scenario.h"

namespace stagger {
namespace {

using physics::BalanceState;
using physics::BodyPart;
using physics::LocomotionState;

constexpr double kPushTime = 1.0;

struct PushOutcome {
  int falls = 0;
  double fell_after_s = -1;  // from the push to the first fall
  int recovery_steps = 0;
  double still_after_s = 0;  // from the push until standing still for good
};

PushOutcome push_from_standing(int direction, float newton_seconds) {
  const Vec3 impulse = test::horizontal_direction(direction) * newton_seconds;
  sim::Simulation s(sim::builtin_scene(1),
                    test::push_script("dummy", BodyPart::chest, impulse, kPushTime));
  const physics::Ragdoll& r = *s.scene().enemies()[0].ragdoll;
  PushOutcome out;
  test::run_steps(s, 7 * 240, [&] {
    const double t = s.scene().world().time();
    if (t <= kPushTime) return;
    if (out.fell_after_s < 0 && r.state() == LocomotionState::falling)
      out.fell_after_s = t - kPushTime;
    // Standing still: standing (no step under way), in balance, the body at rest (centre of
    // mass slower than 5 cm/s) and no limb moving faster than 0.3 m/s.
    float fastest = 0;
    for (int b = 0; b < physics::kBodyPartCount; ++b) {
      fastest = std::max(fastest, length(r.body_state(physics::body_part_at(b)).linear_velocity));
    }
    const bool still = r.state() == LocomotionState::standing &&
                       r.balance().state == BalanceState::in_balance &&
                       length(horizontal(r.balance().com_velocity)) < 0.05f && fastest < 0.3f;
    if (!still) out.still_after_s = t - kPushTime;
  });
  out.falls = s.result().enemies[0].falls;
  out.recovery_steps = s.result().enemies[0].recovery_steps;
  return out;
}

class StepRecovery : public ::testing::TestWithParam<int> {};

TEST_P(StepRecovery, FifteenToTwentyFiveNewtonSecondsAreCaughtByStepping) {
  for (float push : {15.0f, 20.0f, 25.0f}) {
    const PushOutcome o = push_from_standing(GetParam(), push);
    EXPECT_EQ(o.falls, 0) << push << " N·s";
    EXPECT_GE(o.recovery_steps, 1) << push << " N·s";
    EXPECT_LT(o.still_after_s, 4.0) << push << " N·s: not standing still yet";
  }
}

TEST_P(StepRecovery, HundredTwentyNewtonSecondsAlwaysKnockItDown) {
  for (float push : {120.0f, 150.0f}) {
    const PushOutcome o = push_from_standing(GetParam(), push);
    EXPECT_GE(o.fell_after_s, 0.0) << push << " N·s did not knock it down";
    EXPECT_LT(o.fell_after_s, 1.0) << push << " N·s";
  }
}

INSTANTIATE_TEST_SUITE_P(EightDirections, StepRecovery, ::testing::Range(0, 8),
                         [](const auto& test_param) {
                           return "dir" + std::to_string(test_param.param * 45) + "deg";
                         });

}  // namespace
}  // namespace stagger
