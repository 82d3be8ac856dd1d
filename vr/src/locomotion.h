#pragma once
// Moving the player through a level: the thumbstick walks the player's body (a capsule that the
// head and hands belong to) and turns the view; room-scale steps of the head carry the body along.
// Each frame, Locomotion moves the body and says how the tracking space must move in the world
// (a translation and a turn about the head) so that the head stays over the body: a head pushed
// into a wall is held back by the body, never put through it.

#include <array>

#include "stagger/core/math.h"
#include "stagger/physics/player_body.h"

namespace stagger::vr {

enum class TurnStyle { snap, smooth };
/// What movement is relative to: where the head looks, or where the left hand points.
enum class MoveReference { head, hand };

struct LocomotionSettings {
  float max_speed = 2.5f;     ///< [m/s] at full stick
  float acceleration = 6.0f;  ///< [m/s²] toward the stick's speed (and back to rest)
  float dead_zone = 0.15f;    ///< [-] of the stick's travel that moves nothing
  MoveReference reference = MoveReference::head;
  TurnStyle turn = TurnStyle::snap;
  float snap_deg = 30.0f;           ///< [deg] per flick
  float smooth_turn_deg_s = 90.0f;  ///< [deg/s] at full stick
  float snap_flick = 0.7f;          ///< [-] the stick pushed this far sideways turns once ...
  float snap_rearm = 0.3f;          ///< [-] ... and again only after it came back this far
  /// [m] the view follows the body's height (stairs, ramps) once it differs by more than this:
  /// the view does not tremble with the contact's last millimetre.
  float min_lift_m = 0.002f;
};

struct LocomotionInput {
  float dt = 0;                       ///< [s] the frame
  std::array<float, 2> move_stick{};  ///< x right, y forward, each -1..1
  std::array<float, 2> turn_stick{};  ///< x right (turns right), y unused
  Vec3 head;                          ///< [m] world, this frame
  Vec3 head_forward{0, 0, -1};        ///< where the head looks (world)
  Vec3 hand_forward{0, 0, -1};        ///< where the left hand points (world)
};

/// How the tracking space moves this frame: turned by `yaw_rad` about the head, then moved by
/// `translation` [m].
struct RigMove {
  Vec3 translation;
  float yaw_rad = 0;
};

class Locomotion {
 public:
  Locomotion(physics::PlayerBody& body, const LocomotionSettings& settings);

  RigMove update(const LocomotionInput& input);

  /// [m/s] the stick's walking velocity now (room-scale steps not included).
  Vec3 velocity() const { return velocity_; }
  bool moving() const { return length(velocity_) > 0; }
  int snap_turns() const { return snap_turns_; }
  /// [rad] the view's turns so far, added up (positive: to the left).
  float turned_rad() const { return turned_rad_; }
  /// [m] horizontal path of the body so far.
  double distance_m() const { return distance_m_; }
  const physics::PlayerBody& body() const { return body_; }

 private:
  float turn(const LocomotionInput& input);
  void accelerate(const LocomotionInput& input);

  physics::PlayerBody& body_;
  LocomotionSettings settings_;
  Vec3 velocity_;
  bool snap_armed_ = true;
  int snap_turns_ = 0;
  float turned_rad_ = 0;
  double distance_m_ = 0;
  float rig_floor_y_;  // [m] the body's height the view stands on
};

}  // namespace stagger::vr
