#include "stagger/ai/patrol.h"

#include <algorithm>
#include <cmath>

#include "stagger/core/assert.h"

namespace stagger::ai {

Patrol::Patrol(std::vector<PatrolPoint> points, PatrolMode mode, float guard_yaw_rad,
               PatrolSettings settings)
    : points_(std::move(points)), mode_(mode), guard_yaw_(guard_yaw_rad), settings_(settings) {
  STAGGER_ASSERT(!points_.empty());
}

std::size_t Patrol::next_after(std::size_t index, int& direction) const {
  const std::size_t n = points_.size();
  if (n == 1) return 0;
  if (mode_ == PatrolMode::loop) return (index + 1) % n;
  // Ping-pong: 0, 1, 2, 1, 0, 1, ... turning round at either end.
  if (direction > 0 && index + 1 >= n) direction = -1;
  if (direction < 0 && index == 0) direction = 1;
  return direction > 0 ? index + 1 : index - 1;
}

Vec3 Patrol::update(Vec3 position, float dt, bool settled, bool taken) {
  if (arrived_) {
    // The wait starts once the walker has come to a stop, then runs whatever it does (it
    // may step round to face the next point).
    waiting_started_ = waiting_started_ || settled;
    if (waiting_started_) wait_left_s_ = std::max(0.0f, wait_left_s_ - dt);
    if (wait_left_s_ > settings_.start_early_s || guarding()) return wait_at_;
    arrived_ = false;
    target_ = advance(target_);
    return target();
  }
  // A point without a wait is passed, not stopped at: it counts from farther off, before the
  // crowd agent, already there, slows down at it and the body stops behind it.
  const bool waits = points_[target_].wait_s > 0 || guarding();
  const float radius = !waits  ? settings_.pass_radius_m
                       : taken ? std::max(settings_.taken_radius_m, settings_.arrival_radius_m)
                               : settings_.arrival_radius_m;
  const float distance = length(horizontal(target() - position));
  if (distance <= radius && on_floor_of(target(), position)) {
    arrived_ = true;
    waiting_started_ = false;
    // Short of a point another enemy stands at, it waits where it is (a guard keeps to its post):
    // walking on, it pressed up against that enemy and stood in its way as it turned to leave
    // (two ragdolls sharing the arena's ramp route fell there, bumping each other).
    wait_at_ = distance > settings_.arrival_radius_m && !guarding() ? position : target();
    reached_.push_back(target_);
    wait_left_s_ = points_[target_].wait_s;
    if (wait_left_s_ <= 0 && !guarding()) {
      arrived_ = false;
      target_ = advance(target_);
    }
  }
  return arrived_ ? wait_at_ : target();
}

void Patrol::resume_from(Vec3 position) {
  std::size_t nearest = 0;
  for (std::size_t i = 1; i < points_.size(); ++i) {
    if (length(horizontal(points_[i].position - position)) <
        length(horizontal(points_[nearest].position - position))) {
      nearest = i;
    }
  }
  // Nearest to the point it was walking to (or waiting at), or to the one it came from: the
  // leg it was on goes on as it was.
  if (nearest == target_ || (!reached_.empty() && nearest == reached_.back())) return;
  // Elsewhere: the nearest point, or the one after it (in the direction of travel) when already
  // past it: out of its arrival radius and within 35° of the leg's direction.
  int direction = direction_;
  const std::size_t next = next_after(nearest, direction);
  const Vec3 offset = horizontal(position - points_[nearest].position);
  const float from_nearest = length(offset);
  const Vec3 leg = normalized(horizontal(points_[next].position - points_[nearest].position));
  const bool past = next != nearest && from_nearest > settings_.arrival_radius_m &&
                    dot(offset, leg) > std::cos(deg_to_rad(35.0f)) * from_nearest;
  if (past) direction_ = direction;
  target_ = past ? next : nearest;
  arrived_ = false;
  wait_left_s_ = 0;
}

std::size_t Patrol::before(std::size_t index) const {
  int direction = -direction_;
  return next_after(index, direction);
}

Vec3 Patrol::following() const {
  int direction = direction_;
  return points_[next_after(target_, direction)].position;
}

void Patrol::skip() {
  target_ = advance(target_);
  arrived_ = false;
  wait_left_s_ = 0;
}

}  // namespace stagger::ai
