#include "stagger/bench/patrol_bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "stagger/core/cpu_clock.h"
#include "stagger/physics/baseline.h"
#include "stagger/sim/simulation.h"

namespace stagger::bench {
namespace {

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto i = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(i, values.size() - 1)];
}

constexpr double kFrameSteps = 240.0 / 90.0;  // physics steps per 90 Hz frame
constexpr double kWarmUpS = 2.0;

// The polyline an enemy on `route` walks: the points in order, and back to the first on a loop.
std::vector<Vec3> walked_path(const std::vector<ai::PatrolPoint>& route, ai::PatrolMode mode) {
  std::vector<Vec3> path;
  for (const auto& p : route) path.push_back(p.position);
  if (mode == ai::PatrolMode::loop && path.size() > 2) path.push_back(path.front());
  return path;
}

float path_length(const std::vector<Vec3>& path) {
  float total = 0;
  for (std::size_t i = 1; i < path.size(); ++i) total += length(horizontal(path[i] - path[i - 1]));
  return total;
}

// A point `fraction` (0..1) of the way along a path.
Vec3 along(const std::vector<Vec3>& path, float fraction) {
  if (path.size() == 1) return path.front();
  float left = fraction * path_length(path);
  for (std::size_t i = 1; i < path.size(); ++i) {
    const float leg = length(horizontal(path[i] - path[i - 1]));
    if (left <= leg && leg > 0) return lerp(path[i - 1], path[i], left / leg);
    left -= leg;
  }
  return path.back();
}

// `count` enemies shared among routes in proportion to their lengths (largest remainders), so
// that they walk as far apart on a short route as on a long one; every route gets one first.
std::vector<int> share_by_length(const std::vector<float>& lengths, int count) {
  const auto routes = static_cast<int>(lengths.size());
  std::vector<int> share(lengths.size(), count >= routes ? 1 : 0);
  int left = count - (count >= routes ? routes : 0);
  float total = 0;
  for (float l : lengths) total += l;
  std::vector<std::pair<float, std::size_t>> remainders;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const float exact = total > 0 ? static_cast<float>(left) * lengths[i] / total : 0.0f;
    const int whole = static_cast<int>(exact);
    share[i] += whole;
    remainders.emplace_back(exact - static_cast<float>(whole), i);
  }
  int given = 0;
  for (int s : share) given += s;
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](auto a, auto b) { return a.first > b.first; });
  for (std::size_t i = 0; given < count; ++i, ++given)
    ++share[remainders[i % remainders.size()].second];
  return share;
}

// Sums of the solver loads sampled during the timed run, and the per-enemy mean of them.
struct LoadSum {
  double pairs = 0, self_pairs = 0, contact_points = 0, self_contact_points = 0, rows = 0,
         row_solves = 0;
  int samples = 0;

  void add(const physics::SolverLoad& load) {
    pairs += load.broadphase_pairs;
    self_pairs += load.self_pairs;
    contact_points += load.contact_points;
    self_contact_points += load.self_contact_points;
    rows += load.constraint_rows;
    row_solves += load.constraint_row_iterations;
    ++samples;
  }
  // `bodies`: the full ragdolls the solver carried (every enemy, or the active ones on average).
  void per_enemy_into(PatrolBenchResult& r, double bodies) const {
    const double k = 1.0 / (std::max(1, samples) * std::max(1.0, bodies));
    r.pairs = pairs * k;
    r.self_pairs = self_pairs * k;
    r.contact_points = contact_points * k;
    r.self_contact_points = self_contact_points * k;
    r.constraint_rows = rows * k;
    r.row_solves = row_solves * k;
  }
};

constexpr std::uint64_t kLoadSampleSteps = 24;  // the solver load is read every 0.1 s
constexpr float kSpectatorEyeHeightM = 1.7f;    // [m] the crowd bench's spectator's head

// The indices of the `count` spawns nearest the player's start (all of them in spawn order when
// `count` covers them).
std::vector<std::size_t> nearest_spawns(const sim::SceneDescription& scene, std::size_t count) {
  std::vector<std::size_t> order(scene.enemies.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (count >= order.size()) return order;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return length(scene.enemies[a].position - scene.player_position) <
           length(scene.enemies[b].position - scene.player_position);
  });
  order.resize(count);
  return order;
}

}  // namespace

