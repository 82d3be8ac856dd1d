// A level exported from Blender as glTF (docs/design.md, glTF levels): mesh nodes are the geometry;
// empties whose custom properties (glTF `extras`) hold `stagger_*` keys are the player start, enemy
// spawns and route points. Diagnostics point at the node in the file's JSON (for .glb, in its JSON
// chunk).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include "gltf_level.h"
#include "gltf_nodes.h"
#include "json_tree.h"
#include "stagger/core/limits.h"

namespace stagger::levels {
namespace {

// ---- The level ---------------------------------------------------------------------------

constexpr std::array<std::string_view, 8> kKeys = {
    "stagger_player", "stagger_enemy", "stagger_route",    "stagger_index",
    "stagger_wait_s", "stagger_mode",  "stagger_height_m", "stagger_mass_kg"};

// What a numeric custom property must be: the words that say so, and its bounds (those of the
// same field of a JSON level).
struct NumberRule {
  const char* key;
  const char* kind;  // "a number of seconds"
  double min;
  double max;
  const char* unit;  // after the bounds: " s"
  bool whole;        // an integer (a place along a route)
};
// [bytes] of tiny_gltf's message kept (it can be many lines).
constexpr std::size_t kMaxLoaderErrorBytes = 300;
// [bytes] of a glTF file's name kept as its level's name (which goes into reports).
constexpr std::size_t kMaxLevelNameBytes = 120;
constexpr double kMaxRouteIndex = 10000;  // the last place along a route
constexpr double kMaxWaitS = 3600.0;      // [s] the longest wait at a route point
constexpr NumberRule kIndexRule{"stagger_index",
                                "a whole number (the point's place along the route: 0, 1, 2, ...)",
                                0,
                                kMaxRouteIndex,
                                "",
                                true};
constexpr NumberRule kWaitRule{"stagger_wait_s", "a number of seconds", 0, kMaxWaitS, " s", false};
constexpr NumberRule kHeightRule{"stagger_height_m", "a number of metres", 1.0, 2.5, " m", false};
constexpr NumberRule kMassRule{
    "stagger_mass_kg", "a number of kilograms", 30.0, 200.0, " kg", false};

// A custom property's value as a message shows it: strings quoted, long ones cut.
std::string shown(const tinygltf::Value& v) {
  if (v.IsString()) return "the string \"" + limits::quoted(v.Get<std::string>()) + "\"";
  if (v.IsBool()) return v.Get<bool>() ? "true" : "false";
  if (v.IsNumber()) return limits::number_text(v.GetNumberAsDouble());
  if (v.IsArray()) return "a list of " + std::to_string(v.ArrayLen()) + " values";
  if (v.IsObject()) return "an object";
  return "no value";
}

std::string shown(Vec3 p) {
  return "(" + limits::number_text(double(p.x)) + ", " + limits::number_text(double(p.y)) + ", " +
         limits::number_text(double(p.z)) + ")";
}

bool within_world(Vec3 p) {
  return limits::within_world(double(p.x), double(p.y), double(p.z));
}

const std::string& world_bound_text() {
  static const std::string text =
      "every coordinate within +-" + limits::number_text(limits::kWorldExtentM) + " m";
  return text;
}

std::string backticked_list(const std::vector<std::string>& keys) {
  std::string out;
  for (const std::string& key : keys)
    out += (out.empty() ? "`" : ", `") + limits::quoted(key) + "`";
  return out;
}

// The JSON text of a .gltf, or the JSON chunk of a .glb (none when the .glb's header is not
// one: tiny_gltf says what is wrong with it).
std::optional<std::string_view> json_text_of(std::string_view bytes, bool binary) {
  constexpr std::size_t kGlbHeaderBytes = 20;  // file header (12) and the JSON chunk's header (8)
  if (!binary) {
    if (bytes.substr(0, 3) == "\xEF\xBB\xBF")
      bytes.remove_prefix(3);  // a byte-order mark is no JSON
    return bytes;
  }
  if (bytes.size() < kGlbHeaderBytes || bytes.substr(0, 4) != "glTF") return std::nullopt;
  std::uint32_t length = 0;
  std::memcpy(&length, bytes.data() + 12, 4);
  return bytes.substr(kGlbHeaderBytes,
                      std::min<std::size_t>(length, bytes.size() - kGlbHeaderBytes));
}

// Positions of nodes[i] in the JSON, for messages.
std::vector<TextPosition> node_positions(const JsonValue& root) {
  std::vector<TextPosition> out;
  if (const JsonValue* nodes = root.find("nodes"); nodes && nodes->kind == JsonValue::Kind::array) {
    for (const JsonValue& node : nodes->items) out.push_back(node.at);
  }
  return out;
}

class GltfLevelReader {
 public:
  GltfLevelReader(const std::string& file, const tinygltf::Model& model,
                  std::vector<TextPosition> positions, std::vector<Diagnostic>& out,
                  SourceMap& where)
      : file_(file),
        model_(model),
        positions_(std::move(positions)),
        out_(out),
        where_(where),
        world_(model.nodes.size(), kIdentity),
        reached_(model.nodes.size(), false),
        on_path_(model.nodes.size(), false),
        parent_(model.nodes.size()) {}

