// Altered from Bullet Physics (zlib licence, Copyright (c) 2003-2006 Erwin Coumans): see
// BULLET_LICENSE in this folder.
#include "driven_constraint.h"

#include <cmath>

namespace stagger::physics {

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

void DrivenConstraint::refresh() {
  if (stock_) {
    calculateTransforms();
    return;
  }
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
  if (stock_) {
    btGeneric6DofSpring2Constraint::getInfo1(info);
    return;
  }
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
  if (stock_ || !plain_rows()) {
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

}  // namespace stagger::physics