sim::SceneDescription with_patrollers(const sim::SceneDescription& scene, int count) {
  sim::SceneDescription out = scene;
  // One enemy per distinct route, as the level has them.
  std::vector<const levels::EnemySpawn*> walkers;
  std::vector<sim::SpawnRoute> routes;  // each walker's
  for (const levels::EnemySpawn& e : scene.enemies) {
    sim::SpawnRoute route = sim::route_of(scene, e);
    const bool known = std::any_of(routes.begin(), routes.end(), [&](const sim::SpawnRoute& w) {
      return w.points.size() == route.points.size() && !route.points.empty() &&
             w.points.front().position == route.points.front().position;
    });
    // A one-point route is a guard post, not a patrol: its enemies would all be spawned on
    // that one spot, inside each other.
    if (route.points.size() >= 2 && !known) {
      walkers.push_back(&e);
      routes.push_back(std::move(route));
    }
  }
  out.enemies.clear();
  if (walkers.empty()) return out;
  std::vector<std::vector<Vec3>> paths;
  std::vector<float> lengths;
  for (const sim::SpawnRoute& route : routes) {
    paths.push_back(walked_path(route.points, route.mode));
    lengths.push_back(path_length(paths.back()));
  }
  const std::vector<int> share = share_by_length(lengths, count);
  for (std::size_t r = 0; r < walkers.size(); ++r) {
    for (int k = 0; k < share[r]; ++k) {
      levels::EnemySpawn e = *walkers[r];
      e.name = "patroller-" + std::to_string(out.enemies.size() + 1);
      e.position = along(paths[r], (static_cast<float>(k) + 0.5f) / static_cast<float>(share[r]));
      out.enemies.push_back(e);
    }
  }
  return out;
}

namespace {

// The scene a patrol (or crowd) bench runs: the enemies spread along the routes, as the options
// say; with `keep_nearest` > 0 only that many of them, those nearest the player's start.
sim::SceneDescription bench_scene(const sim::SceneDescription& scene,
                                  const PatrolBenchOptions& options, int keep_nearest = 0) {
  sim::SceneDescription patrolled = with_patrollers(scene, options.enemies);
  if (keep_nearest > 0) {
    std::vector<levels::EnemySpawn> kept;
    for (const std::size_t k : nearest_spawns(patrolled, static_cast<std::size_t>(keep_nearest)))
      kept.push_back(patrolled.enemies[k]);
    patrolled.enemies = std::move(kept);
  }
  patrolled.activity.max_active = options.max_active;
  return patrolled;
}

// One timed simulation of a bench scene, run in chunks so that two can take turns (the machine's
// drift then falls on both alike). Timed in chunks, with the solver load read between them:
// reading it walks every pair and row, which is no part of a frame's cost.
class TimedPatrol {
 public:
  TimedPatrol(const sim::SceneDescription& scene, const PatrolBenchOptions& options)
      : options_(options), sim_(scene, {}) {
    result_.enemies = static_cast<int>(scene.enemies.size());
    const Vec3 head = scene.player_position + Vec3{0, kSpectatorEyeHeightM, 0};
    if (options.chased) {
      sim_.set_player(scene.player_position, head);
    } else if (options.max_active > 0) {
      // A spectator stands at the player's start, looking nowhere in particular: distance
      // alone picks the active enemies. Not the player: the enemies would see them and crowd
      // round them, and this bench, like the patrol bench, measures enemies on their routes.
      sim_.set_spectator(scene.player_position, head);
    }
  }

  bool warm_up(std::uint64_t steps) {
    while (sim_.scene().world().step_count() < steps) {
      if (stopped()) return false;
      sim_.step();
    }
    ticks_before_ = sim_.result().navigation_tick_ms.size();
    for (const auto& e : sim_.result().enemies) falls_before_ += e.falls;
    minds_before_ = sim_.ai_cpu_ms();
    activity_before_ = sim_.activity_cpu_ms();
    return true;
  }

  // Runs up to `steps` more timed steps; false when stopped.
  bool run_chunk(std::uint64_t steps) {
    const double start = thread_cpu_ms();
    std::uint64_t i = 0;
    for (; i < steps && !stopped(); ++i) sim_.step();
    cpu_ms_ += thread_cpu_ms() - start;
    if (options_.max_active > 0) {
      const int active = sim_.activity().active_count();
      active_sum_ += static_cast<double>(active) * static_cast<double>(i);
      result_.max_active_seen = std::max(result_.max_active_seen, active);
    }
    done_ += i;
    load_.add(sim_.scene().world().solver_load());
    return i == steps;
  }

