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
    out.point = bullet_.m_hitPointWorld;
    out.normal = bullet_.m_hitNormalWorld.normalized();
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

}  // namespace

RayHit closest_ray_hit(const btCollisionWorld& world, const btVector3& from, const btVector3& to) {
  ClosestHit callback(from, to);
  // A ray test changes nothing, but Bullet's broadphase declares it non-const (its own const
  // btCollisionWorld::rayTest casts the same way).
  const_cast<btBroadphaseInterface*>(world.getBroadphase())->rayTest(from, to, callback);
  return callback.result();
}

}  // namespace stagger::physics
