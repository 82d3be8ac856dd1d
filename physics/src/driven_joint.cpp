#include "driven_joint.h"

#include <algorithm>
#include <cmath>

#include "bullet_convert.h"
#include "stagger/core/assert.h"
#include "stagger/core/math.h"

namespace stagger::physics {

// Sign conventions of Bullet's 6Dof2 (measured; tests/joint_drive_test.cpp keeps them honest):
// its Euler angles are the negated rotation angles of the child relative to the parent (a child
// turned +0.3 rad about X reads -0.3), they grow with (ω_parent - ω_child)·getAxis(i), and a
// velocity motor's target is that rate. Our API speaks the usual right-handed convention, so
// limits and reported angles are negated at this boundary.

DrivenJoint::DrivenJoint(btRigidBody& parent, btRigidBody& child,
                         const btTransform& frame_in_parent, const btTransform& frame_in_child,
                         const JointSettings& settings)
    : constraint_(std::make_unique<DrivenConstraint>(parent, child, frame_in_parent, frame_in_child,
                                                     RO_XYZ)),
      drive_(settings.drive),
      anchored_to_world_(settings.parent_is_world) {
  auto& c = *constraint_;
  if (settings.parent_is_world) {
    // Only the rotation is driven; the body moves freely.
    c.setLinearLowerLimit(btVector3(1, 1, 1));
    c.setLinearUpperLimit(btVector3(0, 0, 0));
  } else {
    c.setLinearLowerLimit(btVector3(0, 0, 0));
    c.setLinearUpperLimit(btVector3(0, 0, 0));
  }
  c.setAngularLowerLimit(to_bt(-settings.limits.upper));
  c.setAngularUpperLimit(to_bt(-settings.limits.lower));
  const float lower[3] = {settings.limits.lower.x, settings.limits.lower.y,
                          settings.limits.lower.z};
  const float upper[3] = {settings.limits.upper.x, settings.limits.upper.y,
                          settings.limits.upper.z};
  for (int i = 0; i < 3; ++i) {
    limit_lo_[i] = -upper[i];
    limit_hi_[i] = -lower[i];
    const bool locked = lower[i] == upper[i];
    driven_[i] = settings.drive_axes[i] && !locked;
    if (driven_[i]) {
      c.enableMotor(3 + i, true);
      c.setServo(3 + i, false);
      c.setTargetVelocity(3 + i, 0);
      c.setMaxMotorForce(3 + i, drive_.max_torque_nm);
    }
  }
}

void DrivenJoint::set_target(Quat local_rotation) {
  // Most targets stay put from step to step: skip the Euler decomposition when nothing changed.
  if (local_rotation == target_rotation_ && has_target_rotation_) return;
  target_rotation_ = local_rotation;
  has_target_rotation_ = true;
  target_ = euler_xyz(btMatrix3x3(to_bt(normalized(local_rotation))));
}

void DrivenJoint::set_axis_driven(int axis, bool on) {
  const auto i = static_cast<std::size_t>(axis);
  if (driven_[i] == on) return;
  driven_[i] = on;
  constraint_->enableMotor(3 + axis, on);
  constraint_->setServo(3 + axis, false);
  constraint_->calculateTransforms();
  model_angle_[i] = constraint_->getAngle(axis);
  model_rate_[i] = 0;
}

void DrivenJoint::hold_with_bullet_servos(Quat local_rotation, float servo_speed) {
  set_target(local_rotation);
  for (int i = 0; i < 3; ++i) {
    if (!driven_[i]) continue;
    constraint_->setServo(3 + i, true);
    constraint_->setServoTarget(3 + i, target_[i]);
    constraint_->setTargetVelocity(3 + i, servo_speed);
    constraint_->setMaxMotorForce(3 + i, drive_.max_torque_nm);
  }
}

void DrivenJoint::update_motors(float dt, const WorldSettings& world) {
  auto& c = *constraint_;
  c.refresh();
  const btVector3 relative_omega =
      c.getRigidBodyA().getAngularVelocity() - c.getRigidBodyB().getAngularVelocity();
  if (driven_[0] || driven_[1] || driven_[2]) drive_axes(relative_omega, dt);
  update_limits(relative_omega, dt, world.limit_margin_rad);
  update_iterations(world.free_joint_iterations);
}

void DrivenJoint::update_iterations(int free_iterations) {
  // A limit row stops a limb that is already moving, and needs the full count to converge; the
  // motor and point rows of a joint in mid-range converge in fewer.
  // (A locked axis counts as engaged: its one row holds a hinge straight and always acts.)
  const bool near_limit = limit_engaged_[0] || limit_engaged_[1] || limit_engaged_[2];
  int iterations = fixed_iterations_;
  if (iterations <= 0 && !near_limit) iterations = free_iterations;
  constraint_->setOverrideNumSolverIterations(iterations > 0 ? iterations : -1);
}

void DrivenJoint::update_limits(const btVector3& relative_omega, float dt, float margin_rad) {
  // A limit row of 6Dof2 acts only when the joint would pass the limit within the step: it allows
  // an approach of ERP × gap per step (ERP 0.2), and the motor slows near a limit by the same
  // measure. So the rows are left out while the joint is farther from both limits than a margin
  // plus twice the distance at which either could act at the faster of the joint's and the
  // motor's rates; they come back the step before they could matter.
  constexpr float kLookahead = 2.0f / 0.2f;  // 2 × 1/ERP
  auto& c = *constraint_;
  for (int i = 0; i < 3; ++i) {
    const float lo = limit_lo_[i];
    const float hi = limit_hi_[i];
    if (!(lo < hi)) continue;  // locked (one row, always needed) or free
    const float angle = btAdjustAngleToLimits(c.getAngle(i), lo, hi);
    const float rate =
        std::max(std::fabs(relative_omega.dot(c.getAxis(i))),
                 driven_[i] ? std::fabs(c.getRotationalLimitMotor(i)->m_targetVelocity) : 0.0f);
    const float gap = std::min(angle - lo, hi - angle);
    const bool engage = gap < margin_rad + kLookahead * rate * dt;
    if (engage == limit_engaged_[i]) continue;
    limit_engaged_[i] = engage;
    if (engage) {
      c.setLimit(3 + i, lo, hi);
    } else {
      c.setLimit(3 + i, 1, 0);  // lower above upper: free, no rows
    }
  }
}

void DrivenJoint::drive_axes(const btVector3& relative_omega, float dt) {
  auto& c = *constraint_;
  if (!has_previous_target_) {
    previous_target_ = target_;
    has_previous_target_ = true;
    resync_model(relative_omega);
  }

  const float w = 2.0f * kPi * drive_.frequency_hz;
  const float h = dt;
  const float two_zeta_w_h = 2.0f * drive_.damping_ratio * w * h;
  const float denominator = 1.0f + two_zeta_w_h + w * w * h * h;
  const float cap = std::max(0.0f, drive_.max_torque_nm * strength_);
  // Fraction of the gap to the reference closed per step (like a constraint's ERP). Measured on a
  // standing ragdoll over 60 s: 0.3 and 0.15 made the closed loop of legs and ground fight itself
  // (shins buzzing at 5 cm/s, feet sliding 9 cm); 0.05 stands still (1.5 cm/s at most, 1 cm).
  constexpr float kTracking = 0.05f;
  // [rad] gaps smaller than this are not pulled in. A velocity motor that cannot close its gap
  // pushes with its whole cap, and the legs standing on the ground form a closed loop where tiny
  // gaps cannot close: without the dead band the loop wound itself up until a foot slipped
  // (stick-slip at 0.25 m/s every few seconds, or 30 cm of drift a minute without foot anchors).
  constexpr float kDeadband = 0.01f;

  for (int i = 0; i < 3; ++i) {
    if (!driven_[i]) continue;
    const float angle = c.getAngle(i);
    float desired = 0;
    if (limp_) {
      model_angle_[i] = angle;
      model_rate_[i] = 0;
    } else {
      // A shove that wins against the cap drags the joint away from the reference; it then
      // returns from where it is, along the spring-damper, instead of snapping back.
      if (std::fabs(wrap_angle(model_angle_[i] - angle)) > drive_.max_lag_rad) {
        model_angle_[i] = angle;
        model_rate_[i] = relative_omega.dot(c.getAxis(i));
      }
      // Reference: implicit Euler of x'' = w²(x* - x) + 2ζw(v* - v).
      const float error = wrap_angle(target_[i] - model_angle_[i]);
      const float target_rate = wrap_angle(target_[i] - previous_target_[i]) / h;
      model_rate_[i] =
          (model_rate_[i] + h * w * w * error + two_zeta_w_h * target_rate) / denominator;
      model_angle_[i] += h * model_rate_[i];
      const float gap = wrap_angle(model_angle_[i] - angle);
      const float beyond = std::fabs(gap) > kDeadband ? gap - std::copysign(kDeadband, gap) : 0.0f;
      desired = model_rate_[i] + kTracking * beyond / h;
    }
    c.setTargetVelocity(3 + i, desired);
    c.setMaxMotorForce(3 + i, cap);
  }
  previous_target_ = target_;
}

void DrivenJoint::resync_model(const btVector3& relative_omega) {
  for (int i = 0; i < 3; ++i) {
    model_angle_[i] = constraint_->getAngle(i);
    model_rate_[i] = relative_omega.dot(constraint_->getAxis(i));
  }
}

Vec3 DrivenJoint::angles() const {
  const auto& c = *constraint_;
  const btMatrix3x3 a =
      c.getRigidBodyA().getCenterOfMassTransform().getBasis() * c.getFrameOffsetA().getBasis();
  const btMatrix3x3 b =
      c.getRigidBodyB().getCenterOfMassTransform().getBasis() * c.getFrameOffsetB().getBasis();
  return -from_bt(euler_xyz(a.transpose() * b));
}

float DrivenJoint::separation() const {
  const auto& c = *constraint_;
  const btVector3 a =
      c.getRigidBodyA().getCenterOfMassTransform() * c.getFrameOffsetA().getOrigin();
  const btVector3 b =
      c.getRigidBodyB().getCenterOfMassTransform() * c.getFrameOffsetB().getOrigin();
  return (a - b).length();
}

void DrivenJoint::close_gap(float max_gap) {
  auto& c = *constraint_;
  btRigidBody& parent = c.getRigidBodyA();
  btRigidBody& child = c.getRigidBodyB();
  const btVector3 a = parent.getCenterOfMassTransform() * c.getFrameOffsetA().getOrigin();
  const btVector3 b = child.getCenterOfMassTransform() * c.getFrameOffsetB().getOrigin();
  const btVector3 gap = a - b;
  const btScalar length = gap.length();
  if (length <= max_gap) return;
  const btVector3 direction = gap / length;
  btTransform moved = child.getCenterOfMassTransform();
  moved.setOrigin(moved.getOrigin() + direction * (length - max_gap));
  child.setCenterOfMassTransform(moved);
  child.setInterpolationWorldTransform(moved);
  // Velocity of the child's anchor away from the parent's, along the gap, is removed.
  const btVector3 apart = (child.getVelocityInLocalPoint(b - child.getCenterOfMassPosition()) -
                           parent.getVelocityInLocalPoint(a - parent.getCenterOfMassPosition()))
                              .dot(-direction) *
                          -direction;
  if (apart.dot(-direction) > 0) child.setLinearVelocity(child.getLinearVelocity() - apart);
}

}  // namespace stagger::physics
