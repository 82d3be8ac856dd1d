#pragma once
// `stagger bench`: microseconds per ragdoll per physics step for N standing (or walking)
// ragdolls, beside a stock Bullet baseline of the same bodies and motors holding a fixed pose,
// measured in the same run.

#include <functional>
#include <string>
#include <vector>

#include "stagger/physics/ragdoll_settings.h"

namespace stagger::bench {

struct BenchOptions {
  std::vector<int> counts{1, 8, 32};  ///< ragdolls per world
  double seconds = 2.0;               ///< simulated time per measurement
  int repetitions = 3;                ///< rounds of paired episodes; medians are reported
  int min_ragdoll_steps = 32 * 480;   ///< ragdoll-steps per round: small N run more pairs
  bool walking = false;               ///< our ragdolls walk at 1.2 m/s (after 1 s untimed)
  physics::RagdollSettings ragdoll;   ///< every ragdoll's, ours and the baseline's (`--settings`)
  std::function<bool()> stop;         ///< asked before every step: true ends the bench early
};

struct BenchRow {
  int count = 0;
  double ours_us = 0;      ///< [µs] per ragdoll per step, median
  double baseline_us = 0;  ///< [µs] per ragdoll per step, median
  double ratio = 0;        ///< median of the per-pair ratios ours / baseline
};

/// One row per count measured; fewer than asked for when `stop` ended it early.
std::vector<BenchRow> run_benchmark(const BenchOptions& options);
std::string bench_table(const std::vector<BenchRow>& rows, bool walking = false);

}  // namespace stagger::bench
