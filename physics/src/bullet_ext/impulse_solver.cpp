// Altered from Bullet Physics (zlib licence, Copyright (c) 2003-2006 Erwin Coumans): see
// BULLET_LICENSE in this folder.
#include "impulse_solver.h"

#include <algorithm>
#include <cstring>

namespace stagger::physics {
namespace {

/// The impulse the row asks for before its limits, as Bullet's scalar reference computes it.
inline float unclamped_impulse(const btSolverBody& a, const btSolverBody& b,
                               const btSolverConstraint& row) {
  const float along_a = row.m_contactNormal1.dot(a.m_deltaLinearVelocity) +
                        row.m_relpos1CrossNormal.dot(a.m_deltaAngularVelocity);
  const float along_b = row.m_contactNormal2.dot(b.m_deltaLinearVelocity) +
                        row.m_relpos2CrossNormal.dot(b.m_deltaAngularVelocity);
  float impulse = row.m_rhs - row.m_appliedImpulse * row.m_cfm;
  impulse -= along_a * row.m_jacDiagABInv;
  impulse -= along_b * row.m_jacDiagABInv;
  return impulse;
}

/// Bullet's btSolverBody::internalApplyImpulse for a body whose linear and angular factors are
/// all 1 (the loop runs only then): without the two multiplications by 1, which lie on the chain
/// from one row to the next.
inline void apply_to(btSolverBody& body, const btVector3& linear, const btVector3& angular,
                     float impulse) {
  if (body.m_originalBody == nullptr) return;
  body.internalGetDeltaLinearVelocity() += linear * impulse;
  body.internalGetDeltaAngularVelocity() += angular * impulse;
}

bool unit_factors(const btSolverBody& body) {
  const btVector3 one(1, 1, 1);
  return body.m_linearFactor == one && body.internalGetAngularFactor() == one;
}

/// Applies the row's impulse to both bodies and returns Bullet's residual for it (the impulse's
/// velocity change along the row, computed in double as Bullet does).
inline float apply(btSolverBody& a, btSolverBody& b, const btSolverConstraint& row, float impulse) {
  apply_to(a, row.m_contactNormal1 * a.internalGetInvMass(), row.m_angularComponentA, impulse);
  apply_to(b, row.m_contactNormal2 * b.internalGetInvMass(), row.m_angularComponentB, impulse);
  return static_cast<float>(static_cast<double>(impulse) *
                            (1.0 / static_cast<double>(row.m_jacDiagABInv)));
}

/// One row: joints and friction are bounded on both sides (`kBothLimits`), contact normals can
/// only push (Bullet's "lower limit" row, which never looks at the upper limit).
template <bool kBothLimits>
inline float solve_row(btSolverBody& a, btSolverBody& b, const btSolverConstraint& row) {
  float impulse = unclamped_impulse(a, b, row);
  const float sum = row.m_appliedImpulse + impulse;
  if (sum < row.m_lowerLimit) {
    impulse = row.m_lowerLimit - row.m_appliedImpulse;
    row.m_appliedImpulse = row.m_lowerLimit;
  } else if (kBothLimits && sum > row.m_upperLimit) {
    impulse = row.m_upperLimit - row.m_appliedImpulse;
    row.m_appliedImpulse = row.m_upperLimit;
  } else {
    row.m_appliedImpulse = sum;
  }
  return apply(a, b, row, impulse);
}

/// A row with every byte zero. (Assigned rather than memset: GCC turns a 160-byte memset into a
/// `rep stos`, whose start-up costs more than the stores.)
const btSolverConstraint& zero_row() {
  static const btSolverConstraint zero = [] {
    btSolverConstraint row;
    std::memset(static_cast<void*>(&row), 0, sizeof(row));
    return row;
  }();
  return zero;
}

}  // namespace

btTypedConstraint::btConstraintInfo2 prepare_joint_rows(btSolverConstraint* rows, int count,
                                                        const btContactSolverInfo& info) {
  for (int k = 0; k < count; ++k) {
    rows[k] = zero_row();
    rows[k].m_lowerLimit = -SIMD_INFINITY;
    rows[k].m_upperLimit = SIMD_INFINITY;
  }
  btTypedConstraint::btConstraintInfo2 info2;
  info2.fps = 1.f / info.m_timeStep;
  info2.erp = info.m_erp;
  info2.m_J1linearAxis = rows->m_contactNormal1;
  info2.m_J1angularAxis = rows->m_relpos1CrossNormal;
  info2.m_J2linearAxis = rows->m_contactNormal2;
  info2.m_J2angularAxis = rows->m_relpos2CrossNormal;
  info2.rowskip = sizeof(btSolverConstraint) / sizeof(btScalar);
  info2.m_constraintError = &rows->m_rhs;
  rows->m_cfm = info.m_globalCfm;  // the first row only, as in Bullet
  info2.m_damping = info.m_damping;
  info2.cfm = &rows->m_cfm;
  info2.m_lowerLimit = &rows->m_lowerLimit;
  info2.m_upperLimit = &rows->m_upperLimit;
  info2.m_numIterations = info.m_numIterations;
  return info2;
}

btScalar ImpulseSolver::solveGroupCacheFriendlySetup(
    btCollisionObject** bodies, int num_bodies, btPersistentManifold** manifolds, int num_manifolds,
    btTypedConstraint** constraints, int num_constraints, const btContactSolverInfo& info,
    btIDebugDraw* debug_draw) {
  constexpr int kBulletsOrder =
      SOLVER_RANDMIZE_ORDER | SOLVER_INTERLEAVE_CONTACT_AND_FRICTION_CONSTRAINTS;
  own_loop_ = !stock_ && (info.m_solverMode & kBulletsOrder) == 0;
  for (int i = 0; i < num_constraints && own_loop_; ++i) {
    // (The type tag, not a dynamic_cast: that compares type names, 1 % of a walking step.)
    if (constraints[i]->getConstraintType() == CONETWIST_CONSTRAINT_TYPE) own_loop_ = false;
  }
  const btScalar result = btSequentialImpulseConstraintSolver::solveGroupCacheFriendlySetup(
      bodies, num_bodies, manifolds, num_manifolds, constraints, num_constraints, info, debug_draw);
  if (m_tmpSolverContactRollingFrictionConstraintPool.size() > 0) own_loop_ = false;
  for (int i = 0; i < m_tmpSolverBodyPool.size() && own_loop_; ++i) {
    if (!unit_factors(m_tmpSolverBodyPool[i])) own_loop_ = false;
  }
  return result;
}

void ImpulseSolver::convertJoints(btTypedConstraint** constraints, int num_constraints,
                                  const btContactSolverInfo& info) {
  if (stock_) {
    btSequentialImpulseConstraintSolver::convertJoints(constraints, num_constraints, info);
    return;
  }
  // Stage 1: each joint's row count (and its feedback cleared, as Bullet does).
  m_tmpConstraintSizesPool.resizeNoInitialize(num_constraints);
  int total_rows = 0;
  for (int i = 0; i < num_constraints; ++i) {
    btTypedConstraint& joint = *constraints[i];
    joint.buildJacobian();
    joint.internalSetAppliedImpulse(0);
    if (btJointFeedback* feedback = joint.getJointFeedback()) {
      feedback->m_appliedForceBodyA.setZero();
      feedback->m_appliedTorqueBodyA.setZero();
      feedback->m_appliedForceBodyB.setZero();
      feedback->m_appliedTorqueBodyB.setZero();
    }
    btTypedConstraint::btConstraintInfo1& sizes = m_tmpConstraintSizesPool[i];
    if (joint.isEnabled()) {
      joint.getInfo1(&sizes);
    } else {
      sizes.m_numConstraintRows = 0;
      sizes.nub = 0;
    }
    total_rows += sizes.m_numConstraintRows;
  }
  // Stage 2: the rows, joint after joint.
  m_tmpSolverNonContactConstraintPool.resizeNoInitialize(total_rows);
  int row = 0;
  for (int i = 0; i < num_constraints; ++i) {
    const btTypedConstraint::btConstraintInfo1& sizes = m_tmpConstraintSizesPool[i];
    if (sizes.m_numConstraintRows > 0) {
      btTypedConstraint& joint = *constraints[i];
      const int body_a = getOrInitSolverBody(joint.getRigidBodyA(), info.m_timeStep);
      const int body_b = getOrInitSolverBody(joint.getRigidBodyB(), info.m_timeStep);
      convert_joint(&m_tmpSolverNonContactConstraintPool[row], joint, sizes, body_a, body_b, info);
    }
    row += sizes.m_numConstraintRows;
  }
}

void ImpulseSolver::convert_joint(btSolverConstraint* rows, btTypedConstraint& joint,
                                  const btTypedConstraint::btConstraintInfo1& sizes, int body_a,
                                  int body_b, const btContactSolverInfo& info) {
  const int count = sizes.m_numConstraintRows;
  const int iterations = joint.getOverrideNumSolverIterations() > 0
                             ? joint.getOverrideNumSolverIterations()
                             : info.m_numIterations;
  m_maxOverrideNumSolverIterations = std::max(m_maxOverrideNumSolverIterations, iterations);
  btTypedConstraint::btConstraintInfo2 info2 = prepare_joint_rows(rows, count, info);
  for (int k = 0; k < count; ++k) {
    rows[k].m_solverBodyIdA = body_a;
    rows[k].m_solverBodyIdB = body_b;
    rows[k].m_overrideNumSolverIterations = iterations;
  }
  // The joint writes its Jacobians, errors, CFMs and bounds into the rows.
  joint.getInfo2(&info2);

  // Each body's velocity as the rows see it: its own plus this step's external impulse.
  const btRigidBody& a = joint.getRigidBodyA();
  const btRigidBody& b = joint.getRigidBodyB();
  const btSolverBody& solver_a = m_tmpSolverBodyPool[body_a];
  const btSolverBody& solver_b = m_tmpSolverBodyPool[body_b];
  auto seen = [](const btVector3& velocity, const btSolverBody& body, const btVector3& impulse) {
    return velocity + (body.m_originalBody ? impulse : btVector3(0, 0, 0));
  };
  const btVector3 linear_a = seen(a.getLinearVelocity(), solver_a, solver_a.m_externalForceImpulse);
  const btVector3 angular_a =
      seen(a.getAngularVelocity(), solver_a, solver_a.m_externalTorqueImpulse);
  const btVector3 linear_b = seen(b.getLinearVelocity(), solver_b, solver_b.m_externalForceImpulse);
  const btVector3 angular_b =
      seen(b.getAngularVelocity(), solver_b, solver_b.m_externalTorqueImpulse);
  const btScalar breaking = joint.getBreakingImpulseThreshold();
  for (int k = 0; k < count; ++k) {
    btSolverConstraint& r = rows[k];
    r.m_upperLimit = std::min(r.m_upperLimit, breaking);
    r.m_lowerLimit = std::max(r.m_lowerLimit, -breaking);
    r.m_originalContactPoint = &joint;
    // Bullet multiplies by the inverse inertia once for the impulse directions and once more for
    // the effective mass; the products are the same.
    const btVector3 inv_inertia_a = a.getInvInertiaTensorWorld() * r.m_relpos1CrossNormal;
    const btVector3 inv_inertia_b = b.getInvInertiaTensorWorld() * r.m_relpos2CrossNormal;
    r.m_angularComponentA = inv_inertia_a * a.getAngularFactor();
    r.m_angularComponentB = inv_inertia_b * b.getAngularFactor();
    btScalar sum = (r.m_contactNormal1 * a.getInvMass()).dot(r.m_contactNormal1);
    sum += inv_inertia_a.dot(r.m_relpos1CrossNormal);
    sum += (r.m_contactNormal2 * b.getInvMass()).dot(r.m_contactNormal2);
    sum += inv_inertia_b.dot(r.m_relpos2CrossNormal);
    r.m_jacDiagABInv = btFabs(sum) > SIMD_EPSILON ? 1.f / sum : 0.f;

    const btScalar along =
        r.m_contactNormal1.dot(linear_a) + r.m_relpos1CrossNormal.dot(angular_a) +
        (r.m_contactNormal2.dot(linear_b) + r.m_relpos2CrossNormal.dot(angular_b));
    const btScalar position_impulse = r.m_rhs * r.m_jacDiagABInv;  // getInfo2 left the error here
    const btScalar velocity_impulse = (0.f - along * info2.m_damping) * r.m_jacDiagABInv;
    r.m_rhs = position_impulse + velocity_impulse;
    r.m_appliedImpulse = 0;
  }
}

btScalar ImpulseSolver::solveSingleIteration(int iteration, btCollisionObject** bodies,
                                             int num_bodies, btPersistentManifold** manifolds,
                                             int num_manifolds, btTypedConstraint** constraints,
                                             int num_constraints, const btContactSolverInfo& info,
                                             btIDebugDraw* debug_draw) {
  if (!own_loop_) {
    return btSequentialImpulseConstraintSolver::solveSingleIteration(
        iteration, bodies, num_bodies, manifolds, num_manifolds, constraints, num_constraints, info,
        debug_draw);
  }
  // Bullet stops iterating early once this (the largest squared residual) is within its
  // threshold; it is kept the same way.
  float residual = 0;
  auto solved = [&residual](float r) { residual = std::max(residual, r * r); };
  auto body = [this](int id) -> btSolverBody& { return m_tmpSolverBodyPool[id]; };

  for (int j = 0; j < m_tmpSolverNonContactConstraintPool.size(); ++j) {
    const btSolverConstraint& row =
        m_tmpSolverNonContactConstraintPool[m_orderNonContactConstraintPool[j]];
    if (iteration < row.m_overrideNumSolverIterations)
      solved(solve_row<true>(body(row.m_solverBodyIdA), body(row.m_solverBodyIdB), row));
  }
  if (iteration >= info.m_numIterations) return residual;

  for (int j = 0; j < m_tmpSolverContactConstraintPool.size(); ++j) {
    const btSolverConstraint& row = m_tmpSolverContactConstraintPool[m_orderTmpConstraintPool[j]];
    solved(solve_row<false>(body(row.m_solverBodyIdA), body(row.m_solverBodyIdB), row));
  }
  for (int j = 0; j < m_tmpSolverContactFrictionConstraintPool.size(); ++j) {
    btSolverConstraint& row =
        m_tmpSolverContactFrictionConstraintPool[m_orderFrictionConstraintPool[j]];
    // Friction is bounded by its contact's normal impulse as solved so far.
    const float normal_impulse =
        m_tmpSolverContactConstraintPool[row.m_frictionIndex].m_appliedImpulse;
    if (normal_impulse > 0) {
      row.m_lowerLimit = -(row.m_friction * normal_impulse);
      row.m_upperLimit = row.m_friction * normal_impulse;
      solved(solve_row<true>(body(row.m_solverBodyIdA), body(row.m_solverBodyIdB), row));
    }
  }
  return residual;
}

}  // namespace stagger::physics
