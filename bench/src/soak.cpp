#include "stagger/bench/soak.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>

#include "stagger/bench/patrol_bench.h"
#include "stagger/sim/simulation.h"

namespace stagger::bench {

double resident_mib() {
  std::ifstream statm("/proc/self/statm");
  long pages_total = 0;
  long pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return static_cast<double>(pages_resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) /
         (1024.0 * 1024.0);
}

SoakResult run_soak(const sim::SceneDescription& scene, const SoakOptions& options) {
  const sim::SceneDescription crowded = with_patrollers(scene, options.enemies);
  // One shove a second, to a random enemy, in a random direction, 20-50 N·s.
  std::mt19937 random(options.seed);
  const auto uniform = [&random] { return static_cast<float>(random()) / 4294967296.0f; };
  sim::InputScript script;
  for (double t = 1.0; t < options.seconds; t += 1.0) {
    const auto who =
        static_cast<std::size_t>(uniform() * static_cast<float>(crowded.enemies.size())) %
        crowded.enemies.size();
    const float angle = uniform() * 2.0f * kPi;
    const float impulse = 20.0f + 30.0f * uniform();
    script.pushes.push_back({t, crowded.enemies[who].name, physics::BodyPart::chest,
                             Vec3{std::sin(angle), 0, std::cos(angle)} * impulse, 0});
  }
  SoakResult r;
  r.enemies = static_cast<int>(crowded.enemies.size());
  r.seconds = options.seconds;
  sim::Simulation s(crowded, std::move(script));
  const auto steps_per_minute =
      static_cast<std::uint64_t>(60.0 * static_cast<double>(crowded.world.physics_hz));
  const auto steps =
      static_cast<std::uint64_t>(options.seconds * static_cast<double>(crowded.world.physics_hz));
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t i = 0; i < steps; ++i) {
    if (options.stop && options.stop()) {
      r.interrupted = true;
      break;
    }
    if (i % steps_per_minute == 0) r.rss_mib.push_back(resident_mib());
    s.step();
  }
  r.rss_mib.push_back(resident_mib());
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const sim::SimulationResult result = s.result();
  r.seconds = result.seconds;
  r.ms_per_step = result.ms_per_step;
  r.finite = result.finite;
  for (const sim::EnemyStats& e : result.enemies) {
    r.resets += e.resets;
    r.falls += e.falls;
    r.pushes += e.pushes;
  }
  if (r.rss_mib.size() > 2)
    r.rss_growth_after_first_minute = (r.rss_mib.back() - r.rss_mib[1]) / r.rss_mib[1];
  return r;
}

std::string soak_text(const SoakResult& r) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof(line),
                "%d enemies, %.0f s simulated in %.1f s wall (%.3f ms per step)\n", r.enemies,
                r.seconds, r.wall_s, r.ms_per_step);
  out += line;
  out += "resident memory per simulated minute [MiB]:";
  for (double mib : r.rss_mib) {
    std::snprintf(line, sizeof(line), " %.1f", mib);
    out += line;
  }
  std::snprintf(line, sizeof(line), "\ngrowth after the first minute: %+.2f %%   (target < 5 %%)\n",
                100.0 * r.rss_growth_after_first_minute);
  out += line;
  std::snprintf(line, sizeof(line), "all finite: %s, resets: %d, falls: %d, pushes: %d\n",
                r.finite ? "yes" : "NO", r.resets, r.falls, r.pushes);
  out += line;
  if (r.interrupted) out += "interrupted: the figures are of the steps that ran\n";
  return out;
}

}  // namespace stagger::bench
