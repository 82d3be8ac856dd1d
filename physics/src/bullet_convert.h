#pragma once
// Conversions between our value types and Bullet's. Only physics/src includes Bullet.

#include <btBulletDynamicsCommon.h>

#include "stagger/core/math.h"

namespace stagger::physics {

inline btVector3 to_bt(Vec3 v) {
  return {v.x, v.y, v.z};
}
inline btQuaternion to_bt(Quat q) {
  return {q.x, q.y, q.z, q.w};
}
inline Vec3 from_bt(const btVector3& v) {
  return {v.x(), v.y(), v.z()};
}
inline Quat from_bt(const btQuaternion& q) {
  return {q.w(), q.x(), q.y(), q.z()};
}

}  // namespace stagger::physics
