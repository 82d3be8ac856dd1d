// glTF levels as a Blender designer can get them wrong: mirrored meshes load with their walkable
// faces up; markers on meshes, a second player start, a fractional index, a value of the wrong
// type and positions beyond the world are errors at their node; node trees that loop or nest
// absurdly deep are refused without recursing without bound. Each level is written by the test
// into its temp folder, one node a line, so that every node has its own line.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "stagger/levels/load.h"
#include "stagger/levels/preview.h"
#include "stagger/sim/reachability.h"
#include "stagger/sim/simulation.h"

namespace stagger {
namespace {

using levels::Diagnostic;
using levels::LoadResult;

std::string base64(const std::vector<std::uint8_t>& bytes) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t a = bytes[i];
    const std::uint32_t b = i + 1 < bytes.size() ? bytes[i + 1] : 0;
    const std::uint32_t c = i + 2 < bytes.size() ? bytes[i + 2] : 0;
    const std::uint32_t v = (a << 16) | (b << 8) | c;
    out += digits[(v >> 18) & 63];
    out += digits[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? digits[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? digits[v & 63] : '=';
  }
  return out;
}

struct MeshData {
  const char* name;
  std::vector<float> xyz;
  std::vector<std::uint16_t> indices;
};

// The meshes every test level holds; its nodes choose among them. All faces are counter-clockwise
// seen from above, as glTF's front faces are.
const std::vector<MeshData>& meshes() {
  static const std::vector<MeshData> list = {
      // 0: a floor 20 m square at y = 0.
      {"floor", {-10, 0, -10, -10, 0, 10, 10, 0, 10, 10, 0, -10}, {0, 1, 2, 0, 2, 3}},
      // 1: the top of a ramp 4 m wide, rising 1 m from x = 2 to x = 6 (14 degrees).
      {"ramp", {2, 0, -2, 2, 0, 2, 6, 1, 2, 6, 1, -2}, {0, 1, 2, 0, 2, 3}},
      // 2: a triangle a trillion metres across.
      {"trillion", {0, 0, 0, 0, 0, 1e12f, 1e12f, 0, 0}, {0, 1, 2}},
      // 3: a gentle ramp 4 m wide, rising 0.6 m from x = 2 to x = 8 (6 degrees), for walking.
      {"gentle_ramp", {2, 0, -2, 2, 0, 2, 8, 0.6f, 2, 8, 0.6f, -2}, {0, 1, 2, 0, 2, 3}},
  };
  return list;
}

// The "meshes", "accessors", "bufferViews" and "buffers" of the file, one embedded buffer.
std::string mesh_json() {
  std::vector<std::uint8_t> buffer;
  std::string accessors, views, list;
  const auto add_view = [&](const void* data, std::size_t bytes, int component, const char* type,
                            std::size_t count) {
    const std::size_t offset = buffer.size();
    buffer.resize(offset + bytes);
    std::memcpy(buffer.data() + offset, data, bytes);
    buffer.resize((buffer.size() + 3) / 4 * 4);  // the next view starts aligned
    const std::size_t index = std::count(views.begin(), views.end(), '{');
    views += std::string(views.empty() ? "" : ", ") +
             "{ \"buffer\": 0, \"byteOffset\": " + std::to_string(offset) +
             ", \"byteLength\": " + std::to_string(bytes) + " }";
    accessors += std::string(accessors.empty() ? "" : ", ") +
                 "{ \"bufferView\": " + std::to_string(index) +
                 ", \"componentType\": " + std::to_string(component) + ", \"type\": \"" + type +
                 "\", \"count\": " + std::to_string(count) + " }";
    return index;
  };
  for (const MeshData& m : meshes()) {
    const std::size_t position =
        add_view(m.xyz.data(), m.xyz.size() * 4, 5126, "VEC3", m.xyz.size() / 3);
    const std::size_t indices =
        add_view(m.indices.data(), m.indices.size() * 2, 5123, "SCALAR", m.indices.size());
    list += std::string(list.empty() ? "" : ", ") + "{ \"name\": \"" + m.name +
            "\", \"primitives\": [ { \"attributes\": { \"POSITION\": " + std::to_string(position) +
            " }, \"indices\": " + std::to_string(indices) + " } ] }";
  }
  return " \"meshes\": [ " + list + " ],\n \"accessors\": [ " + accessors +
         " ],\n \"bufferViews\": [ " + views +
         " ],\n \"buffers\": [ { \"byteLength\": " + std::to_string(buffer.size()) +
         ", \"uri\": \"data:application/octet-stream;base64," + base64(buffer) + "\" } ]\n";
}

struct Written {
  std::string path;
  std::string text;
};

// A glTF level of `nodes` (each a JSON object whose first key is its name), the scene's roots
// being `roots` ("0, 1"; all of them when empty).
Written write_gltf(const std::string& name, const std::vector<std::string>& nodes,
                   std::string roots = "") {
  if (roots.empty()) {
    for (std::size_t i = 0; i < nodes.size(); ++i) roots += (i ? ", " : "") + std::to_string(i);
  }
  std::string text =
      "{\n \"asset\": { \"version\": \"2.0\" },\n \"scene\": 0,\n \"scenes\": [ { \"nodes\": [ " +
      roots + " ] } ],\n \"nodes\": [\n";
  for (std::size_t i = 0; i < nodes.size(); ++i)
    text += "  " + nodes[i] + (i + 1 < nodes.size() ? ",\n" : "\n");
  text += " ],\n" + mesh_json() + "}\n";
  const std::string path = ::testing::TempDir() + "/" + name + ".gltf";
  std::ofstream(path) << text;
  return {path, text};
}

const std::string kFloor = R"({ "name": "Floor", "mesh": 0 })";
const std::string kPlayer =
    R"({ "name": "Start", "translation": [0, 0, 6], "extras": { "stagger_player": true } })";

// A valid level, a floor and the player start, with `more` nodes after them.
Written level_with(const std::string& name, const std::vector<std::string>& more) {
  std::vector<std::string> nodes = {kFloor, kPlayer};
  nodes.insert(nodes.end(), more.begin(), more.end());
  return write_gltf(name, nodes);
}

// "FILE:LINE: error: " of the node named `node` (the line of its opening brace).

// The line of the node named `node` (the line of its opening brace).
int at_node_line(const Written& w, const std::string& node) {
  const std::size_t name = w.text.find("{ \"name\": \"" + node + "\"");
  EXPECT_NE(name, std::string::npos) << node;
  if (name == std::string::npos) return 0;
  return static_cast<int>(
      std::count(w.text.begin(), w.text.begin() + static_cast<std::ptrdiff_t>(name), '\n') + 1);
}

// "FILE:LINE: error: " of the node named `node`.
std::string at_node(const Written& w, const std::string& node) {
  return w.path + ":" + std::to_string(at_node_line(w, node)) + ": error: ";
}

// Each diagnostic as "FILE:LINE: error: message": the line names the node.
std::vector<std::string> formatted(const LoadResult& r) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diagnostics) {
    out.push_back(d.file + ":" + std::to_string(d.line) + (d.error ? ": error: " : ": warning: ") +
                  d.message);
  }
  return out;
}

