#include "stagger/bench/walks_bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "stagger/bench/knock_down_course.h"
#include "stagger/core/random.h"
#include "stagger/physics/ragdoll.h"
#include "stagger/sim/report.h"
#include "stagger/sim/scene.h"
#include "stagger/sim/simulation.h"

namespace stagger::bench {
namespace {

constexpr float kSpeed = 1.2f;            // [m/s]
constexpr double kStartS = 0.5;           // [s] the walk begins
constexpr double kTurnS = 5.0;            // [s] the turning walks turn ...
constexpr double kStopS = 9.0;            // [s] ... and stop
constexpr double kWalkS = 12.0;           // [s] each walk's length
constexpr const char* kWalker = "dummy";  // the built-in scene's enemy

// [m/s] walking at kSpeed toward `yaw_deg` (0: +Z, 90: +X); along an axis exactly along it (the
// gait is chaotic: see the header).
Vec3 heading_velocity(float yaw_deg) {
  const float yaw = deg_to_rad(yaw_deg);
  const auto snapped = [](float v) { return std::fabs(v) < 1e-6f ? 0.0f : v; };
  return Vec3{snapped(std::sin(yaw)), 0, snapped(std::cos(yaw))} * kSpeed;
}

sim::WalkEvent walk_event(double t, Vec3 velocity, physics::Gait gait) {
  sim::WalkEvent walk;
  walk.t = t;
  walk.enemy = kWalker;
  walk.intent.gait = gait;
  walk.intent.velocity = velocity;
  return walk;
}

sim::InputScript script_of(const WalkDefinition& walk) {
  sim::InputScript script;
  script.walks.push_back(walk_event(kStartS, walk.velocity, physics::Gait::walk));
  if (walk.turns) {
    script.walks.push_back(walk_event(kTurnS, walk.turned_velocity, physics::Gait::walk));
    script.walks.push_back(walk_event(kStopS, {}, physics::Gait::idle));
  }
  return script;
}

// Follows the walker's feet through one step: a stance that has ended adds its slide.
struct StanceWatch {
  bool planted[2] = {false, false};
  float slip_m[2] = {0, 0};

