// Small pose math on the OpenXR value types (metres, radians, quaternions x,y,z,w).
#pragma once

#include <cmath>

#include "xr.h"

namespace stagger::simxr {

inline XrVector3f operator+(XrVector3f a, XrVector3f b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline XrVector3f operator-(XrVector3f a, XrVector3f b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline XrVector3f operator*(XrVector3f a, float s) {
  return {a.x * s, a.y * s, a.z * s};
}
inline float dot(XrVector3f a, XrVector3f b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline XrVector3f cross(XrVector3f a, XrVector3f b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float length(XrVector3f a) {
  return std::sqrt(dot(a, a));
}

inline XrQuaternionf identity_quat() {
  return {0.0f, 0.0f, 0.0f, 1.0f};
}
inline XrPosef identity_pose() {
  return {identity_quat(), {0.0f, 0.0f, 0.0f}};
}

inline XrQuaternionf operator*(XrQuaternionf a, XrQuaternionf b) {
  return {
      a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
      a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
inline XrQuaternionf conjugate(XrQuaternionf q) {
  return {-q.x, -q.y, -q.z, q.w};
}
inline XrQuaternionf normalized(XrQuaternionf q) {
  const float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (n < 1e-12f) return identity_quat();
  return {q.x / n, q.y / n, q.z / n, q.w / n};
}
inline XrVector3f rotate(XrQuaternionf q, XrVector3f v) {
  const XrVector3f u{q.x, q.y, q.z};
  const XrVector3f t = cross(u, v) * 2.0f;
  return v + t * q.w + cross(u, t);
}
inline XrQuaternionf axis_angle(XrVector3f axis, float angle_rad) {
  const float s = std::sin(angle_rad * 0.5f);
  return {axis.x * s, axis.y * s, axis.z * s, std::cos(angle_rad * 0.5f)};
}

// a * b: b expressed in a's frame, brought to a's parent frame.
inline XrPosef compose(const XrPosef& a, const XrPosef& b) {
  return {normalized(a.orientation * b.orientation),
          a.position + rotate(a.orientation, b.position)};
}
inline XrPosef inverse(const XrPosef& p) {
  const XrQuaternionf qi = conjugate(p.orientation);
  return {qi, rotate(qi, p.position * -1.0f)};
}

inline XrQuaternionf slerp(XrQuaternionf a, XrQuaternionf b, float t) {
  float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  if (d < 0.0f) {  // take the short way round
    b = {-b.x, -b.y, -b.z, -b.w};
    d = -d;
  }
  if (d > 0.9995f) {
    return normalized({a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t,
                       a.w + (b.w - a.w) * t});
  }
  const float theta = std::acos(d);
  const float sa = std::sin((1.0f - t) * theta) / std::sin(theta);
  const float sb = std::sin(t * theta) / std::sin(theta);
  return normalized(
      {a.x * sa + b.x * sb, a.y * sa + b.y * sb, a.z * sa + b.z * sb, a.w * sa + b.w * sb});
}

// Angular velocity [rad/s] (world frame) that turns a into b in dt seconds.
inline XrVector3f angular_velocity(XrQuaternionf a, XrQuaternionf b, float dt) {
  XrQuaternionf d = normalized(b * conjugate(a));
  if (d.w < 0.0f) d = {-d.x, -d.y, -d.z, -d.w};
  const float s = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  if (s < 1e-9f || dt <= 0.0f) return {0.0f, 0.0f, 0.0f};
  const float angle = 2.0f * std::atan2(s, d.w);
  return XrVector3f{d.x / s, d.y / s, d.z / s} * (angle / dt);
}

}  // namespace stagger::simxr