// The diagnostics of loading the written level, formatted.
std::vector<std::string> diagnostics_of(const Written& w) {
  return formatted(levels::load_level(w.path));
}

// Front-face normals (unnormalised) of every triangle.
std::vector<Vec3> normals(const levels::TriangleMesh& m) {
  std::vector<Vec3> out;
  for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
    const Vec3 a = m.vertices[m.indices[t]], b = m.vertices[m.indices[t + 1]],
               c = m.vertices[m.indices[t + 2]];
    out.push_back(cross(b - a, c - a));
  }
  return out;
}

TEST(GltfHostile, AMirroredRampLoadsWithItsWalkableFacesUp) {
  // The floor is mirrored itself, the ramp by its parent, as Blender exports a negative scale.
  const Written w = write_gltf(
      "mirrored",
      {
          R"({ "name": "Floor", "mesh": 0, "scale": [-1, 1, 1] })",
          kPlayer,
          R"({ "name": "Mirror", "scale": [-1, 1, 1], "children": [3] })",
          R"({ "name": "Ramp", "mesh": 1 })",
          R"({ "name": "Foot", "translation": [2, 0, 0], "extras": { "stagger_route": "up", "stagger_index": 0 } })",
          R"({ "name": "Top", "translation": [-5, 0.75, 0], "extras": { "stagger_route": "up", "stagger_index": 1 } })",
      },
      "0, 1, 2, 4, 5");
  const LoadResult r = levels::load_level(w.path);
  ASSERT_TRUE(r.ok()) << testing::PrintToString(formatted(r));
  ASSERT_EQ(r.mesh_triangles.size(), 1u);
  ASSERT_EQ(r.mesh_triangles[0].triangle_count(), 4u);
  for (const Vec3 n : normals(r.mesh_triangles[0]))
    EXPECT_GT(n.y, 0.0f) << n.x << " " << n.y << " " << n.z;
  // The ramp is mirrored to x in [-6, -2]: its top end is where the route climbs to.
  const auto [low, high] = std::minmax_element(r.mesh_triangles[0].vertices.begin() + 4,
                                               r.mesh_triangles[0].vertices.end(),
                                               [](Vec3 a, Vec3 b) { return a.x < b.x; });
  EXPECT_EQ(low->x, -6.0f);
  EXPECT_EQ(high->x, -2.0f);
  // `stagger check`: the navmesh covers the floor and the ramp's top, and the route walks up.
  const sim::LevelNavigation nav = sim::check_reachability(r);
  std::vector<std::string> problems;
  for (const Diagnostic& d : nav.diagnostics) problems.push_back(levels::format(d));
  EXPECT_TRUE(nav.ok()) << testing::PrintToString(problems);
}

