#include "stagger/sim/bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "stagger/physics/baseline.h"
#include "stagger/physics/ragdoll.h"
#include "stagger/physics/world.h"

namespace stagger::sim {
namespace {

enum class Variant { ours, baseline };

// One episode: a fresh world with `count` ragdolls on a 2 m grid (each its own island, as in
// research/bullet-ragdoll.md §6.1). Returns the stepping time only, in microseconds.
double time_episode(Variant variant, int count, int steps) {
  physics::World world;
  world.add_static_box({{0, -0.5f, 0}, {200, 0.5f, 200}, {}, 0.9f});
  const int columns = std::max(1, static_cast<int>(std::ceil(std::sqrt(count))));
  const physics::RagdollSettings settings;
  for (int i = 0; i < count; ++i) {
    const Vec3 feet{2.0f * static_cast<float>(i % columns), 0.005f, 2.0f * static_cast<float>(i / columns)};
    if (variant == Variant::ours) {
      world.add_ragdoll(settings, feet, 0.0f);
    } else {
      physics::add_baseline_ragdoll(world, settings, feet, 0.0f);
    }
  }
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) world.step();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

double per_ragdoll_step_us(Variant variant, int count, const BenchOptions& options) {
  const int steps = static_cast<int>(std::lround(options.seconds * 240.0));
  const int episodes = std::max(1, options.min_ragdoll_steps / std::max(1, count * steps));
  double total = 0;
  for (int e = 0; e < episodes; ++e) total += time_episode(variant, count, steps);
  return total / (static_cast<double>(episodes) * count * steps);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

std::vector<BenchRow> run_benchmark(const BenchOptions& options) {
  const std::size_t n = options.counts.size();
  std::vector<std::vector<double>> ours(n), base(n), ratios(n);
  // Repetition -> count -> variant, interleaved, so slow phases of a shared machine hit both.
  for (int rep = 0; rep < options.repetitions; ++rep) {
    for (std::size_t i = 0; i < n; ++i) {
      const double b = per_ragdoll_step_us(Variant::baseline, options.counts[i], options);
      const double o = per_ragdoll_step_us(Variant::ours, options.counts[i], options);
      base[i].push_back(b);
      ours[i].push_back(o);
      ratios[i].push_back(o / b);
    }
  }
  std::vector<BenchRow> rows;
  for (std::size_t i = 0; i < n; ++i) {
    rows.push_back({options.counts[i], median(ours[i]), median(base[i]), median(ratios[i])});
  }
  return rows;
}

std::string bench_table(const std::vector<BenchRow>& rows) {
  std::ostringstream out;
  out << "µs per ragdoll per physics step (240 Hz, 10 iterations, standing; median of repetitions)\n";
  out << "    N   stagger   raw Bullet baseline   ratio\n";
  char line[128];
  for (const BenchRow& r : rows) {
    std::snprintf(line, sizeof(line), "%5d  %8.2f  %20.2f  %6.3f\n", r.count, r.ours_us, r.baseline_us, r.ratio);
    out << line;
  }
  return out.str();
}

}  // namespace stagger::sim
