#pragma once
// Triangle meshes for level geometry, read from glTF 2.0 (.gltf/.glb) and OBJ files. Only the
// triangles matter (collision and the navmesh): materials, normals and images are ignored.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "stagger/core/math.h"
#include "stagger/core/result.h"

namespace stagger::levels {

struct TriangleMesh {
  std::vector<Vec3> vertices;          ///< [m] in the file's frame (glTF node transforms applied)
  std::vector<std::uint32_t> indices;  ///< three per triangle
  std::size_t triangle_count() const { return indices.size() / 3; }
};

/// Reads every triangle of a .gltf, .glb or .obj file. Errors name the file and what is wrong.
Result<TriangleMesh> load_mesh_file(const std::string& path);

/// The mesh placed in the level: scaled, rotated (degrees, Quat::from_euler_xyz) and moved.
TriangleMesh placed(const TriangleMesh& mesh, Vec3 position, Vec3 rotation_deg, Vec3 scale);

/// What is wrong with one mesh's vertices placed in the level, if anything: a vertex that is not
/// finite or lies beyond the world's extent, or a mesh wider than the largest shape
/// (stagger/core/limits.h); beyond them Bullet and Recast lose precision or fail. Said as the end
/// of a sentence that names the mesh ("vertex 3 of its mesh lies at ...").
std::optional<std::string> placed_mesh_problem(std::span<const Vec3> vertices);

}  // namespace stagger::levels