// Mirrored, the ramp is walked: an enemy patrols from the floor to a point up the ramp and back.
TEST(GltfHostile, AMirroredRampIsWalkedUp) {
  const Written w = write_gltf(
      "mirrored_walk",
      {
          kFloor,
          kPlayer,
          R"({ "name": "Mirror", "scale": [-1, 1, 1], "children": [3] })",
          R"({ "name": "Ramp", "mesh": 3 })",
          R"({ "name": "Guard", "translation": [1, 0, 0], "rotation": [0, -0.7071068, 0, 0.7071068], "extras": { "stagger_enemy": "guard", "stagger_route": "up" } })",
          R"({ "name": "Foot", "translation": [0, 0, 0], "extras": { "stagger_route": "up", "stagger_index": 0, "stagger_mode": "ping-pong" } })",
          R"({ "name": "Top", "translation": [-6, 0.4, 0], "extras": { "stagger_route": "up", "stagger_index": 1 } })",
      },
      "0, 1, 2, 4, 5, 6");
  const LoadResult r = levels::load_level(w.path);
  ASSERT_TRUE(r.ok()) << testing::PrintToString(formatted(r));
  ASSERT_TRUE(sim::check_reachability(r).ok());
  sim::Simulation s(sim::scene_from_level(r.level, r.mesh_triangles), {});
  float highest_pelvis_m = 0;
  s.on_step([&highest_pelvis_m](const sim::Simulation& run) {
    highest_pelvis_m =
        std::max(highest_pelvis_m, run.scene().enemies()[0].ragdoll->balance().com.y);
  });
  s.run(30.0, 90.0);
  const sim::SimulationResult result = s.result();
  const std::vector<std::size_t>& reached = result.enemies[0].route_points_reached;
  EXPECT_NE(std::find(reached.begin(), reached.end(), 1u), reached.end()) << "the top of the ramp";
  EXPECT_EQ(result.enemies[0].falls, 0);
  EXPECT_GT(highest_pelvis_m, 1.2f)
      << "its centre of mass rose with the ramp (about 1 m standing on the floor)";
}

