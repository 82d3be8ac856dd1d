#pragma once
// Static friction for a stance foot. Bullet's friction works on velocities only, so a foot that
// carries the drives' internal forces creeps a little every step (a standing ragdoll drifted
// 4 cm in a minute). A foot anchor remembers where a planted foot stands and pulls it back with a
// small capped horizontal force: the "rough" stance foot of design.md §8. A slip larger than a
// few centimetres moves the anchor instead of pulling the foot back.

#include <memory>

#include <btBulletDynamicsCommon.h>

#include "stagger/core/math.h"

namespace stagger::physics {

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
  btGeneric6DofSpring2Constraint& constraint() { return *constraint_; }

  /// Holds the foot (when `planted`) or lets it go, for the coming step.
  void update(bool planted);

 private:
  void anchor_here();
  void set_pulling(bool pulling);

  std::unique_ptr<btGeneric6DofSpring2Constraint> constraint_;
  btRigidBody& foot_;
  FootAnchorSettings settings_;
  bool anchored_ = false;
  bool pulling_ = false;  // motors on (they cost solver rows only while pulling)
};

}  // namespace stagger::physics
