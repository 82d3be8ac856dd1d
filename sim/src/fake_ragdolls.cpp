#include "stagger/sim/fake_ragdolls.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "stagger/core/assert.h"
#include "stagger/core/random.h"
#include "stagger/sim/recording.h"

namespace stagger::sim {
namespace {

/// [m] the side of the ground grid's cells: each holds the navmesh triangles that overlap it, and
/// a falling point looks only at its own cell's.
constexpr float kGroundCellM = 1.0f;
/// Barycentric slack of the point-in-triangle test: a point on an edge between two triangles is
/// inside one of them despite rounding.
constexpr float kInsideSlack = 1e-5f;
/// [m] how far past what a landing needs walkable() looks for the navmesh's edge: Detour reports
/// "no edge within the distance asked" as that distance through a square root, which may round
/// below it.
constexpr float kEdgeSearchMarginM = 0.5f;

constexpr float kNoGround = -std::numeric_limits<float>::infinity();
/// [m/s] a velocity slower than this has no direction to speak of.
constexpr float kNoSpeedMps = 1e-6f;
/// Slack when counting how many whole retry turns fit in the largest: 175° / 25° is 7, not 6.99.
constexpr float kCountSlack = 1e-4f;

// The one fixed step of a flight, used for the prediction and for the flight alike (semi-implicit
// Euler: the velocity first, then the position with the new velocity).
inline void advance(Vec3& p, Vec3& v, float gravity_step, float dt) {
  v.y -= gravity_step;
  p.x += v.x * dt;
  p.y += v.y * dt;
  p.z += v.z * dt;
}

// A horizontal vector turned by `angle` about +Y (the yaw convention: +pi/2 takes +Z to +X).
Vec3 turned(Vec3 h, float angle) {
  const float c = std::cos(angle);
  const float s = std::sin(angle);
  return {h.x * c + h.z * s, 0.0f, h.z * c - h.x * s};
}

// The random draws of one launch, from a stream keyed by the level's seed, the enemy and the
// blast: the same whatever order the candidates came in. All are drawn, used or not, so that one
// never shifts another.
struct LaunchDraws {
  float heading_rad;  // [rad] a direction for a candidate at the centre
  float turn;         // -1..1 of the largest turn
  float elevation;    // -1..1 of the elevation's jitter
  float speed;        // -1..1 of the speed's jitter
};

LaunchDraws draw(std::uint64_t level_seed, std::uint32_t enemy, std::uint64_t blast_index) {
  const std::uint64_t key = splitmix64(splitmix64(splitmix64(level_seed) ^ enemy) ^ blast_index);
  SplitMix64 rng(key);
  LaunchDraws d{};
  d.heading_rad = rng.unit() * 2.0f * kPi;
  d.turn = rng.symmetric();
  d.elevation = rng.symmetric();
  d.speed = rng.symmetric();
  return d;
}

// The launch velocity the draws give (BlastSettings: direction, elevation, speed, falloff, gains,
// floor), and its horizontal direction in `direction`.
Vec3 rolled_velocity(const BlastSettings& s, const Blast& blast, const LaunchCandidate& c,
                     const LaunchDraws& draws, Vec3& direction) {
  const Vec3 offset = c.feet - blast.centre;
  const Vec3 away = horizontal(offset);
  const float heading = (length(away) >= s.at_centre_m ? yaw_of(away) : draws.heading_rad) +
                        draws.turn * s.max_turn_rad;
  direction = {std::sin(heading), 0.0f, std::cos(heading)};
  const float elevation = s.elevation_rad + draws.elevation * s.elevation_jitter_rad;
  const float falloff =
      1.0f - (1.0f - s.edge_falloff) * std::min(1.0f, length(offset) / blast.radius_m);
  const float speed =
      blast.impulse_ns / c.mass_kg * (1.0f + draws.speed * s.speed_jitter) * falloff;
  Vec3 velocity = direction * (speed * std::cos(elevation) * s.horizontal_gain) +
                  Vec3{0.0f, speed * std::sin(elevation) * s.vertical_gain, 0.0f};
  const float launch_speed = length(velocity);
  if (launch_speed < s.min_launch_speed_mps)
    velocity *= s.min_launch_speed_mps / std::max(launch_speed, kNoSpeedMps);
  return velocity;
}

// The spin of a flight of `steps` that rises `apex_m` above its launch point along `along`
// (horizontal, unit): a quarter turn and the half turns its height earns, tipping the head along
// `along` at a constant rate; and whether that lands it face down.
void plan_spin(const BlastSettings& s, std::uint32_t steps, float apex_m, Vec3 along, Flight& f) {
  f.tip_axis = normalized(cross({0.0f, 1.0f, 0.0f}, along));
  const int half_turns =
      std::min(s.max_extra_half_turns,
               static_cast<int>(std::floor(std::max(0.0f, apex_m) / s.apex_per_half_turn_m)));
  f.landing_spin_rad = 0.5f * kPi + static_cast<float>(half_turns) * kPi;
  f.spin_rate_rps = f.landing_spin_rad / (static_cast<float>(steps) * s.step_s);
  Flight lying = f;
  lying.spin_rad = f.landing_spin_rad;
  f.prone = lying.orientation().rotate({0.0f, 0.0f, 1.0f}).y < 0.0f;
}

}  // namespace

// The navmesh's walkable surface as a grid of its triangles, for the one question a flight asks
// every falling step: the highest surface under a point no higher than where it just was.
struct FakeRagdolls::Ground {
  std::vector<std::array<Vec3, 3>> triangles;
  float min_x = 0, min_z = 0;
  int columns = 0, rows = 0;
  std::vector<std::uint32_t> first;  ///< per cell: its triangles in `cell_triangles` (CSR)
  std::vector<std::uint32_t> cell_triangles;
  std::vector<float> top;  ///< per cell: the highest corner of its triangles
  float lowest = 0;        ///< [m] the lowest corner of all

