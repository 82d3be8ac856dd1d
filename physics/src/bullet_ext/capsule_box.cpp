// Altered from Bullet Physics (zlib licence, Copyright (c) 2003-2006 Erwin Coumans): see
// BULLET_LICENSE in this folder.
#include "capsule_box.h"

#include <LinearMath/btPoolAllocator.h>

#include <algorithm>
#include <new>
#include <utility>

namespace stagger::physics {
namespace {

/// Bullet's GJK algorithm for the pair, which it runs unless the pair is clearly apart.
class CapsuleBoxAlgorithm final : public btConvexConvexAlgorithm {
 public:
  CapsuleBoxAlgorithm(const btCollisionAlgorithmConstructionInfo& info,
                      const btCollisionObjectWrapper* a, const btCollisionObjectWrapper* b,
                      btConvexPenetrationDepthSolver* solver, int perturbations, int threshold)
      : btConvexConvexAlgorithm(info.m_manifold, info, a, b, solver, perturbations, threshold),
        owns_manifold_(info.m_manifold == nullptr) {}

  void processCollision(const btCollisionObjectWrapper* a, const btCollisionObjectWrapper* b,
                        const btDispatcherInfo& dispatch, btManifoldResult* result) override {
    // Until the base class has made its manifold (on the first call) it runs as it is.
    auto* manifold = const_cast<btPersistentManifold*>(getManifold());
    if (manifold != nullptr && owns_manifold_ &&
        clear(a, b,
              manifold->getContactBreakingThreshold() + result->m_closestPointDistanceThreshold)) {
      // What btConvexConvexAlgorithm::processCollision does when GJK adds nothing.
      result->setPersistentManifold(manifold);
      result->refreshContactPoints();
      return;
    }
    btConvexConvexAlgorithm::processCollision(a, b, dispatch, result);
  }

 private:
  static bool clear(const btCollisionObjectWrapper* a, const btCollisionObjectWrapper* b,
                    btScalar gap) {
    if (a->getCollisionShape()->getShapeType() != CAPSULE_SHAPE_PROXYTYPE) std::swap(a, b);
    return capsule_clear_of_box(
        *static_cast<const btCapsuleShape*>(a->getCollisionShape()), a->getWorldTransform(),
        *static_cast<const btBoxShape*>(b->getCollisionShape()), b->getWorldTransform(), gap);
  }

  bool owns_manifold_;
};

}  // namespace

bool capsule_clear_of_box(const btCapsuleShape& capsule, const btTransform& capsule_pose,
                          const btBoxShape& box, const btTransform& box_pose, btScalar gap) {
  // The segment's ends in the box's frame; the segment lies in their bounding box, so the
  // distance between that and the box (margin included: Bullet's rounded box lies inside it)
  // is at most the segment's distance to the box.
  btVector3 half_axis(0, 0, 0);
  half_axis[capsule.getUpAxis()] = capsule.getHalfHeight();
  const btVector3 end_a = box_pose.invXform(capsule_pose(half_axis));
  const btVector3 end_b = box_pose.invXform(capsule_pose(-half_axis));
  const btVector3 half = box.getHalfExtentsWithMargin();
  btVector3 outside(0, 0, 0);
  for (int i = 0; i < 3; ++i) {
    const btScalar low = std::min(end_a[i], end_b[i]);
    const btScalar high = std::max(end_a[i], end_b[i]);
    outside[i] = std::max({btScalar(0), low - half[i], -half[i] - high});
  }
  // A millimetre more than asked, for the rounding of the transforms above and of GJK's own.
  const btScalar apart = capsule.getRadius() + gap + btScalar(0.001);
  return outside.length2() > apart * apart;
}

CapsuleBoxCreateFunc::CapsuleBoxCreateFunc(btDefaultCollisionConfiguration& config) {
  const auto* gjk = dynamic_cast<const btConvexConvexAlgorithm::CreateFunc*>(
      config.getCollisionAlgorithmCreateFunc(CAPSULE_SHAPE_PROXYTYPE, BOX_SHAPE_PROXYTYPE));
  if (gjk == nullptr) return;  // not GJK there (another Bullet): install() leaves Bullet's
  gjk_ = true;
  penetration_solver_ = gjk->m_pdSolver;
  perturbation_iterations_ = gjk->m_numPerturbationIterations;
  perturbation_threshold_ = gjk->m_minimumPointsPerturbationThreshold;
}

bool CapsuleBoxCreateFunc::install(btCollisionDispatcher& dispatcher,
                                   btDefaultCollisionConfiguration& config) {
  // The dispatcher places algorithms in fixed-size pool slots (sized for Bullet's own).
  if (!gjk_ || static_cast<int>(sizeof(CapsuleBoxAlgorithm)) >
                   config.getCollisionAlgorithmPool()->getElementSize()) {
    return false;
  }
  dispatcher.registerCollisionCreateFunc(CAPSULE_SHAPE_PROXYTYPE, BOX_SHAPE_PROXYTYPE, this);
  dispatcher.registerCollisionCreateFunc(BOX_SHAPE_PROXYTYPE, CAPSULE_SHAPE_PROXYTYPE, this);
  return true;
}

btCollisionAlgorithm* CapsuleBoxCreateFunc::CreateCollisionAlgorithm(
    btCollisionAlgorithmConstructionInfo& info, const btCollisionObjectWrapper* a,
    const btCollisionObjectWrapper* b) {
  void* memory = info.m_dispatcher1->allocateCollisionAlgorithm(sizeof(CapsuleBoxAlgorithm));
  return new (memory) CapsuleBoxAlgorithm(info, a, b, penetration_solver_, perturbation_iterations_,
                                          perturbation_threshold_);
}

}  // namespace stagger::physics
