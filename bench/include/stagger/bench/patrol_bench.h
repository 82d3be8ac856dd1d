#pragma once
// `stagger bench --patrol LEVEL`: what enemies with minds cost. Three figures: the
// level's navmesh build, the navigation tick (projection, leash, crowd) for N patrolling enemies,
// and the whole frame (physics at 240 Hz, balance, gait, brains, crowd) per 90 Hz display frame,
// beside the stock Bullet cost of the same ragdolls in the same level.

#include <functional>
#include <string>

#include "stagger/sim/scene.h"

namespace stagger::bench {

struct PatrolBenchOptions {
  int enemies = 32;        ///< spread along the level's routes
  double seconds = 20.0;   ///< simulated time (after 2 s untimed)
  int navmesh_builds = 5;  ///< the build time is their median
  /// `stagger bench --crowd`: activity levels with at most this many full ragdolls (0: every
  /// enemy is one, the patrol bench), and the player standing at the level's start, where the
  /// nearest are active
  int max_active = 0;
  /// The player stands at the level's start, seen by the enemies, who chase them (the crowd
  /// bench's spectator, whom nobody sees, otherwise)
  bool chased = false;
  std::function<bool()> stop;  ///< asked before every step: true ends the bench early
};

struct PatrolBenchResult {
  int enemies = 0;
  double navmesh_build_ms = 0;  ///< median
  double nav_tick_p50_ms = 0;
  double nav_tick_p99_ms = 0;
  double nav_tick_max_ms = 0;
  double frame_ms = 0;           ///< CPU per 90 Hz frame (8/3 physics steps), everything
  double baseline_frame_ms = 0;  ///< the same for stock Bullet ragdolls holding a pose
  double minds_frame_ms = 0;     ///< of frame_ms: the minds (eyes, brains, navigation)
  double activity_frame_ms = 0;  ///< of frame_ms: the activity levels (light poses and choices)
  int falls = 0;                 ///< during the timed run, all enemies
  /// With activity levels: full ragdolls during the timed run (mean over the steps, and most),
  /// and the stock Bullet baseline is of that many (the mean, rounded) ragdolls
  double mean_active = 0;
  int max_active_seen = 0;
  int promotions = 0, demotions = 0;  ///< during the whole run, all enemies
  float max_switch_jump_mps = 0;      ///< [m/s] largest body speed jump at a switch
  bool interrupted = false;           ///< `stop` ended it: the figures are of the steps that ran
  /// Per enemy, averaged over the timed run (sampled every 0.1 s): what the solver carries.
  double pairs = 0, self_pairs = 0, contact_points = 0, self_contact_points = 0,
         constraint_rows = 0;
  /// Per enemy: the constraint rows times their solver iterations (solves a step)
  double row_solves = 0;
};

/// `scene` must have navigation settings and at least one route.
PatrolBenchResult run_patrol_benchmark(const sim::SceneDescription& scene,
                                       const PatrolBenchOptions& options);
std::string patrol_bench_text(const PatrolBenchResult& r);
/// `stagger bench --crowd`: the crowd with activity levels (options.max_active > 0), the spawns
/// nearest the player (as many as the cap) as plain full ragdolls, and the patrol bench with as
/// many enemies as the cap, stepped by turns in the same run, each beside its stock Bullet
/// baseline.
struct CrowdBenchResult {
  PatrolBenchResult crowd;
  PatrolBenchResult plain;   ///< the spawns nearest the player, alone
  PatrolBenchResult patrol;  ///< the patrol bench: the cap's count spread along the routes
};
CrowdBenchResult run_crowd_benchmark(const sim::SceneDescription& scene,
                                     const PatrolBenchOptions& options);
std::string crowd_bench_text(const CrowdBenchResult& r);

/// The scene with `count` enemies spread evenly along its patrol routes (routes of two or more
/// points), each route getting a share in proportion to its length, named `patroller-1`, ...
sim::SceneDescription with_patrollers(const sim::SceneDescription& scene, int count);

}  // namespace stagger::bench