  explicit Ground(std::vector<std::array<Vec3, 3>> tris);
  int cell(float x, float z) const;
  /// [m] the height of the highest surface at (x, z) between `floor` and `ceiling`, i.e. the
  /// one a point that fell from `ceiling` to `floor` there came down on; kNoGround when none.
  float crossed(float x, float z, float floor, float ceiling) const;
};

FakeRagdolls::Ground::Ground(std::vector<std::array<Vec3, 3>> tris) : triangles(std::move(tris)) {
  if (triangles.empty()) return;
  float max_x = triangles[0][0].x, max_z = triangles[0][0].z;
  min_x = max_x;
  min_z = max_z;
  lowest = triangles[0][0].y;
  for (const auto& t : triangles) {
    for (const Vec3& v : t) {
      min_x = std::min(min_x, v.x);
      max_x = std::max(max_x, v.x);
      min_z = std::min(min_z, v.z);
      max_z = std::max(max_z, v.z);
      lowest = std::min(lowest, v.y);
    }
  }
  columns = static_cast<int>((max_x - min_x) / kGroundCellM) + 1;
  rows = static_cast<int>((max_z - min_z) / kGroundCellM) + 1;
  const auto cells = static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows);
  std::vector<std::vector<std::uint32_t>> lists(cells);
  top.assign(cells, kNoGround);
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const auto& t = triangles[i];
    const float lo_x = std::min({t[0].x, t[1].x, t[2].x});
    const float hi_x = std::max({t[0].x, t[1].x, t[2].x});
    const float lo_z = std::min({t[0].z, t[1].z, t[2].z});
    const float hi_z = std::max({t[0].z, t[1].z, t[2].z});
    const float high = std::max({t[0].y, t[1].y, t[2].y});
    const int c0 = cell(lo_x, lo_z), c1 = cell(hi_x, hi_z);
    for (int r = c0 / columns; r <= c1 / columns; ++r) {
      for (int c = c0 % columns; c <= c1 % columns; ++c) {
        const auto k = static_cast<std::size_t>(r * columns + c);
        lists[k].push_back(static_cast<std::uint32_t>(i));
        top[k] = std::max(top[k], high);
      }
    }
  }
  first.reserve(cells + 1);
  first.push_back(0);
  for (const auto& list : lists) {
    cell_triangles.insert(cell_triangles.end(), list.begin(), list.end());
    first.push_back(static_cast<std::uint32_t>(cell_triangles.size()));
  }
}

