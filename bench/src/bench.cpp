#include "stagger/bench/bench.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <sstream>

#include "stagger/core/cpu_clock.h"
#include "stagger/physics/baseline.h"
#include "stagger/physics/ragdoll.h"
#include "stagger/physics/world.h"

namespace stagger::bench {
namespace {

enum class Variant { ours, baseline };

constexpr float kWalkSpeed = 1.2f;     // [m/s]
constexpr int kWalkWarmUpSteps = 240;  // walkers get going (and past their first steps) untimed

// One episode: a fresh world with `count` ragdolls on a 2 m grid (each its own island, as in
// docs/physics.md, What a step costs); walkers all head +Z side by side. Returns µs per ragdoll per
// step, stepping time only; nothing when `stop` ended it.
std::optional<double> time_episode(Variant variant, int count, std::int64_t steps,
                                   const BenchOptions& options) {
  const bool walking = options.walking;
  // The baseline is stock Bullet: none of Stagger's replacements of its internals.
  physics::WorldSettings world_settings;
  world_settings.bullet_extensions = variant == Variant::ours;
  physics::World world(world_settings);
  world.add_static_box({{0, -0.5f, 0}, {200, 0.5f, 200}, {}, 0.9f});
  const int columns = std::max(1, static_cast<int>(std::ceil(std::sqrt(count))));
  const physics::RagdollSettings& settings = options.ragdoll;
  for (int i = 0; i < count; ++i) {
    const Vec3 feet{2.0f * static_cast<float>(i % columns), 0.005f,
                    2.0f * static_cast<float>(i / columns)};
    if (variant == Variant::ours) {
      physics::Ragdoll& ragdoll = world.add_ragdoll(settings, feet, 0.0f);
      if (walking) ragdoll.set_intent({{0, 0, kWalkSpeed}, 0.0f, false, physics::Gait::walk});
    } else {
      physics::add_baseline_ragdoll(world, settings, feet, 0.0f);
    }
  }
  if (walking) {
    for (int s = 0; s < kWalkWarmUpSteps; ++s) world.step();
  }
  const double start = thread_cpu_ms();
  for (std::int64_t s = 0; s < steps; ++s) {
    if (options.stop && options.stop()) return std::nullopt;
    world.step();
  }
  return (thread_cpu_ms() - start) * 1e3 /
         (static_cast<double>(count) * static_cast<double>(steps));
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

std::vector<BenchRow> run_benchmark(const BenchOptions& options) {
  // At least one step: the command line allows durations down to one step's worth.
  const std::int64_t steps = std::max<std::int64_t>(1, std::llround(options.seconds * 240.0));
  std::vector<BenchRow> rows;
  for (int count : options.counts) {
    // Pairs of episodes, baseline and ours back to back (in alternating order), so that slow
    // phases of a shared machine hit both; small N get more pairs for the same total work.
    const std::int64_t pairs_per_repetition = std::max<std::int64_t>(
        1, options.min_ragdoll_steps / std::max<std::int64_t>(1, count * steps));
    const std::int64_t pairs =
        std::max<std::int64_t>(9, options.repetitions * pairs_per_repetition);
    std::vector<double> ours, base, ratios;
    for (std::int64_t p = 0; p < pairs; ++p) {
      const bool baseline_first = p % 2 == 0;
      const auto first =
          time_episode(baseline_first ? Variant::baseline : Variant::ours, count, steps, options);
      if (!first) return rows;
      const auto second =
          time_episode(baseline_first ? Variant::ours : Variant::baseline, count, steps, options);
      if (!second) return rows;
      const double b = baseline_first ? *first : *second;
      const double o = baseline_first ? *second : *first;
      base.push_back(b);
      ours.push_back(o);
      ratios.push_back(o / b);
    }
    rows.push_back({count, median(ours), median(base), median(ratios)});
  }
  return rows;
}

std::string bench_table(const std::vector<BenchRow>& rows, bool walking) {
  std::ostringstream out;
  out << "CPU µs per ragdoll per physics step (240 Hz, 10 iterations, "
      << (walking ? "walking at 1.2 m/s" : "standing") << "; medians over paired episodes)\n";
  out << "    N   stagger   stock Bullet baseline   ratio\n";
  char line[128];
  for (const BenchRow& r : rows) {
    std::snprintf(line, sizeof(line), "%5d  %8.2f  %22.2f  %6.3f\n", r.count, r.ours_us,
                  r.baseline_us, r.ratio);
    out << line;
  }
  return out.str();
}

}  // namespace stagger::bench
