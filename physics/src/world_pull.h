#pragma once
// Capped linear pulls of a body toward a point in the world, as 6Dof2 linear velocity motors
// against the static world (rotation stays free). Used for two things:
//
// - FootAnchor: static friction for a stance foot. Bullet's friction works on velocities only,
//   so a foot that carries the drives' internal forces creeps a little every step. The anchor
//   remembers where a planted foot stands and, once it has crept a couple of millimetres, pulls
//   it back with a small capped horizontal force: a "rough" stance foot that does not creep. A slip
//   larger than a few centimetres moves the anchor instead.
// - The get-up assistance: a capped lift of the pelvis toward standing height.

#include <btBulletDynamicsCommon.h>

#include <memory>

#include "stagger/core/math.h"

namespace stagger::physics {

class WorldPull {
 public:
  explicit WorldPull(btRigidBody& body);
  btGeneric6DofSpring2Constraint& constraint() { return *constraint_; }
  btRigidBody& body() { return body_; }

  Vec3 target() const;
  void set_target(Vec3 point);
  /// Pulls toward the target, closing the gap with `time_constant_s`, at most `max_speed` [m/s]
  /// on top of `target_velocity` (a moving target), with at most `max_force` [N] per world axis
  /// (0 leaves that axis free).
  void pull(Vec3 max_force, float time_constant_s, float max_speed, Vec3 target_velocity = {});
  /// Switches every motor off (no solver rows).
  void release();

 private:
  std::unique_ptr<btGeneric6DofSpring2Constraint> constraint_;
  btRigidBody& body_;
  bool enabled_[3] = {false, false, false};
};

struct FootAnchorSettings {
  float max_force_n = 40.0f;     ///< [N] horizontal cap, far below what friction can carry
  float time_constant_s = 0.1f;  ///< [s] how fast the foot returns to its anchor
  float engage_m = 0.002f;       ///< [m] creep that switches the pull on
  float release_m = 0.0005f;     ///< [m] the pull switches off again this close to the anchor
  float slip_m = 0.02f;          ///< [m] farther than this, the anchor follows the foot
};

class FootAnchor {
 public:
  FootAnchor(btRigidBody& foot, const FootAnchorSettings& settings);
  btGeneric6DofSpring2Constraint& constraint() { return pull_.constraint(); }

  /// Holds the foot (when `planted`) or lets it go, for the coming step.
  void update(bool planted);

 private:
  void anchor_here();

  WorldPull pull_;
  FootAnchorSettings settings_;
  bool anchored_ = false;
  bool pulling_ = false;
};

}  // namespace stagger::physics
