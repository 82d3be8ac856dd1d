#pragma once
// `stagger bench --soak LEVEL`: a long run that looks for leaks and blow-ups. N enemies spread
// along the level's routes patrol for the given time while seeded random shoves hit one of them
// every second; resident memory is sampled every simulated minute.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "stagger/sim/scene.h"

namespace stagger::bench {

struct SoakOptions {
  int enemies = 64;
  double seconds = 600.0;
  std::uint32_t seed = 1;
  std::function<bool()> stop;  ///< asked before every step: true ends the soak early
};

struct SoakResult {
  int enemies = 0;
  double seconds = 0;
  double wall_s = 0;
  double ms_per_step = 0;
  std::vector<double>
      rss_mib;  ///< resident memory at the start of each simulated minute and at the end
  double rss_growth_after_first_minute = 0;  ///< (last − at 1 min) / at 1 min
  bool finite = true;
  int resets = 0;  ///< non-finite bodies found (and reset)
  int falls = 0;
  int pushes = 0;
  bool interrupted = false;  ///< `stop` ended it early
};

/// `scene` must have navigation settings and at least one route.
SoakResult run_soak(const sim::SceneDescription& scene, const SoakOptions& options);
std::string soak_text(const SoakResult& r);

/// Resident memory of this process [MiB] (Linux: /proc/self/statm).
double resident_mib();

}  // namespace stagger::bench
