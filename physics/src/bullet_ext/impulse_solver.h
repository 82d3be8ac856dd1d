#pragma once
// Altered from Bullet Physics (zlib licence, Copyright (c) 2003-2006 Erwin Coumans): see
// BULLET_LICENSE in this folder.
// Bullet's sequential-impulse solver with its iteration loop inlined.
//
// Bullet solves every row of every iteration through a function pointer (its scalar reference:
// Debian's Bullet is built without SIMD), and in each iteration also walks every constraint for a
// per-iteration callback that only the cone-twist constraint uses (solveConstraintObsolete: two
// solver-body look-ups per constraint per iteration). The loop here is Bullet's loop without that
// walk, with the row solvers inlined: joint rows (with their per-joint iteration counts), then
// contact normals, then friction, in Bullet's order and with Bullet's arithmetic, so results are
// bit for bit Bullet's (the golden state hash does not move). Solver modes and features it does
// not cover (randomised or interleaved order, rolling friction, cone twists, bodies with linear or
// angular factors other than 1) use Bullet's loop.
//
// The joints' rows are set up as Bullet sets them up, with the same arithmetic, but each row's
// inverse-inertia products are computed once instead of twice and each body's velocity plus
// external impulse once per joint instead of once per row.

#include <btBulletDynamicsCommon.h>

namespace stagger::physics {

/// Clears `count` rows as Bullet's convertJoint does before a joint writes them (every byte zero,
/// unbounded, the first row's CFM the world's) and returns what the joint's getInfo2 writes
/// them through.
btTypedConstraint::btConstraintInfo2 prepare_joint_rows(btSolverConstraint* rows, int count,
                                                        const btContactSolverInfo& info);

class ImpulseSolver final : public btSequentialImpulseConstraintSolver {
 public:
  /// Stock: every call goes to Bullet's solver unchanged (WorldSettings::bullet_extensions off).
  void set_stock(bool stock) { stock_ = stock; }

 protected:
  btScalar solveGroupCacheFriendlySetup(btCollisionObject** bodies, int num_bodies,
                                        btPersistentManifold** manifolds, int num_manifolds,
                                        btTypedConstraint** constraints, int num_constraints,
                                        const btContactSolverInfo& info,
                                        btIDebugDraw* debug_draw) override;
  btScalar solveSingleIteration(int iteration, btCollisionObject** bodies, int num_bodies,
                                btPersistentManifold** manifolds, int num_manifolds,
                                btTypedConstraint** constraints, int num_constraints,
                                const btContactSolverInfo& info, btIDebugDraw* debug_draw) override;
  void convertJoints(btTypedConstraint** constraints, int num_constraints,
                     const btContactSolverInfo& info) override;

 private:
  /// Fills the rows of one joint (Bullet's convertJoint).
  void convert_joint(btSolverConstraint* rows, btTypedConstraint& joint,
                     const btTypedConstraint::btConstraintInfo1& sizes, int body_a, int body_b,
                     const btContactSolverInfo& info);

  /// Whether this group's iterations run in our loop (decided by solveGroupCacheFriendlySetup).
  bool own_loop_ = false;
  bool stock_ = false;
};

}  // namespace stagger::physics
