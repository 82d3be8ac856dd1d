#include "stagger/bench/terrain_course.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string_view>

#include "stagger/core/enum_table.h"
#include "stagger/core/random.h"
#include "stagger/physics/locomotion.h"
#include "stagger/physics/ragdoll.h"
#include "stagger/physics/ragdoll_settings.h"
#include "stagger/sim/recording.h"
#include "stagger/sim/report.h"

namespace stagger::bench {
namespace {

// The course's shape. Lengths along a walk are horizontal.
constexpr int kRisers = 7;  // a flight of seven risers: six treads, then the landing
// [m] the landing, ramp top and kerb platform reach this far beyond where a down walk starts
constexpr float kTopSpareM = 1.5f;
constexpr float kRampRunM = 4.0f;       // [m] a ramp's horizontal run, foot to top
constexpr float kRampSlabHalfM = 0.1f;  // [m] half the thickness of a ramp's rotated slab
constexpr float kFootingM = 0.1f;       // [m] raised boxes reach this far into the ground, so
                                        // that none is flat (a 0° ramp's platform has top 0)
constexpr float kRunOutM = 1.5f;        // [m] past the far edge to the finish, along the walk
// [m] a lane's geometry beyond the walked line, each side. The walk follows a velocity, not the
// line: ±3° of yaw drifts 0.4 m over 8 m, and going up stairs bodies veer by up to 2.8 m.
constexpr float kSideMarginM = 4.0f;
// [m] a body this far from its line has given up on the crossing and is heading for its lane's
// side (up the 16° ramp many turn across the slope and wander): it counts as stuck, not as a fall
// off the edge, which the course does not measure. Less than the margin at 30° (4 m · cos 30°).
constexpr float kStrayM = 3.0f;
constexpr float kLaneGapM = 3.0f;          // [m] free ground between neighbouring lanes
constexpr float kAcrossWalkM = 4.0f;       // [m] along a ramp's contour, start to finish
constexpr float kAcrossEndM = 2.0f;        // [m] ramp beyond the start and the finish of that walk
constexpr float kGroundMarginM = 10.0f;    // [m] ground beyond every lane
constexpr float kGroundHalfThickM = 0.5f;  // [m]
constexpr float kObliqueDeg = 30.0f;       // [deg] the oblique stair walks
constexpr float kHalfStanceM = 0.1f;       // [m] half the default body's 0.2 m stance width
constexpr float kSpawnDropM = 0.01f;       // [m] soles above the surface at spawn

// The crossing.
constexpr double kSettleS = 1.0;          // [s] standing before the walking intent
constexpr float kWalkSpeed = 1.2f;        // [m/s]
constexpr double kTimeLimitFactor = 2.0;  // [-] a crossing may take this many times its
constexpr double kTimeLimitSlackS = 4.0;  // [s] ... nominal time, plus this, to arrive
constexpr float kLateralNudgeM = 0.05f;   // [m] spawn nudges: across the walk, ±
constexpr float kAlongNudgeM = 0.02f;     // [m] ... along it, ±
constexpr float kYawNudgeDeg = 3.0f;      // [deg] ... and the walk's direction, ±

std::uint64_t fnv1a(std::string_view text) {
  return sim::fnv1a_64(text.data(), text.size());
}

// A value in [-1, 1) from the stream `key`, draw `draw`.
float symmetric_unit(std::uint64_t key, std::uint64_t draw) {
  const std::uint64_t bits = splitmix64(key + draw * kSplitMixStep);
  return static_cast<float>(bits >> 40) / static_cast<float>(1ull << 23) - 1.0f;
}

// `value` with `decimals` digits after the point, for the features' names.
std::string fixed(float value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.*f", decimals, static_cast<double>(value));
  return text;
}

// A box standing on the ground from z0 to z1 with its top at `top`, across the lane.
physics::StaticBoxSettings raised_box(float center_x, float width, float z0, float z1, float top) {
  return {{center_x, 0.5f * (top - kFootingM), 0.5f * (z0 + z1)},
          {0.5f * width, 0.5f * (top + kFootingM), 0.5f * (z1 - z0)},
          {},
          0.9f};
}

// The walk up or down a feature that rises along +Z from z = 0 to z = span, to `top`, at
// `oblique` off +Z; the line crosses the lane's centre at the feature's middle.
void set_rising_walk(TerrainLane& lane, TerrainWay way, float center_x, float span, float top,
                     float oblique, float approach_m) {
  const float c = std::cos(oblique);
  const float s = std::sin(oblique);
  const float t = std::tan(oblique);
  const float approach_z = approach_m * c;
  const float drift = t * (0.5f * span + approach_z);  // start's offset from the centre line
  if (way == TerrainWay::up) {
    lane.start = {center_x - drift, 0.0f, -approach_z};
    lane.direction = {s, 0.0f, c};
  } else {
    lane.start = {center_x + drift, top, span + approach_z};
    lane.direction = {-s, 0.0f, -c};
  }
  lane.approach_m = approach_m;
  lane.distance_m = approach_m + span / c + kRunOutM;
  lane.width_m = 2.0f * (kSideMarginM + drift);
}

}  // namespace

std::vector<TerrainFeature> terrain_features() {
  std::vector<TerrainFeature> features;
  struct Stair {
    float riser, tread;
  };
  for (const Stair& st : {Stair{0.17f, 0.28f}, Stair{0.15f, 0.30f}, Stair{0.15f, 0.45f},
                          Stair{0.12f, 0.40f}, Stair{0.10f, 0.25f}, Stair{0.20f, 0.40f}}) {
    for (float oblique : {0.0f, kObliqueDeg}) {
      for (TerrainWay way : {TerrainWay::up, TerrainWay::down}) {
        TerrainFeature f;
        f.kind = TerrainKind::stairs;
        f.way = way;
        f.riser_m = st.riser;
        f.tread_m = st.tread;
        f.oblique_deg = oblique;
        // Appended piece by piece: GCC 12 misreads `"literal" + std::string` (-Wrestrict).
        f.name = "stairs ";
        f.name += fixed(st.riser, 2);
        f.name += "/";
        f.name += fixed(st.tread, 2);
        f.name += way == TerrainWay::up ? " up" : " down";
        if (oblique > 0) {
          f.name += " ";
          f.name += fixed(oblique, 0);
          f.name += "deg";
        }
        features.push_back(f);
      }
    }
  }
  for (float slope : {0.0f, 8.0f, 12.0f, 16.0f}) {
    for (TerrainWay way : {TerrainWay::up, TerrainWay::down, TerrainWay::across}) {
      TerrainFeature f;
      f.kind = TerrainKind::ramp;
      f.way = way;
      f.slope_deg = slope;
      f.name = "ramp ";
      f.name += fixed(slope, 0);
      f.name += way == TerrainWay::up     ? "deg up"
                : way == TerrainWay::down ? "deg down"
                                          : "deg across";
      features.push_back(f);
    }
  }
  for (float height : {0.05f, 0.10f, 0.15f}) {
    for (TerrainWay way : {TerrainWay::up, TerrainWay::down}) {
      TerrainFeature f;
      f.kind = TerrainKind::kerb;
      f.way = way;
      f.riser_m = height;
      f.name = "kerb ";
      f.name += fixed(height, 2);
      f.name += way == TerrainWay::up ? " up" : " down";
      features.push_back(f);
    }
  }
  return features;
}

bool is_terrain_feature(const std::string& name) {
  const std::vector<TerrainFeature> features = terrain_features();
  return std::any_of(features.begin(), features.end(),
                     [&](const TerrainFeature& f) { return f.name == name; });
}

TerrainLane terrain_lane(const TerrainFeature& f, float center_x, float approach_m) {
  TerrainLane lane;
  const float top_depth = approach_m + kTopSpareM;
  lane.landing_depth_m = top_depth;
  switch (f.kind) {
    case TerrainKind::stairs: {
      lane.risers = kRisers;
      const float span = static_cast<float>(kRisers - 1) * f.tread_m;
      const float top = static_cast<float>(kRisers) * f.riser_m;
      set_rising_walk(lane, f.way, center_x, span, top, deg_to_rad(f.oblique_deg), approach_m);
      for (int k = 1; k < kRisers; ++k) {
        lane.boxes.push_back(
            raised_box(center_x, lane.width_m, static_cast<float>(k - 1) * f.tread_m,
                       static_cast<float>(k) * f.tread_m, static_cast<float>(k) * f.riser_m));
      }
      lane.boxes.push_back(raised_box(center_x, lane.width_m, span, span + top_depth, top));
      break;
    }
    case TerrainKind::ramp: {
      const float a = deg_to_rad(f.slope_deg);
      const float top = kRampRunM * std::tan(a);
      if (f.way == TerrainWay::across) {
        lane.width_m = kAcrossWalkM + 2.0f * kAcrossEndM;
        const float z = 0.5f * kRampRunM;
        lane.start = {center_x - 0.5f * kAcrossWalkM, z * std::tan(a), z};
        lane.direction = {1, 0, 0};
        lane.distance_m = kAcrossWalkM;
        lane.approach_m = 0;  // it starts on the slope: a contour has no flat approach
      } else {
        set_rising_walk(lane, f.way, center_x, kRampRunM, top, 0.0f, approach_m);
      }
      // A slab whose top face runs from (z 0, y 0) to (z run, y top); it rises along +Z.
      lane.boxes.push_back({{center_x, 0.5f * top - kRampSlabHalfM * std::cos(a),
                             0.5f * kRampRunM + kRampSlabHalfM * std::sin(a)},
                            {0.5f * lane.width_m, kRampSlabHalfM, 0.5f * kRampRunM / std::cos(a)},
                            Quat::from_axis_angle({1, 0, 0}, -a),
                            0.9f});
      lane.boxes.push_back(
          raised_box(center_x, lane.width_m, kRampRunM, kRampRunM + top_depth, top));
      break;
    }
    case TerrainKind::kerb:
      set_rising_walk(lane, f.way, center_x, 0.0f, f.riser_m, 0.0f, approach_m);
      lane.boxes.push_back(raised_box(center_x, lane.width_m, 0.0f, top_depth, f.riser_m));
      break;
  }
  return lane;
}

namespace {

struct Crossing {
  Vec3 nominal_start;
  Vec3 direction;
  bool decided = false;
};

// [-] the rise of the surface around a lane's start per metre along +Z: 0 but on a ramp walked
// across.
float surface_grade(const TerrainFeature& f) {
  return f.kind == TerrainKind::ramp && f.way == TerrainWay::across
             ? std::tan(deg_to_rad(f.slope_deg))
             : 0.0f;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// One world: `count` lanes of `feature`, crossings first..first+count-1. Adds the crossings to
// `out` and their arrival times to `times`, and the world's final state to `hash`; returns false
// when `stop` ended it (what it added is then a part: the crossings decided so far).
bool run_world(const TerrainFeature& feature, const TerrainOptions& options, int first, int count,
               TerrainFeatureResult& out, std::vector<double>& times, std::uint64_t& hash) {
  const std::uint64_t seed = options.seed;
  const std::function<bool()>& stop = options.stop;
  physics::World world;
  const TerrainLane probe = terrain_lane(feature, 0.0f, options.approach_m);
  const float pitch = probe.width_m + kLaneGapM;
  // The ground under every lane, its top at y = 0.
  float z_min = 0, z_max = 0;
  for (const auto& b : probe.boxes) z_max = std::max(z_max, b.center.z + b.half_extents.z);
  z_min = std::min(z_min, probe.start.z);
  const float x_min = -0.5f * pitch - kGroundMarginM;
  const float x_max = static_cast<float>(count - 1) * pitch + 0.5f * pitch + kGroundMarginM;
  world.add_static_box(
      {{0.5f * (x_min + x_max), -kGroundHalfThickM, 0.5f * (z_min + z_max)},
       {0.5f * (x_max - x_min), kGroundHalfThickM, 0.5f * (z_max - z_min) + kGroundMarginM},
       {},
       0.9f});
  const std::uint64_t feature_key = splitmix64(splitmix64(seed) ^ fnv1a(feature.name));
  const float grade = surface_grade(feature);
  const physics::RagdollSettings& settings = options.ragdoll;
  std::vector<Crossing> crossings;
  for (int i = 0; i < count; ++i) {
    const TerrainLane lane =
        terrain_lane(feature, static_cast<float>(i) * pitch, options.approach_m);
    for (const auto& box : lane.boxes) world.add_static_box(box);
    const std::uint64_t key = splitmix64(feature_key ^ static_cast<std::uint64_t>(first + i));
    const Vec3 side{lane.direction.z, 0, -lane.direction.x};
    Vec3 feet = lane.start + side * (kLateralNudgeM * symmetric_unit(key, 0)) +
                lane.direction * (kAlongNudgeM * symmetric_unit(key, 1));
    // On a slope the uphill foot sets the height: the other drops a few centimetres.
    feet.y = lane.start.y + grade * (feet.z - lane.start.z) + kHalfStanceM * grade + kSpawnDropM;
    const float yaw = yaw_of(lane.direction) + deg_to_rad(kYawNudgeDeg) * symmetric_unit(key, 2);
    world.add_ragdoll(settings, feet, yaw);
    crossings.push_back({lane.start, {std::sin(yaw), 0, std::cos(yaw)}});
  }
  const double hz = world.settings().physics_hz;
  const auto settle_steps = static_cast<std::int64_t>(std::llround(kSettleS * hz));
  const double limit_s =
      kTimeLimitFactor * static_cast<double>(probe.distance_m / kWalkSpeed) + kTimeLimitSlackS;
  const auto last_step = settle_steps + static_cast<std::int64_t>(std::llround(limit_s * hz));
  const double dt = world.dt();
  const Vec3 left{probe.direction.z, 0, -probe.direction.x};  // the walk's left, horizontal
  int undecided = count;
  bool stopped = false;
  const auto fail = [&](int i, CrossingOutcome outcome, double t) {
    const Vec3 com = world.ragdoll(static_cast<std::size_t>(i)).balance().com;
    const Crossing& c = crossings[static_cast<std::size_t>(i)];
    out.failures.push_back({first + i, outcome, t, dot(com - c.nominal_start, probe.direction),
                            com.z, dot(com - c.nominal_start, left),
                            world.ragdoll(static_cast<std::size_t>(i)).last_fall_cause()});
    ++out.crossings;
  };
  for (std::int64_t s = 0; s < last_step && undecided > 0; ++s) {
    if (stop && stop()) {
      stopped = true;
      break;
    }
    if (s == settle_steps) {
      for (int i = 0; i < count; ++i) {
        if (crossings[static_cast<std::size_t>(i)].decided) continue;
        world.ragdoll(static_cast<std::size_t>(i))
            .set_intent({crossings[static_cast<std::size_t>(i)].direction * kWalkSpeed, 0.0f, false,
                         physics::Gait::walk});
      }
    }
    world.step();
    const double t = static_cast<double>(s + 1 - settle_steps) * dt;  // < 0 while settling
    for (int i = 0; i < count; ++i) {
      Crossing& c = crossings[static_cast<std::size_t>(i)];
      if (c.decided) continue;
      physics::Ragdoll& r = world.ragdoll(static_cast<std::size_t>(i));
      const float aside = std::fabs(dot(r.balance().com - c.nominal_start, left));
      out.max_aside_m = std::max(out.max_aside_m, aside);
      if (r.state() == physics::LocomotionState::falling) {
        fail(i, CrossingOutcome::fell, t);
        ++out.falls;
      } else if (aside > kStrayM) {
        fail(i, CrossingOutcome::strayed, t);
        ++out.stuck;
      } else if (t > 0 &&
                 dot(r.balance().com - c.nominal_start, probe.direction) >= probe.distance_m) {
        times.push_back(t);
        ++out.crossings;
      } else {
        continue;
      }
      c.decided = true;
      --undecided;
      // Limp, it comes to rest and sleeps: a decided enemy costs next to nothing.
      r.kill();
    }
  }
  if (!stopped) {
    for (int i = 0; i < count; ++i) {
      if (crossings[static_cast<std::size_t>(i)].decided) continue;
      fail(i, CrossingOutcome::stuck, limit_s);
      ++out.stuck;
    }
  }
  if (!stopped) hash = splitmix64(hash ^ world.state_hash());
  return !stopped;
}

std::string_view outcome_name(CrossingOutcome outcome) {
  static constexpr std::string_view kNames[] = {"arrived", "fell", "stuck", "strayed"};
  return enum_name<CrossingOutcome::strayed>(kNames, outcome);
}

}  // namespace

TerrainResult run_terrain_course(const TerrainOptions& options) {
  TerrainResult result;
  result.crossings_per_feature = options.crossings;
  result.seed = options.seed;
  result.approach_m = options.approach_m;
  result.physics_hz = physics::WorldSettings{}.physics_hz;
  std::vector<TerrainFeature> features;
  for (const TerrainFeature& f : terrain_features()) {
    if (options.features.empty() || std::find(options.features.begin(), options.features.end(),
                                              f.name) != options.features.end())
      features.push_back(f);
  }
  const int per_world = std::max(1, options.lanes_per_world);
  const int worlds_per_feature = (options.crossings + per_world - 1) / per_world;
  const int worlds = worlds_per_feature * static_cast<int>(features.size());
  const auto start = std::chrono::steady_clock::now();
  int world_index = 0;
  for (const TerrainFeature& f : features) {
    TerrainFeatureResult row;
    row.feature = f;
    std::vector<double> times;
    for (int first = 0; first < options.crossings && !result.interrupted; first += per_world) {
      const int count = std::min(per_world, options.crossings - first);
      const auto world_start = std::chrono::steady_clock::now();
      TerrainFeatureResult part;
      std::vector<double> part_times;
      result.interrupted =
          !run_world(f, options, first, count, part, part_times, result.state_hash);
      ++world_index;
      if (options.progress) {
        options.progress(
            {world_index, worlds, f.name, first, count, part.falls, part.stuck, result.interrupted,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - world_start)
                 .count()});
      }
      // A world cut short is left out whole: falls end crossings sooner than arrivals do, so
      // the crossings it decided would overstate the falls.
      if (result.interrupted) break;
      row.crossings += part.crossings;
      row.falls += part.falls;
      row.max_aside_m = std::max(row.max_aside_m, part.max_aside_m);
      row.stuck += part.stuck;
      row.failures.insert(row.failures.end(), part.failures.begin(), part.failures.end());
      times.insert(times.end(), part_times.begin(), part_times.end());
    }
    row.median_time_s = median(times);
    if (row.crossings > 0) result.features.push_back(std::move(row));
    if (result.interrupted) break;
  }
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::string terrain_table(const TerrainResult& r) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof(line),
                "terrain course: %d crossings per feature, seed %llu; default 1.8 m enemies "
                "walking at %.1f m/s from %.1f m before each feature, %.0f Hz\n",
                r.crossings_per_feature, static_cast<unsigned long long>(r.seed),
                static_cast<double>(kWalkSpeed), static_cast<double>(r.approach_m),
                static_cast<double>(r.physics_hz));
  out += line;
  std::snprintf(line, sizeof(line), "%-28s %9s %6s %6s %10s %16s\n", "feature", "crossings",
                "falls", "stuck", "falls/100", "median time [s]");
  out += line;
  const auto row = [&](const std::string& name, int crossings, int falls, int stuck,
                       const char* median) {
    const double per_100 = crossings > 0 ? 100.0 * falls / crossings : 0.0;
    std::snprintf(line, sizeof(line), "%-28s %9d %6d %6d %10.1f %16s\n", name.c_str(), crossings,
                  falls, stuck, per_100, median);
    out += line;
  };
  int crossings = 0, falls = 0, stuck = 0;
  for (const TerrainFeatureResult& f : r.features) {
    char median_text[32] = "-";
    if (f.crossings > f.falls + f.stuck)
      std::snprintf(median_text, sizeof(median_text), "%.2f", f.median_time_s);
    row(f.feature.name, f.crossings, f.falls, f.stuck, median_text);
    crossings += f.crossings;
    falls += f.falls;
    stuck += f.stuck;
  }
  row("total", crossings, falls, stuck, "-");
  std::snprintf(line, sizeof(line), "%.1f s wall\n", r.wall_s);
  out += line;
  if (r.interrupted) out += "interrupted: the figures are of the worlds that finished\n";
  return out;
}