int FakeRagdolls::Ground::cell(float x, float z) const {
  const int c = std::clamp(static_cast<int>((x - min_x) / kGroundCellM), 0, columns - 1);
  const int r = std::clamp(static_cast<int>((z - min_z) / kGroundCellM), 0, rows - 1);
  return r * columns + c;
}

float FakeRagdolls::Ground::crossed(float x, float z, float floor, float ceiling) const {
  if (columns == 0) return kNoGround;
  const float fx = (x - min_x) / kGroundCellM;
  const float fz = (z - min_z) / kGroundCellM;
  if (!(fx >= 0 && fz >= 0 && fx < static_cast<float>(columns) && fz < static_cast<float>(rows)))
    return kNoGround;
  const auto k = static_cast<std::size_t>(static_cast<int>(fz) * columns + static_cast<int>(fx));
  // Most of a fall is above everything in the cell: no triangle need be looked at.
  if (floor > top[k]) return kNoGround;
  float best = kNoGround;
  for (std::uint32_t i = first[k]; i < first[k + 1]; ++i) {
    const auto& t = triangles[cell_triangles[i]];
    const Vec3 a = t[0], b = t[1], c = t[2];
    const float d = (b.z - c.z) * (a.x - c.x) + (c.x - b.x) * (a.z - c.z);
    if (std::fabs(d) < 1e-12f) continue;  // seen edge-on from above
    const float l1 = ((b.z - c.z) * (x - c.x) + (c.x - b.x) * (z - c.z)) / d;
    const float l2 = ((c.z - a.z) * (x - c.x) + (a.x - c.x) * (z - c.z)) / d;
    const float l3 = 1.0f - l1 - l2;
    if (l1 < -kInsideSlack || l2 < -kInsideSlack || l3 < -kInsideSlack) continue;
    const float h = l1 * a.y + l2 * b.y + l3 * c.y;
    if (h <= ceiling && h > best) best = h;
  }
  return best >= floor ? best : kNoGround;
}

// Where and when a predicted flight comes down, and how high it went.
struct FakeRagdolls::Prediction {
  std::uint32_t steps = 0;  ///< fixed steps from the launch to the landing
  Vec3 landing;             ///< [m]
  float apex_m = 0;         ///< [m] the highest point above the launch point
};

Quat Flight::orientation() const {
  return Quat::from_axis_angle(tip_axis, spin_rad) * Quat::from_yaw(yaw_rad);
}

FakeRagdolls::FakeRagdolls(std::shared_ptr<const ai::Navmesh> navmesh, BlastSettings settings,
                           std::uint64_t level_seed)
    : navmesh_(std::move(navmesh)),
      settings_(settings),
      level_seed_(level_seed),
      gravity_step_(settings.gravity_mps2 * settings.step_s) {
  STAGGER_ASSERT(navmesh_ != nullptr);
  STAGGER_ASSERT(settings_.step_s > 0.0f);
  ground_ = std::make_shared<const Ground>(navmesh_->triangles());
}

bool FakeRagdolls::walkable(Vec3 feet, float radius_m) const {
  const float across = settings_.landing_horizontal_tolerance_m;
  const float up = settings_.landing_vertical_tolerance_m;
  const ai::Navmesh::Nearest n = navmesh_->nearest(feet, {across, up, across});
  if (!n.found || n.horizontal_m > across || n.vertical_m > up) return false;
  const float needed = radius_m - navmesh_->settings().agent_radius;
  if (needed <= 0.0f) return true;
  return navmesh_->distance_to_edge(feet, needed + kEdgeSearchMarginM) >= needed;
}

