#include "stagger/bench/knock_down_course.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "stagger/core/enum_table.h"
#include "stagger/core/random.h"
#include "stagger/physics/locomotion.h"
#include "stagger/physics/ragdoll.h"
#include "stagger/physics/ragdoll_settings.h"
#include "stagger/physics/world.h"
#include "stagger/sim/report.h"

namespace stagger::bench {
namespace {

using physics::BodyPart;
using physics::LocomotionState;

constexpr float kLanePitchM = 8.0f;         // [m] between neighbouring enemies, across (x)
constexpr float kSurfaceHalfDepthM = 8.0f;  // [m] slope: the slab along its rise, each side
constexpr int kTreads = 20;                 // stairs: treads below the landing
constexpr int kSpawnTread = 10;             // stairs: the tread the enemy stands on (1-based)
constexpr float kLandingDepthM = 4.0f;      // [m]
constexpr float kFootingM = 0.1f;           // [m] raised boxes reach this far into the ground
constexpr float kGroundHalfThickM = 0.5f;   // [m]
constexpr float kMarginM = 10.0f;           // [m] ground beyond the lanes
constexpr float kSlabHalfM = 0.1f;          // [m] half the slope slab's thickness
constexpr float kSpawnDropM = 0.01f;        // [m] soles above the surface at spawn
constexpr float kFootReachM = 0.14f;        // [m] a foot's corners from its centre along the walk
constexpr float kHalfStanceM = 0.1f;        // [m] half the default body's stance width
constexpr float kHeadingNudgeDeg = 3.0f;    // [deg] stairs: the spawn heading's nudge, ±

constexpr double kSettleS = 1.0;  // [s] standing before the blow
constexpr double kWatchS = 12.0;  // [s] after the blow, at most
constexpr double kStayUpS = 2.0;  // [s] after standing: watched for a second fall
constexpr float kSurfaceFriction = 0.9f;

float grade(KnockDownGround ground) {
  return ground == KnockDownGround::slope ? std::tan(deg_to_rad(kKnockDownSlopeDeg)) : 0.0f;
}

// The spawn tread's centre (stairs), or the origin.
Vec3 spawn_point(KnockDownGround ground, float x) {
  if (ground != KnockDownGround::stairs) return {x, 0, 0};
  const float z = (static_cast<float>(kSpawnTread) - 0.5f) * kKnockDownTreadM;
  return {x, knock_down_ground_height(ground, z), z};
}

void add_surface(physics::World& world, KnockDownGround ground, float x_min, float x_max) {
  const float cx = 0.5f * (x_min + x_max);
  const float half_x = 0.5f * (x_max - x_min);
  const float low = ground == KnockDownGround::slope ? -kSurfaceHalfDepthM * grade(ground) : 0.0f;
  world.add_static_box({{cx, low - kGroundHalfThickM, 0},
                        {half_x, kGroundHalfThickM, 2.0f * kSurfaceHalfDepthM + kMarginM},
                        {},
                        kSurfaceFriction});
  if (ground == KnockDownGround::slope) {
    // A slab whose top face passes through the origin and rises along +Z.
    const float a = deg_to_rad(kKnockDownSlopeDeg);
    world.add_static_box({{cx, -kSlabHalfM * std::cos(a), kSlabHalfM * std::sin(a)},
                          {half_x, kSlabHalfM, kSurfaceHalfDepthM / std::cos(a)},
                          Quat::from_axis_angle({1, 0, 0}, -a),
                          kSurfaceFriction});
  } else if (ground == KnockDownGround::stairs) {
    const auto step = [&](float z0, float z1, float top) {
      world.add_static_box({{cx, 0.5f * (top - kFootingM), 0.5f * (z0 + z1)},
                            {half_x, 0.5f * (top + kFootingM), 0.5f * (z1 - z0)},
                            {},
                            kSurfaceFriction});
    };
    for (int k = 1; k <= kTreads; ++k) {
      step(static_cast<float>(k - 1) * kKnockDownTreadM, static_cast<float>(k) * kKnockDownTreadM,
           static_cast<float>(k) * kKnockDownRiserM);
    }
    const float span = static_cast<float>(kTreads) * kKnockDownTreadM;
    step(span, span + kLandingDepthM, static_cast<float>(kTreads + 1) * kKnockDownRiserM);
  }
}

// [m] the 8 corners of a foot's box, in the world.
std::array<Vec3, 8> foot_corners(const physics::Ragdoll& r, BodyPart foot) {
  const physics::BodyState s = r.body_state(foot);
  const Vec3 h = r.blueprint().bodies[physics::slot(foot)].half_extents;
  std::array<Vec3, 8> corners;
  for (std::size_t c = 0; c < corners.size(); ++c) {
    const Vec3 local{c & 1 ? h.x : -h.x, c & 2 ? h.y : -h.y, c & 4 ? h.z : -h.z};
    corners[c] = s.position + s.rotation.rotate(local);
  }
  return corners;
}

// [m] the lowest corner of a foot above the ground under that corner.
float foot_lift(const physics::Ragdoll& r, BodyPart foot, KnockDownGround ground) {
  float lift = 1e9f;
  for (const Vec3& p : foot_corners(r, foot))
    lift = std::min(lift, p.y - knock_down_ground_height(ground, p.z));
  return lift;
}

// [m] the ground a foot stands on: under its centre; on the stairs the highest tread under any
// corner of its sole (a foot across a nosing stands on the upper tread, whichever side of the
// edge its centre is).
float ground_under_foot(const physics::Ragdoll& r, BodyPart foot, KnockDownGround ground) {
  if (ground != KnockDownGround::stairs)
    return knock_down_ground_height(ground, r.body_state(foot).position.z);
  float highest = -1e9f;
  for (const Vec3& p : foot_corners(r, foot))
    highest = std::max(highest, knock_down_ground_height(ground, p.z));
  return highest;
}

// [m] the pelvis above its standing height over the ground under the higher foot.
float pelvis_over_standing(const physics::Ragdoll& r, KnockDownGround ground) {
  const float standing = r.blueprint().bodies[physics::slot(BodyPart::pelvis)].center.y;
  const float under_feet = std::max(ground_under_foot(r, BodyPart::foot_l, ground),
                                    ground_under_foot(r, BodyPart::foot_r, ground));
  return r.body_state(BodyPart::pelvis).position.y - under_feet - standing;
}

struct Lane {
  KnockDown run;
  Vec3 blow;
  LocomotionState last = LocomotionState::standing;
  bool done = false;
};

// Follows one enemy through a step: the states it passes, the lifts while it gets up.
void watch(Lane& lane, physics::Ragdoll& r, KnockDownGround ground, double t) {
  KnockDown& k = lane.run;
  const LocomotionState state = r.state();
  k.max_joint_separation_m = std::max(k.max_joint_separation_m, r.max_joint_separation());
  if (state == LocomotionState::falling && lane.last != LocomotionState::falling) {
    if (k.fell_s < 0) {
      k.fell_s = t;
    } else if (k.stood_s < 0) {
      ++k.failed_get_ups;
    } else {
      k.fell_again = true;
    }
  }
  if (state == LocomotionState::down && k.down_s < 0) k.down_s = t;
  if (state == LocomotionState::getting_up) {
    k.max_foot_lift_m = std::max({k.max_foot_lift_m, foot_lift(r, BodyPart::foot_l, ground),
                                  foot_lift(r, BodyPart::foot_r, ground)});
    k.max_pelvis_over_standing_m =
        std::max(k.max_pelvis_over_standing_m, pelvis_over_standing(r, ground));
  }
  if (k.stood_s < 0 && r.get_ups() > 0) k.stood_s = t;
  lane.last = state;
  lane.done = k.fell_again || (k.stood_s >= 0 && t - k.stood_s >= kStayUpS) || t >= kWatchS;
}

// One world of `count` knock-downs, first..first+count-1; false when `stop` ended it.
bool run_world(const KnockDownOptions& options, int first, int count, std::vector<KnockDown>& out,
               std::uint64_t& hash) {
  physics::World world;
  const float x_max = static_cast<float>(count - 1) * kLanePitchM;
  add_surface(world, options.ground, -kMarginM, x_max + kMarginM);
  const physics::RagdollSettings& settings = options.ragdoll;
  const float g = grade(options.ground);
  std::vector<Lane> lanes(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const int index = first + i;
    SplitMix64 random(splitmix64(options.seed) ^ static_cast<std::uint64_t>(index));
    const float direction = 2.0f * kPi * random.unit();
    float heading = 2.0f * kPi * random.unit();
    if (options.ground == KnockDownGround::stairs) {
      // Facing up or down the flight, both feet on one tread.
      heading =
          (random.unit() < 0.5f ? 0.0f : kPi) + deg_to_rad(kHeadingNudgeDeg) * random.symmetric();
    }
    Vec3 feet = spawn_point(options.ground, static_cast<float>(i) * kLanePitchM);
    // On the slope the highest corner of the feet sets the height.
    feet.y += g * (kHalfStanceM * std::fabs(std::sin(heading)) +
                   kFootReachM * std::fabs(std::cos(heading))) +
              kSpawnDropM;
    world.add_ragdoll(settings, feet, heading);
    Lane& lane = lanes[static_cast<std::size_t>(i)];
    lane.run.index = index;
    lane.run.direction_deg = rad_to_deg(direction);
    lane.run.heading_deg = rad_to_deg(heading);
    lane.blow = Vec3{std::sin(direction), 0, std::cos(direction)} * options.impulse_ns;
  }
  const double hz = world.settings().physics_hz;
  const auto blow_step = static_cast<std::int64_t>(std::llround(kSettleS * hz));
  const auto last_step = blow_step + static_cast<std::int64_t>(std::llround(kWatchS * hz));
  int watching = count;
  for (std::int64_t s = 0; s < last_step && watching > 0; ++s) {
    if (options.stop && options.stop()) return false;
    if (s == blow_step) {
      for (int i = 0; i < count; ++i) {
        world.ragdoll(static_cast<std::size_t>(i))
            .apply_impulse(options.part, lanes[static_cast<std::size_t>(i)].blow);
      }
    }
    world.step();
    if (s < blow_step) continue;
    const double t = static_cast<double>(s + 1 - blow_step) * static_cast<double>(world.dt());
    for (int i = 0; i < count; ++i) {
      Lane& lane = lanes[static_cast<std::size_t>(i)];
      if (lane.done) continue;
      physics::Ragdoll& r = world.ragdoll(static_cast<std::size_t>(i));
      watch(lane, r, options.ground, t);
      if (!lane.done) continue;
      --watching;
      r.kill();  // limp, it comes to rest and sleeps: a finished lane costs next to nothing
    }
  }
  for (const Lane& lane : lanes) out.push_back(lane.run);
  hash = splitmix64(hash ^ world.state_hash());
  return true;
}

void add_distribution_row(std::string& out, const char* name, std::vector<double> values) {
  char line[160];
  if (values.empty()) {
    std::snprintf(line, sizeof(line), "%-22s %8s\n", name, "-");
  } else {
    std::snprintf(line, sizeof(line), "%-22s %8.2f %8.2f %8.2f %8.2f\n", name,
                  percentile(values, 50), percentile(values, 90), percentile(values, 99),
                  percentile(values, 100));
  }
  out += line;
}

// The runs' figure `f` where it is known (>= 0).
template <typename F>
std::vector<double> known(const std::vector<KnockDown>& runs, F f) {
  std::vector<double> values;
  for (const KnockDown& k : runs) {
    const double v = f(k);
    if (v >= 0) values.push_back(v);
  }
  return values;
}

}  // namespace

std::string_view name_of(KnockDownGround ground) {
  static constexpr std::string_view kNames[] = {"flat", "slope", "stairs"};
  return enum_name<KnockDownGround::stairs>(kNames, ground);
}

bool parse_knock_down_ground(std::string_view name, KnockDownGround& out) {
  for (KnockDownGround g :
       {KnockDownGround::flat, KnockDownGround::slope, KnockDownGround::stairs}) {
    if (name_of(g) == name) {
      out = g;
      return true;
    }
  }
  return false;
}

float knock_down_ground_height(KnockDownGround ground, float z) {
  switch (ground) {
    case KnockDownGround::flat:
      return 0.0f;
    case KnockDownGround::slope:
      return std::clamp(z, -kSurfaceHalfDepthM, kSurfaceHalfDepthM) * grade(ground);
    case KnockDownGround::stairs: {
      if (z < 0) return 0.0f;
      const int tread = std::min(kTreads, static_cast<int>(std::floor(z / kKnockDownTreadM)));
      return static_cast<float>(tread + 1) * kKnockDownRiserM;
    }
  }
  return 0.0f;
}

int KnockDownResult::stood_within(double seconds) const {
  return static_cast<int>(std::count_if(runs.begin(), runs.end(), [&](const KnockDown& k) {
    return k.stood_s >= 0 && k.stood_s <= seconds;
  }));
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double rank = std::ceil(p / 100.0 * static_cast<double>(values.size()));
  const auto i =
      static_cast<std::size_t>(std::clamp(rank, 1.0, static_cast<double>(values.size())));
  return values[i - 1];
}

KnockDownResult run_knock_downs(const KnockDownOptions& options) {
  KnockDownResult result;
  result.ground = options.ground;
  result.seed = options.seed;
  result.impulse_ns = options.impulse_ns;
  result.part = options.part;
  const auto start = std::chrono::steady_clock::now();
  const int per_world = std::max(1, options.lanes_per_world);
  for (int first = 0; first < options.knock_downs; first += per_world) {
    const int count = std::min(per_world, options.knock_downs - first);
    std::vector<KnockDown> runs;
    if (!run_world(options, first, count, runs, result.state_hash)) {
      result.interrupted = true;  // a world cut short is left out whole
      break;
    }
    result.runs.insert(result.runs.end(), runs.begin(), runs.end());
    if (options.progress) options.progress(first + count, options.knock_downs);
  }
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::string knock_down_table(const KnockDownResult& r) {
  std::string out;
  char line[200];
  const int n = static_cast<int>(r.runs.size());
  std::snprintf(line, sizeof(line),
                "knock-downs: %d on %s ground, %.0f N*s at the %s in random directions, seed "
                "%llu; default 1.8 m enemies\n",
                n, std::string(name_of(r.ground)).c_str(), static_cast<double>(r.impulse_ns),
                std::string(physics::name_of(r.part)).c_str(),
                static_cast<unsigned long long>(r.seed));
  out += line;
  const auto share = [&](int k) { return n > 0 ? 100.0 * k / n : 0.0; };
  std::snprintf(line, sizeof(line),
                "stood within 5 s: %d (%.1f %%), 6 s: %d (%.1f %%), 8 s: %d (%.1f %%), never: %d\n",
                r.stood_within(5), share(r.stood_within(5)), r.stood_within(6),
                share(r.stood_within(6)), r.stood_within(8), share(r.stood_within(8)),
                n - r.stood_within(kWatchS));
  out += line;
  std::snprintf(line, sizeof(line), "%-22s %8s %8s %8s %8s\n", "[s]", "median", "p90", "p99",
                "worst");
  out += line;
  add_distribution_row(out, "blow to fall",
                       known(r.runs, [](const KnockDown& k) { return k.fell_s; }));
  add_distribution_row(out, "fall to down",
                       known(r.runs, [](const KnockDown& k) { return k.fall_to_down_s(); }));
  add_distribution_row(out, "down to standing",
                       known(r.runs, [](const KnockDown& k) { return k.down_to_up_s(); }));
  add_distribution_row(out, "blow to standing",
                       known(r.runs, [](const KnockDown& k) { return k.stood_s; }));
  int failed = 0, again = 0, unfallen = 0;
  float lift = 0, pelvis = -1, separation = 0;
  for (const KnockDown& k : r.runs) {
    failed += k.failed_get_ups;
    again += k.fell_again;
    unfallen += k.fell_s < 0;
    lift = std::max(lift, k.max_foot_lift_m);
    pelvis = std::max(pelvis, k.max_pelvis_over_standing_m);
    separation = std::max(separation, k.max_joint_separation_m);
  }
  std::snprintf(line, sizeof(line),
                "failed get-ups %d, fell again within 2 s of standing %d, not knocked down %d\n",
                failed, again, unfallen);
  out += line;
  std::snprintf(line, sizeof(line),
                "getting up, worst: foot lift %.3f m, pelvis over standing height %+.3f m; "
                "joint separation %.4f m\n",
                static_cast<double>(lift), static_cast<double>(pelvis),
                static_cast<double>(separation));
  out += line;
  std::snprintf(line, sizeof(line), "%.1f s wall\n", r.wall_s);
  out += line;
  if (r.interrupted) out += "interrupted: the figures are of the worlds that finished\n";
  return out;
}

std::string knock_down_report_json(const KnockDownResult& r) {
  nlohmann::ordered_json j;
  j["ground"] = name_of(r.ground);
  j["seed"] = r.seed;
  j["impulse_ns"] = r.impulse_ns;
  j["part"] = physics::name_of(r.part);
  j["knock_downs"] = r.runs.size();
  j["stood_within_5s"] = r.stood_within(5);
  j["stood_within_6s"] = r.stood_within(6);
  j["stood_within_8s"] = r.stood_within(8);
  j["wall_s"] = r.wall_s;
  j["state_hash"] = sim::state_hash_hex(r.state_hash);
  j["interrupted"] = r.interrupted;
  auto& runs = j["runs"] = nlohmann::ordered_json::array();
  for (const KnockDown& k : r.runs) {
    runs.push_back({{"index", k.index},
                    {"direction_deg", k.direction_deg},
                    {"heading_deg", k.heading_deg},
                    {"fell_s", k.fell_s},
                    {"down_s", k.down_s},
                    {"stood_s", k.stood_s},
                    {"fall_to_down_s", k.fall_to_down_s()},
                    {"down_to_up_s", k.down_to_up_s()},
                    {"failed_get_ups", k.failed_get_ups},
                    {"fell_again", k.fell_again},
                    {"max_foot_lift_m", k.max_foot_lift_m},
                    {"max_pelvis_over_standing_m", k.max_pelvis_over_standing_m},
                    {"max_joint_separation_m", k.max_joint_separation_m}});
  }
  return j.dump(2) + "\n";
}

}  // namespace stagger::bench
