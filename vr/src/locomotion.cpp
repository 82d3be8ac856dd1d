#include "locomotion.h"

#include <algorithm>
#include <cmath>

namespace stagger::vr {

Locomotion::Locomotion(physics::PlayerBody& body, const LocomotionSettings& settings)
    : body_(body), settings_(settings), rig_floor_y_(body.feet().y) {}

float Locomotion::turn(const LocomotionInput& input) {
  // Yaw grows from +Z toward +X: the player's right is -X when facing +Z, so turning right is a
  // negative yaw.
  const float x = input.turn_stick[0];
  if (settings_.turn == TurnStyle::smooth) {
    if (std::fabs(x) <= settings_.dead_zone) return 0;
    return -x * deg_to_rad(settings_.smooth_turn_deg_s) * input.dt;
  }
  if (std::fabs(x) < settings_.snap_rearm) snap_armed_ = true;
  if (!snap_armed_ || std::fabs(x) < settings_.snap_flick) return 0;
  snap_armed_ = false;
  ++snap_turns_;
  return x > 0 ? -deg_to_rad(settings_.snap_deg) : deg_to_rad(settings_.snap_deg);
}

void Locomotion::accelerate(const LocomotionInput& input) {
  const Vec3 reference =
      settings_.reference == MoveReference::head ? input.head_forward : input.hand_forward;
  Vec3 forward = horizontal(reference);
  forward = length(forward) > 1e-3f ? normalized(forward) : Vec3{0, 0, -1};
  const Vec3 right = cross(forward, Vec3{0, 1, 0});
  const float x = input.move_stick[0];
  const float y = input.move_stick[1];
  const float travel = std::min(1.0f, std::hypot(x, y));
  Vec3 wanted;
  if (travel > settings_.dead_zone) {
    // The dead zone is taken off the travel, so speed rises smoothly from it.
    const float scale = (travel - settings_.dead_zone) / (1.0f - settings_.dead_zone) / travel;
    wanted = (right * x + forward * y) * (scale * settings_.max_speed);
  }
  const Vec3 change = wanted - velocity_;
  const float most = settings_.acceleration * input.dt;
  velocity_ = length(change) <= most ? wanted : velocity_ + normalized(change) * most;
}

RigMove Locomotion::update(const LocomotionInput& input) {
  RigMove move;
  move.yaw_rad = turn(input);
  turned_rad_ += move.yaw_rad;
  accelerate(input);
  // The body follows the head's room-scale steps and the stick; the rig then puts the head back
  // over the body (and lifts it with the body on stairs).
  const Vec3 before = body_.feet();
  const Vec3 head_offset = horizontal(input.head - before);
  body_.move(head_offset + velocity_ * input.dt, input.dt);
  const Vec3 after = body_.feet();
  distance_m_ += static_cast<double>(length(horizontal(after - before)));
  move.translation = horizontal(after - input.head);
  if (std::fabs(after.y - rig_floor_y_) > settings_.min_lift_m) {
    move.translation.y = after.y - rig_floor_y_;
    rig_floor_y_ = after.y;
  }
  return move;
}

}  // namespace stagger::vr
