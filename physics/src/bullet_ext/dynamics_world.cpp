// Altered from Bullet Physics (zlib licence, Copyright (c) 2003-2006 Erwin Coumans): see
// BULLET_LICENSE in this folder.
#include "dynamics_world.h"

namespace stagger::physics {

void DynamicsWorld::createPredictiveContacts(btScalar time_step) {
  if (stock_) {
    btDiscreteDynamicsWorld::createPredictiveContacts(time_step);
    return;
  }
  releasePredictiveContacts();
  ccd_bodies_.resize(0);
  for (int i = 0; i < m_nonStaticRigidBodies.size(); ++i) {
    if (continuous(*m_nonStaticRigidBodies[i])) ccd_bodies_.push_back(m_nonStaticRigidBodies[i]);
  }
  if (ccd_bodies_.size() > 0)
    createPredictiveContactsInternal(&ccd_bodies_[0], ccd_bodies_.size(), time_step);
}

namespace {

int island_of(const btTypedConstraint& c) {
  // Bullet's btGetConstraintIslandId: the first body's island, or the second's if it has none.
  const int a = c.getRigidBodyA().getIslandTag();
  return a >= 0 ? a : c.getRigidBodyB().getIslandTag();
}

}  // namespace

void DynamicsWorld::predictUnconstraintMotion(btScalar time_step) {
  if (stock_) {
    btDiscreteDynamicsWorld::predictUnconstraintMotion(time_step);
    return;
  }
  // Bullet's, skipping the damping that would multiply by exactly 1, and predicting where a body
  // goes only for those with continuous collision (the physics hands). Bullet widens every
  // moving body's bounding box over that prediction, so that the broadphase pairs it a step
  // before it could touch; but the contacts come from the narrowphase at the bodies' present
  // transforms, which finds nothing in a pair farther apart than the contact threshold that the
  // box already carries. The others' boxes are their present ones (updateAabbs).
  for (int i = 0; i < m_nonStaticRigidBodies.size(); ++i) {
    btRigidBody* body = m_nonStaticRigidBodies[i];
    if (body->isStaticOrKinematicObject()) continue;
    if (body->getLinearDamping() != 0 || body->getAngularDamping() != 0)
      body->applyDamping(time_step);
    if (swept(*body))
      body->predictIntegratedTransform(time_step, body->getInterpolationWorldTransform());
  }
}

bool DynamicsWorld::continuous(const btCollisionObject& object) {
  return object.getCcdSquareMotionThreshold() > 0;
}

bool DynamicsWorld::swept(const btCollisionObject& object) const {
  return sweep_every_box_ || continuous(object);
}

void DynamicsWorld::updateAabbs() {
  if (stock_) {
    btDiscreteDynamicsWorld::updateAabbs();
    return;
  }
  const btVector3 threshold(gContactBreakingThreshold, gContactBreakingThreshold,
                            gContactBreakingThreshold);
  for (int i = 0; i < m_collisionObjects.size(); ++i) {
    btCollisionObject* object = m_collisionObjects[i];
    if (!m_forceUpdateAllAabbs && !object->isActive()) continue;
    if (swept(*object)) {
      updateSingleAabb(object);
      continue;
    }
    // Bullet's updateSingleAabb without the widening over the predicted transform.
    btVector3 low, high;
    object->getCollisionShape()->getAabb(object->getWorldTransform(), low, high);
    low -= threshold;
    high += threshold;
    if (object->isStaticObject() || (high - low).length2() < btScalar(1e12)) {
      m_broadphasePairCache->setAabb(object->getBroadphaseHandle(), low, high, m_dispatcher1);
    } else {
      object->setActivationState(DISABLE_SIMULATION);  // as Bullet does: a box out of range
    }
  }
}

bool DynamicsWorld::same_islands_as_last_sort() {
  const auto count = static_cast<std::size_t>(m_constraints.size());
  bool same = count == sorted_input_.size();
  sorted_input_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const btTypedConstraint* c = m_constraints[static_cast<int>(i)];
    const std::pair<const btTypedConstraint*, int> entry{c, island_of(*c)};
    if (same && sorted_input_[i] != entry) same = false;
    sorted_input_[i] = entry;
  }
  return same;
}

