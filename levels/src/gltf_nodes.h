#pragma once
// Node transforms of a glTF model (shared by the mesh reader and the glTF level reader). Include
// after tiny_gltf.h.

#include <array>
#include <string>

#include "stagger/core/math.h"
#include "stagger/core/result.h"
#include "stagger/levels/mesh.h"

namespace stagger::levels {

// Row-major 3x4 affine transform.
using Affine = std::array<float, 12>;
constexpr Affine kIdentity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};

inline Affine compose(const Affine& a, const Affine& b) {  // a * b
  Affine out{};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 4; ++c) {
      float v = c == 3 ? a[static_cast<std::size_t>(r * 4 + 3)] : 0.0f;
      for (int k = 0; k < 3; ++k)
        v += a[static_cast<std::size_t>(r * 4 + k)] * b[static_cast<std::size_t>(k * 4 + c)];
      out[static_cast<std::size_t>(r * 4 + c)] = v;
    }
  }
  return out;
}

inline Vec3 apply(const Affine& m, Vec3 p) {
  return {m[0] * p.x + m[1] * p.y + m[2] * p.z + m[3], m[4] * p.x + m[5] * p.y + m[6] * p.z + m[7],
          m[8] * p.x + m[9] * p.y + m[10] * p.z + m[11]};
}

/// The determinant of the transform's 3x3 part: negative where the transform mirrors.
inline float determinant(const Affine& m) {
  return m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) +
         m[2] * (m[4] * m[9] - m[5] * m[8]);
}

inline Affine trs(Vec3 t, Quat r, Vec3 s) {
  const Vec3 x = r.rotate({s.x, 0, 0});
  const Vec3 y = r.rotate({0, s.y, 0});
  const Vec3 z = r.rotate({0, 0, s.z});
  return {x.x, y.x, z.x, t.x, x.y, y.y, z.y, t.y, x.z, y.z, z.z, t.z};
}

inline Affine node_transform(const tinygltf::Node& node) {
  if (node.matrix.size() == 16) {  // column-major 4x4
    const auto& m = node.matrix;
    Affine a{};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 4; ++c)
        a[static_cast<std::size_t>(r * 4 + c)] =
            static_cast<float>(m[static_cast<std::size_t>(c * 4 + r)]);
    }
    return a;
  }
  Vec3 t;
  Quat r;
  Vec3 s{1, 1, 1};
  if (node.translation.size() == 3)
    t = {float(node.translation[0]), float(node.translation[1]), float(node.translation[2])};
  if (node.rotation.size() == 4) {
    r = normalized(Quat{float(node.rotation[3]), float(node.rotation[0]), float(node.rotation[1]),
                        float(node.rotation[2])});
  }
  if (node.scale.size() == 3)
    s = {float(node.scale[0]), float(node.scale[1]), float(node.scale[2])};
  return trs(t, r, s);
}

/// Reads a .gltf (or, with `binary`, a .glb); images are skipped.
bool read_gltf(const std::string& path, bool binary, tinygltf::Model& model, std::string& error);
/// Appends the triangles of `mesh` placed by `world` (lines and points are skipped). A mirroring
/// transform turns glTF's counter-clockwise front faces clockwise (glTF 2.0, "Meshes": the
/// determinant of the node's global transform defines the winding), so their winding is reversed
/// to keep every front face, a walkable top among them, facing out. False, with `error` set, when
/// a primitive cannot be read.
bool append_mesh_triangles(const tinygltf::Model& model, const tinygltf::Mesh& mesh,
                           const Affine& world, TriangleMesh& out, std::string& error);
/// Every triangle of the model's default scene, node transforms applied.
Result<TriangleMesh> triangles_of(const tinygltf::Model& model, const std::string& path);

}  // namespace stagger::levels
