#include "stagger/bench/blast_bench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>

#include "stagger/bench/knock_down_course.h"
#include "stagger/core/cpu_clock.h"
#include "stagger/core/random.h"
#include "stagger/sim/fake_ragdolls.h"

namespace stagger::bench {
namespace {

constexpr double kPhysicsHz = 240.0;
constexpr float kDt = 1.0f / 240.0f;  // [s] the physics step
constexpr int kCountStep = 1000;      // the runs: 1000, 2000, ... enemies at once
constexpr float kEnemyRadiusM = 0.3f;
constexpr float kEnemyMassKg = 75.0f;
/// The blast reaches a little beyond the farthest enemy, so that every one is thrown.
constexpr float kReachMargin = 1.01f;
/// Spots drawn per enemy wanted before giving up on a navmesh with little walkable room.
constexpr int kDrawsPerSpot = 50;

// `count` enemies at uniformly drawn spots of the navmesh's walkable surface (triangles weighted
// by their area), each walkable for its radius, facing anywhere.
std::vector<sim::LaunchCandidate> spread(const ai::Navmesh& navmesh, const sim::FakeRagdolls& fakes,
                                         int count, std::uint64_t seed) {
  const std::vector<std::array<Vec3, 3>> triangles = navmesh.triangles();
  std::vector<float> cumulative;
  float total = 0;
  for (const auto& t : triangles) {
    total += 0.5f * length(horizontal(cross(t[1] - t[0], t[2] - t[0])));
    cumulative.push_back(total);
  }
  SplitMix64 rng(seed);
  std::vector<sim::LaunchCandidate> out;
  for (int draws = 0; static_cast<int>(out.size()) < count && draws < kDrawsPerSpot * count;
       ++draws) {
    const auto i = static_cast<std::size_t>(
        std::upper_bound(cumulative.begin(), cumulative.end(), rng.unit() * total) -
        cumulative.begin());
    const auto& t = triangles[std::min(i, triangles.size() - 1)];
    float u = rng.unit(), v = rng.unit();
    if (u + v > 1.0f) {
      u = 1.0f - u;
      v = 1.0f - v;
    }
    sim::LaunchCandidate c;
    c.feet = t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v;
    c.yaw_rad = (2.0f * rng.unit() - 1.0f) * kPi;
    c.mass_kg = kEnemyMassKg;
    c.radius_m = kEnemyRadiusM;
    if (!fakes.walkable(c.feet, c.radius_m)) continue;
    c.enemy = static_cast<std::uint32_t>(out.size());
    out.push_back(c);
  }
  return out;
}

// One blast at the middle of the enemies' spread, reaching them all.
sim::Blast blast_over(const std::vector<sim::LaunchCandidate>& candidates, float impulse_ns) {
  constexpr float kHuge = 1e30f;
  Vec3 lo{kHuge, kHuge, kHuge}, hi = -lo;
  for (const auto& c : candidates) {
    lo = {std::min(lo.x, c.feet.x), std::min(lo.y, c.feet.y), std::min(lo.z, c.feet.z)};
    hi = {std::max(hi.x, c.feet.x), std::max(hi.y, c.feet.y), std::max(hi.z, c.feet.z)};
  }
  sim::Blast blast;
  blast.centre = {0.5f * (lo.x + hi.x), lo.y, 0.5f * (lo.z + hi.z)};
  float reach = 0;
  for (const auto& c : candidates) reach = std::max(reach, length(c.feet - blast.centre));
  blast.radius_m = std::max(reach * kReachMargin, 0.1f);
  blast.impulse_ns = impulse_ns;
  return blast;
}

double median_of(std::vector<double> values) {
  return percentile(std::move(values), 50);
}

// The slope of the least-squares line through (x, y).
double slope(const std::vector<double>& x, const std::vector<double>& y) {
  const auto n = static_cast<double>(x.size());
  if (x.size() < 2) return 0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  const double d = n * sxx - sx * sx;
  return d > 0 ? (n * sxy - sx * sy) / d : 0;
}

// One run: `count` enemies thrown at once, the launch timed `repetitions` times (each a fresh
// set of flights), then the last set's flights stepped and every tick timed. Nothing when `stop`
// ended it.
std::optional<BlastBenchRow> run_count(std::shared_ptr<const ai::Navmesh> navmesh,
                                       const std::vector<sim::LaunchCandidate>& all, int count,
                                       const BlastBenchOptions& options) {
  const std::vector<sim::LaunchCandidate> candidates(all.begin(), all.begin() + count);
  const sim::Blast blast = blast_over(candidates, options.impulse_ns);
  BlastBenchRow row;
  row.count = count;
  std::vector<double> launches;
  std::optional<sim::FakeRagdolls> fakes;
  for (int r = 0; r < std::max(1, options.launch_repetitions); ++r) {
    fakes.emplace(navmesh, sim::BlastSettings{}, options.seed);
    const double start = thread_cpu_ms();
    (void)fakes->blast(blast, candidates);
    launches.push_back(thread_cpu_ms() - start);
  }
  row.launch_ms = median_of(launches);
  row.launch_us_each = row.launch_ms * 1e3 / static_cast<double>(count);
  for (const sim::Flight& f : fakes->flights()) {
    row.retried += f.kind == sim::LaunchKind::retried;
    row.hops += f.kind == sim::LaunchKind::hop;
  }
  std::vector<double> ticks;
  const auto most = static_cast<std::int64_t>(std::llround(options.seconds * kPhysicsHz));
  for (std::int64_t t = 0; t < most && fakes->flying() > 0; ++t) {
    if (options.stop && options.stop()) return std::nullopt;
    const bool all_flying = fakes->flying() == static_cast<std::size_t>(count);
    const double start = thread_cpu_ms();
    fakes->step(kDt);
    const double ms = thread_cpu_ms() - start;
    if (all_flying) ticks.push_back(ms);
  }
  row.ticks_all_flying = static_cast<int>(ticks.size());
  row.tick_p50_ms = percentile(ticks, 50);
  row.tick_p99_ms = percentile(ticks, 99);
  row.tick_max_ms = percentile(ticks, 100);
  double last = 0;
  std::vector<sim::Landing> landings;
  fakes->take_landings(landings);
  for (const sim::Landing& l : landings) last = std::max(last, l.landed_at_s);
  row.last_landing_s = last;
  return row;
}

}  // namespace

std::vector<int> blast_bench_counts(int count) {
  std::vector<int> counts;
  for (int n = kCountStep; n < count; n += kCountStep) counts.push_back(n);
  counts.push_back(count);
  return counts;
}

BlastBenchResult run_blast_bench(const sim::SceneDescription& scene,
                                 const BlastBenchOptions& options) {
  BlastBenchResult r;
  r.level = scene.name;
  r.impulse_ns = options.impulse_ns;
  r.seed = options.seed;
  auto built = sim::build_navmesh(scene);
  STAGGER_ASSERT(built.ok());
  const std::shared_ptr<const ai::Navmesh> navmesh = built.value();
  const sim::FakeRagdolls probe(navmesh, sim::BlastSettings{}, options.seed);
  const std::vector<sim::LaunchCandidate> all =
      spread(*navmesh, probe, options.count, options.seed);
  std::vector<double> counts, tick_us, launch_ms;
  if (all.empty()) return r;  // nowhere walkable
  for (int count : blast_bench_counts(static_cast<int>(all.size()))) {
    const auto row = run_count(navmesh, all, count, options);
    if (!row) {
      r.interrupted = true;
      break;
    }
    r.rows.push_back(*row);
    counts.push_back(static_cast<double>(count));
    tick_us.push_back(row->tick_p50_ms * 1e3);
    launch_ms.push_back(row->launch_ms);
  }
  r.tick_p50_us_per_1000 = slope(counts, tick_us) * 1000.0;
  r.launch_ms_per_1000 = slope(counts, launch_ms) * 1000.0;
  return r;
}

std::string blast_bench_text(const BlastBenchResult& r) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof(line),
                "fake ragdolls thrown by one blast of %.0f N*s over %s (240 Hz, thread CPU time)\n"
                "      N  launch ms  us/launch  retried  hops  ticks  tick p50 ms  p99 ms  "
                "max ms  last landing s\n",
                static_cast<double>(r.impulse_ns), r.level.c_str());
  out += line;
  for (const BlastBenchRow& row : r.rows) {
    std::snprintf(line, sizeof(line),
                  "%7d  %9.2f  %9.2f  %7d  %4d  %5d  %11.4f  %6.4f  %6.4f  %14.2f\n", row.count,
                  row.launch_ms, row.launch_us_each, row.retried, row.hops, row.ticks_all_flying,
                  row.tick_p50_ms, row.tick_p99_ms, row.tick_max_ms, row.last_landing_s);
    out += line;
  }
  if (r.rows.size() >= 2) {
    std::snprintf(line, sizeof(line),
                  "growth per 1000 flying: %.4f ms per tick (p50); per 1000 launched: %.2f ms\n",
                  r.tick_p50_us_per_1000 * 1e-3, r.launch_ms_per_1000);
    out += line;
  }
  if (r.interrupted) out += "interrupted: the rows are those that finished\n";
  return out;
}

std::string blast_bench_json(const BlastBenchResult& r) {
  nlohmann::ordered_json j;
  j["level"] = r.level;
  j["impulse_ns"] = r.impulse_ns;
  j["seed"] = r.seed;
  j["physics_hz"] = 240;
  j["tick_p50_us_per_1000"] = r.tick_p50_us_per_1000;
  j["launch_ms_per_1000"] = r.launch_ms_per_1000;
  j["interrupted"] = r.interrupted;
  auto& rows = j["rows"] = nlohmann::ordered_json::array();
  for (const BlastBenchRow& row : r.rows) {
    rows.push_back({{"count", row.count},
                    {"launch_ms", row.launch_ms},
                    {"launch_us_each", row.launch_us_each},
                    {"retried", row.retried},
                    {"hops", row.hops},
                    {"ticks_all_flying", row.ticks_all_flying},
                    {"tick_p50_ms", row.tick_p50_ms},
                    {"tick_p99_ms", row.tick_p99_ms},
                    {"tick_max_ms", row.tick_max_ms},
                    {"last_landing_s", row.last_landing_s}});
  }
  return j.dump(2) + "\n";
}

}  // namespace stagger::bench
