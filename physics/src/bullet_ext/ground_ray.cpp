// Altered from Bullet Physics (zlib licence, Copyright (c) 2003-2006 Erwin Coumans): see
// BULLET_LICENSE in this folder.
#include "ground_ray.h"

#include <cmath>

namespace stagger::physics {
namespace {

enum class Entry { miss, hit, starts_inside };

/// Entry of the segment a→b (in the box's frame) into a box of half size `half`: on a hit, the
/// fraction along the segment and the entry face's outward axis and sign.
Entry enter_box(const btVector3& a, const btVector3& b, const btVector3& half, float& fraction,
                int& axis, float& sign) {
  const btVector3 d = b - a;
  float enter = 0;
  float leave = 1;
  axis = -1;
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(d[i]) < 1e-12f) {
      if (std::fabs(a[i]) > half[i]) return Entry::miss;  // parallel to this slab, outside it
      continue;
    }
    const float near_face = d[i] > 0 ? -half[i] : half[i];
    const float far_face = -near_face;
    const float t_near = (near_face - a[i]) / d[i];
    const float t_far = (far_face - a[i]) / d[i];
    if (t_near > enter) {
      enter = t_near;
      axis = i;
      sign = d[i] > 0 ? -1.0f : 1.0f;
    }
    if (t_far < leave) leave = t_far;
    if (enter > leave) return Entry::miss;
  }
  fraction = enter;
  return axis >= 0 ? Entry::hit : Entry::starts_inside;  // no slab entered: inside all three
}

class ClosestHit final : public btBroadphaseRayCallback {
 public:
  ClosestHit(const btVector3& from, const btVector3& to) : from_(from), to_(to), bullet_(from, to) {
    const btVector3 direction = (to - from).normalized();
    for (int i = 0; i < 3; ++i) {
      m_rayDirectionInverse[i] = direction[i] == 0 ? btScalar(BT_LARGE_FLOAT) : 1 / direction[i];
      m_signs[i] = m_rayDirectionInverse[i] < 0;
    }
    m_lambda_max = direction.dot(to - from);
    from_transform_.setIdentity();
    from_transform_.setOrigin(from);
    to_transform_.setIdentity();
    to_transform_.setOrigin(to);
  }

  bool process(const btBroadphaseProxy* proxy) override {
    if (bullet_.m_closestHitFraction == 0) return false;  // nothing can be nearer
    auto* object = static_cast<btCollisionObject*>(proxy->m_clientObject);
    if (!bullet_.needsCollision(object->getBroadphaseHandle())) return true;
    const btCollisionShape* shape = object->getCollisionShape();
    if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE &&
        test_box(*object, *static_cast<const btBoxShape*>(shape))) {
      return true;
    }
    btCollisionWorld::rayTestSingle(from_transform_, to_transform_, object, shape,
                                    object->getWorldTransform(), bullet_);
    return true;
  }

  RayHit result() const {
    RayHit out;
    if (!bullet_.hasHit()) return out;
    out.hit = true;
    // Copied by component: Bullet leaves the fourth (w) float of the vectors it interpolates
    // unset, and btVector3's == compares all four.
    const btVector3& p = bullet_.m_hitPointWorld;
    const btVector3 n = bullet_.m_hitNormalWorld.normalized();
    out.point = btVector3(p.x(), p.y(), p.z());
    out.normal = btVector3(n.x(), n.y(), n.z());
    return out;
  }

 private:
  /// True when the box was decided here (hit or miss); false: leave it to Bullet.
  bool test_box(const btCollisionObject& object, const btBoxShape& box) {
    const btTransform& pose = object.getWorldTransform();
    const btTransform to_local = pose.inverse();
    float fraction = 0;
    int axis = -1;
    float sign = 1;
    const btVector3 a = to_local * from_;
    const btVector3 b = to_local * to_;
    const Entry entry = enter_box(a, b, box.getHalfExtentsWithMargin(), fraction, axis, sign);
    if (entry != Entry::hit) return entry == Entry::miss;  // starting inside goes to Bullet
    if (fraction >= bullet_.m_closestHitFraction) return true;
    btVector3 local_normal(0, 0, 0);
    local_normal[axis] = sign;
    bullet_.m_closestHitFraction = fraction;
    bullet_.m_collisionObject = &object;
    bullet_.m_hitNormalWorld = pose.getBasis() * local_normal;
    bullet_.m_hitPointWorld.setInterpolate3(from_, to_, fraction);
    return true;
  }

  btVector3 from_;
  btVector3 to_;
  btTransform from_transform_;
  btTransform to_transform_;
  btCollisionWorld::ClosestRayResultCallback bullet_;  // the nearest hit so far, by either test
};

/// Whether the segment from→to passes through the box [low, high] (grown by 0.1 mm, so that a
/// segment grazing a face is left to the object's own test): enter_box on the box's centre.
bool segment_meets_box(const btVector3& from, const btVector3& to, const btVector3& low,
                       const btVector3& high) {
  constexpr float kGrow = 1e-4f;  // [m]
  const btVector3 center = 0.5f * (low + high);
  const btVector3 half = 0.5f * (high - low) + btVector3(kGrow, kGrow, kGrow);
  float fraction = 0;
  int axis = -1;
  float sign = 1;
  return enter_box(from - center, to - center, half, fraction, axis, sign) != Entry::miss;
}

// Up to this many objects, each one's bounding box is tested against the segment in turn: in
// the sample levels (5–14 objects) that is cheaper than the walk down the broadphase's tree,
// about 1150 instructions a ray in the arena (2 % of the patrol bench's). Larger worlds use the
// tree. Either way the objects whose boxes the segment meets get the exact test, and the
// nearest hit wins.
constexpr int kFlatListMost = 32;

}  // namespace

RayHit closest_ray_hit(const btCollisionWorld& world, const btVector3& from, const btVector3& to,
                       RaySearch search) {
  ClosestHit callback(from, to);
  const btCollisionObjectArray& objects = world.getCollisionObjectArray();
  if (search == RaySearch::automatic) {
    search = objects.size() <= kFlatListMost ? RaySearch::every_object : RaySearch::broadphase_tree;
  }
  if (search == RaySearch::every_object) {
    for (int i = 0; i < objects.size(); ++i) {
      const btBroadphaseProxy* proxy = objects[i]->getBroadphaseHandle();
      if (!segment_meets_box(from, to, proxy->m_aabbMin, proxy->m_aabbMax)) continue;
      if (!callback.process(proxy)) break;  // a hit at the segment's start: none can be nearer
    }
    return callback.result();
  }
  // A ray test changes nothing, but Bullet's broadphase declares it non-const (its own const
  // btCollisionWorld::rayTest casts the same way).
  const_cast<btBroadphaseInterface*>(world.getBroadphase())->rayTest(from, to, callback);
  return callback.result();
}

}  // namespace stagger::physics