  /// Reads the level and, into `geometry`, the triangles of every mesh of the default scene.
  void read(Level& level, TriangleMesh& geometry) {
    walk_scene();
    for (std::size_t i : order_) read_geometry(i, geometry);
    for (std::size_t i = 0; i < model_.nodes.size(); ++i) {
      if (reached_[i] && model_.nodes[i].extras.IsObject()) read_markers(i, level);
    }
    if (!player_) {
      out_.push_back({file_, 1, 1, true,
                      "no player start: give one empty the custom property stagger_player = true"});
    }
    finish_routes(level);
  }
  /// Whether every mesh could be read and lies inside the world (the triangles may be used).
  bool geometry_ok() const { return geometry_ok_; }

 private:
  Diagnostic source(std::size_t node) const {
    const TextPosition at = node < positions_.size() ? positions_[node] : TextPosition{};
    return {file_, at.line, at.column, true, "node " + label(node) + ": "};
  }
  // `text` whole, at the node's place.
  void report(std::size_t node, const std::string& text) {
    Diagnostic d = source(node);
    d.message = text;
    out_.push_back(d);
  }
  void error(std::size_t node, const std::string& message) {
    report(node, "node " + label(node) + ": " + message);
  }

  std::string label(std::size_t node) const {
    const std::string& name = node < model_.nodes.size() ? model_.nodes[node].name : "";
    return name.empty() ? std::to_string(node) : "`" + limits::quoted(name) + "`";
  }

  // ---- The node tree ----

  // Places every node below the default scene's roots. glTF nodes form trees: a node reached a
  // second time (a cycle, or a second parent) is an error and is not walked again, so a hostile
  // file can make the walk neither endless nor exponential.
  void walk_scene() {
    if (model_.scenes.empty()) return;  // nothing to show: "no triangles" says so
    const std::size_t scene =
        model_.defaultScene >= 0 ? static_cast<std::size_t>(model_.defaultScene) : 0;
    if (scene >= model_.scenes.size()) {
      out_.push_back(
          {file_, 1, 1, true, "the default scene (" + std::to_string(scene) + ") does not exist"});
      return;
    }
    for (int root : model_.scenes[scene].nodes) {
      if (!exists(root)) {
        out_.push_back({file_, 1, 1, true,
                        "the scene lists node " + std::to_string(root) + ", which does not exist"});
        continue;
      }
      visit(static_cast<std::size_t>(root), kIdentity, std::nullopt, 0);
    }
  }
  bool exists(int node) const {
    return node >= 0 && static_cast<std::size_t>(node) < model_.nodes.size();
  }

