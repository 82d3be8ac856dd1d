#include "stagger/bench/push_thresholds.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "stagger/core/enum_table.h"
#include "stagger/core/random.h"
#include "stagger/physics/locomotion.h"
#include "stagger/physics/ragdoll.h"
#include "stagger/physics/world.h"
#include "stagger/sim/report.h"

namespace stagger::bench {
namespace {

constexpr float kLanePitchM = 6.0f;         // [m] between neighbouring enemies, across (x)
constexpr float kGroundHalfThickM = 0.5f;   // [m]
constexpr float kGroundHalfDepthM = 10.0f;  // [m] along z, each side: a push never carries so far
constexpr float kMarginM = 10.0f;           // [m] ground beyond the lanes
constexpr float kSurfaceFriction = 0.9f;
constexpr float kSpawnDropM = 0.01f;  // [m] soles above the ground at spawn
constexpr double kFirstPushS = 1.0;   // [s] after the spawn: the body stands settled
constexpr double kPushGapS = 0.1;     // [s] between the push times
constexpr double kWatchS = 4.0;       // [s] after the push: a fall later than this is not its
constexpr int kMostFallsMissed = 1;   // above T, an impulse may survive at most this many times

// [rad] the direction's yaw from the body's forward, toward its left first (+X for a body facing
// +Z, whose left is +X).
float direction_yaw(int direction) {
  return deg_to_rad(45.0f * static_cast<float>(direction));
}

struct Lane {
  PushRun run;
  double push_s = 0;
  Vec3 impulse;
  int steps_before = 0;
  bool pushed = false;
  bool done = false;
};

// One world of lanes first..first+count-1 of `all`; false when `stop` ended it.
bool run_world(const PushThresholdOptions& options, const std::vector<PushRun>& all, int first,
               int count, std::vector<PushRun>& out, std::uint64_t& hash) {
  physics::World world;
  const float x_max = static_cast<float>(count - 1) * kLanePitchM;
  world.add_static_box({{0.5f * x_max, -kGroundHalfThickM, 0},
                        {0.5f * x_max + kMarginM, kGroundHalfThickM, kGroundHalfDepthM},
                        {},
                        kSurfaceFriction});
  std::vector<Lane> lanes(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    Lane& lane = lanes[static_cast<std::size_t>(i)];
    lane.run = all[static_cast<std::size_t>(first + i)];
    lane.push_s = kFirstPushS + kPushGapS * lane.run.time_index;
    const float yaw = direction_yaw(lane.run.direction);
    lane.impulse = Vec3{std::sin(yaw), 0, std::cos(yaw)} * lane.run.impulse_ns;
    world.add_ragdoll(options.ragdoll, {static_cast<float>(i) * kLanePitchM, kSpawnDropM, 0}, 0.0f);
  }
  const double dt = static_cast<double>(world.dt());
  int watching = count;
  for (std::int64_t s = 0; watching > 0; ++s) {
    if (options.stop && options.stop()) return false;
    const double t = static_cast<double>(s) * dt;  // before this step
    for (int i = 0; i < count; ++i) {
      Lane& lane = lanes[static_cast<std::size_t>(i)];
      if (lane.pushed || t + 0.5 * dt < lane.push_s) continue;
      physics::Ragdoll& r = world.ragdoll(static_cast<std::size_t>(i));
      lane.steps_before = r.steps_taken();
      r.apply_impulse(options.part, lane.impulse);
      lane.pushed = true;
    }
    world.step();
    for (int i = 0; i < count; ++i) {
      Lane& lane = lanes[static_cast<std::size_t>(i)];
      if (!lane.pushed || lane.done) continue;
      physics::Ragdoll& r = world.ragdoll(static_cast<std::size_t>(i));
      const double since = t + dt - lane.push_s;
      if (!physics::is_upright(r.state())) {
        lane.run.fell = true;
        lane.run.fell_after_s = since;
      }
      if (!lane.run.fell && since < kWatchS) continue;
      lane.run.steps = r.steps_taken() - lane.steps_before;
      lane.done = true;
      --watching;
      r.kill();  // limp, it comes to rest and sleeps: a finished lane costs next to nothing
    }
  }
  for (const Lane& lane : lanes) out.push_back(lane.run);
  hash = splitmix64(hash ^ world.state_hash());
  return true;
}

std::string impulse_text(const std::optional<float>& impulse) {
  if (!impulse) return "-";
  char text[16];
  std::snprintf(text, sizeof(text), "%.0f", static_cast<double>(*impulse));
  return text;
}

}  // namespace

std::string_view push_direction_name(int direction) {
  static constexpr std::string_view kNames[kPushDirections] = {
      "forward", "front-left", "left", "back-left", "back", "back-right", "right", "front-right"};
  return kNames[static_cast<std::size_t>(std::clamp(direction, 0, kPushDirections - 1))];
}

std::vector<float> PushThresholdResult::impulses() const {
  std::vector<float> out;
  const int n =
      static_cast<int>(std::floor((options.to_ns - options.from_ns) / options.step_ns + 1e-3f)) + 1;
  for (int i = 0; i < n; ++i)
    out.push_back(options.from_ns + options.step_ns * static_cast<float>(i));
  return out;
}

DirectionThresholds thresholds_of(const std::vector<float>& impulses, const std::vector<int>& falls,
                                  int push_times) {
  DirectionThresholds d;
  d.falls = falls;
  for (std::size_t i = 0; i < impulses.size() && falls[i] == 0; ++i) d.survives_ns = impulses[i];
  // T: the smallest impulse falling every time with every larger one falling at least
  // push_times - kMostFallsMissed times.
  for (std::size_t i = impulses.size(); i-- > 0;) {
    if (falls[i] < push_times - kMostFallsMissed) break;
    if (falls[i] == push_times) d.falls_ns = impulses[i];
  }
  return d;
}

PushThresholdResult run_push_thresholds(const PushThresholdOptions& options) {
  PushThresholdResult result;
  result.options = options;
  const std::vector<float> impulses = result.impulses();
  std::vector<PushRun> all;
  for (int direction = 0; direction < kPushDirections; ++direction) {
    for (std::size_t i = 0; i < impulses.size(); ++i) {
      for (int time = 0; time < options.push_times; ++time) {
        PushRun run;
        run.direction = direction;
        run.time_index = time;
        run.impulse_index = static_cast<int>(i);
        run.impulse_ns = impulses[i];
        all.push_back(run);
      }
    }
  }
  const auto start = std::chrono::steady_clock::now();
  const int total = static_cast<int>(all.size());
  const int per_world = std::max(1, options.lanes_per_world);
  for (int first = 0; first < total; first += per_world) {
    const int count = std::min(per_world, total - first);
    std::vector<PushRun> runs;
    if (!run_world(options, all, first, count, runs, result.state_hash)) {
      result.interrupted = true;  // a world cut short is left out whole
      break;
    }
    result.runs.insert(result.runs.end(), runs.begin(), runs.end());
    if (options.progress) options.progress(first + count, total);
  }
  for (int direction = 0; direction < kPushDirections; ++direction) {
    std::vector<int> falls(impulses.size(), 0);
    for (const PushRun& run : result.runs) {
      if (run.direction == direction && run.fell)
        ++falls[static_cast<std::size_t>(run.impulse_index)];
    }
    result.directions[static_cast<std::size_t>(direction)] =
        thresholds_of(impulses, falls, options.push_times);
  }
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::string push_threshold_table(const PushThresholdResult& r) {
  const PushThresholdOptions& o = r.options;
  std::string out;
  char line[400];
  std::snprintf(line, sizeof(line),
                "push thresholds: pushes at the %s of standing enemies, %d directions x %d push "
                "times, %.0f-%.0f N*s in %.0f N*s steps; a fall within %.0f s of the push counts\n",
                std::string(physics::name_of(o.part)).c_str(), kPushDirections, o.push_times,
                static_cast<double>(o.from_ns), static_cast<double>(o.to_ns),
                static_cast<double>(o.step_ns), kWatchS);
  out += line;
  std::snprintf(line, sizeof(line), "%-12s %5s %5s %5s   falls of %d per impulse, from %.0f N*s\n",
                "direction", "S", "T", "T-S", o.push_times, static_cast<double>(o.from_ns));
  out += line;
  for (int d = 0; d < kPushDirections; ++d) {
    const DirectionThresholds& t = r.directions[static_cast<std::size_t>(d)];
    const std::string gap =
        t.survives_ns && t.falls_ns ? impulse_text(*t.falls_ns - *t.survives_ns) : std::string("-");
    std::string falls;
    for (int f : t.falls) falls += std::to_string(f);
    std::snprintf(line, sizeof(line), "%-12s %5s %5s %5s   %s\n",
                  std::string(push_direction_name(d)).c_str(), impulse_text(t.survives_ns).c_str(),
                  impulse_text(t.falls_ns).c_str(), gap.c_str(), falls.c_str());
    out += line;
  }
  out += "mirrored S:";
  for (int d = 1; d < kPushDirections / 2; ++d) {
    const int mirror = kPushDirections - d;
    std::snprintf(line, sizeof(line), "  %s / %s %s / %s",
                  std::string(push_direction_name(d)).c_str(),
                  std::string(push_direction_name(mirror)).c_str(),
                  impulse_text(r.directions[static_cast<std::size_t>(d)].survives_ns).c_str(),
                  impulse_text(r.directions[static_cast<std::size_t>(mirror)].survives_ns).c_str());
    out += line;
  }
  std::snprintf(line, sizeof(line), "\n%.1f s wall\n", r.wall_s);
  out += line;
  return out;
}

std::string push_threshold_report_json(const PushThresholdResult& r) {
  nlohmann::ordered_json j;
  j["part"] = physics::name_of(r.options.part);
  j["from_ns"] = r.options.from_ns;
  j["to_ns"] = r.options.to_ns;
  j["step_ns"] = r.options.step_ns;
  j["push_times"] = r.options.push_times;
  j["watch_s"] = kWatchS;
  j["wall_s"] = r.wall_s;
  j["state_hash"] = sim::state_hash_hex(r.state_hash);
  j["interrupted"] = r.interrupted;
  auto& directions = j["directions"] = nlohmann::ordered_json::array();
  for (int d = 0; d < kPushDirections; ++d) {
    const DirectionThresholds& t = r.directions[static_cast<std::size_t>(d)];
    nlohmann::ordered_json row;
    row["direction"] = push_direction_name(d);
    row["survives_ns"] = t.survives_ns ? nlohmann::ordered_json(*t.survives_ns) : nullptr;
    row["falls_ns"] = t.falls_ns ? nlohmann::ordered_json(*t.falls_ns) : nullptr;
    row["falls"] = t.falls;
    directions.push_back(row);
  }
  auto& runs = j["runs"] = nlohmann::ordered_json::array();
  for (const PushRun& run : r.runs) {
    runs.push_back({{"direction", push_direction_name(run.direction)},
                    {"push_time_s", kFirstPushS + kPushGapS * run.time_index},
                    {"impulse_ns", run.impulse_ns},
                    {"fell", run.fell},
                    {"fell_after_s", run.fell_after_s},
                    {"steps", run.steps}});
  }
  return j.dump(2) + "\n";
}

}  // namespace stagger::bench
