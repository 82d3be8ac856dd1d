#pragma once
// `stagger bench --blast N`: what fake ragdolls cost (docs/physics.md, Fake ragdolls). N enemies
// spread over a level's walkable navmesh are thrown by one blast that reaches them all; the
// launch (the prediction of every flight, retries included) and every physics tick of the
// flights are timed, for 1000, 2000, ... up to N at once, and the growth per 1000 flying is
// fitted.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "stagger/sim/scene.h"

namespace stagger::bench {

struct BlastBenchOptions {
  int count = 2000;            ///< the most fake ragdolls thrown at once
  double seconds = 4.0;        ///< [s] simulated after each launch (or until all have landed)
  std::uint64_t seed = 1;      ///< the spread of the enemies and every launch's random draws
  float impulse_ns = 600;      ///< [N·s] the blast's impulse at its centre
  int launch_repetitions = 3;  ///< the launch time is their median
  std::function<bool()> stop;  ///< asked before every tick: true ends the bench early
};

struct BlastBenchRow {
  int count = 0;              ///< thrown at once
  double launch_ms = 0;       ///< [ms] the blast() call, median of the repetitions
  double launch_us_each = 0;  ///< [µs] per launch
  int ticks_all_flying = 0;   ///< ticks before the first landing: the ticks measured
  double tick_p50_ms = 0;     ///< [ms] per tick while all fly
  double tick_p99_ms = 0;
  double tick_max_ms = 0;
  double last_landing_s = 0;  ///< [s] after the blast
  int retried = 0;            ///< launches turned or shortened to land on walkable ground
  int hops = 0;               ///< launches with nowhere to land but where they stood
};

struct BlastBenchResult {
  std::string level;
  float impulse_ns = 0;
  std::uint64_t seed = 0;
  std::vector<BlastBenchRow> rows;
  /// Least-squares slopes over the rows (0 with fewer than two): how the cost grows.
  double tick_p50_us_per_1000 = 0;  ///< [µs] per tick per 1000 more flying
  double launch_ms_per_1000 = 0;    ///< [ms] per 1000 more launched
  bool interrupted = false;         ///< `stop` ended it: the rows are those that finished
};

/// `scene` must have navigation settings.
BlastBenchResult run_blast_bench(const sim::SceneDescription& scene,
                                 const BlastBenchOptions& options);
std::string blast_bench_text(const BlastBenchResult& r);
std::string blast_bench_json(const BlastBenchResult& r);

/// The counts run for `count`: 1000, 2000, ... up to it, and `count` itself last.
std::vector<int> blast_bench_counts(int count);

}  // namespace stagger::bench