  void visit(std::size_t i, const Affine& parent_world, std::optional<std::size_t> parent,
             int depth) {
    if (reached_[i]) {
      reached_again(i, parent);
      return;
    }
    if (depth >= limits::kMaxJsonDepth) {
      error(i, "nested more than " + std::to_string(limits::kMaxJsonDepth) +
                   " levels of children deep: a level's objects are not parented that deep");
      return;
    }
    reached_[i] = true;
    on_path_[i] = true;
    parent_[i] = parent;
    world_[i] = compose(parent_world, node_transform(model_.nodes[i]));
    order_.push_back(i);
    for (int child : model_.nodes[i].children) {
      if (!exists(child)) {
        error(i, "lists child " + std::to_string(child) + ", which does not exist");
        continue;
      }
      visit(static_cast<std::size_t>(child), world_[i], i, depth + 1);
    }
    on_path_[i] = false;
  }

  void reached_again(std::size_t i, std::optional<std::size_t> parent) {
    if (parent && on_path_[i]) {
      error(*parent, "lists " + label(i) + " as a child, but " + label(i) +
                         " is above it already: node children must form a tree, not a cycle");
      return;
    }
    const auto under = [&](std::optional<std::size_t> p) {
      return p ? "under " + label(*p) : std::string("in the scene");
    };
    error(i, "is placed twice (" + under(parent_[i]) + " and " + under(parent) +
                 "): a glTF node has at most one parent");
  }

  // ---- Geometry ----

  void read_geometry(std::size_t i, TriangleMesh& geometry) {
    const int mesh = model_.nodes[i].mesh;
    if (mesh < 0) return;
    if (static_cast<std::size_t>(mesh) >= model_.meshes.size()) {
      error(i, "names mesh " + std::to_string(mesh) + ", which does not exist");
      geometry_ok_ = false;
      return;
    }
    const std::size_t first = geometry.vertices.size();
    std::string why;
    if (!append_mesh_triangles(model_, model_.meshes[static_cast<std::size_t>(mesh)], world_[i],
                               geometry, why)) {
      error(i, "its mesh cannot be read: " + why);
      geometry_ok_ = false;
      return;
    }
    if (!mesh_fits(i, geometry, first)) geometry_ok_ = false;
  }

  // The vertices from `first` on (one node's mesh, placed) lie inside the world and span at most
  // the largest shape.
  bool mesh_fits(std::size_t i, const TriangleMesh& geometry, std::size_t first) {
    const auto problem =
        placed_mesh_problem(std::span<const Vec3>(geometry.vertices).subspan(first));
    if (problem) error(i, *problem);
    return !problem;
  }

  // ---- Markers ----

  void read_markers(std::size_t i, Level& level) {
    std::vector<std::string> markers;
    for (const std::string& key : model_.nodes[i].extras.Keys()) {
      if (key.rfind("stagger_", 0) != 0) continue;  // other custom properties are the artist's
      markers.push_back(key);
      if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
        std::string message = "unknown custom property `" + limits::quoted(key) + "`";
        if (const auto guess = closest(key, kKeys))
          message += " (did you mean `" + std::string(*guess) + "`?)";
        error(i, message);
      }
    }
    if (markers.empty()) return;
    // A marker on a mesh is a mistake: the mesh would be an obstacle and the marker lost.
    if (model_.nodes[i].mesh >= 0) {
      report(i, "node " + label(i) + " has a mesh and the marker" +
                    (markers.size() > 1 ? "s " : " ") + backticked_list(markers) +
                    ": markers belong on empties (Add > Empty in Blender)");
      return;
    }
    read_empty(i, level);
  }

