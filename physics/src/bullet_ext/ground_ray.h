#pragma once
// Altered from Bullet Physics (zlib licence, Copyright (c) 2003-2006 Erwin Coumans): see
// BULLET_LICENSE in this folder.
// Rays against static geometry (ground probes under the feet, lines of sight), with boxes tested
// analytically. Bullet casts a point against a convex shape with GJK (btSubsimplexConvexCast):
// for a box that was 3.3 % of 32 walking ragdolls' instructions, two probes per ragdoll per step.
// A slab test is exact and sees the box's edges sharp, as the feet's box-on-box contacts do
// (Bullet's cast rounds them by the margin, and on about 3 % of downward rays reported hits up to
// 20 cm short of the box: tests/ground_ray_test.cpp). Other shapes (meshes) still go to Bullet.
// A ray starting inside a box is left to Bullet too.

#include <btBulletDynamicsCommon.h>

namespace stagger::physics {

struct RayHit {
  bool hit = false;
  btVector3 point{0, 0, 0};   ///< [m] world
  btVector3 normal{0, 1, 0};  ///< world, unit, facing the ray's start
};

/// How the objects a segment may hit are found: every object's bounding box in turn (for a few
/// objects), or the broadphase's tree; `automatic` picks by the world's object count.
enum class RaySearch { automatic, every_object, broadphase_tree };

/// The hit nearest `from` on the segment from `from` to `to`, among `world`'s objects.
RayHit closest_ray_hit(const btCollisionWorld& world, const btVector3& from, const btVector3& to,
                       RaySearch search = RaySearch::automatic);

}  // namespace stagger::physics