// A JSON level's mesh with a negative scale is mirrored the same way: as many faces look up as
// without the mirror.
TEST(GltfHostile, AMirroredMeshInAJsonLevelKeepsItsFacesUp) {
  const std::filesystem::path dir = ::testing::TempDir();
  std::filesystem::copy_file(STAGGER_SOURCE_DIR "/levels/data/meshes/ramp_platform.gltf",
                             dir / "ramp_platform.gltf",
                             std::filesystem::copy_options::overwrite_existing);
  const auto load = [&](const std::string& scale) {
    const std::filesystem::path path = dir / "mirrored_json.json";
    std::ofstream(path)
        << R"({"format":"stagger-level","version":1,"player":{"position":[0,0,0]},"geometry":[)"
        << R"({"type":"mesh","file":"ramp_platform.gltf","scale":)" << scale << "}]}";
    return levels::load_level(path.string());
  };
  const LoadResult plain = load("[1, 1, 1]");
  const LoadResult mirrored = load("[-1, 1, 1]");
  ASSERT_TRUE(plain.ok() && mirrored.ok());
  const auto up = [](const LoadResult& r) {
    const std::vector<Vec3> n = normals(r.mesh_triangles.at(0));
    return std::count_if(n.begin(), n.end(), [](Vec3 v) { return v.y > 0; });
  };
  // The ramp's and the platform's four walkable faces (the rest are upright sides, whose normals
  // are level): a winding left unturned would show as none up.
  EXPECT_EQ(up(plain), 4);
  EXPECT_EQ(up(mirrored), up(plain));
}

TEST(GltfHostile, TwoMirrorsMakeNoMirror) {
  // Two negative scales turn the mesh without mirroring it: the winding stays.
  const Written w = write_gltf(
      "two_mirrors", {R"({ "name": "Floor", "mesh": 0, "scale": [-1, 1, -1] })", kPlayer});
  const LoadResult r = levels::load_level(w.path);
  ASSERT_TRUE(r.ok()) << testing::PrintToString(formatted(r));
  for (const Vec3 n : normals(r.mesh_triangles[0])) EXPECT_GT(n.y, 0.0f);
}

TEST(GltfHostile, AMarkerOnAMeshIsAnError) {
  const Written w = level_with(
      "marker_on_mesh",
      {R"({ "name": "Cube", "mesh": 0, "translation": [0, 2, 0], "extras": { "stagger_enemy": "cube" } })"});
  const LoadResult r = levels::load_level(w.path);
  EXPECT_EQ(formatted(r), std::vector<std::string>{
                              at_node(w, "Cube") +
                              "node `Cube` has a mesh and the marker `stagger_enemy`: markers "
                              "belong on empties (Add > Empty in Blender)"});
  EXPECT_TRUE(r.level.enemies.empty());
}

TEST(GltfHostile, ASecondPlayerStartIsAnErrorNamingBoth) {
  const Written w = level_with(
      "two_players",
      {R"({ "name": "Start.001", "translation": [2, 0, 6], "extras": { "stagger_player": true } })"});
  const LoadResult r = levels::load_level(w.path);
  EXPECT_EQ(formatted(r), std::vector<std::string>{
                              at_node(w, "Start.001") +
                              "node `Start.001`: a second player start: node `Start` is the "
                              "player start already (give one empty only stagger_player = true)"});
  EXPECT_EQ(r.level.player.position, (Vec3{0, 0, 6}));  // the first stays
}

TEST(GltfHostile, AFractionalRouteIndexIsAnError) {
  const Written w = level_with(
      "fractional_index",
      {
          R"({ "name": "Lap.0", "translation": [-3, 0, 0], "extras": { "stagger_route": "lap", "stagger_index": 0 } })",
          R"({ "name": "Lap.1", "translation": [3, 0, 0], "extras": { "stagger_route": "lap", "stagger_index": 1.5 } })",
      });
  EXPECT_EQ(diagnostics_of(w),
            std::vector<std::string>{at_node(w, "Lap.1") +
                                     "node `Lap.1`: `stagger_index` must be a whole number (the "
                                     "point's place along the route: 0, 1, 2, ...), got 1.5"});
}

