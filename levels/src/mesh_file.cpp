#include <array>
#include <cstring>
#include <filesystem>

#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>
#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>

#include "gltf_nodes.h"
#include "stagger/levels/mesh.h"

namespace stagger::levels {
namespace {

// Reads one accessor as `count` elements of `components` values each.
bool read_accessor(const tinygltf::Model& model, int index, std::vector<double>& out, int& components,
                   std::string& error) {
  if (index < 0 || static_cast<std::size_t>(index) >= model.accessors.size()) {
    error = "accessor " + std::to_string(index) + " does not exist";
    return false;
  }
  const tinygltf::Accessor& a = model.accessors[static_cast<std::size_t>(index)];
  components = tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(a.type));
  const int size = tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(a.componentType));
  if (components <= 0 || size <= 0 || a.bufferView < 0 ||
      static_cast<std::size_t>(a.bufferView) >= model.bufferViews.size()) {
    error = "accessor " + std::to_string(index) + " is not readable (sparse or without data)";
    return false;
  }
  const tinygltf::BufferView& view = model.bufferViews[static_cast<std::size_t>(a.bufferView)];
  if (view.buffer < 0 || static_cast<std::size_t>(view.buffer) >= model.buffers.size()) {
    error = "buffer view " + std::to_string(a.bufferView) + " names no buffer";
    return false;
  }
  const std::vector<unsigned char>& data = model.buffers[static_cast<std::size_t>(view.buffer)].data;
  const std::size_t stride = view.byteStride > 0 ? view.byteStride : static_cast<std::size_t>(components * size);
  const std::size_t start = view.byteOffset + a.byteOffset;
  const std::size_t element = static_cast<std::size_t>(components * size);
  if (a.count > 0 && start + (a.count - 1) * stride + element > data.size()) {
    error = "accessor " + std::to_string(index) + " runs past the end of its buffer";
    return false;
  }
  out.resize(a.count * static_cast<std::size_t>(components));
  for (std::size_t i = 0; i < a.count; ++i) {
    const unsigned char* p = data.data() + start + i * stride;
    for (int c = 0; c < components; ++c) {
      const unsigned char* q = p + c * size;
      double v = 0;
      switch (a.componentType) {
        case TINYGLTF_COMPONENT_TYPE_FLOAT: { float f; std::memcpy(&f, q, 4); v = static_cast<double>(f); break; }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: { std::uint32_t u; std::memcpy(&u, q, 4); v = u; break; }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: { std::uint16_t u; std::memcpy(&u, q, 2); v = u; break; }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: v = *q; break;
        default: error = "accessor " + std::to_string(index) + " has an unsupported component type"; return false;
      }
      out[i * static_cast<std::size_t>(components) + static_cast<std::size_t>(c)] = v;
    }
  }
  return true;
}

bool add_primitive(const tinygltf::Model& model, const tinygltf::Primitive& primitive, const Affine& transform,
                   TriangleMesh& mesh, std::string& error) {
  if (primitive.mode != -1 && primitive.mode != TINYGLTF_MODE_TRIANGLES) return true;  // lines, points
  const auto position = primitive.attributes.find("POSITION");
  if (position == primitive.attributes.end()) return true;
  std::vector<double> xyz;
  int components = 0;
  if (!read_accessor(model, position->second, xyz, components, error)) return false;
  if (components != 3) {
    error = "POSITION is not a 3-component accessor";
    return false;
  }
  const auto first = static_cast<std::uint32_t>(mesh.vertices.size());
  const std::size_t count = xyz.size() / 3;
  for (std::size_t i = 0; i < count; ++i) {
    mesh.vertices.push_back(apply(transform, {float(xyz[3 * i]), float(xyz[3 * i + 1]), float(xyz[3 * i + 2])}));
  }
  std::vector<double> indices;
  if (primitive.indices >= 0) {
    if (!read_accessor(model, primitive.indices, indices, components, error)) return false;
  } else {
    for (std::size_t i = 0; i < count; ++i) indices.push_back(static_cast<double>(i));
  }
  for (std::size_t i = 0; i + 2 < indices.size(); i += 3) {
    for (std::size_t k = 0; k < 3; ++k) {
      if (indices[i + k] >= static_cast<double>(count)) {
        error = "an index points past the vertices of its primitive";
        return false;
      }
      mesh.indices.push_back(first + static_cast<std::uint32_t>(indices[i + k]));
    }
  }
  return true;
}