  void read_empty(std::size_t i, Level& level) {
    const tinygltf::Value& extras = model_.nodes[i].extras;
    const Vec3 position = apply(world_[i], {});
    // An empty faces along its local +Z: Blender's -Y, as its +Y Up export turns the axes.
    const Vec3 forward = apply(world_[i], {0, 0, 1}) - position;
    const float yaw_deg = rad_to_deg_of(std::atan2(forward.x, forward.z));
    if (!within_world(position)) {
      error(i, "its position " + shown(position) + " lies outside the world (" +
                   world_bound_text() + ")");
    } else if (!std::isfinite(yaw_deg)) {
      error(i, "its facing is not a finite direction (check its rotation and scale)");
    }
    if (extras.Has("stagger_player") && boolean_of(i, "stagger_player"))
      read_player(i, {position, yaw_deg}, level);
    if (extras.Has("stagger_enemy")) {
      read_enemy(i, position, yaw_deg, level);
    } else if (extras.Has("stagger_route")) {
      read_route_point(i, position);
    }
  }

  void read_player(std::size_t i, PlayerStart start, Level& level) {
    if (player_) {
      error(i, "a second player start: node " + label(*player_) +
                   " is the player start already (give one empty only stagger_player = true)");
      return;
    }
    player_ = i;
    where_.player = source(i);
    level.player = start;
  }

  void read_enemy(std::size_t i, Vec3 position, float yaw_deg, Level& level) {
    const tinygltf::Value& extras = model_.nodes[i].extras;
    EnemySpawn enemy;
    enemy.name = string_of(i, "stagger_enemy");
    enemy.position = position;
    enemy.yaw_deg = yaw_deg;
    if (extras.Has("stagger_route")) enemy.route = string_of(i, "stagger_route");
    if (extras.Has("stagger_height_m")) enemy.height_m = number_of(i, kHeightRule);
    if (extras.Has("stagger_mass_kg")) enemy.mass_kg = number_of(i, kMassRule);
    if (std::any_of(level.enemies.begin(), level.enemies.end(),
                    [&](const EnemySpawn& e) { return e.name == enemy.name; })) {
      error(i, "duplicate enemy name `" + limits::quoted(enemy.name) + "`");
    }
    enemy_nodes_.push_back(i);
    where_.enemies.push_back(source(i));
    level.enemies.push_back(enemy);
  }

  void read_route_point(std::size_t i, Vec3 position) {
    const tinygltf::Value& extras = model_.nodes[i].extras;
    RoutePointAt point;
    point.node = i;
    point.route = string_of(i, "stagger_route");
    point.point.position = position;
    if (!extras.Has("stagger_index")) {
      error(i, "a route point needs stagger_index (its place along the route, 0, 1, 2, ...)");
      return;  // without its place it cannot join the route
    }
    const std::optional<float> index = number_of(i, kIndexRule);
    if (!index) return;  // nor with a place that is no place
    point.index = static_cast<int>(*index);
    if (extras.Has("stagger_wait_s")) point.point.wait_s = number_of(i, kWaitRule).value_or(0.0f);
    if (extras.Has("stagger_mode")) {
      point.mode = string_of(i, "stagger_mode");
      if (!point.mode.empty() && point.mode != "loop" && point.mode != "ping-pong") {
        error(i, "`stagger_mode` must be \"loop\" or \"ping-pong\", got " +
                     shown(extras.Get("stagger_mode")));
      }
    }
    points_.push_back(point);
  }

