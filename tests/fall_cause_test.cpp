// Why a body fell: each fall's cause, as the report gives it, and how far planted feet slide.

#include <gtest/gtest.h>

#include "scenario.h"

namespace stagger {
namespace {

using physics::BodyPart;
using physics::FallCause;
using physics::LocomotionState;

constexpr double kHz = 240.0;  // [Hz] the default physics rate

// A world with flat ground (top at y = 0) and one ragdoll standing at `feet`, settled for 2 s.
struct Bench {
  explicit Bench(Vec3 feet = {}, float ground_top_m = 0.0f) {
    world.add_static_box({{0, -0.5f, 0}, {30, 0.5f, 30}, {}});
    if (ground_top_m > 0) {
      // A platform from z = -10 to z = 0.
      world.add_static_box({{0, 0.5f * ground_top_m, -5}, {3, 0.5f * ground_top_m, 5}, {}});
    }
    ragdoll = &world.add_ragdoll({}, feet, 0.0f);
    run(2.0);
  }
  void run(double seconds) {
    for (int i = 0; i < static_cast<int>(seconds * kHz); ++i) world.step();
  }
  // Runs until the ragdoll falls or `seconds` have passed; true when it fell.
  bool run_until_fall(double seconds) {
    for (int i = 0; i < static_cast<int>(seconds * kHz); ++i) {
      world.step();
      if (ragdoll->state() == LocomotionState::falling) return true;
    }
    return false;
  }
  physics::World world;
  physics::Ragdoll* ragdoll = nullptr;
};

TEST(FallCause, AnAppliedImpulseIsAPush) {
  Bench b;
  b.ragdoll->apply_impulse(BodyPart::chest, {150, 0, 0});
  ASSERT_TRUE(b.run_until_fall(2.0));
  EXPECT_EQ(b.ragdoll->last_fall_cause(), FallCause::pushed);
}

TEST(FallCause, ABlowByContactIsAHit) {
  Bench b;
  // What a hand's shove does: contact delivers the impulse, the ragdoll is told of the blow.
  b.world.apply_impulse(b.ragdoll->body(BodyPart::chest), {0, 0, -150});
  b.ragdoll->react_to_hit(BodyPart::chest, {0, 0, -150});
  ASSERT_TRUE(b.run_until_fall(2.0));
  EXPECT_EQ(b.ragdoll->last_fall_cause(), FallCause::hit);
}

TEST(FallCause, AFallWithNothingAtFaultIsLostBalance) {
  Bench b;
  b.ragdoll->fall();
  EXPECT_EQ(b.ragdoll->last_fall_cause(), FallCause::lost_balance);
  EXPECT_TRUE(physics::is_self_fall(FallCause::lost_balance));
  EXPECT_FALSE(physics::is_self_fall(FallCause::pushed));
  EXPECT_FALSE(physics::is_self_fall(FallCause::hit));
}

TEST(FallCause, AShoveOlderThanTheBlowWindowIsNotTheCause) {
  Bench b;
  b.ragdoll->apply_impulse(BodyPart::chest, {20, 0, 0});
  b.run(static_cast<double>(b.ragdoll->settings().fall_cause.blow_window_s) + 0.5);
  b.ragdoll->fall();
  EXPECT_EQ(b.ragdoll->last_fall_cause(), FallCause::lost_balance);
}

TEST(FallCause, WalkingOffAHighPlatformIsSteppingOffAnEdge) {
  // A 0.6 m drop: more than a step down; the body walks out over it.
  Bench b({0, 0.6f, -2.0f}, 0.6f);
  physics::LocomotionIntent walk;
  walk.gait = physics::Gait::walk;
  walk.velocity = {0, 0, 1.2f};
  b.ragdoll->set_intent(walk);
  ASSERT_TRUE(b.run_until_fall(6.0));
  EXPECT_EQ(b.ragdoll->last_fall_cause(), FallCause::stepped_off_edge);
}

TEST(FallCause, TheReportCountsSelfFallsAndNamesEachCause) {
  sim::Simulation s(sim::builtin_scene(1),
                    test::push_script("dummy", BodyPart::chest, {150, 0, 0}, 1.0));
  test::run_steps(s, 4 * 240);
  const sim::EnemyStats stats = s.result().enemies[0];
  ASSERT_EQ(stats.falls, 1);
  EXPECT_EQ(stats.fall_causes, std::vector<std::string>{"pushed"});
  EXPECT_EQ(stats.self_falls, 0);
}

// A new body drops a few centimetres from its spawn height onto its feet, and they splay as it
// lands: that is no slide of a planted foot (counted as one, a standing body's largest slide
// was 0.016 m, and 0.04-0.05 m in the sample levels).
TEST(FallCause, ANewBodyLandingOnItsFeetHasNotSlid) {
  sim::Simulation s(sim::builtin_scene(1), {});
  test::run_steps(s, 3 * 240);
  const float slip = s.result().enemies[0].max_foot_slip_m;
  EXPECT_LT(slip, 0.005f);
  RecordProperty("max_foot_slip_m", std::to_string(slip));
}

}  // namespace
}  // namespace stagger
