// Patrols in a level: the guards of the courtyard walk their loop, in order,
// for three simulated minutes without falling, each body following its crowd agent on a leash.

#include <gtest/gtest.h>

#include "scenario.h"
#include "stagger/sim/simulation.h"

namespace stagger {
namespace {

TEST(PatrolWalk, CourtyardGuardsLoopInOrderForThreeMinutes) {
  sim::Simulation s(test::level_scene("courtyard.json"), {});
  s.run(180.0, 90.0);
  const sim::SimulationResult r = s.result();
  ASSERT_EQ(r.enemies.size(), 2u);
  for (const sim::EnemyStats& e : r.enemies) {
    EXPECT_EQ(e.falls, 0) << e.name;
    const auto& reached = e.route_points_reached;
    // A loop is 56 m; at 1.0 m/s, slower round the corners, with 2.5 s of waits: about 60 s.
    EXPECT_GE(reached.size(), 11u) << e.name << ": nearly three loops of four points";
    for (std::size_t i = 1; i < reached.size(); ++i) {
      EXPECT_EQ(reached[i], (reached[i - 1] + 1) % 4) << e.name << " at arrival " << i;
    }
    EXPECT_LT(e.max_leash_lead_m, 1.2f) << e.name << ": the agent never got past the hard leash";
  }
}

}  // namespace
}  // namespace stagger
