#include "stagger/output/gltf_export.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include "stagger/core/assert.h"
#include "stagger/sim/shape_mesh.h"

namespace stagger::output {

namespace {

// Builds the model's one buffer: views and accessors appended as data comes.
class ModelBuilder {
 public:
  ModelBuilder() { model_.buffers.emplace_back(); }
  tinygltf::Model& model() { return model_; }

  int accessor(const void* data, std::size_t bytes, int component, int type, std::size_t count,
               int target, std::vector<double> min = {}, std::vector<double> max = {}) {
    auto& buffer = model_.buffers[0].data;
    while (buffer.size() % 4) buffer.push_back(0);
    tinygltf::BufferView view;
    view.buffer = 0;
    view.byteOffset = buffer.size();
    view.byteLength = bytes;
    if (target != 0) view.target = target;
    const auto* p = static_cast<const unsigned char*>(data);
    buffer.insert(buffer.end(), p, p + bytes);
    model_.bufferViews.push_back(view);
    tinygltf::Accessor a;
    a.bufferView = static_cast<int>(model_.bufferViews.size()) - 1;
    a.componentType = component;
    a.type = type;
    a.count = count;
    a.minValues = std::move(min);
    a.maxValues = std::move(max);
    model_.accessors.push_back(a);
    return static_cast<int>(model_.accessors.size()) - 1;
  }