bool FakeRagdolls::predict(Vec3 start, Vec3 velocity, Prediction& out) const {
  const float dt = settings_.step_s;
  const auto max_steps = static_cast<std::uint32_t>(std::ceil(settings_.max_flight_s / dt));
  Vec3 p = start;
  Vec3 v = velocity;
  float apex = start.y;
  for (std::uint32_t n = 1; n <= max_steps; ++n) {
    const float before = p.y;
    advance(p, v, gravity_step_, dt);
    apex = std::max(apex, p.y);
    if (v.y >= 0.0f) continue;  // rising: it passes up through whatever it meets (2.5-D)
    const float ground = ground_->crossed(p.x, p.z, p.y, before);
    if (ground != kNoGround) {
      out = {n, {p.x, ground, p.z}, apex - start.y};
      return true;
    }
    if (p.y < ground_->lowest) return false;  // below every surface: it will never land
  }
  return false;
}

FakeRagdolls::Prediction FakeRagdolls::predict_hop(Vec3 start, float vertical_mps) const {
  const float dt = settings_.step_s;
  Vec3 p = start;
  Vec3 v{0.0f, vertical_mps, 0.0f};
  float apex = start.y;
  std::uint32_t n = 0;
  do {
    advance(p, v, gravity_step_, dt);
    apex = std::max(apex, p.y);
    ++n;
  } while (v.y >= 0.0f || p.y > start.y);
  return {n, start, apex - start.y};
}

bool FakeRagdolls::fit(const LaunchCandidate& c, Vec3 rolled, Flight& f,
                       Prediction& prediction) const {
  const BlastSettings& s = settings_;
  // Turns outside, horizontal scales inside: the throw keeps going away from the blast for as
  // long as a shorter throw that way fits (a short throw reads as the same blast; one turned
  // toward the blast does not), and only then turns, a little at a time.
  const int turns =
      static_cast<int>(std::floor(s.retry_max_turn_rad / s.retry_turn_step_rad + kCountSlack));
  const float min2 = s.min_launch_speed_mps * s.min_launch_speed_mps;
  for (int k = 0; k <= 2 * turns; ++k) {
    const float turn =
        static_cast<float>((k + 1) / 2) * s.retry_turn_step_rad * (k % 2 ? 1.0f : -1.0f);
    for (float scale : s.retry_horizontal_scales) {
      Vec3 v = turned(horizontal(rolled), turn) * scale;
      // The vertical part stays, raised where the floor on the speed needs it.
      const float h2 = dot(v, v);
      v.y = h2 + rolled.y * rolled.y >= min2 ? rolled.y : std::sqrt(min2 - h2);
      if (!predict(c.feet, v, prediction) || !walkable(prediction.landing, c.radius_m)) continue;
      f.launch_velocity = v;
      f.retry_turn_rad = turn;
      f.horizontal_scale = scale;
      f.kind = k == 0 && scale == 1.0f ? LaunchKind::as_rolled : LaunchKind::retried;
      return true;
    }
  }
  return false;
}

Flight FakeRagdolls::launch(const Blast& blast, const LaunchCandidate& c,
                            std::uint64_t blast_index) const {
  const BlastSettings& s = settings_;
  Vec3 direction;
  const Vec3 rolled =
      rolled_velocity(s, blast, c, draw(level_seed_, c.enemy, blast_index), direction);
  Flight f;
  f.enemy = c.enemy;
  f.yaw_rad = c.yaw_rad;
  f.radius_m = c.radius_m;
  f.launch_point = c.feet;
  f.launch_s = time_s();
  Prediction prediction;
  if (!fit(c, rolled, f, prediction)) {
    f.launch_velocity = {0.0f, std::max(rolled.y, s.min_launch_speed_mps), 0.0f};
    f.kind = LaunchKind::hop;
    f.horizontal_scale = 0.0f;
    prediction = predict_hop(c.feet, f.launch_velocity.y);
  }
  f.position = c.feet;
  f.velocity = f.launch_velocity;
  f.steps_left = prediction.steps;
  f.landing = prediction.landing;
  f.landing_s = static_cast<double>(steps_ + prediction.steps) * static_cast<double>(s.step_s);
  const Vec3 flight_h = horizontal(f.launch_velocity);
  plan_spin(s, prediction.steps, prediction.apex_m,
            length(flight_h) < kNoSpeedMps ? direction : normalized(flight_h), f);
  return f;
}

