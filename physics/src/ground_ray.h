#pragma once
// Rays against static geometry (ground probes under the feet, lines of sight), with boxes tested
// analytically. Bullet casts a point against a convex shape with GJK (btSubsimplexConvexCast):
// for a box that was 3.3 % of 32 walking ragdolls' instructions, two probes per ragdoll per step.
// A slab test finds the same face to within Bullet's cast tolerance (0.1 mm); other shapes
// (meshes, anything else) still go to Bullet's own test.

#include <btBulletDynamicsCommon.h>

namespace stagger::physics {

struct RayHit {
  bool hit = false;
  btVector3 point{0, 0, 0};   ///< [m] world
  btVector3 normal{0, 1, 0};  ///< world, unit, facing the ray's start
};

/// The hit nearest `from` on the segment from `from` to `to`, among `world`'s objects.
RayHit closest_ray_hit(const btCollisionWorld& world, const btVector3& from, const btVector3& to);

}  // namespace stagger::physics
