#include "hit_reaction_controller.h"

#include <algorithm>
#include <optional>

namespace stagger::physics {
namespace {

// The torso joint that twists when a body part is struck (the pelvis has none).
std::optional<JointName> twist_joint_for(BodyPart part) {
  switch (part) {
    case BodyPart::head:
      return JointName::neck;
    case BodyPart::chest:
      return JointName::lumbar;
    default:
      return std::nullopt;
  }
}

}  // namespace

void HitReactionController::advance(float dt) {
  state_.since_hit_s += dt;
  for (auto& s : state_.strength) s.advance(dt);
  for (auto& t : state_.twist) t.advance(dt, settings_);
}

void HitReactionController::react(BodyPart part, Vec3 impulse, float body_yaw_rad) {
  const float magnitude = length(impulse);
  state_.last_hit_ns = state_.since_hit_s > 0 ? magnitude : std::max(state_.last_hit_ns, magnitude);
  state_.since_hit_s = 0;
  const HitReactionSettings& hit = settings_;
  const float depth = hit_depth(magnitude, hit);
  if (depth <= 0) return;

  // The struck part loses the most strength; its parent and children less.
  state_.strength[slot(part)].hit(depth, hit);
  if (part != BodyPart::pelvis)
    state_.strength[slot(parent_of(part))].hit(depth * hit.neighbour_share, hit);
  for (int c = 1; c < kBodyPartCount; ++c) {
    if (parent_of(body_part_at(c)) == part) {
      state_.strength[static_cast<std::size_t>(c)].hit(depth * hit.neighbour_share, hit);
    }
  }

  // A struck head or torso tilts away from the blow (about up × direction, in the character's
  // frame) and turns a little toward its sideways part, then springs back.
  if (!twist_joint_for(part)) return;
  const Quat to_local = Quat::from_yaw(body_yaw_rad).conjugate();
  const Vec3 direction = normalized(horizontal(to_local.rotate(impulse)));
  if (length(direction) < 0.5f) return;  // a blow straight up or down: no direction
  const Vec3 axis =
      cross({0, 1, 0}, direction) + Vec3{0, 1, 0} * (hit.twist_turn_share * direction.x);
  state_.twist[slot(part)].kick(normalized(axis), magnitude, hit);
}

void HitReactionController::add_twists(Pose& pose) const {
  for (int p = 0; p < kBodyPartCount; ++p) {
    const auto joint = twist_joint_for(body_part_at(p));
    const TwistSpring& twist = state_.twist[static_cast<std::size_t>(p)];
    if (!joint || !twist.active()) continue;
    pose[*joint] = pose[*joint] * Quat::from_rotation_vector(twist.rotation_vector());
  }
}

}  // namespace stagger::physics