std::vector<std::uint32_t> FakeRagdolls::blast(const Blast& blast,
                                               std::span<const LaunchCandidate> candidates) {
  STAGGER_ASSERT(blast.radius_m > 0.0f && blast.impulse_ns > 0.0f);
  const std::uint64_t index = blast_index_++;
  std::vector<const LaunchCandidate*> order;
  order.reserve(candidates.size());
  for (const LaunchCandidate& c : candidates) order.push_back(&c);
  std::sort(order.begin(), order.end(),
            [](const LaunchCandidate* a, const LaunchCandidate* b) { return a->enemy < b->enemy; });
  std::vector<Flight> launched;
  std::vector<std::uint32_t> enemies;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const LaunchCandidate& c = *order[i];
    STAGGER_ASSERT(i == 0 || order[i - 1]->enemy != c.enemy);  // one candidate per enemy
    STAGGER_ASSERT(c.mass_kg > 0.0f);
    if (c.immune || length(c.feet - blast.centre) > blast.radius_m || flight(c.enemy) != nullptr)
      continue;
    launched.push_back(launch(blast, c, index));
    enemies.push_back(c.enemy);
  }
  const auto middle = static_cast<std::ptrdiff_t>(flights_.size());
  flights_.insert(flights_.end(), launched.begin(), launched.end());
  std::inplace_merge(flights_.begin(), flights_.begin() + middle, flights_.end(),
                     [](const Flight& a, const Flight& b) { return a.enemy < b.enemy; });
  return enemies;
}

void FakeRagdolls::step(float dt) {
  STAGGER_ASSERT(dt == settings_.step_s);  // the step every landing was predicted with
  ++steps_;
  bool any_landed = false;
  for (Flight& f : flights_) {
    if (--f.steps_left == 0) {
      // The predicted step: the point has just come down through the ground there. It stops
      // dead (no bounce, high friction) on the predicted point, lying at its planned angle.
      f.position = f.landing;
      f.velocity = {};
      f.spin_rad = f.landing_spin_rad;
      landings_.push_back({f.enemy, f.landing, f.yaw_rad, f.prone, time_s(), f.orientation()});
      any_landed = true;
      continue;
    }
    advance(f.position, f.velocity, gravity_step_, dt);
    f.spin_rad += f.spin_rate_rps * dt;
  }
  if (any_landed) std::erase_if(flights_, [](const Flight& f) { return f.steps_left == 0; });
}

void FakeRagdolls::take_landings(std::vector<Landing>& out) {
  out.insert(out.end(), landings_.begin(), landings_.end());
  landings_.clear();
}

const Flight* FakeRagdolls::flight(std::uint32_t enemy) const {
  const auto it = std::lower_bound(flights_.begin(), flights_.end(), enemy,
                                   [](const Flight& f, std::uint32_t e) { return f.enemy < e; });
  return it != flights_.end() && it->enemy == enemy ? &*it : nullptr;
}

std::uint64_t FakeRagdolls::state_hash() const {
  std::uint64_t hash = fnv1a_64(nullptr, 0);
  for (const Flight& f : flights_) {
    const float values[7] = {f.position.x, f.position.y, f.position.z, f.velocity.x,
                             f.velocity.y, f.velocity.z, f.spin_rad};
    hash = fnv1a_64(&f.enemy, sizeof(f.enemy), hash);
    hash = fnv1a_64(values, sizeof(values), hash);
  }
  return hash;
}

}  // namespace stagger::sim