  int mesh(const std::string& name, const sim::MeshData& m, int material) {
    std::vector<double> lo(3, 1e30), hi(3, -1e30);
    for (Vec3 p : m.positions) {
      const double v[3] = {p.x, p.y, p.z};
      for (int i = 0; i < 3; ++i) {
        lo[static_cast<std::size_t>(i)] = std::min(lo[static_cast<std::size_t>(i)], v[i]);
        hi[static_cast<std::size_t>(i)] = std::max(hi[static_cast<std::size_t>(i)], v[i]);
      }
    }
    tinygltf::Primitive primitive;
    primitive.attributes["POSITION"] = accessor(
        m.positions.data(), m.positions.size() * sizeof(Vec3), TINYGLTF_COMPONENT_TYPE_FLOAT,
        TINYGLTF_TYPE_VEC3, m.positions.size(), TINYGLTF_TARGET_ARRAY_BUFFER, lo, hi);
    primitive.attributes["NORMAL"] =
        accessor(m.normals.data(), m.normals.size() * sizeof(Vec3), TINYGLTF_COMPONENT_TYPE_FLOAT,
                 TINYGLTF_TYPE_VEC3, m.normals.size(), TINYGLTF_TARGET_ARRAY_BUFFER);
    primitive.indices =
        accessor(m.indices.data(), m.indices.size() * 4, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT,
                 TINYGLTF_TYPE_SCALAR, m.indices.size(), TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
    primitive.material = material;
    primitive.mode = TINYGLTF_MODE_TRIANGLES;
    tinygltf::Mesh mesh;
    mesh.name = name;
    mesh.primitives.push_back(primitive);
    model_.meshes.push_back(mesh);
    return static_cast<int>(model_.meshes.size()) - 1;
  }

  int material(const std::string& name, std::array<double, 4> colour) {
    tinygltf::Material material;
    material.name = name;
    material.pbrMetallicRoughness.baseColorFactor = {colour[0], colour[1], colour[2], colour[3]};
    material.pbrMetallicRoughness.metallicFactor = 0.0;
    material.pbrMetallicRoughness.roughnessFactor = 0.8;
    model_.materials.push_back(material);
    return static_cast<int>(model_.materials.size()) - 1;
  }

  // A LINEAR translation and rotation sampler on the key times `input`, and their channels to
  // `node`.
  void animate(tinygltf::Animation& animation, int node, int input,
               const std::vector<Vec3>& translations, const std::vector<Quat>& rotations) {
    std::vector<float> xyzw;
    for (const Quat& q : rotations) xyzw.insert(xyzw.end(), {q.x, q.y, q.z, q.w});
    const int translation_out =
        accessor(translations.data(), translations.size() * sizeof(Vec3),
                 TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, translations.size(), 0);
    const int rotation_out = accessor(xyzw.data(), xyzw.size() * 4, TINYGLTF_COMPONENT_TYPE_FLOAT,
                                      TINYGLTF_TYPE_VEC4, rotations.size(), 0);
    for (const auto& [path_name, output] :
         {std::pair<const char*, int>{"translation", translation_out},
          {"rotation", rotation_out}}) {
      tinygltf::AnimationSampler sampler;
      sampler.input = input;
      sampler.output = output;
      sampler.interpolation = "LINEAR";
      animation.samplers.push_back(sampler);
      tinygltf::AnimationChannel channel;
      channel.sampler = static_cast<int>(animation.samplers.size()) - 1;
      channel.target_node = node;
      channel.target_path = path_name;
      animation.channels.push_back(channel);
    }
  }

  int node(const std::string& name, int mesh, Vec3 translation, Quat rotation) {
    tinygltf::Node node;
    node.name = name;
    node.mesh = mesh;
    node.translation = {translation.x, translation.y, translation.z};
    node.rotation = {rotation.x, rotation.y, rotation.z, rotation.w};
    model_.nodes.push_back(node);
    const int index = static_cast<int>(model_.nodes.size()) - 1;
    model_.scenes[0].nodes.push_back(index);
    return index;
  }

 private:
  tinygltf::Model model_;
};

Result<bool> write_model(tinygltf::Model& model, const std::string& path) {
  model.buffers[0].name = "data";
  tinygltf::TinyGLTF writer;
  if (!writer.WriteGltfSceneToFile(&model, path, /*embedImages=*/true, /*embedBuffers=*/true,
                                   /*prettyPrint=*/false,
                                   /*writeBinary=*/false)) {
    return Error{path + ": cannot write the glTF file"};
  }
  return true;
}

// A clip part's shape as the world's body settings (what sim::shape_mesh draws).
physics::BodySettings body_shape(const sim::ClipPartShape& shape) {
  physics::BodySettings body;
  body.shape = shape.shape;
  body.radius = shape.radius;
  body.half_length = shape.half_length;
  body.half_extents = shape.half_extents;
  return body;
}

}  // namespace

GltfAnimation::GltfAnimation(const sim::Simulation& simulation, double sample_hz)
    : scene_(simulation.scene().description()) {
  const double physics_hz = static_cast<double>(simulation.scene().world().settings().physics_hz);
  every_steps_ = std::max(1, static_cast<int>(std::lround(physics_hz / sample_hz)));
  for (const sim::ShapedBody& b : sim::shaped_bodies(simulation))
    tracks_.push_back(Track{b.name, b.body, b.shape, {}, {}});
  record(simulation);  // the first frame: where everything starts
}

void GltfAnimation::record(const sim::Simulation& simulation) {
  const physics::World& world = simulation.scene().world();
  if (world.step_count() % static_cast<std::uint64_t>(every_steps_) != 0) return;
  times_.push_back(static_cast<float>(world.time()));
  for (Track& t : tracks_) {
    const physics::BodyState s = world.body_state(t.body);
    Quat q = s.rotation;
    // Neighbouring keys on the same side of the quaternion double cover, so the linear
    // interpolation between them takes the short way.
    if (!t.rotations.empty() && dot(q, t.rotations.back()) < 0) q = {-q.w, -q.x, -q.y, -q.z};
    t.translations.push_back(s.position);
    t.rotations.push_back(q);
  }
}

Result<bool> GltfAnimation::write(const std::string& path) const {
  ModelBuilder b;
  tinygltf::Model& model = b.model();
  model.asset.version = "2.0";
  model.asset.generator = "stagger export";
  model.scenes.emplace_back();
  model.scenes[0].name = scene_.name;
  model.defaultScene = 0;
  const int level_material = b.material("level", {0.62, 0.62, 0.58, 1.0});
  const int body_material = b.material("enemy", {0.80, 0.25, 0.22, 1.0});
  const bool hands = std::any_of(tracks_.begin(), tracks_.end(),
                                 [](const Track& t) { return t.name.rfind("hand_", 0) == 0; });
  const int hand_material =
      hands ? b.material("hand", {0.25, 0.55, 0.85, 1.0}) : -1;  // (no unused materials)
  // The level: boxes as unit-less box meshes placed by their nodes, meshes as world triangles.
  for (std::size_t i = 0; i < scene_.boxes.size(); ++i) {
    const auto& box = scene_.boxes[i];
    b.node("level/box-" + std::to_string(i + 1),
           b.mesh("box-" + std::to_string(i + 1), sim::box_mesh(box.half_extents), level_material),
           box.center, box.rotation);
  }
  for (std::size_t i = 0; i < scene_.meshes.size(); ++i) {
    b.node("level/mesh-" + std::to_string(i + 1),
           b.mesh("mesh-" + std::to_string(i + 1), sim::triangle_soup(scene_.meshes[i]),
                  level_material),
           {}, {});
  }
  // The bodies and their animation: one sampler input (the key times) shared by every channel.
  tinygltf::Animation animation;
  animation.name = "run";
  const int input =
      b.accessor(times_.data(), times_.size() * 4, TINYGLTF_COMPONENT_TYPE_FLOAT,
                 TINYGLTF_TYPE_SCALAR, times_.size(), 0, {times_.front()}, {times_.back()});
  for (const Track& t : tracks_) {
    const bool hand = t.name.rfind("hand_", 0) == 0;
    const int node = b.node(
        t.name, b.mesh(t.name, sim::shape_mesh(t.shape), hand ? hand_material : body_material),
        t.translations.front(), t.rotations.front());
    b.animate(animation, node, input, t.translations, t.rotations);
  }
  model.animations.push_back(animation);
  return write_model(model, path);
}

}  // namespace stagger::output

namespace stagger::output {

Result<bool> write_clips_gltf(const sim::DeathClipLibrary& library, const std::string& path) {
  if (library.clips().empty()) return Error{path + ": the library holds no clips"};
  ModelBuilder b;
  tinygltf::Model& model = b.model();
  model.asset.version = "2.0";
  model.asset.generator = "stagger export";
  model.scenes.emplace_back();
  model.scenes[0].name = library.rig().level + " death clips";
  model.defaultScene = 0;
  const int material = b.material("enemy", {0.80, 0.25, 0.22, 1.0});
  const sim::DeathClip& first = library.clips().front();
  std::vector<int> nodes;
  for (int p = 0; p < physics::kBodyPartCount; ++p) {
    const auto i = static_cast<std::size_t>(p);
    const std::string name(physics::name_of(physics::body_part_at(p)));
    const sim::ClipKey& rest = first.tracks[i].front();
    nodes.push_back(
        b.node(name, b.mesh(name, sim::shape_mesh(body_shape(library.rig().shapes[i])), material),
               rest.position, rest.rotation));
  }
  for (std::size_t c = 0; c < library.clips().size(); ++c) {
    const sim::DeathClip& clip = library.clips()[c];
    tinygltf::Animation animation;
    animation.name = (c < 9 ? "clip-0" : "clip-") + std::to_string(c + 1);
    for (std::size_t p = 0; p < clip.tracks.size(); ++p) {
      std::vector<float> times;
      std::vector<Vec3> translations;
      std::vector<Quat> rotations;
      for (const sim::ClipKey& k : clip.tracks[p]) {
        // Neighbouring keys on one side of the double cover: glTF's slerp takes them as they are.
        Quat q = k.rotation;
        if (!rotations.empty() && dot(q, rotations.back()) < 0) q = {-q.w, -q.x, -q.y, -q.z};
        times.push_back(k.time_s);
        translations.push_back(k.position);
        rotations.push_back(q);
      }
      const int input =
          b.accessor(times.data(), times.size() * 4, TINYGLTF_COMPONENT_TYPE_FLOAT,
                     TINYGLTF_TYPE_SCALAR, times.size(), 0, {times.front()}, {times.back()});
      b.animate(animation, nodes[p], input, translations, rotations);
    }
    model.animations.push_back(animation);
  }
  return write_model(model, path);
}

}  // namespace stagger::output
