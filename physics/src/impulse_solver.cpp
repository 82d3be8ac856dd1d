#include "impulse_solver.h"

#include <algorithm>

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

/// Applies the row's impulse to both bodies and returns Bullet's residual for it (the impulse's
/// velocity change along the row, computed in double as Bullet does).
inline float apply(btSolverBody& a, btSolverBody& b, const btSolverConstraint& row, float impulse) {
  a.internalApplyImpulse(row.m_contactNormal1 * a.internalGetInvMass(), row.m_angularComponentA,
                         impulse);
  b.internalApplyImpulse(row.m_contactNormal2 * b.internalGetInvMass(), row.m_angularComponentB,
                         impulse);
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

}  // namespace

btScalar ImpulseSolver::solveGroupCacheFriendlySetup(
    btCollisionObject** bodies, int num_bodies, btPersistentManifold** manifolds, int num_manifolds,
    btTypedConstraint** constraints, int num_constraints, const btContactSolverInfo& info,
    btIDebugDraw* debug_draw) {
  constexpr int kBulletsOrder =
      SOLVER_RANDMIZE_ORDER | SOLVER_INTERLEAVE_CONTACT_AND_FRICTION_CONSTRAINTS;
  own_loop_ = (info.m_solverMode & kBulletsOrder) == 0;
  for (int i = 0; i < num_constraints && own_loop_; ++i) {
    // (The type tag, not a dynamic_cast: that compares type names, 1 % of a walking step.)
    if (constraints[i]->getConstraintType() == CONETWIST_CONSTRAINT_TYPE) own_loop_ = false;
  }
  const btScalar result = btSequentialImpulseConstraintSolver::solveGroupCacheFriendlySetup(
      bodies, num_bodies, manifolds, num_manifolds, constraints, num_constraints, info, debug_draw);
  if (m_tmpSolverContactRollingFrictionConstraintPool.size() > 0) own_loop_ = false;
  return result;
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
