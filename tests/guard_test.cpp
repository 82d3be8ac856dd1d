// Guards: a body that goes non-finite, or runs away (beyond the world, faster than the limit), is
// named with its enemy and step, and that enemy starts again at its spawn; nothing else is touched
// and the run stays finite.

#include <gtest/gtest.h>

#include <limits>

#include "scenario.h"
#include "stagger/levels/load.h"
#include "stagger/sim/simulation.h"

namespace stagger {
namespace {

TEST(Guard, ANonFiniteBodyIsReportedAndItsEnemyReset) {
  sim::Simulation s(sim::builtin_scene(2), {});
  test::run_steps(s, 240);
  const physics::Ragdoll& dummy = *s.scene().enemies()[0].ragdoll;
  // A blow-up: one body's velocity becomes NaN (as a solver explosion would leave it).
  s.scene().world().apply_impulse(dummy.body(physics::BodyPart::shin_l),
                                  {std::numeric_limits<float>::quiet_NaN(), 0, 0});
  const Vec3 dummy_2_before = s.scene().enemies()[1].ragdoll->balance().com;
  s.step();
  sim::SimulationResult r = s.result();
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("dummy: body "), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find(" not finite after step 241; the enemy was reset to its spawn"),
            std::string::npos)
      << r.warnings[0];
  EXPECT_EQ(r.enemies[0].resets, 1);
  EXPECT_EQ(r.enemies[1].resets, 0);
  EXPECT_TRUE(r.finite);
  EXPECT_LT(length(s.scene().enemies()[1].ragdoll->balance().com - dummy_2_before), 0.01f)
      << "the other enemy is untouched";
  // It stands again where it was created and stays up.
  test::run_steps(s, 5 * 240);
  r = s.result();
  EXPECT_TRUE(r.finite);
  EXPECT_EQ(r.enemies[0].falls, 0);
  EXPECT_EQ(r.enemies[0].final_state, "standing");
  EXPECT_GT(dummy.pelvis_height(), 0.8f);
  EXPECT_LT(length(horizontal(dummy.balance().com)), 0.1f) << "at its spawn, the origin";
  EXPECT_EQ(r.warnings.size(), 1u);
}

// A finite but absurd state (a huge impulse through the API) is a runaway: found, named and reset
// like a NaN, and counted apart.
TEST(Guard, ARunawayBodyIsReportedAndItsEnemyReset) {
  sim::Simulation s(sim::builtin_scene(1), {});
  test::run_steps(s, 240);
  physics::Ragdoll& dummy = *s.scene().enemies()[0].ragdoll;
  dummy.kill();  // limp, so that no controller clamps its speed
  s.scene().world().apply_impulse(dummy.body(physics::BodyPart::chest), {1e7f, 0, 0});
  s.step();
  const sim::SimulationResult r = s.result();
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("dummy: body "), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find(" ran away (moving at "), std::string::npos) << r.warnings[0];
  EXPECT_NE(
      r.warnings[0].find(
          "faster than the limit of 1000 m/s) after step 241; the enemy was reset to its spawn"),
      std::string::npos)
      << r.warnings[0];
  EXPECT_EQ(r.enemies[0].resets, 1);
  EXPECT_EQ(r.enemies[0].runaways, 1);
  EXPECT_EQ(r.runaways, 1);
  EXPECT_LT(length(horizontal(dummy.balance().com)), 0.1f) << "back at its spawn";
}

}  // namespace
}  // namespace stagger