void DynamicsWorld::solveConstraints(btContactSolverInfo& info) {
  if (stock_) {
    btDiscreteDynamicsWorld::solveConstraints(info);
    return;
  }
  // Bullet's solveConstraints with our island callback. The sort is Bullet's own (not stable),
  // on Bullet's predicate, so the constraints come in Bullet's order.
  // The sort sees the same constraints with the same islands from step to step, and gives the
  // same order for the same input: it runs only when either changed.
  if (!same_islands_as_last_sort()) {
    m_sortedConstraints.resize(m_constraints.size());
    for (int i = 0; i < m_constraints.size(); ++i) m_sortedConstraints[i] = m_constraints[i];
    struct ByIsland {
      bool operator()(const btTypedConstraint* a, const btTypedConstraint* b) const {
        return island_of(*a) < island_of(*b);
      }
    };
    m_sortedConstraints.quickSort(ByIsland());
  }
  btTypedConstraint** sorted = m_sortedConstraints.size() > 0 ? &m_sortedConstraints[0] : nullptr;
  batcher_.setup(*m_constraintSolver, info, *getDispatcher(), sorted, m_sortedConstraints.size());
  m_constraintSolver->prepareSolve(getNumCollisionObjects(), getDispatcher()->getNumManifolds());
  m_islandManager->buildAndProcessIslands(getDispatcher(), this, &batcher_);
  batcher_.flush();
  m_constraintSolver->allSolved(info, m_debugDrawer);
}

void IslandBatcher::setup(btConstraintSolver& solver, const btContactSolverInfo& info,
                          btDispatcher& dispatcher, btTypedConstraint** sorted, int count) {
  solver_ = &solver;
  info_ = &info;
  dispatcher_ = &dispatcher;
  sorted_ = sorted;
  count_ = count;
  cursor_ = 0;
  bodies_.resize(0);
  manifolds_.resize(0);
  constraints_.resize(0);
}

void IslandBatcher::processIsland(btCollisionObject** bodies, int num_bodies,
                                  btPersistentManifold** manifolds, int num_manifolds, int island) {
  if (island < 0) {  // islands not split: everything at once
    solver_->solveGroup(bodies, num_bodies, manifolds, num_manifolds, sorted_, count_, *info_,
                        nullptr, dispatcher_);
    return;
  }
  // This island's run of constraints, at or after the cursor (from the start if the islands
  // ever come out of order).
  int first = cursor_;
  while (first < count_ && island_of(*sorted_[first]) < island) ++first;
  if (first == count_ || island_of(*sorted_[first]) != island) {
    first = 0;
    while (first < count_ && island_of(*sorted_[first]) != island) ++first;
  }
  int end = first;
  while (end < count_ && island_of(*sorted_[end]) == island) ++end;
  if (end > first) cursor_ = end;
  btTypedConstraint** start = first < count_ ? sorted_ + first : nullptr;
  const int count = end - first;
  if (info_->m_minimumSolverBatchSize <= 1) {
    solver_->solveGroup(bodies, num_bodies, manifolds, num_manifolds, start, count, *info_, nullptr,
                        dispatcher_);
    return;
  }
  for (int i = 0; i < num_bodies; ++i) bodies_.push_back(bodies[i]);
  for (int i = 0; i < num_manifolds; ++i) manifolds_.push_back(manifolds[i]);
  for (int i = 0; i < count; ++i) constraints_.push_back(start[i]);
  if (constraints_.size() + manifolds_.size() > info_->m_minimumSolverBatchSize) flush();
}

void IslandBatcher::flush() {
  if (solver_ == nullptr) return;
  solver_->solveGroup(bodies_.size() > 0 ? &bodies_[0] : nullptr, bodies_.size(),
                      manifolds_.size() > 0 ? &manifolds_[0] : nullptr, manifolds_.size(),
                      constraints_.size() > 0 ? &constraints_[0] : nullptr, constraints_.size(),
                      *info_, nullptr, dispatcher_);
  bodies_.resize(0);
  manifolds_.resize(0);
  constraints_.resize(0);
}

}  // namespace stagger::physics