std::string terrain_report_json(const TerrainResult& r) {
  nlohmann::ordered_json j;
  j["crossings_per_feature"] = r.crossings_per_feature;
  j["seed"] = r.seed;
  j["approach_m"] = r.approach_m;
  j["physics_hz"] = r.physics_hz;
  j["walk_speed_mps"] = kWalkSpeed;
  j["wall_s"] = r.wall_s;
  j["state_hash"] = sim::state_hash_hex(r.state_hash);
  j["interrupted"] = r.interrupted;
  auto& features = j["features"] = nlohmann::ordered_json::array();
  for (const TerrainFeatureResult& f : r.features) {
    nlohmann::ordered_json o;
    o["name"] = f.feature.name;
    o["crossings"] = f.crossings;
    o["falls"] = f.falls;
    o["stuck"] = f.stuck;
    o["falls_per_100"] = f.falls_per_100();
    o["median_time_s"] = f.median_time_s;
    o["max_aside_m"] = f.max_aside_m;
    auto& failures = o["failures"] = nlohmann::ordered_json::array();
    for (const CrossingFailure& c : f.failures) {
      failures.push_back({{"crossing", c.crossing},
                          {"outcome", outcome_name(c.outcome)},
                          {"time_s", c.time_s},
                          {"along_m", c.along_m},
                          {"feature_z_m", c.feature_z_m},
                          {"aside_m", c.aside_m}});
      if (c.outcome == CrossingOutcome::fell)
        failures.back()["cause"] = std::string(physics::name_of(c.cause));
    }
    features.push_back(std::move(o));
  }
  return j.dump(2) + "\n";
}

}  // namespace stagger::bench
