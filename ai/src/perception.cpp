#include "stagger/ai/perception.h"

#include <cmath>

namespace stagger::ai {

namespace {
constexpr float kChestBelowHead = 0.45f;  // [m]
}

bool Perception::in_cone(Vec3 eye, Vec3 forward, Vec3 target) const {
  const Vec3 to = target - eye;
  const float distance = length(to);
  if (distance > settings_.range_m) return false;
  if (length(horizontal(to)) < settings_.near_m) return true;  // close by, felt in any direction
  const float cos_half = std::cos(deg_to_rad(settings_.view_angle_deg) * 0.5f);
  return dot(to / distance, normalized(forward)) >= cos_half;
}

void Perception::update(const physics::World& world, Vec3 eye, Vec3 forward,
                        const PlayerView& player, float dt) {
  since_seen_s_ += dt;
  bool visible = false;
  if (player.present) {
    const Vec3 chest = player.head - Vec3{0, kChestBelowHead, 0};
    visible = in_cone(eye, forward, player.head) &&
              (world.line_of_sight(eye, player.head) || world.line_of_sight(eye, chest));
  }
  in_sight_s_ = visible ? in_sight_s_ + dt : 0.0f;
  // Noticing takes a moment; once noticed, the player stays seen while in sight.
  sees_ = visible && (sees_ || in_sight_s_ >= settings_.notice_s);
  if (sees_) {
    saw_ever_ = true;
    remembers_ = true;
    last_seen_ = player.feet;
    since_seen_s_ = 0;
  }
  if (since_seen_s_ > settings_.memory_s) remembers_ = false;
}

}  // namespace stagger::ai
