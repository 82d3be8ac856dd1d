// A level exported from Blender as glTF (design.md §5): mesh nodes are the geometry; empties whose
// custom properties (glTF `extras`) hold `stagger_*` keys are the player start, enemy spawns and
// route points. Diagnostics point at the node in the file's JSON (for .glb, in its JSON chunk).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include "gltf_level.h"
#include "gltf_nodes.h"
#include "json_tree.h"

namespace stagger::levels {
namespace {

constexpr std::array<std::string_view, 8> kKeys = {"stagger_player", "stagger_enemy",  "stagger_route",
                                                   "stagger_index",  "stagger_wait_s", "stagger_mode",
                                                   "stagger_height_m", "stagger_mass_kg"};

// The JSON text of a .gltf, or the JSON chunk of a .glb.
std::string json_text_of(const std::string& path, const std::string& bytes) {
  if (std::filesystem::path(path).extension() != ".glb" || bytes.size() < 20) return bytes;
  std::uint32_t length = 0;
  std::memcpy(&length, bytes.data() + 12, 4);
  return bytes.substr(20, std::min<std::size_t>(length, bytes.size() - 20));
}

// Positions of nodes[i] in the JSON, for messages (1:1 when the JSON cannot be read).
std::vector<TextPosition> node_positions(const std::string& json, std::size_t count) {
  std::vector<TextPosition> out(count);
  auto parsed = parse_json_with_positions(json);
  if (const JsonValue* root = std::get_if<JsonValue>(&parsed)) {
    if (const JsonValue* nodes = root->find("nodes"); nodes && nodes->kind == JsonValue::Kind::array) {
      for (std::size_t i = 0; i < count && i < nodes->items.size(); ++i) out[i] = nodes->items[i].at;
    }
  }
  return out;
}

class GltfLevelReader {
 public:
  GltfLevelReader(const std::string& file, const tinygltf::Model& model, std::vector<TextPosition> positions,
                  std::vector<Diagnostic>& out, SourceMap& where)
      : file_(file), model_(model), positions_(std::move(positions)), out_(out), where_(where) {}

  Diagnostic source(std::size_t node) const {
    const TextPosition at = node < positions_.size() ? positions_[node] : TextPosition{};
    return {file_, at.line, at.column, true, "node " + label(node) + ": "};
  }

  void error(std::size_t node, const std::string& message) {
    const TextPosition at = node < positions_.size() ? positions_[node] : TextPosition{};
    out_.push_back({file_, at.line, at.column, true, "node " + label(node) + ": " + message});
  }

  void read(Level& level) {
    std::vector<Affine> world(model_.nodes.size(), kIdentity);
    std::vector<bool> reached(model_.nodes.size(), false);
    if (!model_.scenes.empty()) {
      const std::size_t scene = model_.defaultScene >= 0 ? static_cast<std::size_t>(model_.defaultScene) : 0;
      if (scene < model_.scenes.size()) {
        for (int root : model_.scenes[scene].nodes) place(root, kIdentity, world, reached, 0);
      }
    }
    bool has_player = false;
    for (std::size_t i = 0; i < model_.nodes.size(); ++i) {
      if (!reached[i] || model_.nodes[i].mesh >= 0 || !model_.nodes[i].extras.IsObject()) continue;
      read_empty(i, world[i], level, has_player);
    }
    if (!has_player) {
      out_.push_back({file_, 1, 1, true, "no player start: give one empty the custom property stagger_player = true"});
    }
    finish_routes(level);
  }

 private:
  std::string label(std::size_t node) const {
    const std::string& name = node < model_.nodes.size() ? model_.nodes[node].name : "";
    return name.empty() ? std::to_string(node) : "`" + name + "`";
  }

  void place(int index, const Affine& parent, std::vector<Affine>& world, std::vector<bool>& reached, int depth) {
    if (index < 0 || static_cast<std::size_t>(index) >= model_.nodes.size() || depth > 64) return;
    const auto i = static_cast<std::size_t>(index);
    world[i] = compose(parent, node_transform(model_.nodes[i]));
    reached[i] = true;
    for (int child : model_.nodes[i].children) place(child, world[i], world, reached, depth + 1);
  }

