#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <utility>

#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>
#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>

#include "gltf_nodes.h"
#include "stagger/core/limits.h"
#include "stagger/levels/mesh.h"

namespace stagger::levels {
namespace {

// One accessor's values, `components` to an element.
bool accessor_values(const tinygltf::Model& model, int index, std::vector<double>& out,
                     int& components, std::string& error) {
  const std::string name = "accessor " + std::to_string(index);
  if (index < 0 || static_cast<std::size_t>(index) >= model.accessors.size()) {
    error = name + " does not exist";
    return false;
  }
  const tinygltf::Accessor& a = model.accessors[static_cast<std::size_t>(index)];
  components = tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(a.type));
  const int size = tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(a.componentType));
  if (components <= 0 || size <= 0 || a.bufferView < 0 ||
      static_cast<std::size_t>(a.bufferView) >= model.bufferViews.size()) {
    error = name + " is not readable (sparse or without data)";
    return false;
  }
  const tinygltf::BufferView& view = model.bufferViews[static_cast<std::size_t>(a.bufferView)];
  if (view.buffer < 0 || static_cast<std::size_t>(view.buffer) >= model.buffers.size()) {
    error = "buffer view " + std::to_string(a.bufferView) + " names no buffer";
    return false;
  }
  const std::vector<unsigned char>& data =
      model.buffers[static_cast<std::size_t>(view.buffer)].data;
  const auto element = static_cast<std::size_t>(components * size);
  const std::size_t stride = view.byteStride > 0 ? view.byteStride : element;
  const std::size_t start = view.byteOffset + a.byteOffset;
  // By division, so that no count, however large, overflows the check.
  if (a.count > 0 && (start > data.size() || element > data.size() - start ||
                      (data.size() - start - element) / stride < a.count - 1)) {
    error = name + " runs past the end of its buffer";
    return false;
  }
  out.resize(a.count * static_cast<std::size_t>(components));
  for (std::size_t i = 0; i < a.count; ++i) {
    for (int c = 0; c < components; ++c) {
      const unsigned char* q =
          data.data() + start + i * stride + static_cast<std::size_t>(c * size);
      double v = 0;
      switch (a.componentType) {
        case TINYGLTF_COMPONENT_TYPE_FLOAT: {
          float f;
          std::memcpy(&f, q, 4);
          v = static_cast<double>(f);
          break;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
          std::uint32_t u;
          std::memcpy(&u, q, 4);
          v = u;
          break;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
          std::uint16_t u;
          std::memcpy(&u, q, 2);
          v = u;
          break;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
          v = *q;
          break;
        default:
          error = name + " has an unsupported component type";
          return false;
      }
      out[i * static_cast<std::size_t>(components) + static_cast<std::size_t>(c)] = v;
    }
  }
  return true;
}

bool append_primitive(const tinygltf::Model& model, const tinygltf::Primitive& primitive,
                      const Affine& world, TriangleMesh& out, std::string& error) {
  if (primitive.mode != -1 && primitive.mode != TINYGLTF_MODE_TRIANGLES) return true;  // no surface
  const auto position = primitive.attributes.find("POSITION");
  if (position == primitive.attributes.end()) return true;
  std::vector<double> xyz;
  int components = 0;
  if (!accessor_values(model, position->second, xyz, components, error)) return false;
  if (components != 3) {
    error = "POSITION is not a 3-component accessor";
    return false;
  }
  const auto first = static_cast<std::uint32_t>(out.vertices.size());
  const std::size_t count = xyz.size() / 3;
  for (std::size_t i = 0; i < count; ++i) {
    out.vertices.push_back(
        apply(world, {float(xyz[3 * i]), float(xyz[3 * i + 1]), float(xyz[3 * i + 2])}));
  }
  std::vector<double> indices;
  if (primitive.indices >= 0) {
    if (!accessor_values(model, primitive.indices, indices, components, error)) return false;
  } else {
    for (std::size_t i = 0; i < count; ++i) indices.push_back(static_cast<double>(i));
  }
  // The second and third corners swap where the transform mirrors.
  const bool mirrored = determinant(world) < 0;
  using Corners = std::array<std::size_t, 3>;
  const Corners order = mirrored ? Corners{0, 2, 1} : Corners{0, 1, 2};
  for (std::size_t i = 0; i + 2 < indices.size(); i += 3) {
    for (std::size_t k : order) {
      // An index accessor of floats can hold anything: only whole numbers within the vertices
      // count.
      const double index = indices[i + k];
      if (!(index >= 0) || index >= static_cast<double>(count) || index != std::floor(index)) {
        error = "an index points outside the vertices of its primitive";
        return false;
      }
      out.indices.push_back(first + static_cast<std::uint32_t>(indices[i + k]));
    }
  }
  return true;
}

// Walks a node and its children once each (a node listed twice, or a cycle, is an error), so that
// no file can make the walk exponential or endless.
bool add_node(const tinygltf::Model& model, int index, const Affine& parent, TriangleMesh& mesh,
              std::string& error, int depth, std::vector<bool>& reached) {
  if (index < 0 || static_cast<std::size_t>(index) >= model.nodes.size()) {
    error = "node " + std::to_string(index) + " does not exist";
    return false;
  }
  if (depth > limits::kMaxJsonDepth || reached[static_cast<std::size_t>(index)]) {
    error = "node " + std::to_string(index) +
            " is reached twice (a cycle or two parents) or nests more than " +
            std::to_string(limits::kMaxJsonDepth) + " deep";
    return false;
  }
  reached[static_cast<std::size_t>(index)] = true;
  const tinygltf::Node& node = model.nodes[static_cast<std::size_t>(index)];
  const Affine world = compose(parent, node_transform(node));
  if (node.mesh >= 0) {
    if (static_cast<std::size_t>(node.mesh) >= model.meshes.size()) {
      error = "node " + std::to_string(index) + " names a mesh that does not exist";
      return false;
    }
    if (!append_mesh_triangles(model, model.meshes[static_cast<std::size_t>(node.mesh)], world,
                               mesh, error))
      return false;
  }
  for (int child : node.children) {
    if (!add_node(model, child, world, mesh, error, depth + 1, reached)) return false;
  }
  return true;
}

Result<TriangleMesh> load_gltf(const std::string& path, bool binary) {
  tinygltf::Model model;
  std::string error;
  if (!read_gltf(path, binary, model, error))
    return Error{path + ": not a readable glTF file: " + error};
  return triangles_of(model, path);
}

Result<TriangleMesh> load_obj(const std::string& path) {
  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.mtl_search_path = std::filesystem::path(path).parent_path().string();
  tinyobj::ObjReader reader;
  if (!reader.ParseFromFile(path, config)) {
    return Error{path + ": not a readable OBJ file: " +
                 (reader.Error().empty() ? "unknown error" : reader.Error())};
  }
  TriangleMesh mesh;
  const auto& v = reader.GetAttrib().vertices;
  for (std::size_t i = 0; i + 2 < v.size(); i += 3)
    mesh.vertices.push_back({v[i], v[i + 1], v[i + 2]});
  for (const auto& shape : reader.GetShapes()) {
    for (const auto& index : shape.mesh.indices) {
      if (index.vertex_index < 0 ||
          static_cast<std::size_t>(index.vertex_index) >= mesh.vertices.size()) {
        return Error{path + ": a face points past the vertices"};
      }
      mesh.indices.push_back(static_cast<std::uint32_t>(index.vertex_index));
    }
  }
  if (mesh.indices.empty()) return Error{path + ": no triangles"};
  return mesh;
}

}  // namespace