  PatrolBenchResult finish(bool interrupted) {
    PatrolBenchResult& r = result_;
    r.interrupted = interrupted;
    const double per_frame = kFrameSteps / static_cast<double>(std::max<std::uint64_t>(1, done_));
    r.frame_ms = cpu_ms_ * per_frame;
    r.minds_frame_ms = (sim_.ai_cpu_ms() - minds_before_) * per_frame;
    r.activity_frame_ms = (sim_.activity_cpu_ms() - activity_before_) * per_frame;
    const sim::SimulationResult result = sim_.result();
    const std::vector<double> ticks(
        result.navigation_tick_ms.begin() + static_cast<std::ptrdiff_t>(ticks_before_),
        result.navigation_tick_ms.end());
    r.nav_tick_p50_ms = percentile(ticks, 0.5);
    r.nav_tick_p99_ms = percentile(ticks, 0.99);
    r.nav_tick_max_ms = ticks.empty() ? 0 : *std::max_element(ticks.begin(), ticks.end());
    for (const auto& e : result.enemies) {
      r.falls += e.falls;
      r.promotions += e.activity.promotions;
      r.demotions += e.activity.demotions;
      r.max_switch_jump_mps = std::max(r.max_switch_jump_mps, e.activity.max_switch_jump_mps);
    }
    r.falls -= falls_before_;
    r.mean_active = options_.max_active > 0
                        ? active_sum_ / static_cast<double>(std::max<std::uint64_t>(1, done_))
                        : r.enemies;
    load_.per_enemy_into(r, r.mean_active);
    return r;
  }

 private:
  bool stopped() const { return options_.stop && options_.stop(); }

  const PatrolBenchOptions& options_;
  sim::Simulation sim_;
  PatrolBenchResult result_;
  std::size_t ticks_before_ = 0;
  int falls_before_ = 0;
  double minds_before_ = 0, activity_before_ = 0;
  double cpu_ms_ = 0;
  double active_sum_ = 0;  // active count × steps, sampled at each chunk's end
  std::uint64_t done_ = 0;
  LoadSum load_;
};

// Stock Bullet (none of Stagger's replacements of its internals): as many stock ragdolls as there
// were full ragdolls (on average) in the run, at the spawns nearest the player (with activity
// levels, those that start active), timed over as many steps.
double stock_frame_ms(const sim::SceneDescription& patrolled, double full_ragdolls,
                      const PatrolBenchOptions& options, bool& interrupted) {
  physics::WorldSettings stock = patrolled.world;
  stock.bullet_extensions = false;
  physics::World world(stock);
  for (const auto& box : patrolled.boxes) world.add_static_box(box);
  for (const auto& mesh : patrolled.meshes) world.add_static_mesh(mesh);
  const auto count = static_cast<std::size_t>(std::lround(full_ragdolls));
  for (const std::size_t k : nearest_spawns(patrolled, count)) {
    const levels::EnemySpawn& e = patrolled.enemies[k];
    physics::add_baseline_ragdoll(world, sim::settings_of(patrolled, e).ragdoll,
                                  e.position + Vec3{0, patrolled.spawn_height_m, 0},
                                  deg_to_rad(e.yaw_deg));
  }
  const auto steps = static_cast<std::uint64_t>(options.seconds * 240.0);
  const auto warm_up = static_cast<std::uint64_t>(kWarmUpS * 240.0);
  for (std::uint64_t i = 0; i < warm_up && !interrupted; ++i) world.step();
  const double start = thread_cpu_ms();
  std::uint64_t done = 0;
  for (; done < steps && !interrupted; ++done) {
    interrupted = options.stop && options.stop();
    world.step();
  }
  return (thread_cpu_ms() - start) / static_cast<double>(std::max<std::uint64_t>(1, done)) *
         kFrameSteps;
}

}  // namespace

