#include "stagger/ai/patrol.h"

#include <algorithm>

#include "stagger/core/assert.h"

namespace stagger::ai {

Patrol::Patrol(std::vector<PatrolPoint> points, PatrolMode mode, float guard_yaw_rad, PatrolSettings settings)
    : points_(std::move(points)), mode_(mode), guard_yaw_(guard_yaw_rad), settings_(settings) {
  STAGGER_ASSERT(!points_.empty());
}

std::size_t Patrol::next_after(std::size_t index) {
  const std::size_t n = points_.size();
  if (n == 1) return 0;
  if (mode_ == PatrolMode::loop) return (index + 1) % n;
  // Ping-pong: 0, 1, 2, 1, 0, 1, ... turning round at either end.
  if (direction_ > 0 && index + 1 >= n) direction_ = -1;
  if (direction_ < 0 && index == 0) direction_ = 1;
  return direction_ > 0 ? index + 1 : index - 1;
}

Vec3 Patrol::update(Vec3 position, float dt) {
  if (arrived_) {
    wait_left_s_ = std::max(0.0f, wait_left_s_ - dt);
    if (wait_left_s_ > 0 || guarding()) return target();
    arrived_ = false;
    target_ = next_after(target_);
    return target();
  }
  if (length(horizontal(target() - position)) <= settings_.arrival_radius_m) {
    arrived_ = true;
    reached_.push_back(target_);
    wait_left_s_ = points_[target_].wait_s;
    if (wait_left_s_ <= 0 && !guarding()) {
      arrived_ = false;
      target_ = next_after(target_);
    }
  }
  return target();
}

void Patrol::resume_from(Vec3 position) {
  std::size_t nearest = 0;
  for (std::size_t i = 1; i < points_.size(); ++i) {
    if (length(horizontal(points_[i].position - position)) < length(horizontal(points_[nearest].position - position))) {
      nearest = i;
    }
  }
  target_ = nearest;  // the direction of a ping-pong route is kept as it was
  arrived_ = false;
  wait_left_s_ = 0;
}

}  // namespace stagger::ai
