#include "driven_joint.h"

#include <algorithm>
#include <cmath>

#include "bullet_convert.h"
#include "stagger/core/assert.h"

namespace stagger::physics {
namespace {

// Sign conventions of Bullet's 6Dof2 (measured; tests/joint_drive_test.cpp keeps them honest):
// its Euler angles are the negated rotation angles of the child relative to the parent (a child
// turned +0.3 rad about X reads -0.3), they grow with (ω_parent - ω_child)·getAxis(i), and a
// velocity motor's target is that rate. Our API speaks the usual right-handed convention, so
// limits and reported angles are negated at this boundary.
constexpr float kMotorSign = 1.0f;

float wrap_angle(float a) {
  while (a > kPi) a -= 2.0f * kPi;
  while (a < -kPi) a += 2.0f * kPi;
  return a;
}

/// Bullet's matrixToEulerXYZ with the same arithmetic, reading the matrix directly (Bullet reads
/// element k through an out-of-line btGetMatrixElem: row k % 3, column k / 3).
btVector3 euler_xyz(const btMatrix3x3& m) {
  btVector3 xyz(0, 0, 0);
  const btScalar sin_y = m[2][0];
  if (sin_y < 1.0f && sin_y > -1.0f) {
    xyz[0] = btAtan2(-m[2][1], m[2][2]);
    xyz[1] = btAsin(sin_y);
    xyz[2] = btAtan2(-m[1][0], m[0][0]);
  } else if (sin_y < 1.0f) {  // gimbal lock at -90° about Y
    xyz[0] = -btAtan2(m[0][1], m[1][1]);
    xyz[1] = -SIMD_HALF_PI;
  } else {  // at +90° about Y (or not a number)
    xyz[0] = btAtan2(m[0][1], m[1][1]);
    xyz[1] = SIMD_HALF_PI;
  }
  return xyz;
}

}  // namespace

void DrivenConstraint::refresh() {
  update_frames();
  fresh_ = true;
}

void DrivenConstraint::update_frames() {
  // Bullet's calculateTransforms (frames, then calculateLinearInfo, calculateAngleInfo for RO_XYZ
  // and the mass shares) with its arithmetic, computing the inverse of frame A's basis once
  // where Bullet computes it in both halves, and reading the matrix directly where Bullet calls
  // btGetMatrixElem (out of line) six times.
  if (m_rotateOrder != RO_XYZ) {
    calculateTransforms();
    return;
  }
  m_calculatedTransformA = m_rbA.getCenterOfMassTransform() * m_frameInA;
  m_calculatedTransformB = m_rbB.getCenterOfMassTransform() * m_frameInB;
  const btMatrix3x3& basis_a = m_calculatedTransformA.getBasis();
  const btMatrix3x3& basis_b = m_calculatedTransformB.getBasis();
  const btMatrix3x3 inverse_a = basis_a.inverse();

  // The linear offset of B's frame in A's, and the linear limits' state.
  m_calculatedLinearDiff = m_calculatedTransformB.getOrigin() - m_calculatedTransformA.getOrigin();
  m_calculatedLinearDiff = inverse_a * m_calculatedLinearDiff;
  for (int i = 0; i < 3; ++i) {
    m_linearLimits.m_currentLinearDiff[i] = m_calculatedLinearDiff[i];
    m_linearLimits.testLimitValue(i, m_calculatedLinearDiff[i]);
  }

  // XYZ Euler angles of B's frame in A's. (Bullet leaves the vector's fourth float as it was.)
  const btVector3 angles = euler_xyz(inverse_a * basis_b);
  for (int i = 0; i < 3; ++i) m_calculatedAxisAngleDiff[i] = angles[i];
  // The axes the angles turn about: B's X, A's Z and the line of nodes between them.
  const btVector3 axis0 = basis_b.getColumn(0);
  const btVector3 axis2 = basis_a.getColumn(2);
  m_calculatedAxis[1] = axis2.cross(axis0);
  m_calculatedAxis[0] = m_calculatedAxis[1].cross(axis2);
  m_calculatedAxis[2] = axis0.cross(m_calculatedAxis[1]);
  for (btVector3& axis : m_calculatedAxis) axis.normalize();

  // Against a static body the linear rows share their turning part by the bodies' masses.
  const btScalar inverse_mass_a = m_rbA.getInvMass();
  const btScalar inverse_mass_b = m_rbB.getInvMass();
  m_hasStaticBody = inverse_mass_a < SIMD_EPSILON || inverse_mass_b < SIMD_EPSILON;
  const btScalar sum = inverse_mass_a + inverse_mass_b;
  m_factA = sum > 0.0f ? inverse_mass_b / sum : 0.5f;
  m_factB = 1.0f - m_factA;
}

void DrivenConstraint::getInfo1(btConstraintInfo1* info) {
  // Nothing moves a body between the drive update and the solver's set-up, so the transforms
  // refresh() computed are the ones Bullet's own getInfo1 would compute. The row count below is
  // Bullet's (btGeneric6DofSpring2Constraint::getInfo1).
  if (!fresh_) update_frames();
  fresh_ = false;
  info->m_numConstraintRows = 0;
  info->nub = 0;
  for (int i = 0; i < 3; ++i) {
    const int limit = m_linearLimits.m_currentLimit[i];
    info->m_numConstraintRows += limit == 4 ? 2 : limit != 0 ? 1 : 0;
    if (m_linearLimits.m_enableMotor[i]) ++info->m_numConstraintRows;
    if (m_linearLimits.m_enableSpring[i]) ++info->m_numConstraintRows;
  }
  for (int i = 0; i < 3; ++i) {
    testAngularLimitMotor(i);
    const int limit = m_angularLimits[i].m_currentLimit;
    info->m_numConstraintRows += limit == 4 ? 2 : limit != 0 ? 1 : 0;
    if (m_angularLimits[i].m_enableMotor) ++info->m_numConstraintRows;
    if (m_angularLimits[i].m_enableSpring) ++info->m_numConstraintRows;
  }
}

namespace {

/// One row of a btConstraintInfo2: its fields lie `rowskip` floats apart.
struct Row {
  btTypedConstraint::btConstraintInfo2* info;
  int offset;  // row index × rowskip