PatrolBenchResult run_patrol_benchmark(const sim::SceneDescription& scene,
                                       const PatrolBenchOptions& options) {
  std::vector<double> builds;
  for (int i = 0; i < options.navmesh_builds; ++i) {
    const auto start = std::chrono::steady_clock::now();
    (void)sim::build_navmesh(scene);
    builds.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  const sim::SceneDescription patrolled = bench_scene(scene, options);
  const auto steps = static_cast<std::uint64_t>(options.seconds * 240.0);
  PatrolBenchResult r;
  {
    TimedPatrol run(patrolled, options);
    bool going = run.warm_up(static_cast<std::uint64_t>(kWarmUpS * 240.0));
    for (std::uint64_t done = 0; going && done < steps; done += kLoadSampleSteps)
      going = run.run_chunk(std::min(kLoadSampleSteps, steps - done));
    r = run.finish(!going);
  }
  r.navmesh_build_ms = percentile(builds, 0.5);
  r.baseline_frame_ms = stock_frame_ms(patrolled, r.mean_active, options, r.interrupted);
  return r;
}

CrowdBenchResult run_crowd_benchmark(const sim::SceneDescription& scene,
                                     const PatrolBenchOptions& options) {
  // The crowd; the spawns nearest the player (those that start active) as plain full ragdolls;
  // and the patrol bench with as many enemies as the cap: stepped by turns.
  PatrolBenchOptions plain = options;
  plain.max_active = 0;
  PatrolBenchOptions patrol = plain;
  patrol.enemies = options.max_active;
  const sim::SceneDescription crowd_scene = bench_scene(scene, options);
  const sim::SceneDescription plain_scene = bench_scene(scene, plain, options.max_active);
  const sim::SceneDescription patrol_scene = bench_scene(scene, patrol);
  const auto steps = static_cast<std::uint64_t>(options.seconds * 240.0);
  const auto warm_up = static_cast<std::uint64_t>(kWarmUpS * 240.0);
  CrowdBenchResult r;
  {
    TimedPatrol crowd(crowd_scene, options);
    TimedPatrol alone(plain_scene, plain);
    TimedPatrol patrolled(patrol_scene, patrol);
    bool going = crowd.warm_up(warm_up) && alone.warm_up(warm_up) && patrolled.warm_up(warm_up);
    for (std::uint64_t done = 0; going && done < steps; done += kLoadSampleSteps) {
      const std::uint64_t chunk = std::min(kLoadSampleSteps, steps - done);
      going = crowd.run_chunk(chunk) && alone.run_chunk(chunk) && patrolled.run_chunk(chunk);
    }
    r.crowd = crowd.finish(!going);
    r.plain = alone.finish(!going);
    r.patrol = patrolled.finish(!going);
  }
  bool interrupted = r.crowd.interrupted;
  r.crowd.baseline_frame_ms =
      stock_frame_ms(crowd_scene, r.crowd.mean_active, options, interrupted);
  r.plain.baseline_frame_ms = stock_frame_ms(plain_scene, r.plain.mean_active, plain, interrupted);
  r.patrol.baseline_frame_ms =
      stock_frame_ms(patrol_scene, r.patrol.mean_active, patrol, interrupted);
  r.crowd.interrupted = r.plain.interrupted = r.patrol.interrupted = interrupted;
  return r;
}

namespace {

// [ms] what a frame costs per enemy beyond the minds: its ragdoll's share (every enemy a full one).
double rest_per_enemy_ms(const PatrolBenchResult& r) {
  return (r.frame_ms - r.minds_frame_ms) / std::max(1, r.enemies);
}

}  // namespace

std::string patrol_bench_text(const PatrolBenchResult& r) {
  char text[1024];
  std::snprintf(
      text, sizeof(text),
      "navmesh build (median of runs)            %8.2f ms   (target <= 250 ms)\n"
      "navigation tick, %2d enemies: p50 %.3f ms, p99 %.3f ms, max %.3f ms   (target p99 <= 0.5 "
      "ms)\n"
      "CPU per 90 Hz frame, %2d patrolling enemies %8.2f ms   (target <= 4 ms)\n"
      "  of which the minds %.2f ms; the rest per enemy %.3f ms\n"
      "  stock Bullet, the same ragdolls posed   %8.2f ms\n"
      "falls during the timed run: %d\n"
      "per enemy: %.1f broadphase pairs (%.1f within itself), %.1f contact points (%.1f within "
      "itself), %.1f constraint rows (%.0f row solves a step)\n",
      r.navmesh_build_ms, r.enemies, r.nav_tick_p50_ms, r.nav_tick_p99_ms, r.nav_tick_max_ms,
      r.enemies, r.frame_ms, r.minds_frame_ms, rest_per_enemy_ms(r), r.baseline_frame_ms, r.falls,
      r.pairs, r.self_pairs, r.contact_points, r.self_contact_points, r.constraint_rows,
      r.row_solves);
  return std::string(text) +
         (r.interrupted ? "interrupted: the figures are of the steps that ran\n" : "");
}

}  // namespace stagger::bench