bool add_node(const tinygltf::Model& model, int index, const Affine& parent, TriangleMesh& mesh, std::string& error,
              int depth) {
  if (index < 0 || static_cast<std::size_t>(index) >= model.nodes.size() || depth > 64) {
    error = "node " + std::to_string(index) + " does not exist or nests too deep";
    return false;
  }
  const tinygltf::Node& node = model.nodes[static_cast<std::size_t>(index)];
  const Affine world = compose(parent, node_transform(node));
  if (node.mesh >= 0) {
    if (static_cast<std::size_t>(node.mesh) >= model.meshes.size()) {
      error = "node " + std::to_string(index) + " names a mesh that does not exist";
      return false;
    }
    for (const auto& primitive : model.meshes[static_cast<std::size_t>(node.mesh)].primitives) {
      if (!add_primitive(model, primitive, world, mesh, error)) return false;
    }
  }
  for (int child : node.children) {
    if (!add_node(model, child, world, mesh, error, depth + 1)) return false;
  }
  return true;
}

Result<TriangleMesh> load_gltf(const std::string& path, bool binary) {
  tinygltf::Model model;
  std::string error;
  if (!read_gltf(path, binary, model, error)) return Error{path + ": not a readable glTF file: " + error};
  return triangles_of(model, path);
}

Result<TriangleMesh> load_obj(const std::string& path) {
  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.mtl_search_path = std::filesystem::path(path).parent_path().string();
  tinyobj::ObjReader reader;
  if (!reader.ParseFromFile(path, config)) {
    return Error{path + ": not a readable OBJ file: " + (reader.Error().empty() ? "unknown error" : reader.Error())};
  }
  TriangleMesh mesh;
  const auto& v = reader.GetAttrib().vertices;
  for (std::size_t i = 0; i + 2 < v.size(); i += 3) mesh.vertices.push_back({v[i], v[i + 1], v[i + 2]});
  for (const auto& shape : reader.GetShapes()) {
    for (const auto& index : shape.mesh.indices) {
      if (index.vertex_index < 0 || static_cast<std::size_t>(index.vertex_index) >= mesh.vertices.size()) {
        return Error{path + ": a face points past the vertices"};
      }
      mesh.indices.push_back(static_cast<std::uint32_t>(index.vertex_index));
    }
  }
  if (mesh.indices.empty()) return Error{path + ": no triangles"};
  return mesh;
}

}  // namespace

bool ignore_image(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int, void*) {
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

Result<TriangleMesh> triangles_of(const tinygltf::Model& model, const std::string& path) {
  TriangleMesh mesh;
  std::string error;
  std::vector<int> roots;
  if (!model.scenes.empty()) {
    const std::size_t scene = model.defaultScene >= 0 ? static_cast<std::size_t>(model.defaultScene) : 0;
    if (scene >= model.scenes.size()) return Error{path + ": the default scene does not exist"};
    roots = model.scenes[scene].nodes;
  }
  for (int root : roots) {
    if (!add_node(model, root, kIdentity, mesh, error, 0)) return Error{path + ": " + error};
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
  const Quat r = Quat::from_euler_xyz({deg_to_rad(rotation_deg.x), deg_to_rad(rotation_deg.y), deg_to_rad(rotation_deg.z)});
  const Affine m = trs(position, r, scale);
  TriangleMesh out;
  out.indices = mesh.indices;
  out.vertices.reserve(mesh.vertices.size());
  for (Vec3 p : mesh.vertices) out.vertices.push_back(apply(m, p));
  return out;
}

}  // namespace stagger::levels
