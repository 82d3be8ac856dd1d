#include "stagger/ai/navigator.h"

#include <algorithm>

#include "stagger/core/assert.h"

namespace stagger::ai {

namespace {
// Our own projection of a centre of mass: a narrow column from 1.4 m to 0.2 m below it (the
// crowd's own vertical search is only ±0.45 m and would miss a point 1 m above the floor).
constexpr float kColumnCentreBelowCom = 0.8f;         // [m]
constexpr Vec3 kColumnHalfExtents{0.6f, 0.6f, 0.6f};  // [m]
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
  return true;
}

void Navigator::set_goal(int enemy, std::optional<Vec3> goal, float speed) {
  Enemy& e = enemies_[static_cast<std::size_t>(enemy)];
  e.speed = speed;
  const bool same =
      goal.has_value() == e.goal.has_value() && (!goal || length(*goal - *e.goal) < 1e-3f);
  if (same) return;
  e.goal = goal;
  e.best_distance_m = 1e9f;
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
  return true;
}

void Navigator::leash(Enemy& e, bool measure) {
  const LeashSettings& s = settings_;
  Vec3 agent = crowd_.position(e.agent);
  e.follow.lead_m = length(horizontal(agent - e.follow.feet));  // the real distance, not its square
  // (Not measured on the tick the body stands up again: the agent waited where it fell.)
  if (measure) e.follow.max_lead_m = std::max(e.follow.max_lead_m, e.follow.lead_m);
  if (e.follow.lead_m > s.hard_m) {
    // Shoved or stumbled: bring the agent back to the slack radius on the body's side, along
    // its corridor. If that cannot get there (a wall between them), re-seat it at the body.
    const Vec3 wanted = e.follow.feet + normalized(horizontal(agent - e.follow.feet)) * s.slack_m;
    agent = crowd_.pull_back(e.agent, wanted);
    ++e.follow.pull_backs;
    if (length(horizontal(agent - wanted)) > s.reseat_gap_m && reseat(e))
      agent = crowd_.position(e.agent);
  }
  const float lead = length(horizontal(agent - e.follow.feet));
  const float slack = std::clamp(1.0f - (lead - s.slack_m) / (s.hard_m - s.slack_m), 0.0f, 1.0f);
  crowd_.set_max_speed(e.agent, e.speed * slack);
}

void Navigator::watch_progress(Enemy& e, float dt) {
  e.follow.stalled = false;
  if (!e.goal || !e.upright) {
    e.since_progress_s = 0;
    return;
  }
  const float distance = length(horizontal(*e.goal - e.follow.feet));
  if (distance < e.best_distance_m - settings_.progress_m || distance < settings_.arrived_m) {
    e.best_distance_m = distance;
    e.since_progress_s = 0;
    return;
  }
  e.since_progress_s += dt;
  if (e.since_progress_s < settings_.stall_s) return;
  // Stalled: plan the path again (from where the agent is: the leash keeps it by the body).
  e.follow.stalled = true;
  ++e.follow.replans;
  e.since_progress_s = 0;
  e.best_distance_m = distance;
  if (!crowd_.set_target(e.agent, *e.goal)) crowd_.clear_target(e.agent);
}

void Navigator::tick(float dt) {
  for (Enemy& e : enemies_) {
    if (e.agent < 0) continue;
    project(e);
    if (!e.upright || !e.follow.on_navmesh) {
      // Down, getting up, or off the navmesh: the agent waits.
      e.held = true;
      crowd_.set_max_speed(e.agent, 0.0f);
      continue;
    }
    const bool stood_up = e.held;
    if (stood_up) {
      e.held = false;
      e.best_distance_m = 1e9f;
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
    e.follow.aim = e.follow.agent + crowd_.velocity(e.agent) * settings_.look_ahead_s;
    watch_progress(e, dt);
  }
}

}  // namespace stagger::ai
