#include "leg_ik.h"

#include <algorithm>
#include <cmath>

namespace stagger::physics {
namespace {

// Rotation matrix with columns x, y, z -> quaternion.
Quat from_basis(Vec3 x, Vec3 y, Vec3 z) {
  const float trace = x.x + y.y + z.z;
  Quat q;
  if (trace > 0) {
    const float s = 0.5f / std::sqrt(trace + 1.0f);
    q = {0.25f / s, (y.z - z.y) * s, (z.x - x.z) * s, (x.y - y.x) * s};
  } else if (x.x > y.y && x.x > z.z) {
    const float s = 2.0f * std::sqrt(1.0f + x.x - y.y - z.z);
    q = {(y.z - z.y) / s, 0.25f * s, (y.x + x.y) / s, (z.x + x.z) / s};
  } else if (y.y > z.z) {
    const float s = 2.0f * std::sqrt(1.0f + y.y - x.x - z.z);
    q = {(z.x - x.z) / s, (y.x + x.y) / s, 0.25f * s, (z.y + y.z) / s};
  } else {
    const float s = 2.0f * std::sqrt(1.0f + z.z - x.x - y.y);
    q = {(x.y - y.x) / s, (z.x + x.z) / s, (z.y + y.z) / s, 0.25f * s};
  }
  return normalized(q);
}

}  // namespace

Quat segment_rotation(Vec3 up_along_bone, Vec3 forward) {
  const Vec3 y = normalized(up_along_bone);
  Vec3 x = cross(y, forward);
  if (length(x) < 1e-4f) x = cross(y, Vec3{0, 0, 1});
  x = normalized(x);
  return from_basis(x, y, cross(x, y));
}

Quat foot_on_ground(Vec3 forward, Vec3 ground_normal) {
  // The same frame as a segment's: the foot's Y along the normal, its toes (Z) toward forward.
  return segment_rotation(ground_normal, forward);
}

LegTargets solve_leg(Vec3 hip, Quat pelvis_rotation, Vec3 ankle, Quat foot_rotation,
                     Vec3 knee_forward, float thigh, float shin) {
  // Two-bone IK in the plane of the leg, the knee bending forward.
  const Vec3 reach = ankle - hip;
  const float distance = std::clamp(length(reach), 0.2f * (thigh + shin), 0.9999f * (thigh + shin));
  const Vec3 u = normalized(reach);
  Vec3 w = knee_forward - u * dot(knee_forward, u);
  w = length(w) > 1e-4f ? normalized(w) : normalized(cross(cross(u, knee_forward), u));
  const float cos_hip = std::clamp(
      (thigh * thigh + distance * distance - shin * shin) / (2 * thigh * distance), -1.0f, 1.0f);
  const float angle = std::acos(cos_hip);
  const Vec3 knee = hip + (u * std::cos(angle) + w * std::sin(angle)) * thigh;
  const Vec3 ankle_reached = hip + u * distance;
  const Quat thigh_rotation = segment_rotation(hip - knee, knee_forward);
  const Quat shin_rotation = segment_rotation(knee - ankle_reached, knee_forward);
  return {normalized(pelvis_rotation.conjugate() * thigh_rotation),
          normalized(thigh_rotation.conjugate() * shin_rotation),
          normalized(shin_rotation.conjugate() * foot_rotation)};
}

}  // namespace stagger::physics
