// `stagger export`: a 10 s recording of the arena becomes an animated glTF that loads
// back with every channel present, keyed over the whole run, with values in range.

#include <gtest/gtest.h>

#include <cmath>

#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include "process.h"

namespace stagger {
namespace {

// Reads accessor `index` as floats (tightly packed, as the exporter writes them).
std::vector<float> floats(const tinygltf::Model& model, int index) {
  const tinygltf::Accessor& a = model.accessors[static_cast<std::size_t>(index)];
  const tinygltf::BufferView& view = model.bufferViews[static_cast<std::size_t>(a.bufferView)];
  const auto& data = model.buffers[static_cast<std::size_t>(view.buffer)].data;
  const std::size_t components = a.type == TINYGLTF_TYPE_SCALAR ? 1
                                 : a.type == TINYGLTF_TYPE_VEC3 ? 3
                                                                : 4;
  std::vector<float> out(a.count * components);
  std::memcpy(out.data(), data.data() + view.byteOffset + a.byteOffset, out.size() * 4);
  return out;
}

TEST(Export, ArenaRecordingBecomesAnAnimatedGltfThatLoadsBack) {
  const auto recording = test::temp_path("arena.stagrec");
  const auto gltf = test::temp_path("arena.gltf");
  ASSERT_EQ(test::run_stagger("sim \"" STAGGER_SOURCE_DIR
                              "/levels/data/arena.json\" --seconds 10 --quiet --record \"" +
                              recording.string() + "\"")
                .exit_code,
            0);
  const auto exported = test::run_stagger("export --quiet \"" + recording.string() + "\" -o \"" +
                                          gltf.string() + "\"");
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_NE(exported.out.find("301 frames at 30 Hz of 2400 steps"), std::string::npos)
      << exported.out;

  tinygltf::Model model;
  tinygltf::TinyGLTF loader;
  std::string error, warning;
  ASSERT_TRUE(loader.LoadASCIIFromFile(&model, &error, &warning, gltf.string())) << error;
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_EQ(model.asset.version, "2.0");
  constexpr std::size_t kBodies = 9 * 13;  // the arena's nine enemies, 13 bodies each
  // The level: 13 boxes and one mesh, then a node per body.
  ASSERT_EQ(model.nodes.size(), 14 + kBodies);
  ASSERT_EQ(model.animations.size(), 1u);
  const tinygltf::Animation& animation = model.animations[0];
  ASSERT_EQ(animation.channels.size(), 2 * kBodies);
  std::vector<int> animated(model.nodes.size(), 0);
  for (const tinygltf::AnimationChannel& channel : animation.channels) {
    const tinygltf::AnimationSampler& sampler =
        animation.samplers[static_cast<std::size_t>(channel.sampler)];
    EXPECT_EQ(sampler.interpolation, "LINEAR");
    const std::vector<float> times = floats(model, sampler.input);
    ASSERT_EQ(times.size(), 301u);
    EXPECT_EQ(times.front(), 0.0f);
    EXPECT_NEAR(times.back(), 10.0f, 1e-4f);
    for (std::size_t i = 1; i < times.size(); ++i) ASSERT_GT(times[i], times[i - 1]);
    const std::vector<float> values = floats(model, sampler.output);
    if (channel.target_path == "translation") {
      animated[static_cast<std::size_t>(channel.target_node)] |= 1;
      ASSERT_EQ(values.size(), 3 * times.size());
      for (std::size_t i = 0; i < values.size(); i += 3) {
        EXPECT_TRUE(std::fabs(values[i]) < 16 && values[i + 1] > -0.1f && values[i + 1] < 3 &&
                    std::fabs(values[i + 2]) < 18)
            << model.nodes[static_cast<std::size_t>(channel.target_node)].name << " at key "
            << i / 3;
      }
    } else {
      ASSERT_EQ(channel.target_path, "rotation");
      animated[static_cast<std::size_t>(channel.target_node)] |= 2;
      ASSERT_EQ(values.size(), 4 * times.size());
      for (std::size_t i = 0; i < values.size(); i += 4) {
        const float norm = std::sqrt(values[i] * values[i] + values[i + 1] * values[i + 1] +
                                     values[i + 2] * values[i + 2] + values[i + 3] * values[i + 3]);
        EXPECT_NEAR(norm, 1.0f, 1e-3f);
        if (i >= 4) {  // neighbouring keys on the same side of the double cover
          const float d = values[i] * values[i - 4] + values[i + 1] * values[i - 3] +
                          values[i + 2] * values[i - 2] + values[i + 3] * values[i - 1];
          EXPECT_GE(d, 0.0f);
        }
      }
    }
  }
  for (std::size_t n = 14; n < model.nodes.size(); ++n)
    EXPECT_EQ(animated[n], 3) << model.nodes[n].name << " lacks a channel";
  for (const tinygltf::Mesh& mesh : model.meshes) {
    const tinygltf::Accessor& positions =
        model.accessors[static_cast<std::size_t>(mesh.primitives[0].attributes.at("POSITION"))];
    EXPECT_EQ(positions.minValues.size(), 3u) << mesh.name;
    EXPECT_EQ(positions.maxValues.size(), 3u) << mesh.name;
  }
}

}  // namespace
}  // namespace stagger