  std::string string_of(std::size_t i, const char* key) {
    const tinygltf::Value& v = model_.nodes[i].extras.Get(key);
    if (v.IsString() && !v.Get<std::string>().empty() &&
        limits::printable_utf8(v.Get<std::string>())) {
      return v.Get<std::string>();
    }
    error(i, "`" + std::string(key) +
                 "` must be a name (a non-empty UTF-8 string without control characters), got " +
                 shown(v));
    return {};
  }
  // Blender writes a boolean custom property as true/false or, in older versions, as 1/0.
  bool boolean_of(std::size_t i, const char* key) {
    const tinygltf::Value& v = model_.nodes[i].extras.Get(key);
    if (v.IsBool()) return v.Get<bool>();
    if (v.IsNumber() && (v.GetNumberAsDouble() == 0 || v.GetNumberAsDouble() == 1))
      return v.GetNumberAsDouble() == 1;
    error(i, "`" + std::string(key) + "` must be true or false, got " + shown(v));
    return false;
  }
  // The value, or none when it is not what `rule` asks (reported).
  std::optional<float> number_of(std::size_t i, const NumberRule& rule) {
    const tinygltf::Value& v = model_.nodes[i].extras.Get(rule.key);
    const std::string key = "`" + std::string(rule.key) + "`";
    if (!v.IsNumber() ||
        (rule.whole && v.GetNumberAsDouble() != std::floor(v.GetNumberAsDouble()))) {
      error(i, key + " must be " + rule.kind + ", got " + shown(v));
      return std::nullopt;
    }
    const double d = v.GetNumberAsDouble();
    if (!std::isfinite(d) || d < rule.min || d > rule.max) {
      error(i, key + " must be between " + limits::number_text(rule.min) + " and " +
                   limits::number_text(rule.max) + rule.unit + ", got " + shown(v));
      return std::nullopt;
    }
    return static_cast<float>(d);
  }
  static float rad_to_deg_of(float radians) { return radians * 180.0f / kPi; }

  void finish_routes(Level& level) {
    std::map<std::string, std::vector<const RoutePointAt*>> routes;
    for (const RoutePointAt& p : points_) routes[p.route].push_back(&p);
    for (auto& [name, points] : routes) {
      std::stable_sort(points.begin(), points.end(),
                       [](const auto* a, const auto* b) { return a->index < b->index; });
      Route route;
      route.name = name;
      std::string mode;
      std::vector<Diagnostic> point_sources;
      for (std::size_t k = 0; k < points.size(); ++k) {
        if (k > 0 && points[k]->index == points[k - 1]->index) {
          error(points[k]->node, "route `" + limits::quoted(name) +
                                     "` has two points with stagger_index " +
                                     std::to_string(points[k]->index));
        }
        if (!points[k]->mode.empty()) {
          if (!mode.empty() && mode != points[k]->mode) {
            error(points[k]->node, "route `" + limits::quoted(name) + "` is given two modes");
          }
          mode = points[k]->mode;
        }
        route.points.push_back(points[k]->point);
        point_sources.push_back(source(points[k]->node));
      }
      route.mode = mode == "ping-pong" ? RouteMode::ping_pong : RouteMode::loop;
      level.routes.push_back(route);
      where_.route_points.push_back(point_sources);
    }
    for (std::size_t e = 0; e < level.enemies.size(); ++e) {
      const std::string& route = level.enemies[e].route;
      if (!route.empty() && routes.find(route) == routes.end()) {
        const std::string name = limits::quoted(route);
        error(
            enemy_nodes_[e],
            "route `" + name + "` does not exist (no empty has stagger_route = \"" + name + "\")");
      }
    }
  }

  struct RoutePointAt {
    std::size_t node = 0;
    std::string route;
    int index = 0;
    std::string mode;
    RoutePoint point;
  };

  const std::string& file_;
  const tinygltf::Model& model_;
  std::vector<TextPosition> positions_;
  std::vector<Diagnostic>& out_;
  SourceMap& where_;
  std::vector<Affine> world_;  // per node, once reached
  std::vector<bool> reached_;  // per node
  std::vector<bool> on_path_;  // per node: between the root and the node walked now
  std::vector<std::optional<std::size_t>> parent_;  // per node: none for a scene root
  std::vector<std::size_t> order_;                  // reached nodes, parents before children
  bool geometry_ok_ = true;
  std::optional<std::size_t> player_;  // the player start's node
  std::vector<RoutePointAt> points_;
  std::vector<std::size_t> enemy_nodes_;
};

}  // namespace

LoadResult load_gltf_level(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  // External buffers resolve against the file's own folder, as tinygltf resolves them for a path.
  return parse_gltf_level(bytes.str(), path, std::filesystem::path(path).extension() == ".glb",
                          folder.empty() ? "." : folder.string());
}