TEST(GltfHostile, AWrongTypeSaysWhatItGot) {
  const Written w = level_with(
      "wait_string",
      {
          R"({ "name": "Lap.0", "translation": [-3, 0, 0], "extras": { "stagger_route": "lap", "stagger_index": 0, "stagger_wait_s": "2" } })",
          R"({ "name": "Lap.1", "translation": [3, 0, 0], "extras": { "stagger_route": "lap", "stagger_index": 1 } })",
          R"({ "name": "Guard", "translation": [0, 0, -3], "extras": { "stagger_enemy": "guard", "stagger_mass_kg": [80], "stagger_height_m": 9 } })",
          R"({ "name": "Mode", "translation": [0, 0, -6], "extras": { "stagger_route": "other", "stagger_index": 0, "stagger_mode": "pingpong" } })",
      });
  EXPECT_EQ(
      diagnostics_of(w),
      (std::vector<std::string>{
          at_node(w, "Lap.0") +
              "node `Lap.0`: `stagger_wait_s` must be a number of seconds, got the string \"2\"",
          at_node(w, "Guard") +
              "node `Guard`: `stagger_height_m` must be between 1 and 2.5 m, got 9",
          at_node(w, "Guard") + "node `Guard`: `stagger_mass_kg` must be a number of kilograms, "
                                "got a list of 1 values",
          at_node(w, "Mode") + "node `Mode`: `stagger_mode` must be \"loop\" or \"ping-pong\", got "
                               "the string \"pingpong\"",
      }));
}

TEST(GltfHostile, ALongValueIsQuotedCut) {
  const std::string name(500, 'x');
  const Written w = level_with(
      "long_value", {R"({ "name": "Odd", "extras": { "stagger_player": ")" + name + "\" } }"});
  const LoadResult r = levels::load_level(w.path);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].message,
            "node `Odd`: `stagger_player` must be true or false, got the string \"" +
                std::string(60, 'x') + "... (500 bytes)\"");
}

TEST(GltfHostile, ANameWithControlCharactersIsAnErrorShownEscaped) {
  const Written w = level_with(
      "control_name",
      {
          R"({ "name": "Guard", "translation": [0, 0, -3], "extras": { "stagger_enemy": "gu\u001b[2Jard" } })",
      });
  EXPECT_EQ(diagnostics_of(w),
            (std::vector<std::string>{
                at_node(w, "Guard") +
                    "node `Guard`: `stagger_enemy` must be a name (a non-empty UTF-8 "
                    "string without control characters), got the string \"gu\\x1b[2Jard\"",
            }));
}

TEST(GltfHostile, BytesThatAreNotUtf8AreRefusedAtTheirPlace) {
  const Written w =
      level_with("latin1_name", {R"({ "name": "Guard", "extras": { "stagger_enemy": "caf)"
                                 "\xE9"
                                 R"(" } })"});
  const LoadResult r = levels::load_level(w.path);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].message.find("not valid UTF-8"), std::string::npos)
      << r.diagnostics[0].message;
  EXPECT_EQ(r.diagnostics[0].line, at_node_line(w, "Guard"));
}

TEST(GltfHostile, AMeshATrillionMetresAwayIsAnErrorNotACrash) {
  const Written w = level_with(
      "trillion",
      {
          R"({ "name": "Huge", "mesh": 2 })",
          R"({ "name": "Far", "mesh": 0, "translation": [1e12, 0, 0] })",
          R"({ "name": "Lost", "translation": [0, -2e4, 0], "extras": { "stagger_enemy": "lost" } })",
      });
  const LoadResult r = levels::load_level(w.path);
  EXPECT_EQ(formatted(r),
            (std::vector<std::string>{
                at_node(w, "Huge") +
                    "node `Huge`: vertex 1 of its mesh lies at (0, 0, 1e+12), outside the world "
                    "(every coordinate within +-10000 m) (and 1 more)",
                at_node(w, "Far") +
                    "node `Far`: vertex 0 of its mesh lies at (1e+12, 0, -10), outside the world "
                    "(every coordinate within +-10000 m) (and 3 more)",
                at_node(w, "Lost") +
                    "node `Lost`: its position (0, -20000, 0) lies outside the world (every "
                    "coordinate within +-10000 m)",
            }));
  EXPECT_TRUE(r.mesh_triangles.empty());  // nothing of it reaches the navmesh builder
}

