#include "stagger/ai/navigator.h"

#include <algorithm>
#include <cmath>

#include "stagger/core/assert.h"

namespace stagger::ai {

namespace {
// Our own projection of a centre of mass: a narrow column from 1.4 m to 0.2 m below it (the
// crowd's own vertical search is only ±0.45 m and would miss a point 1 m above the floor).
constexpr float kColumnCentreBelowCom = 0.8f;         // [m]
constexpr Vec3 kColumnHalfExtents{0.6f, 0.6f, 0.6f};  // [m]
constexpr float kSameSpotM = 1e-3f;  // [m] an agent this near the body across has no direction
// [m] nearer than this across, the body sees its agent: no line of sight is traced
constexpr float kSightCheckM = 0.3f;
constexpr float kBeyondAnyLeashM = 1e9f;  // [m] the way to an agent on another floor
constexpr float kTrailSpacingM = 0.05f;   // [m] between the points of an agent's trail
// The points a trail keeps at most (3.2 m of it: the leash keeps an agent within 1.2 m)
constexpr std::size_t kMostTrailPoints = 64;
}  // namespace

Navigator::Navigator(std::shared_ptr<const Navmesh> navmesh, int max_enemies, float agent_radius,
                     float agent_height, LeashSettings settings)
    : navmesh_(navmesh),
      crowd_(navmesh, max_enemies, agent_radius),
      agent_radius_(agent_radius),
      agent_height_(agent_height),
      settings_(settings) {
  STAGGER_ASSERT(settings_.hard_m > settings_.slack_m);
}

int Navigator::add(Vec3 feet) {
  const Navmesh::Nearest at = navmesh_->nearest(feet, kColumnHalfExtents);
  if (!at.found) return -1;
  const int agent = crowd_.add_agent(at.point, agent_radius_, agent_height_, 0.0f);
  if (agent < 0) return -1;
  Enemy e;
  e.agent = agent;
  e.com = feet + Vec3{0, kColumnCentreBelowCom, 0};
  e.follow.feet = e.follow.agent = e.follow.aim = at.point;
  e.follow.on_navmesh = true;
  enemies_.push_back(e);
  return static_cast<int>(enemies_.size()) - 1;
}

void Navigator::remove(int enemy) {
  Enemy& e = enemies_[static_cast<std::size_t>(enemy)];
  if (e.agent < 0) return;
  crowd_.remove_agent(e.agent);
  e.agent = -1;
}

bool Navigator::teleport(int enemy, Vec3 feet) {
  Enemy& e = enemies_[static_cast<std::size_t>(enemy)];
  const Navmesh::Nearest at = navmesh_->nearest(feet, kColumnHalfExtents);
  if (e.agent < 0 || !at.found || !crowd_.reseat(e.agent, at.point)) return false;
  e.com = feet + Vec3{0, kColumnCentreBelowCom, 0};
  e.follow.feet = e.follow.agent = e.follow.aim = at.point;
  e.follow.on_navmesh = true;
  e.held = true;  // progress counts afresh from the new place
  e.trail.clear();
  return true;
}

void Navigator::set_goal(int enemy, std::optional<Vec3> goal, float speed) {
  Enemy& e = enemies_[static_cast<std::size_t>(enemy)];
  e.speed = speed;
  const bool same =
      goal.has_value() == e.goal.has_value() && (!goal || length(*goal - *e.goal) < 1e-3f);
  if (same) return;
  e.goal = goal;
  e.way_left_m = -1;
  e.since_progress_s = 0;
  if (!goal) {
    crowd_.clear_target(e.agent);
  } else if (!crowd_.set_target(e.agent, *goal)) {
    e.goal.reset();  // off the navmesh: stand rather than walk somewhere else
    crowd_.clear_target(e.agent);
  }
}

void Navigator::set_body(int enemy, Vec3 com, bool upright) {
  Enemy& e = enemies_[static_cast<std::size_t>(enemy)];
  e.com = com;
  e.upright = upright;
}

void Navigator::project(Enemy& e) const {
  // Slide the last projection after the body along the surface: the nearest polygon can jump
  // across a block or a wall corner when the body stands off the navmesh by an obstacle, and the
  // lead measured from such a jump is not the body's. Only when the slide stays far from the
  // body (a fall off a ledge, a throw) is the nearest point taken instead.
  const Vec3 below = e.com - Vec3{0, kColumnCentreBelowCom, 0};
  if (e.follow.on_navmesh) {
    const Navmesh::Nearest slid = navmesh_->slide(e.follow.feet, below);
    if (slid.found && slid.horizontal_m < kColumnHalfExtents.x &&
        slid.vertical_m < kColumnHalfExtents.y) {
      e.follow.feet = slid.point;
      return;
    }
  }
  const Navmesh::Nearest on = navmesh_->nearest(below, kColumnHalfExtents);
  e.follow.on_navmesh = on.found;
  if (on.found) e.follow.feet = on.point;
}

bool Navigator::reseat(Enemy& e) {
  if (!e.follow.on_navmesh || !crowd_.reseat(e.agent, e.follow.feet)) return false;
  ++e.follow.reseats;
  e.trail.clear();
  return true;
}

bool Navigator::on_other_floor(Vec3 a, Vec3 b) const {
  // Higher than a climb plus the steepest walkable grade over the distance between them.
  const NavigationSettings& s = navmesh_->settings();
  const float grade = std::tan(deg_to_rad(s.max_slope_deg));
  return std::fabs(a.y - b.y) > s.max_climb + grade * length(horizontal(a - b));
}

float Navigator::way_to(const Enemy& e, Vec3 agent) const {
  if (on_other_floor(agent, e.follow.feet)) return kBeyondAnyLeashM;
  const float across = length(horizontal(agent - e.follow.feet));
  if (across < kSightCheckM || navmesh_->in_sight(e.follow.feet, agent)) return across;
  return navmesh_->path_length(e.follow.feet, agent);
}

void Navigator::leash(Enemy& e, bool measure) {
  const LeashSettings& s = settings_;
  Vec3 agent = crowd_.position(e.agent);
  e.follow.lead_m = length(horizontal(agent - e.follow.feet));  // the real distance, not its square
  // (Not measured on the tick the body stands up again: the agent waited where it fell.)
  if (measure) e.follow.max_lead_m = std::max(e.follow.max_lead_m, e.follow.lead_m);
  float way = way_to(e, agent);
  if (way > s.hard_m) {
    // Shoved or stumbled: bring the agent back to the slack radius on the body's side, along
    // its corridor. If that cannot get there (a wall between them, another floor), re-seat it
    // at the body.
    const Vec3 across = horizontal(agent - e.follow.feet);
    const Vec3 wanted =
        e.follow.feet + (length(across) > kSameSpotM ? normalized(across) * s.slack_m : Vec3{});
    agent = crowd_.pull_back(e.agent, wanted);
    ++e.follow.pull_backs;
    e.trail.clear();
    const bool short_of_it =
        length(horizontal(agent - wanted)) > s.reseat_gap_m || on_other_floor(agent, e.follow.feet);
    if (short_of_it && reseat(e)) agent = crowd_.position(e.agent);
    way = way_to(e, agent);
  }
  const float slack = std::clamp(1.0f - (way - s.slack_m) / (s.hard_m - s.slack_m), 0.0f, 1.0f);
  crowd_.set_max_speed(e.agent, e.speed * slack);
}

void Navigator::lay_trail(Enemy& e) {
  if (!e.trail.empty() && length(e.follow.agent - e.trail.back()) < kTrailSpacingM) return;
  if (e.trail.size() == kMostTrailPoints) e.trail.erase(e.trail.begin());
  e.trail.push_back(e.follow.agent);
}

std::optional<Vec3> Navigator::trail_point(Enemy& e) const {
  const auto across = [&](Vec3 p) { return length(horizontal(p - e.com)); };
  // Passed: a point no nearer to the body than the one after it (a body shoved off to the side
  // goes on from beside where it was, not back to the points behind it).
  std::size_t passed = 0;
  while (passed + 1 < e.trail.size() && across(e.trail[passed + 1]) <= across(e.trail[passed])) {
    ++passed;
  }
  e.trail.erase(e.trail.begin(), e.trail.begin() + static_cast<std::ptrdiff_t>(passed));
  for (const Vec3& p : e.trail) {
    if (across(p) >= settings_.trail_lead_m) return p;
  }
  return std::nullopt;
}

void Navigator::aim(Enemy& e) {
  e.follow.aim = e.follow.agent + crowd_.velocity(e.agent) * settings_.look_ahead_s;
  // Along the agent's own trail: a body heading straight for an agent that has turned a corner
  // cuts inside the agent's turn, into the end of the wall the agent kept clear of. But not
  // round a loop (agents dodging one another turn more sharply than a body can).
  if (const std::optional<Vec3> on_trail = trail_point(e)) {
    const float straight = length(horizontal(e.follow.agent - e.com));
    if (trail_length(e) <= settings_.trail_loop_ratio * straight) e.follow.aim = *on_trail;
  }
  // Round a corner (the end of a wall between two flights), not through it: the body heads for a
  // point along the way to its agent while it cannot see it.
  if (length(horizontal(e.follow.aim - e.follow.feet)) < kSightCheckM ||
      navmesh_->in_sight(e.follow.feet, e.follow.aim)) {
    return;
  }
  if (const std::optional<Vec3> on_the_way =
          navmesh_->along_path(e.follow.feet, e.follow.agent, settings_.corner_lead_m)) {
    e.follow.aim = *on_the_way;
  }
}

float Navigator::trail_length(const Enemy& e) {
  if (e.trail.empty()) return 0.0f;
  float along = length(horizontal(e.trail.front() - e.com));
  for (std::size_t i = 1; i < e.trail.size(); ++i)
    along += length(horizontal(e.trail[i] - e.trail[i - 1]));
  return along + length(horizontal(e.follow.agent - e.trail.back()));
}

void Navigator::watch_progress(Enemy& e, float dt) {
  e.follow.stalled = false;
  if (!e.goal || !e.upright) {
    e.since_progress_s = 0;
    return;
  }
  if (length(horizontal(*e.goal - e.follow.feet)) < settings_.arrived_m) {
    e.since_progress_s = 0;
    return;
  }
  // Progress is judged on the way left along the navmesh, once a window: the straight distance
  // grows on the way up a switchback flight toward a goal above where it starts.
  if (e.way_left_m < 0) e.way_left_m = navmesh_->path_length(e.follow.feet, *e.goal);
  e.since_progress_s += dt;
  if (e.since_progress_s < settings_.stall_s) return;
  e.since_progress_s = 0;
  const float way = navmesh_->path_length(e.follow.feet, *e.goal);
  const bool progressed = way < e.way_left_m - settings_.progress_m;
  e.way_left_m = way;
  if (progressed) return;
  // Stalled: plan the path again (from where the agent is: the leash keeps it by the body).
  e.follow.stalled = true;
  ++e.follow.replans;
  if (!crowd_.set_target(e.agent, *e.goal)) crowd_.clear_target(e.agent);
}

void Navigator::tick(float dt) {
  for (Enemy& e : enemies_) {
    if (e.agent < 0) continue;
    project(e);
    if (!e.upright || !e.follow.on_navmesh) {
      // Down, getting up, or off the navmesh: the agent waits.
      e.held = true;
      e.trail.clear();
      crowd_.set_max_speed(e.agent, 0.0f);
      continue;
    }
    const bool stood_up = e.held;
    if (stood_up) {
      e.held = false;
      e.way_left_m = -1;
      e.since_progress_s = 0;
    }
    leash(e, !stood_up);
  }
  crowd_.update(dt);
  for (Enemy& e : enemies_) {
    if (e.agent < 0) continue;
    e.follow.valid = crowd_.valid(e.agent);
    if (!e.follow.valid) {
      ++e.follow.invalid_ticks;
      reseat(e);
    }
    e.follow.agent = crowd_.position(e.agent);
    lay_trail(e);
    aim(e);
    watch_progress(e, dt);
  }
}

}  // namespace stagger::ai
