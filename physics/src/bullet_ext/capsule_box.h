#pragma once
// Altered from Bullet Physics (zlib licence, Copyright (c) 2003-2006 Erwin Coumans): see
// BULLET_LICENSE in this folder.
// Capsule against box: Bullet's convex-convex algorithm (GJK), less the pairs that are clearly
// apart.
//
// The broadphase pairs a capsule with a box whenever their bounding boxes overlap, and Bullet then
// runs GJK on the pair in every step. A walking ragdoll's shins and thighs overlap the ground and
// stair boxes' bounding boxes most of the time without touching them: 60 % of the GJK runs in
// the patrol benchmark add no contact. Here a cheap lower bound on the pair's distance (the
// capsule's segment boxed in the box's frame) skips GJK when it proves the shapes farther apart
// than the manifold's contact breaking threshold. GJK could then only have reported a distance
// that the manifold rejects (btManifoldResult::addContactPoint drops points beyond that
// threshold), so the pair's manifold is refreshed exactly as Bullet refreshes it after GJK and
// every result stays bit for bit Bullet's.

#include <BulletCollision/CollisionDispatch/btConvexConvexAlgorithm.h>
#include <btBulletCollisionCommon.h>

namespace stagger::physics {

/// Whether the capsule (`capsule`, placed at `capsule_pose`) and the box (`box` at `box_pose`)
/// are certainly more than `gap` metres apart (surface to surface). False when unsure.
bool capsule_clear_of_box(const btCapsuleShape& capsule, const btTransform& capsule_pose,
                          const btBoxShape& box, const btTransform& box_pose, btScalar gap);

/// Creates the capsule-box algorithm for a dispatcher; registered for both orders of the pair.
class CapsuleBoxCreateFunc final : public btCollisionAlgorithmCreateFunc {
 public:
  /// Takes GJK's settings (penetration solver, perturbation) from the configuration's own
  /// capsule-box algorithm.
  explicit CapsuleBoxCreateFunc(btDefaultCollisionConfiguration& config);

  /// Makes `dispatcher` use this for capsule-box pairs. Does nothing and returns false (Bullet's
  /// algorithm stays) if the configuration's algorithm for the pair is not GJK or its algorithm
  /// pool cannot hold this one.
  bool install(btCollisionDispatcher& dispatcher, btDefaultCollisionConfiguration& config);

  btCollisionAlgorithm* CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo& info,
                                                 const btCollisionObjectWrapper* a,
                                                 const btCollisionObjectWrapper* b) override;

 private:
  bool gjk_ = false;  // the configuration's capsule-box algorithm is Bullet's GJK one
  btConvexPenetrationDepthSolver* penetration_solver_ = nullptr;
  int perturbation_iterations_ = 0;
  int perturbation_threshold_ = 3;
};

}  // namespace stagger::physics