TEST(GltfHostile, AMeshWiderThanTheLargestShapeIsAnError) {
  const Written w = level_with(
      "too_wide",
      {R"({ "name": "Plain", "mesh": 0, "scale": [1, 1, 200], "translation": [0, -1, 0] })"});
  const LoadResult r = levels::load_level(w.path);
  EXPECT_EQ(formatted(r), std::vector<std::string>{
                              at_node(w, "Plain") +
                              "node `Plain`: its mesh is 4000 m across along z: one mesh may be "
                              "at most 2000 m across (split it into smaller objects)"});
  EXPECT_TRUE(r.mesh_triangles.empty());
}

TEST(GltfHostile, ACycleOfChildrenIsReported) {
  const Written w = write_gltf("cycle",
                               {
                                   kFloor,
                                   kPlayer,
                                   R"({ "name": "A", "children": [3] })",
                                   R"({ "name": "B", "children": [2, 4] })",
                                   R"({ "name": "Self", "children": [4] })",
                               },
                               "0, 1, 2");
  EXPECT_EQ(
      diagnostics_of(w),
      (std::vector<std::string>{
          at_node(w, "B") +
              "node `B`: lists `A` as a child, but `A` is above it already: node children must "
              "form a tree, not a cycle",
          at_node(w, "Self") +
              "node `Self`: lists `Self` as a child, but `Self` is above it already: node "
              "children must form a tree, not a cycle",
      }));
}

TEST(GltfHostile, ANodeWithTwoParentsIsReportedOnce) {
  // Forty nodes, each listing the next twice: walked as a tree this would be 2^40 visits.
  constexpr int kFans = 40;
  std::vector<std::string> nodes = {kFloor, kPlayer};
  for (int k = 0; k < kFans; ++k) {
    const std::string next = std::to_string(k + 3);
    nodes.push_back(
        "{ \"name\": \"Fan." + std::to_string(k) + "\"" +
        (k + 1 < kFans ? ", \"children\": [" + next + ", " + next + "]" : std::string()) + " }");
  }
  const Written w = write_gltf("fan", nodes, "0, 1, 2");
  const LoadResult r = levels::load_level(w.path);
  ASSERT_EQ(r.diagnostics.size(), static_cast<std::size_t>(kFans - 1));
  EXPECT_EQ(formatted(r)[0], at_node(w, "Fan.1") +
                                 "node `Fan.1`: is placed twice (under `Fan.0` and under `Fan.0`): "
                                 "a glTF node has at most one parent");
}

TEST(GltfHostile, NodesNestedDeeperThanTheLimitAreRefused) {
  constexpr int kDepth = 300;  // beyond limits::kMaxJsonDepth (256)
  std::vector<std::string> nodes = {kFloor, kPlayer};
  for (int k = 0; k < kDepth; ++k) {
    nodes.push_back(
        "{ \"name\": \"Deep." + std::to_string(k) + "\"" +
        (k + 1 < kDepth ? ", \"children\": [" + std::to_string(k + 3) + "]" : std::string()) +
        " }");
  }
  const Written w = write_gltf("deep_nodes", nodes, "0, 1, 2");
  EXPECT_EQ(
      diagnostics_of(w),
      std::vector<std::string>{at_node(w, "Deep.256") +
                               "node `Deep.256`: nested more than 256 levels of children deep: a "
                               "level's objects are not parented that deep"});
}