bool ignore_image(tinygltf::Image*, const int, std::string*, std::string*, int, int,
                  const unsigned char*, int, void*) {
  return true;  // textures do not matter for collision
}

bool read_gltf(const std::string& path, bool binary, tinygltf::Model& model, std::string& error) {
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(ignore_image, nullptr);
  std::string warning;
  const bool ok = binary ? loader.LoadBinaryFromFile(&model, &error, &warning, path)
                         : loader.LoadASCIIFromFile(&model, &error, &warning, path);
  if (!ok && error.empty()) error = "unknown error";
  return ok;
}

bool append_mesh_triangles(const tinygltf::Model& model, const tinygltf::Mesh& mesh,
                           const Affine& world, TriangleMesh& out, std::string& error) {
  for (const tinygltf::Primitive& primitive : mesh.primitives) {
    if (!append_primitive(model, primitive, world, out, error)) return false;
  }
  return true;
}

Result<TriangleMesh> triangles_of(const tinygltf::Model& model, const std::string& path) {
  TriangleMesh mesh;
  std::string error;
  std::vector<int> roots;
  if (!model.scenes.empty()) {
    const std::size_t scene =
        model.defaultScene >= 0 ? static_cast<std::size_t>(model.defaultScene) : 0;
    if (scene >= model.scenes.size()) return Error{path + ": the default scene does not exist"};
    roots = model.scenes[scene].nodes;
  }
  std::vector<bool> reached(model.nodes.size(), false);
  for (int root : roots) {
    if (!add_node(model, root, kIdentity, mesh, error, 0, reached))
      return Error{path + ": " + error};
  }
  if (mesh.indices.empty()) return Error{path + ": no triangles in the default scene"};
  return mesh;
}