// ---- A level from memory -------------------------------------------------------------------

namespace {

// With no base folder, a file's external buffers and images are never looked for: bytes from
// anywhere (a fuzzer, a network) must not make the reader open files on this machine.
bool no_file_exists(const std::string&, void*) {
  return false;
}
std::string path_as_given(const std::string& path, void*) {
  return path;
}
bool read_no_file(std::vector<unsigned char>*, std::string* error, const std::string& path, void*) {
  if (error) *error = path + ": external files are not read for a level given as bytes";
  return false;
}
bool write_no_file(std::string*, const std::string&, const std::vector<unsigned char>&, void*) {
  return false;
}
bool skip_image(tinygltf::Image*, const int, std::string*, std::string*, int, int,
                const unsigned char*, int, void*) {
  return true;  // textures do not matter for collision
}

bool read_gltf_bytes(std::string_view bytes, bool binary, const std::string& base_dir,
                     tinygltf::Model& model, std::string& error) {
  constexpr std::size_t kMaxTinyGltfBytes =
      0xFFFFFFFFu;  // tiny_gltf takes a length as unsigned int
  if (bytes.size() > kMaxTinyGltfBytes) {
    error = "larger than 4 GiB";
    return false;
  }
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(skip_image, nullptr);
  if (base_dir.empty())
    loader.SetFsCallbacks({no_file_exists, path_as_given, read_no_file, write_no_file, nullptr});
  std::string warning;
  const auto size = static_cast<unsigned int>(bytes.size());
  const bool ok =
      binary ? loader.LoadBinaryFromMemory(&model, &error, &warning,
                                           reinterpret_cast<const unsigned char*>(bytes.data()),
                                           size, base_dir)
             : loader.LoadASCIIFromString(&model, &error, &warning, bytes.data(), size, base_dir);
  if (!ok && error.empty()) error = "unknown error";
  return ok;
}

}  // namespace

LoadResult parse_gltf_level(std::string_view bytes, const std::string& file, bool binary,
                            const std::string& base_dir) {
  LoadResult result;
  // tiny_gltf reads `extras` recursively, so the positioned reader, which refuses deep nesting,
  // reads the JSON first; its positions place the messages.
  std::vector<TextPosition> positions;
  if (const auto json = json_text_of(bytes, binary)) {
    auto parsed = parse_json_with_positions(*json);
    if (const auto* bad = std::get_if<JsonSyntaxError>(&parsed)) {
      result.diagnostics.push_back(
          {file, bad->at.line, bad->at.column, true, "not a readable glTF file: " + bad->message});
      return result;
    }
    positions = node_positions(std::get<JsonValue>(parsed));
  }
  tinygltf::Model model;
  std::string error;
  if (!read_gltf_bytes(bytes, binary, base_dir, model, error)) {
    result.diagnostics.push_back(
        {file, 1, 1, true,
         "not a readable glTF file: " + limits::printable(error, kMaxLoaderErrorBytes)});
    return result;
  }
  GltfLevelReader reader(file, model, std::move(positions), result.diagnostics, result.where);
  TriangleMesh geometry;
  reader.read(result.level, geometry);
  // A file name need not be UTF-8; the level's name goes into reports, which are.
  result.level.name =
      limits::printable(std::filesystem::path(file).stem().string(), kMaxLevelNameBytes);
  if (reader.geometry_ok() && geometry.indices.empty()) {
    result.diagnostics.push_back(
        {file, 1, 1, true, "no walkable geometry: no triangles in the default scene"});
  } else if (reader.geometry_ok()) {
    MeshGeometry mesh;
    mesh.name = result.level.name;
    mesh.file = std::filesystem::path(file).filename().string();
    result.level.meshes.push_back(mesh);
    result.mesh_triangles.push_back(std::move(geometry));
  }
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return a.line != b.line ? a.line < b.line : a.column < b.column;
                   });
  return result;
}

}  // namespace stagger::levels
