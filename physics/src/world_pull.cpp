#include "world_pull.h"

#include <algorithm>

#include "bullet_convert.h"

namespace stagger::physics {
namespace {

// A 6Dof2 linear motor drives (v_A - v_B)·axis toward its target; A is the static world here.
constexpr float kLinearMotorSign = -1.0f;

}  // namespace

WorldPull::WorldPull(btRigidBody& body) : body_(body) {
  btTransform in_world;
  in_world.setIdentity();
  in_world.setOrigin(body.getCenterOfMassPosition());
  btTransform in_body;
  in_body.setIdentity();
  constraint_ = std::make_unique<btGeneric6DofSpring2Constraint>(btTypedConstraint::getFixedBody(),
                                                                 body, in_world, in_body, RO_XYZ);
  // Free in every direction: only the motors act, and only while pulling.
  constraint_->setLinearLowerLimit(btVector3(1, 1, 1));
  constraint_->setLinearUpperLimit(btVector3(0, 0, 0));
  constraint_->setAngularLowerLimit(btVector3(1, 1, 1));
  constraint_->setAngularUpperLimit(btVector3(0, 0, 0));
  // A disabled constraint costs the solver nothing, not even its per-step setup.
  constraint_->setEnabled(false);
}

Vec3 WorldPull::target() const {
  return from_bt(constraint_->getFrameOffsetA().getOrigin());
}

void WorldPull::set_target(Vec3 point) {
  constraint_->getFrameOffsetA().setOrigin(to_bt(point));
}

void WorldPull::pull(Vec3 max_force, float time_constant_s, float max_speed, Vec3 target_velocity) {
  const btVector3 gap =
      constraint_->getFrameOffsetA().getOrigin() - body_.getCenterOfMassPosition();
  const float caps[3] = {max_force.x, max_force.y, max_force.z};
  const float feed[3] = {target_velocity.x, target_velocity.y, target_velocity.z};
  constraint_->setEnabled(caps[0] > 0 || caps[1] > 0 || caps[2] > 0);
  for (int axis = 0; axis < 3; ++axis) {
    const bool on = caps[axis] > 0;
    if (on != enabled_[axis]) {
      constraint_->enableMotor(axis, on);
      enabled_[axis] = on;
    }
    if (!on) continue;
    const float velocity =
        feed[axis] + std::clamp(gap[axis] / time_constant_s, -max_speed, max_speed);
    constraint_->setTargetVelocity(axis, kLinearMotorSign * velocity);
    constraint_->setMaxMotorForce(axis, caps[axis]);
  }
}

void WorldPull::release() {
  pull({}, 1.0f, 0.0f);
}

FootAnchor::FootAnchor(btRigidBody& foot, const FootAnchorSettings& settings)
    : pull_(foot), settings_(settings) {}

void FootAnchor::anchor_here() {
  pull_.set_target(from_bt(pull_.body().getCenterOfMassPosition()));
  anchored_ = true;
  pulling_ = false;
  pull_.release();
}

void FootAnchor::update(bool planted) {
  if (!planted) {
    anchored_ = false;
    pulling_ = false;
    pull_.release();
    return;
  }
  if (!anchored_) anchor_here();
  Vec3 offset = from_bt(pull_.body().getCenterOfMassPosition()) - pull_.target();
  offset.y = 0;
  const float distance = length(offset);
  if (distance > settings_.slip_m) {
    anchor_here();
    return;
  }
  pulling_ = pulling_ ? distance >= settings_.release_m : distance >= settings_.engage_m;
  if (!pulling_) {
    pull_.release();
    return;
  }
  // Only horizontal (no Y cap): the foot's height is the ground's business.
  pull_.pull({settings_.max_force_n, 0, settings_.max_force_n}, settings_.time_constant_s, 1.0f);
}

}  // namespace stagger::physics