  void observe(const physics::Ragdoll& body, float bar_m, WalkRun& run, std::vector<float>& slips) {
    for (int leg = 0; leg < 2; ++leg) {
      const physics::FootStance stance = body.foot_stance(leg);
      if (planted[leg] && !stance.planted) end(leg, bar_m, run, slips);
      planted[leg] = stance.planted;
      slip_m[leg] = stance.slip_m;
    }
  }
  void end(int leg, float bar_m, WalkRun& run, std::vector<float>& slips) {
    ++run.stances;
    run.stances_over += slip_m[leg] > bar_m;
    slips.push_back(slip_m[leg]);
    planted[leg] = false;
  }
};

// One walk; false when `stop` ended it.
bool run_walk(const WalksOptions& options, const WalkDefinition& walk, WalkRun& run,
              std::vector<float>& slips, std::uint64_t& hash) {
  sim::SceneDescription scene = sim::builtin_scene(1);
  if (options.vary_seed) scene = sim::vary_spawns(std::move(scene), *options.vary_seed);
  scene.enemy_settings.ragdoll = options.ragdoll;
  sim::Simulation s(scene, script_of(walk));
  const physics::Ragdoll* body = s.enemy_body(sim::EnemyId{0});
  const auto steps =
      static_cast<std::int64_t>(std::llround(kWalkS * static_cast<double>(scene.world.physics_hz)));
  StanceWatch watch;
  run.name = walk.name;
  for (std::int64_t i = 0; i < steps; ++i) {
    if (options.stop && options.stop()) return false;
    s.step();
    watch.observe(*body, options.bar_m, run, slips);
  }
  for (int leg = 0; leg < 2; ++leg) {
    if (watch.planted[leg]) watch.end(leg, options.bar_m, run, slips);
  }
  const sim::SimulationResult r = s.result();
  run.max_foot_slip_m = r.enemies[0].max_foot_slip_m;
  run.falls = r.enemies[0].falls;
  run.steps_taken = r.enemies[0].steps;
  hash = splitmix64(hash ^ r.state_hash);
  return true;
}

std::vector<double> as_doubles(const std::vector<float>& values) {
  return {values.begin(), values.end()};
}

}  // namespace

std::vector<WalkDefinition> walk_definitions() {
  std::vector<WalkDefinition> walks = {
      {"straight +X", heading_velocity(90), false, {}},
      {"straight -X", heading_velocity(-90), false, {}},
      {"straight +Z", heading_velocity(0), false, {}},
      {"straight -Z", heading_velocity(180), false, {}},
      {"straight diagonal", heading_velocity(45), false, {}},
  };
  for (const int turn : {0, 45, 90, 135, 180}) {
    walks.push_back({"+Z, turn " + std::to_string(turn) + "deg, stop", heading_velocity(0), true,
                     heading_velocity(static_cast<float>(turn))});
  }
  return walks;
}

WalksResult run_walks(const WalksOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  WalksResult result;
  result.options = options;
  result.options.stop = nullptr;
  for (const WalkDefinition& walk : walk_definitions()) {
    WalkRun run;
    std::vector<float> slips;
    if (!run_walk(options, walk, run, slips, result.state_hash)) {
      result.interrupted = true;
      break;
    }
    result.walks.push_back(run);
    result.stance_slips_m.insert(result.stance_slips_m.end(), slips.begin(), slips.end());
  }
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::string walks_table(const WalksResult& r) {
  std::string out;
  char line[200];
  std::snprintf(line, sizeof(line),
                "walks: one enemy on the built-in scene, 1.2 m/s from 0.5 s, 12 s at 240 Hz; the "
                "aim: no stance sliding more than %.3f m\n",
                static_cast<double>(r.options.bar_m));
  out += line;
  if (r.options.vary_seed) {
    out += "spawn nudged from seed " + std::to_string(*r.options.vary_seed) + "\n";
  }
  std::snprintf(line, sizeof(line), "%-26s %16s %9s %11s %6s\n", "walk", "max slip [m]", "stances",
                "over aim", "falls");
  out += line;
  float worst = 0;
  int falls = 0;
  int over = 0;
  for (const WalkRun& w : r.walks) {
    std::snprintf(line, sizeof(line), "%-26s %16.4f %9d %11d %6d\n", w.name.c_str(),
                  static_cast<double>(w.max_foot_slip_m), w.stances, w.stances_over, w.falls);
    out += line;
    worst = std::max(worst, w.max_foot_slip_m);
    falls += w.falls;
    over += w.stances_over;
  }
  const std::vector<double> slips = as_doubles(r.stance_slips_m);
  std::snprintf(line, sizeof(line),
                "per stance (%zu): median %.4f m, p90 %.4f m, p99 %.4f m; %d over the aim\n",
                slips.size(), percentile(slips, 50), percentile(slips, 90), percentile(slips, 99),
                over);
  out += line;
  std::snprintf(line, sizeof(line), "largest per walk %.4f m, falls %d%s\n",
                static_cast<double>(worst), falls, r.interrupted ? " (interrupted)" : "");
  out += line;
  std::snprintf(line, sizeof(line), "%.1f s wall\n", r.wall_s);
  out += line;
  return out;
}

std::string walks_report_json(const WalksResult& r) {
  nlohmann::ordered_json j;
  j["bar_m"] = r.options.bar_m;
  if (r.options.vary_seed) j["vary_seed"] = *r.options.vary_seed;
  j["wall_s"] = r.wall_s;
  j["state_hash"] = sim::state_hash_hex(r.state_hash);
  j["interrupted"] = r.interrupted;
  const std::vector<double> slips = as_doubles(r.stance_slips_m);
  j["stance_slip_m"] = {{"stances", slips.size()},
                        {"median", percentile(slips, 50)},
                        {"p90", percentile(slips, 90)},
                        {"p99", percentile(slips, 99)},
                        {"max", percentile(slips, 100)}};
  auto& walks = j["walks"] = nlohmann::ordered_json::array();
  for (const WalkRun& w : r.walks) {
    walks.push_back({{"name", w.name},
                     {"max_foot_slip_m", w.max_foot_slip_m},
                     {"stances", w.stances},
                     {"stances_over_bar", w.stances_over},
                     {"falls", w.falls},
                     {"steps", w.steps_taken}});
  }
  j["stance_slips_m"] = r.stance_slips_m;
  return j.dump(2) + "\n";
}

}  // namespace stagger::bench
