#include "foot_anchor.h"

#include <algorithm>

namespace stagger::physics {
namespace {

// A 6Dof2 linear motor drives (v_A - v_B)·axis toward its target; A is the static world here.
constexpr float kLinearMotorSign = -1.0f;

}  // namespace

FootAnchor::FootAnchor(btRigidBody& foot, const FootAnchorSettings& settings)
    : foot_(foot), settings_(settings) {
  btTransform in_world;
  in_world.setIdentity();
  in_world.setOrigin(foot.getCenterOfMassPosition());
  btTransform in_foot;
  in_foot.setIdentity();
  constraint_ = std::make_unique<btGeneric6DofSpring2Constraint>(btTypedConstraint::getFixedBody(),
                                                                 foot, in_world, in_foot, RO_XYZ);
  // Free in every direction: only the two horizontal motors act, and only while planted.
  constraint_->setLinearLowerLimit(btVector3(1, 1, 1));
  constraint_->setLinearUpperLimit(btVector3(0, 0, 0));
  constraint_->setAngularLowerLimit(btVector3(1, 1, 1));
  constraint_->setAngularUpperLimit(btVector3(0, 0, 0));
}

void FootAnchor::anchor_here() {
  constraint_->getFrameOffsetA().setOrigin(foot_.getCenterOfMassPosition());
  anchored_ = true;
  set_pulling(false);
}

void FootAnchor::set_pulling(bool pulling) {
  if (pulling == pulling_) return;
  pulling_ = pulling;
  for (int axis : {0, 2}) constraint_->enableMotor(axis, pulling);
}

void FootAnchor::update(bool planted) {
  if (!planted) {
    anchored_ = false;
    set_pulling(false);
    return;
  }
  if (!anchored_) anchor_here();
  btVector3 offset = foot_.getCenterOfMassPosition() - constraint_->getFrameOffsetA().getOrigin();
  offset.setY(0);
  const float distance = offset.length();
  if (distance > settings_.slip_m) {
    anchor_here();
    return;
  }
  if (pulling_ ? distance < settings_.release_m : distance < settings_.engage_m) {
    set_pulling(false);
    return;
  }
  set_pulling(true);
  for (int axis : {0, 2}) {
    const float velocity = -offset[axis] / settings_.time_constant_s;
    constraint_->setTargetVelocity(axis, kLinearMotorSign * velocity);
    constraint_->setMaxMotorForce(axis, settings_.max_force_n);
  }
}

}  // namespace stagger::physics