TEST(GltfHostile, DeeplyNestedCustomPropertiesAreRefusedBeforeTinyGltfRecurses) {
  constexpr int kDepth = 100000;  // arrays in arrays: enough to overflow a recursive reader's stack
  const std::string deep = std::string(kDepth, '[') + std::string(kDepth, ']');
  const Written w =
      level_with("deep_extras", {"{ \"name\": \"Deep\", \"extras\": { \"nest\": " + deep + " } }"});
  const LoadResult r = levels::load_level(w.path);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_NE(r.diagnostics[0].message.find(
                "not a readable glTF file: arrays and objects nested more than 256 deep"),
            std::string::npos)
      << r.diagnostics[0].message;
  EXPECT_EQ(
      r.diagnostics[0].line,
      static_cast<int>(std::count(
          w.text.begin(), w.text.begin() + static_cast<std::ptrdiff_t>(w.text.find("[[[")), '\n')) +
          1);
}

// The legend's colour for each route mode is the one its routes have on the map, whichever
// order the routes come in (a glTF level sorts them by name).
TEST(Preview, LegendAndMapAgreeOnRouteColours) {
  const Written w = level_with(
      "two_modes",
      {
          R"({ "name": "A.0", "translation": [-8, 0, -8], "extras": { "stagger_route": "a", "stagger_index": 0, "stagger_mode": "ping-pong" } })",
          R"({ "name": "A.1", "translation": [-8, 0, 0], "extras": { "stagger_route": "a", "stagger_index": 1 } })",
          R"({ "name": "B.0", "translation": [8, 0, -8], "extras": { "stagger_route": "b", "stagger_index": 0, "stagger_mode": "loop" } })",
          R"({ "name": "B.1", "translation": [8, 0, 0], "extras": { "stagger_route": "b", "stagger_index": 1 } })",
          R"({ "name": "B.2", "translation": [4, 0, -4], "extras": { "stagger_route": "b", "stagger_index": 2 } })",
      });
  const LoadResult r = levels::load_level(w.path);
  ASSERT_TRUE(r.ok()) << testing::PrintToString(formatted(r));
  ASSERT_EQ(r.level.routes[0].mode, levels::RouteMode::ping_pong);  // "a" comes first
  levels::PreviewSettings settings;
  settings.size_px = 800;
  const levels::PreviewImage image = levels::render_preview(r.level, r.mesh_triangles, settings);
  using Rgb = std::array<int, 3>;
  const auto pixel = [&](int x, int y) {
    const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) +
                           static_cast<std::size_t>(x)) *
                          3;
    return Rgb{image.rgb[i], image.rgb[i + 1], image.rgb[i + 2]};
  };
  // The map: a route point's disc, left of its number. The player start at (0, 0, 6) is the
  // reference for where a world point lands.
  constexpr float kPixelsPerMetre =
      600.0f / (20.0f * 1.08f);  // the map spans the floor and a margin
  const auto disc = [&](float x, float z) {
    return pixel(static_cast<int>(
                     std::lround(static_cast<float>(image.player_px[0]) + x * kPixelsPerMetre)) -
                     8,
                 static_cast<int>(std::lround(static_cast<float>(image.player_px[1]) +
                                              (z - 6.0f) * kPixelsPerMetre)));
  };
  const Rgb ping_pong_on_map = disc(-8, -8);
  const Rgb loop_on_map = disc(8, -8);
  EXPECT_NE(ping_pong_on_map, loop_on_map);
  // The legend, right of the map: the loop arrow's row comes before the ping-pong arrow's.
  const int x = image.height + 10 + 30;
  const auto first_row_of = [&](const Rgb& colour) {
    for (int y = 0; y < image.height; ++y) {
      if (pixel(x, y) == colour) return y;
    }
    return -1;
  };
  const int loop_row = first_row_of(loop_on_map);
  const int ping_pong_row = first_row_of(ping_pong_on_map);
  EXPECT_GT(loop_row, 0);
  EXPECT_GT(ping_pong_row, loop_row);
}

}  // namespace
}  // namespace stagger