Result<TriangleMesh> load_mesh_file(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".gltf") return load_gltf(path, false);
  if (ext == ".glb") return load_gltf(path, true);
  if (ext == ".obj") return load_obj(path);
  return Error{path + ": mesh files must be .gltf, .glb or .obj"};
}

TriangleMesh placed(const TriangleMesh& mesh, Vec3 position, Vec3 rotation_deg, Vec3 scale) {
  const Quat r = Quat::from_euler_xyz(
      {deg_to_rad(rotation_deg.x), deg_to_rad(rotation_deg.y), deg_to_rad(rotation_deg.z)});
  const Affine m = trs(position, r, scale);
  TriangleMesh out;
  out.indices = mesh.indices;
  // A mirroring scale turns every front face around: swap two corners to turn it back.
  if (determinant(m) < 0) {
    for (std::size_t t = 0; t + 2 < out.indices.size(); t += 3)
      std::swap(out.indices[t + 1], out.indices[t + 2]);
  }
  out.vertices.reserve(mesh.vertices.size());
  for (Vec3 p : mesh.vertices) out.vertices.push_back(apply(m, p));
  return out;
}

std::optional<std::string> placed_mesh_problem(std::span<const Vec3> vertices) {
  const auto inside = [](Vec3 p) {
    return limits::within_world(double(p.x), double(p.y), double(p.z));
  };
  const auto shown = [](Vec3 p) {
    return "(" + limits::number_text(double(p.x)) + ", " + limits::number_text(double(p.y)) + ", " +
           limits::number_text(double(p.z)) + ")";
  };
  const auto outside = std::find_if_not(vertices.begin(), vertices.end(), inside);
  if (outside != vertices.end()) {
    const auto more =
        std::count_if(outside + 1, vertices.end(), [&](Vec3 p) { return !inside(p); });
    return "vertex " + std::to_string(outside - vertices.begin()) + " of its mesh lies at " +
           shown(*outside) + ", outside the world (every coordinate within +-" +
           limits::number_text(limits::kWorldExtentM) + " m)" +
           (more > 0 ? " (and " + std::to_string(more) + " more)" : "");
  }
  if (vertices.empty()) return std::nullopt;
  Vec3 low = vertices.front(), high = vertices.front();
  for (const Vec3& v : vertices) {
    low = {std::min(low.x, v.x), std::min(low.y, v.y), std::min(low.z, v.z)};
    high = {std::max(high.x, v.x), std::max(high.y, v.y), std::max(high.z, v.z)};
  }
  const std::array<float, 3> size = {high.x - low.x, high.y - low.y, high.z - low.z};
  const auto widest =
      static_cast<std::size_t>(std::max_element(size.begin(), size.end()) - size.begin());
  if (double(size[widest]) <= limits::kLargestShapeM) return std::nullopt;
  return "its mesh is " + limits::number_text(double(size[widest])) + " m across along " +
         "xyz"[widest] + ": one mesh may be at most " +
         limits::number_text(limits::kLargestShapeM) + " m across (split it into smaller objects)";
}

}  // namespace stagger::levels