  void set_jacobian(btScalar* j1, btScalar* j2, const btVector3& axis) const {
    for (int i = 0; i < 3; ++i) {
      j1[offset + i] = axis[i];
      j2[offset + i] = -axis[i];
    }
  }
  void angular(const btVector3& axis) const {
    set_jacobian(info->m_J1angularAxis, info->m_J2angularAxis, axis);
  }
  void set(btScalar error, btScalar lower, btScalar upper, btScalar cfm) const {
    info->m_constraintError[offset] = error;
    info->m_lowerLimit[offset] = lower;
    info->m_upperLimit[offset] = upper;
    info->cfm[offset] = cfm;
  }
};

// 6Dof2's test of whether a rotation about an axis is off its limit, which decides whether a
// linear row against a static body may turn the bodies (rotAllowed in Bullet).
bool rotation_violated(const btRotationalLimitMotor2& limit) {
  constexpr double kThreshold = 1.0e-3;  // Bullet's D6_LIMIT_ERROR_THRESHOLD_FOR_ROTATION
  const double error = limit.m_currentLimitError;
  const double error_hi = limit.m_currentLimitErrorHi;
  switch (limit.m_currentLimit) {
    case 1:
    case 2:
      return true;
    case 3:
      return error < -kThreshold || error > kThreshold;
    case 4:
      return error < -kThreshold || error_hi > kThreshold;
    default:
      return false;
  }
}

}  // namespace

bool DrivenConstraint::plain_rows() const {
  if (m_rotateOrder != RO_XYZ || m_flags != 0) return false;
  for (int i = 0; i < 3; ++i) {
    const btRotationalLimitMotor2& a = m_angularLimits[i];
    if (a.m_enableSpring || (a.m_enableMotor && a.m_servoMotor)) return false;
    const int limit = m_linearLimits.m_currentLimit[i];
    if (m_linearLimits.m_enableMotor[i] || m_linearLimits.m_enableSpring[i]) return false;
    if (limit != 0 && limit != 3) return false;
  }
  return true;
}

void DrivenConstraint::getInfo2(btConstraintInfo2* info) {
  if (!plain_rows()) {
    btGeneric6DofSpring2Constraint::getInfo2(info);
    return;
  }
  // Bullet's order: the angular rows first (X, Y, Z), then the linear ones.
  linear_rows(info, angular_rows(info, 0));
}

int DrivenConstraint::angular_rows(btConstraintInfo2* info, int row) {
  const btVector3& omega_a = m_rbA.getAngularVelocity();
  const btVector3& omega_b = m_rbB.getAngularVelocity();
  for (int i = 0; i < 3; ++i) {
    btRotationalLimitMotor2& axis = m_angularLimits[i];
    if (axis.m_currentLimit == 0 && !axis.m_enableMotor) continue;
    // With no per-axis parameters set (m_flags is 0), Bullet takes the step's ERP and CFM.
    axis.m_stopCFM = info->cfm[0];
    axis.m_stopERP = info->erp;
    axis.m_motorCFM = info->cfm[0];
    axis.m_motorERP = info->erp;
    const btVector3& direction = m_calculatedAxis[i];
    if (axis.m_currentLimit == 4) {
      const btScalar rate = omega_a.dot(direction) - omega_b.dot(direction);
      // Lower limit: pushes only one way, and the bounce term can only raise the target.
      Row lower{info, row++ * info->rowskip};
      lower.angular(direction);
      btScalar error = info->fps * axis.m_stopERP * axis.m_currentLimitError * -1.0f;
      if (error - rate * axis.m_stopERP > 0) error = std::max(error, -axis.m_bounce * rate);
      lower.set(error, 0, SIMD_INFINITY, axis.m_stopCFM);
      // Upper limit: the mirror image.
      Row upper{info, row++ * info->rowskip};
      upper.angular(direction);
      error = info->fps * axis.m_stopERP * axis.m_currentLimitErrorHi * -1.0f;
      if (error - rate * axis.m_stopERP < 0) error = std::min(error, -axis.m_bounce * rate);
      upper.set(error, -SIMD_INFINITY, 0, axis.m_stopCFM);
    } else if (axis.m_currentLimit == 3) {
      Row locked{info, row++ * info->rowskip};
      locked.angular(direction);
      locked.set(info->fps * axis.m_stopERP * axis.m_currentLimitError * -1.0f, -SIMD_INFINITY,
                 SIMD_INFINITY, axis.m_stopCFM);
    }
    if (axis.m_enableMotor) {
      Row motor{info, row++ * info->rowskip};
      motor.angular(direction);
      const btScalar factor = getMotorFactor(axis.m_currentPosition, axis.m_loLimit, axis.m_hiLimit,
                                             axis.m_targetVelocity, info->fps * axis.m_motorERP);
      // Bullet 3.24 takes the motor's cap as a force: its impulse per step bounds the row.
      const btScalar cap = axis.m_maxMotorForce / info->fps;
      motor.set(factor * axis.m_targetVelocity, -cap, cap, axis.m_motorCFM);
    }
  }
  return row;
}

void DrivenConstraint::linear_rows(btConstraintInfo2* info, int row) {
  const btTransform& body_a = m_rbA.getCenterOfMassTransform();
  const btTransform& body_b = m_rbB.getCenterOfMassTransform();
  const btVector3 arm_a = m_calculatedTransformA.getOrigin() - body_a.getOrigin();
  const btVector3 arm_b = m_calculatedTransformB.getOrigin() - body_b.getOrigin();
  for (int i = 0; i < 3; ++i) {
    if (m_linearLimits.m_currentLimit[i] == 0) continue;  // free; otherwise locked (3)
    const btVector3 direction = m_calculatedTransformA.getBasis().getColumn(i);
    btVector3 turn_a = arm_a.cross(direction);
    btVector3 turn_b = arm_b.cross(direction);
    // Against a static body the row may not turn the bodies when both other rotations are off
    // their limits; Bullet then shares the row between the bodies by their masses.
    if (m_hasStaticBody && rotation_violated(m_angularLimits[(i + 1) % 3]) &&
        rotation_violated(m_angularLimits[(i + 2) % 3])) {
      turn_a *= m_factA;
      turn_b *= m_factB;
    }
    Row locked{info, row++ * info->rowskip};
    locked.set_jacobian(info->m_J1linearAxis, info->m_J2linearAxis, direction);
    for (int k = 0; k < 3; ++k) {
      info->m_J1angularAxis[locked.offset + k] = turn_a[k];
      info->m_J2angularAxis[locked.offset + k] = -turn_b[k];
    }
    locked.set(info->fps * info->erp * m_linearLimits.m_currentLimitError[i] * 1.0f, -SIMD_INFINITY,
               SIMD_INFINITY, info->cfm[0]);
  }
}

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
    c.setTargetVelocity(3 + i, kMotorSign * desired);
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

}  // namespace stagger::physics
