#pragma once
// Small value types for positions, velocities and rotations, shared by every module.
// Right-handed, +Y up, SI units (metres, seconds, radians).

#include <algorithm>
#include <cmath>
#include <numbers>

namespace stagger {

inline constexpr float kPi = std::numbers::pi_v<float>;
inline constexpr float kGravity = 9.81f;  ///< [m/s²] magnitude of gravity on -Y

constexpr float deg_to_rad(float degrees) {
  return degrees * kPi / 180.0f;
}
constexpr float rad_to_deg(float radians) {
  return radians * 180.0f / kPi;
}

struct Vec3 {
  float x = 0, y = 0, z = 0;

  constexpr Vec3 operator+(Vec3 o) const { return {x + o.x, y + o.y, z + o.z}; }
  constexpr Vec3 operator-(Vec3 o) const { return {x - o.x, y - o.y, z - o.z}; }
  constexpr Vec3 operator-() const { return {-x, -y, -z}; }
  constexpr Vec3 operator*(float s) const { return {x * s, y * s, z * s}; }
  constexpr Vec3 operator/(float s) const { return {x / s, y / s, z / s}; }
  constexpr Vec3& operator+=(Vec3 o) { return *this = *this + o; }
  constexpr Vec3& operator-=(Vec3 o) { return *this = *this - o; }
  constexpr Vec3& operator*=(float s) { return *this = *this * s; }
  constexpr bool operator==(const Vec3&) const = default;
};

constexpr Vec3 operator*(float s, Vec3 v) {
  return v * s;
}
constexpr float dot(Vec3 a, Vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
constexpr Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float length(Vec3 v) {
  return std::sqrt(dot(v, v));
}
inline Vec3 normalized(Vec3 v) {
  const float len = length(v);
  return len > 1e-12f ? v / len : Vec3{};
}
/// The horizontal (XZ) part of a vector: its projection onto the ground plane.
constexpr Vec3 horizontal(Vec3 v) {
  return {v.x, 0.0f, v.z};
}
inline bool is_finite(Vec3 v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
constexpr Vec3 lerp(Vec3 a, Vec3 b, float t) {
  return a + (b - a) * t;
}
/// Distance from `p` to the segment from `a` to `b` (in the units of the three).
inline float distance_to_segment(Vec3 p, Vec3 a, Vec3 b) {
  const Vec3 ab = b - a;
  const float span = dot(ab, ab);
  const float t = span > 0 ? std::clamp(dot(p - a, ab) / span, 0.0f, 1.0f) : 0.0f;
  return length(p - (a + ab * t));
}

/// Yaw [rad] of a direction about +Y: 0 along +Z, +pi/2 along +X (Quat::from_yaw's inverse).
inline float yaw_of(Vec3 direction) {
  return std::atan2(direction.x, direction.z);
}

/// Unit quaternion (w + xi + yj + zk) for rotations.
struct Quat {
  float w = 1, x = 0, y = 0, z = 0;

  static Quat identity() { return {}; }
  /// Rotation of `angle` radians about the unit vector `axis`.
  static Quat from_axis_angle(Vec3 axis, float angle) {
    const float s = std::sin(angle * 0.5f);
    return {std::cos(angle * 0.5f), axis.x * s, axis.y * s, axis.z * s};
  }
  /// Rotation about +Y by `yaw` radians (turning left when facing +Z is positive).
  static Quat from_yaw(float yaw) { return from_axis_angle({0, 1, 0}, yaw); }
  /// Rotation from a rotation vector (axis times angle, radians).
  static Quat from_rotation_vector(Vec3 v) {
    const float angle = length(v);
    if (angle < 1e-9f) return {1.0f, v.x * 0.5f, v.y * 0.5f, v.z * 0.5f};
    return from_axis_angle(v / angle, angle);
  }
  /// Intrinsic X, then Y, then Z rotations (matches R = Rx * Ry * Rz).
  static Quat from_euler_xyz(Vec3 angles) {
    return from_axis_angle({1, 0, 0}, angles.x) * from_axis_angle({0, 1, 0}, angles.y) *
           from_axis_angle({0, 0, 1}, angles.z);
  }

  constexpr Quat operator*(Quat o) const {
    return {w * o.w - x * o.x - y * o.y - z * o.z, w * o.x + x * o.w + y * o.z - z * o.y,
            w * o.y - x * o.z + y * o.w + z * o.x, w * o.z + x * o.y - y * o.x + z * o.w};
  }
  constexpr Quat conjugate() const { return {w, -x, -y, -z}; }
  constexpr bool operator==(const Quat&) const = default;

  Vec3 rotate(Vec3 v) const {
    const Vec3 u{x, y, z};
    const Vec3 t = 2.0f * cross(u, v);
    return v + w * t + cross(u, t);
  }
};

constexpr float dot(Quat a, Quat b) {
  return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
}

inline Quat normalized(Quat q) {
  const float len = std::sqrt(dot(q, q));
  if (len < 1e-12f) return {};
  return {q.w / len, q.x / len, q.y / len, q.z / len};
}

/// Rotation vector (axis times angle) of q, angle in [0, pi].
inline Vec3 rotation_vector(Quat q) {
  if (q.w < 0) q = {-q.w, -q.x, -q.y, -q.z};
  const Vec3 v{q.x, q.y, q.z};
  const float s = length(v);
  if (s < 1e-9f) return v * 2.0f;
  const float angle = 2.0f * std::atan2(s, q.w);
  return v * (angle / s);
}

/// Yaw [rad] of q's twist about +Y: q is that yaw followed by the shortest tilt that takes +Y
/// where q takes it (the swing-twist decomposition). Unlike the yaw of q's forward direction it
/// is defined for a body lying down; undefined for q turned upside down.
inline float twist_yaw(Quat q) {
  return 2.0f * std::atan2(q.y, q.w);
}

/// Angle in radians between two rotations.
inline float angle_between(Quat a, Quat b) {
  const float d = std::min(1.0f, std::fabs(dot(a, b)));
  return 2.0f * std::acos(d);
}

/// Spherical linear interpolation along the shorter arc, t in [0, 1].
inline Quat slerp(Quat a, Quat b, float t) {
  float d = dot(a, b);
  if (d < 0) {
    b = {-b.w, -b.x, -b.y, -b.z};
    d = -d;
  }
  if (d > 0.9995f) {
    return normalized({a.w + (b.w - a.w) * t, a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t,
                       a.z + (b.z - a.z) * t});
  }
  const float theta = std::acos(d);
  const float s = std::sin(theta);
  const float wa = std::sin((1 - t) * theta) / s;
  const float wb = std::sin(t * theta) / s;
  return {wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z};
}

inline bool is_finite(Quat q) {
  return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

/// `a` [rad] brought into [-π, π] by whole turns.
inline float wrap_angle(float a) {
  while (a > kPi) a -= 2.0f * kPi;
  while (a < -kPi) a += 2.0f * kPi;
  return a;
}

/// Smooth ease-in-out of t in [0, 1] (zero slope at both ends).
constexpr float smoothstep(float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

}  // namespace stagger
