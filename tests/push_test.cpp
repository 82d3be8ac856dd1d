// Acceptance: chest pushes. 8 N·s in 8 directions are absorbed; 150 N·s knock it down cleanly.

#include <gtest/gtest.h>

#include <optional>

#include "scenario.h"

namespace stagger {
namespace {

using physics::BalanceState;
using physics::BodyPart;

constexpr double kPushTime = 2.0;

class ChestPush : public ::testing::TestWithParam<int> {
 protected:
  // The built-in dummy shoved in the chest at kPushTime with `ns` N·s toward the test's
  // direction, run up to the shove.
  sim::Simulation& shoved(float ns) {
    const Vec3 impulse = test::horizontal_direction(GetParam()) * ns;
    simulation_.emplace(sim::builtin_scene(1),
                        test::push_script("dummy", BodyPart::chest, impulse, kPushTime));
    test::run_steps(*simulation_, static_cast<int>(kPushTime * 240));
    return *simulation_;
  }

 private:
  std::optional<sim::Simulation> simulation_;
};

TEST_P(ChestPush, EightNewtonSecondsNeverFallAndRecoverWithinThreeSeconds) {
  sim::Simulation& s = shoved(8.0f);
  const physics::Ragdoll& r = *s.scene().enemies()[0].ragdoll;
  bool fell = false;
  double last_unbalanced = -1;
  test::run_steps(s, 6 * 240, [&] {
    fell |= r.balance().state == BalanceState::fallen || !physics::is_upright(r.state());
    if (r.balance().state != BalanceState::in_balance)
      last_unbalanced = s.scene().world().time() - kPushTime;
  });
  EXPECT_FALSE(fell);
  EXPECT_LT(last_unbalanced, 3.0) << "still out of balance " << last_unbalanced
                                  << " s after the push";
  EXPECT_EQ(s.result().enemies[0].pushes, 1);
}

TEST_P(ChestPush, HundredFiftyNewtonSecondsFallWithinTwoSecondsWithJointsTogether) {
  sim::Simulation& s = shoved(150.0f);
  const physics::Ragdoll& r = *s.scene().enemies()[0].ragdoll;
  double fallen_after = -1;
  float max_separation = 0;
  bool finite = true;
  test::run_steps(s, 4 * 240, [&] {
    if (fallen_after < 0 && r.balance().state == BalanceState::fallen) {
      fallen_after = s.scene().world().time() - kPushTime;
    }
    max_separation = std::max(max_separation, r.max_joint_separation());
    finite &= s.scene().world().all_finite();
  });
  EXPECT_GE(fallen_after, 0.0);
  EXPECT_LE(fallen_after, 2.0);
  EXPECT_LT(max_separation, 0.02f);
  EXPECT_TRUE(finite);
  EXPECT_EQ(s.result().enemies[0].falls, 1);
}

INSTANTIATE_TEST_SUITE_P(EightDirections, ChestPush, ::testing::Range(0, 8),
                         [](const auto& test_param) {
                           return "dir" + std::to_string(test_param.param * 45) + "deg";
                         });

}  // namespace
}  // namespace stagger

namespace stagger {
namespace {

TEST(HitReaction, SmallBlowsToHeadOrTorsoNeverFell) {
  // Blows of 10 N·s to the head and the chest from eight directions: the struck part twists
  // away and springs back, and the body stays up.
  for (physics::BodyPart part : {physics::BodyPart::head, physics::BodyPart::chest}) {
    for (int d = 0; d < 8; ++d) {
      sim::Simulation s(
          sim::builtin_scene(1),
          test::push_script("dummy", part, test::horizontal_direction(d) * 10.0f, 1.0));
      test::run_steps(s, 4 * 240);
      EXPECT_EQ(s.result().enemies[0].falls, 0)
          << physics::name_of(part) << " from direction " << d;
      EXPECT_EQ(s.result().enemies[0].final_state, "standing");
    }
  }
}

}  // namespace
}  // namespace stagger
