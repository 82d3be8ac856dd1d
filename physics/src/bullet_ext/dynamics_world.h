#pragma once
// Altered from Bullet Physics (zlib licence, Copyright (c) 2003-2006 Erwin Coumans): see
// BULLET_LICENSE in this folder.
// Bullet's dynamics world less three costs, and Bullet's island callback with a cursor. Both give
// Bullet's results bit for bit (docs/physics.md, Bullet extensions: the claim and the StockBullet
// tests that check it).

#include <BulletCollision/CollisionDispatch/btSimulationIslandManager.h>
#include <btBulletDynamicsCommon.h>

#include <utility>
#include <vector>

namespace stagger::physics {

/// Bullet's island callback, batching islands for the solver as Bullet's does (until a batch has
/// more than `m_minimumSolverBatchSize` constraints and manifolds), but finding each island's
/// constraints with a cursor: Bullet's scans all the world's constraints for every island (2.3 %
/// of 32 walking ragdolls' instructions, growing with the square of their number). The islands
/// come in increasing id order, the constraints are sorted by island id.
class IslandBatcher final : public btSimulationIslandManager::IslandCallback {
 public:
  void setup(btConstraintSolver& solver, const btContactSolverInfo& info, btDispatcher& dispatcher,
             btTypedConstraint** sorted, int count);
  void processIsland(btCollisionObject** bodies, int num_bodies, btPersistentManifold** manifolds,
                     int num_manifolds, int island) override;
  /// Solves what is left in the batch.
  void flush();

 private:
  btConstraintSolver* solver_ = nullptr;
  const btContactSolverInfo* info_ = nullptr;
  btDispatcher* dispatcher_ = nullptr;
  btTypedConstraint** sorted_ = nullptr;
  int count_ = 0;
  int cursor_ = 0;
  btAlignedObjectArray<btCollisionObject*> bodies_;
  btAlignedObjectArray<btPersistentManifold*> manifolds_;
  btAlignedObjectArray<btTypedConstraint*> constraints_;
};

/// Bullet's world, less three costs:
/// - before each step Bullet predicts every body's motion to look for fast bodies that need
///   continuous collision (createPredictiveContacts), 3.8 % of a walking ragdoll's instructions
///   spent on bodies that have none. Only bodies with a CCD threshold (the physics hands) are
///   looked at here; integrateTransforms still predicts and moves every body.
/// - the island callback's scans (IslandBatcher);
/// - damping: Bullet scales every body's velocities by (1 − damping)^dt every step, two powf
///   calls per body (1 % of a walking step) for bodies whose damping is 0 (all of ours: our
///   bodies never set it, nor Bullet's "additional damping"), where the factor is exactly 1.
class DynamicsWorld final : public btDiscreteDynamicsWorld {
 public:
  using btDiscreteDynamicsWorld::btDiscreteDynamicsWorld;

  /// WorldSettings::sweep_every_box.
  void set_sweep_every_box(bool sweep) { sweep_every_box_ = sweep; }
  /// Stock: each step runs Bullet's own code for all four overrides (every box is swept then).
  void set_stock(bool stock) { stock_ = stock; }

 protected:
  void createPredictiveContacts(btScalar time_step) override;
  void solveConstraints(btContactSolverInfo& info) override;
  void predictUnconstraintMotion(btScalar time_step) override;
  void updateAabbs() override;

 private:
  /// Whether the body has continuous collision (a CCD threshold: the physics hands).
  static bool continuous(const btCollisionObject& object);
  /// Whether the body's bounding box covers its predicted motion.
  bool swept(const btCollisionObject& object) const;

  /// Whether the constraints and their islands are those of the last sort (and remembers them).
  bool same_islands_as_last_sort();

  bool sweep_every_box_ = false;
  bool stock_ = false;
  btAlignedObjectArray<btRigidBody*> ccd_bodies_;
  IslandBatcher batcher_;
  std::vector<std::pair<const btTypedConstraint*, int>> sorted_input_;
};

}  // namespace stagger::physics