namespace stagger::bench {

std::string crowd_bench_text(const CrowdBenchResult& both) {
  const PatrolBenchResult& r = both.crowd;
  const PatrolBenchResult& alone = both.plain;
  char text[2048];
  // What is left of the frame without the minds and the activity levels is the full ragdolls'.
  const double per_active =
      r.mean_active > 0 ? (r.frame_ms - r.minds_frame_ms - r.activity_frame_ms) / r.mean_active
                        : 0.0;
  const double stock_each = r.mean_active > 0 ? r.baseline_frame_ms / std::round(r.mean_active) : 0;
  std::snprintf(
      text, sizeof(text),
      "CPU per 90 Hz frame, %d enemies with activity levels   %8.2f ms   (target <= 5.5 ms)\n"
      "  full ragdolls: %.1f on average, %d at most; %d promotions, %d demotions, largest body "
      "speed jump at a switch %.3f m/s\n"
      "  of which the minds (all enemies) %.2f ms, the activity levels %.2f ms\n"
      "  the rest per full ragdoll                            %8.3f ms   (%.2f of a stock one)\n"
      "  stock Bullet, %.0f ragdolls posed at the spawns nearest the player %8.2f ms\n"
      "per full ragdoll: %.1f broadphase pairs (%.1f within itself), %.1f contact points (%.1f "
      "within itself), %.1f constraint rows (%.0f row solves a step)\n"
      "navigation tick: p50 %.3f ms, p99 %.3f ms, max %.3f ms\n"
      "falls during the timed run: %d\n",
      r.enemies, r.frame_ms, r.mean_active, r.max_active_seen, r.promotions, r.demotions,
      static_cast<double>(r.max_switch_jump_mps), r.minds_frame_ms, r.activity_frame_ms, per_active,
      stock_each > 0 ? per_active / stock_each : 0.0, std::round(r.mean_active),
      r.baseline_frame_ms, r.pairs, r.self_pairs, r.contact_points, r.self_contact_points,
      r.constraint_rows, r.row_solves, r.nav_tick_p50_ms, r.nav_tick_p99_ms, r.nav_tick_max_ms,
      r.falls);
  std::string out = text;
  // The same measures without activity levels, by turns in the same run: the drift cancels.
  // The patrol bench is the target; the spawns alone show what the crowd itself adds.
  const auto beside = [&](const std::string& title, const PatrolBenchResult& run,
                          const char* target) {
    const double each = rest_per_enemy_ms(run);
    const double stock = run.baseline_frame_ms / std::max(1, run.enemies);
    std::snprintf(text, sizeof(text),
                  "%s, by turns with the crowd: the rest per enemy %.3f ms (%.2f of a stock one), "
                  "stock Bullet %.2f ms\n"
                  "  per enemy: %.1f broadphase pairs, %.1f contact points, %.1f constraint rows "
                  "(%.0f row solves a step); %d falls\n"
                  "  a full ragdoll in the crowd costs %.2f of one of these%s\n",
                  title.c_str(), each, stock > 0 ? each / stock : 0.0, run.baseline_frame_ms,
                  run.pairs, run.contact_points, run.constraint_rows, run.row_solves, run.falls,
                  each > 0 ? per_active / each : 0.0, target);
    out += text;
  };
  beside("the patrol bench (" + std::to_string(both.patrol.enemies) + " enemies along the routes)",
         both.patrol, "   (target <= 1)");
  beside(
      "the " + std::to_string(alone.enemies) + " spawns nearest the start as full ragdolls alone",
      alone, "");
  return out + (r.interrupted ? "interrupted: the figures are of the steps that ran\n" : "");
}

}  // namespace stagger::bench
