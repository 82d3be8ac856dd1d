#pragma once
// Triangle meshes of the simulation's shapes (boxes, capsules, spheres, level triangles), with
// normals, for whatever draws them: the glTF export and the renderer.

#include <cstdint>
#include <string>
#include <vector>

#include "stagger/core/math.h"
#include "stagger/physics/world.h"

namespace stagger::sim {

struct MeshData {
  std::vector<Vec3> positions;         ///< [m] in the shape's own frame
  std::vector<Vec3> normals;           ///< unit, one per position
  std::vector<std::uint32_t> indices;  ///< three per triangle, counter-clockwise seen from outside
};

/// A box of half extents `h` [m], centred on its origin; flat-shaded faces.
MeshData box_mesh(Vec3 h);
/// A capsule along Y (X when `along_x`) of `radius` and cylinder half length [m]; a sphere when
/// `half_length` is 0.
MeshData capsule_mesh(float radius, float half_length, bool along_x);
/// The mesh of a body's shape (BodySettings::shape and its sizes).
MeshData shape_mesh(const physics::BodySettings& shape);
/// A level mesh as flat-shaded world-space triangles.
MeshData triangle_soup(const physics::StaticMeshSettings& mesh);

class Simulation;

/// A moving body of a simulation and its shape: every enemy's parts, then the physics hands
/// (each followed by its finger-joint spheres, when hand tracking made them).
struct ShapedBody {
  std::string name;  ///< `enemy/part`, `hand_left`, `hand_right`, `hand_left/joint`, ...
  physics::BodyId body{};
  physics::BodySettings shape;  ///< kind and sizes
  int enemy = -1;               ///< index of its enemy; -1 for a hand
  int hand = -1;                ///< 0 left, 1 right; -1 for an enemy's part
};
std::vector<ShapedBody> shaped_bodies(const Simulation& simulation);

}  // namespace stagger::sim
