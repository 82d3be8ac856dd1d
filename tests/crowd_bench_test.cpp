// The crowd bench (`stagger bench --crowd`), short: the crowd, the same spawns alone and the
// patrol bench run by turns, each beside its stock baseline.

#include <gtest/gtest.h>

#include "scenario.h"
#include "stagger/bench/patrol_bench.h"

namespace stagger {
namespace {

TEST(CrowdBench, TheCrowdTheNearestSpawnsAloneAndThePatrolBenchAreTimedByTurns) {
  bench::PatrolBenchOptions options;
  options.enemies = 12;
  options.max_active = 3;
  options.seconds = 1.0;
  options.navmesh_builds = 0;
  const bench::CrowdBenchResult r =
      bench::run_crowd_benchmark(test::level_scene("arena.json"), options);
  EXPECT_EQ(r.crowd.enemies, 12);
  EXPECT_EQ(r.plain.enemies, 3) << "the spawns nearest the start, as many as the cap";
  EXPECT_GT(r.crowd.mean_active, 0.0);
  EXPECT_LE(r.crowd.max_active_seen, 12);
  EXPECT_DOUBLE_EQ(r.plain.mean_active, 3.0) << "without activity levels every enemy is full";
  EXPECT_EQ(r.patrol.enemies, 3) << "the patrol bench with as many enemies as the cap";
  EXPECT_DOUBLE_EQ(r.patrol.mean_active, 3.0);
  for (const bench::PatrolBenchResult* run : {&r.crowd, &r.plain, &r.patrol}) {
    EXPECT_GT(run->frame_ms, 0.0);
    EXPECT_GT(run->baseline_frame_ms, 0.0);
    EXPECT_GT(run->constraint_rows, 50.0) << "per full ragdoll, not per enemy";
    // Every row is solved at least WorldSettings::free_joint_iterations (8) times a step.
    EXPECT_GE(run->row_solves, 8 * run->constraint_rows);
    EXPECT_LE(run->row_solves, 20 * run->constraint_rows) << "the limp count at most";
    EXPECT_FALSE(run->interrupted);
  }
  const std::string text = bench::crowd_bench_text(r);
  EXPECT_NE(text.find("the patrol bench (3 enemies along the routes)"), std::string::npos) << text;
  EXPECT_NE(text.find("a full ragdoll in the crowd costs"), std::string::npos) << text;
}

TEST(CrowdBench, ChasersPromotedAmongOthersAtThePlayerDoNotPop) {
  // Every enemy that sees the player chases them, and the full ragdolls are the nearest: the
  // chasers handed over are among the full ragdolls crowding round the player. A light walker
  // that had walked into one of them was handed over inside it and thrown out (0.73 m/s).
  bench::PatrolBenchOptions options;
  options.enemies = 96;
  options.max_active = 16;
  options.chased = true;
  options.seconds = 10.0;
  options.navmesh_builds = 0;
  const bench::CrowdBenchResult r =
      bench::run_crowd_benchmark(test::level_scene("arena.json"), options);
  EXPECT_GE(r.crowd.promotions, 5) << "chasers handed over to the controllers";
  EXPECT_LT(r.crowd.max_switch_jump_mps, 0.5f);
}

}  // namespace
}  // namespace stagger