  void read_empty(std::size_t i, const Affine& world, Level& level, bool& has_player) {
    const tinygltf::Value& extras = model_.nodes[i].extras;
    bool any = false;
    for (const std::string& key : extras.Keys()) {
      if (key.rfind("stagger_", 0) != 0) continue;  // other custom properties are the artist's
      any = true;
      if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
        std::string message = "unknown custom property `" + key + "`";
        if (const auto guess = closest(key, kKeys)) message += " (did you mean `" + std::string(*guess) + "`?)";
        error(i, message);
      }
    }
    if (!any) return;
    const Vec3 position = apply(world, {});
    const Vec3 forward = apply(world, {0, 0, 1}) - position;
    const float yaw_deg = rad_to_deg_of(std::atan2(forward.x, forward.z));
    if (extras.Has("stagger_player") && truthy(extras.Get("stagger_player"))) {
      has_player = true;
      where_.player = source(i);
      level.player = {position, yaw_deg};
    }
    if (extras.Has("stagger_enemy")) {
      EnemySpawn enemy;
      enemy.name = string_of(i, "stagger_enemy");
      enemy.position = position;
      enemy.yaw_deg = yaw_deg;
      if (extras.Has("stagger_route")) enemy.route = string_of(i, "stagger_route");
      if (extras.Has("stagger_height_m")) enemy.height_m = number_of(i, "stagger_height_m", 1.0, 2.5);
      if (extras.Has("stagger_mass_kg")) enemy.mass_kg = number_of(i, "stagger_mass_kg", 30.0, 200.0);
      if (std::any_of(level.enemies.begin(), level.enemies.end(), [&](const EnemySpawn& e) { return e.name == enemy.name; })) {
        error(i, "duplicate enemy name `" + enemy.name + "`");
      }
      enemy_nodes_.push_back(i);
      where_.enemies.push_back(source(i));
      level.enemies.push_back(enemy);
      return;
    }
    if (extras.Has("stagger_route")) {
      RoutePointAt point;
      point.node = i;
      point.route = string_of(i, "stagger_route");
      point.point.position = position;
      if (!extras.Has("stagger_index")) {
        error(i, "a route point needs stagger_index (its place along the route, 0, 1, 2, ...)");
        return;  // without its place it cannot join the route
      }
      point.index = static_cast<int>(number_of(i, "stagger_index", 0.0, 10000.0));
      if (extras.Has("stagger_wait_s")) point.point.wait_s = number_of(i, "stagger_wait_s", 0.0, 3600.0);
      if (extras.Has("stagger_mode")) {
        point.mode = string_of(i, "stagger_mode");
        if (point.mode != "loop" && point.mode != "ping-pong") error(i, "stagger_mode must be \"loop\" or \"ping-pong\"");
      }
      points_.push_back(point);
    }
  }

  std::string string_of(std::size_t i, const char* key) {
    const tinygltf::Value& v = model_.nodes[i].extras.Get(key);
    if (v.IsString() && !v.Get<std::string>().empty()) return v.Get<std::string>();
    error(i, std::string(key) + " must be a non-empty string");
    return {};
  }
  float number_of(std::size_t i, const char* key, double min, double max) {
    const tinygltf::Value& v = model_.nodes[i].extras.Get(key);
    double d = 0;
    if (v.IsInt()) d = v.Get<int>();
    else if (v.IsReal()) d = v.Get<double>();
    else {
      error(i, std::string(key) + " must be a number");
      return 0;
    }
    if (!std::isfinite(d) || d < min || d > max) {
      std::ostringstream range;
      range << key << " must be between " << min << " and " << max;
      error(i, range.str());
      return 0;
    }
    return static_cast<float>(d);
  }
  static float rad_to_deg_of(float radians) { return radians * 180.0f / kPi; }
  // Blender stores boolean custom properties as true/false or as 1/0, depending on its version.
  static bool truthy(const tinygltf::Value& v) {
    if (v.IsBool()) return v.Get<bool>();
    if (v.IsInt()) return v.Get<int>() != 0;
    return true;
  }

  void finish_routes(Level& level) {
    std::map<std::string, std::vector<const RoutePointAt*>> routes;
    for (const RoutePointAt& p : points_) routes[p.route].push_back(&p);
    for (auto& [name, points] : routes) {
      std::stable_sort(points.begin(), points.end(), [](const auto* a, const auto* b) { return a->index < b->index; });
      Route route;
      route.name = name;
      std::string mode;
      std::vector<Diagnostic> point_sources;
      for (std::size_t k = 0; k < points.size(); ++k) {
        if (k > 0 && points[k]->index == points[k - 1]->index) {
          error(points[k]->node, "route `" + name + "` has two points with stagger_index " + std::to_string(points[k]->index));
        }
        if (!points[k]->mode.empty()) {
          if (!mode.empty() && mode != points[k]->mode) error(points[k]->node, "route `" + name + "` is given two modes");
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
        error(enemy_nodes_[e], "route `" + route + "` does not exist (no empty has stagger_route = \"" + route + "\")");
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
  std::vector<RoutePointAt> points_;
  std::vector<std::size_t> enemy_nodes_;
};

}  // namespace

LoadResult load_gltf_level(const std::string& path) {
  LoadResult result;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  tinygltf::Model model;
  std::string error;
  const bool binary = std::filesystem::path(path).extension() == ".glb";
  if (!read_gltf(path, binary, model, error)) {
    result.diagnostics.push_back({path, 1, 1, true, "not a readable glTF file: " + error});
    return result;
  }
  GltfLevelReader reader(path, model, node_positions(json_text_of(path, bytes.str()), model.nodes.size()),
                         result.diagnostics, result.where);
  reader.read(result.level);
  result.level.name = std::filesystem::path(path).stem().string();
  // The geometry is every mesh of the file itself, as a JSON level would name it.
  auto triangles = triangles_of(model, path);
  if (!triangles) {
    result.diagnostics.push_back({path, 1, 1, true, "no walkable geometry: " + triangles.error()});
  } else {
    MeshGeometry mesh;
    mesh.name = result.level.name;
    mesh.file = std::filesystem::path(path).filename().string();
    result.level.meshes.push_back(mesh);
    result.mesh_triangles.push_back(std::move(triangles).value());
  }
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  return result;
}

}  // namespace stagger::levels
