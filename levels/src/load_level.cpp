#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "gltf_level.h"
#include "json_tree.h"
#include "stagger/core/limits.h"
#include "stagger/levels/load.h"

namespace stagger::levels {
namespace {

using Kind = JsonValue::Kind;

constexpr std::string_view kFormat = "stagger-level";
constexpr int kVersion = 1;

// A name or key in a message, cut when long (a hostile file may hold megabyte-long ones).
std::string backticked(std::string_view s) {
  return "`" + limits::quoted(s) + "`";
}

// The largest magnitude a vector's components may have, and how a message says it.
struct VectorBound {
  double limit;
  std::string text;
};
const VectorBound kInsideWorld{limits::kWorldExtentM,
                               "every coordinate within +-" +
                                   limits::number_text(limits::kWorldExtentM) +
                                   " m (the world's extent)"};
const VectorBound kShapeSize{
    limits::kLargestShapeM,
    "every side at most " + limits::number_text(limits::kLargestShapeM) + " m"};
/// [deg] rotations beyond ten turns are typing mistakes.
constexpr double kMaxRotationDeg = 3600.0;
const VectorBound kRotation{kMaxRotationDeg, "every angle within +-3600 degrees"};
/// The most items a level's lists may hold: far more than a level plays (the samples have up to
/// 14 geometry items and 9 enemies), few enough to check and simulate in seconds.
constexpr std::size_t kMaxGeometry = 10000;
constexpr std::size_t kMaxRoutes = 1000;
constexpr std::size_t kMaxRoutePoints = 1000;
constexpr std::size_t kMaxEnemies = 1024;  // as `stagger sim --enemies`
constexpr std::size_t kMaxProfiles = 1000;
/// [-] the largest scale of a mesh along an axis.
constexpr double kMaxMeshScale = 1000.0;
const VectorBound kScale{kMaxMeshScale, "every factor within +-1000"};

// Reads one level document, collecting every problem with its position.
class LevelReader {
 public:
  LevelReader(const std::string& file, const std::string& base_dir, std::vector<Diagnostic>& out,
              std::vector<TriangleMesh>& meshes, SourceMap& where)
      : file_(file), base_dir_(base_dir), out_(out), meshes_(meshes), where_(where) {}
  Diagnostic at(TextPosition p) const { return {file_, p.line, p.column, true, ""}; }

  void error(TextPosition at, std::string message) {
    out_.push_back({file_, at.line, at.column, true, std::move(message)});
  }

  Level read(const JsonValue& root);

 private:
  // `what` names the object in messages, e.g. "box `floor`" or "the level".
  bool expect_object(const JsonValue& v, const std::string& what) {
    if (v.kind == Kind::object) return true;
    error(v.at, what + " must be a JSON object");
    return false;
  }
  void check_keys(const JsonValue& object, std::initializer_list<std::string_view> allowed,
                  const std::string& what) {
    for (const JsonMember& m : object.members) {
      if (std::find(allowed.begin(), allowed.end(), m.key) != allowed.end()) continue;
      std::string message = "unknown key " + backticked(m.key) + " in " + what;
      if (const auto guess = closest(m.key, allowed)) {
        message += " (did you mean " + backticked(*guess) + "?)";
        suggested_.emplace_back(&object, std::string(*guess));
      }
      error(m.key_at, message);
    }
    std::unordered_set<std::string_view> seen;
    for (const JsonMember& m : object.members) {
      if (!seen.insert(m.key).second)
        error(m.key_at, "duplicate key " + backticked((m.key)) + " in " + what);
    }
  }
  const JsonValue* require(const JsonValue& object, std::string_view key, const std::string& what) {
    const JsonValue* v = object.find(key);
    // A missing key that a misspelt one already suggested is one problem, reported once.
    const bool suggested = std::any_of(suggested_.begin(), suggested_.end(), [&](const auto& s) {
      return s.first == &object && s.second == key;
    });
    if (!v && !suggested) error(object.at, "missing " + backticked(key) + " in " + what);
    return v;
  }
  std::optional<double> number(const JsonValue& v, std::string_view key) {
    if (v.kind != Kind::number) {
      error(v.at, backticked(key) + " must be a number");
      return std::nullopt;
    }
    const double d = std::strtod(v.text.c_str(), nullptr);
    if (!std::isfinite(d) || std::fabs(d) > 3.0e38) {
      error(v.at, backticked(key) + " is too large (" + limits::quoted(v.text) + ")");
      return std::nullopt;
    }
    return d;
  }
  void read_float(const JsonValue& object, std::string_view key, float& out, double min, double max,
                  const char* range) {
    const JsonValue* v = object.find(key);
    if (!v) return;
    const auto d = number(*v, key);
    if (!d) return;
    if (*d < min || *d > max) {
      error(v->at, backticked(key) + " must be " + range + ", got " + limits::quoted(v->text));
      return;
    }
    out = static_cast<float>(*d);
  }
  // As read_float, for a number that may be left out (unset then).
  void read_optional_float(const JsonValue& object, std::string_view key, std::optional<float>& out,
                           double min, double max, const char* range) {
    if (!object.find(key)) return;
    const std::size_t problems = out_.size();
    float value = 0;
    read_float(object, key, value, min, max, range);
    if (out_.size() == problems) out = value;
  }
  // Reads three numbers, each within +-`bound`; `bound_text` says what the bound means.
  bool read_vec3(const JsonValue& object, std::string_view key, Vec3& out,
                 const VectorBound& bound = kInsideWorld) {
    const JsonValue* v = object.find(key);
    if (!v) return false;
    if (v->kind != Kind::array || v->items.size() != 3) {
      error(v->at, backticked(key) + " must be an array of three numbers");
      return false;
    }
    float xyz[3] = {0, 0, 0};
    bool ok = true;
    for (std::size_t i = 0; i < 3; ++i) {
      const auto d = number(v->items[i], key);
      if (d && std::fabs(*d) > bound.limit) {
        error(v->items[i].at, backticked(key) + " must have " + bound.text + ", got " +
                                  limits::quoted(v->items[i].text));
        ok = false;
        continue;
      }
      if (d) xyz[i] = static_cast<float>(*d);
      ok &= d.has_value();
    }
    if (ok) out = {xyz[0], xyz[1], xyz[2]};
    return ok;
  }
  void read_bool(const JsonValue& object, std::string_view key, bool& out) {
    const JsonValue* v = object.find(key);
    if (!v) return;
    if (v->kind != Kind::boolean) {
      error(v->at, backticked(key) + " must be true or false");
      return;
    }
    out = v->boolean;
  }
  bool read_string(const JsonValue& object, std::string_view key, std::string& out) {
    const JsonValue* v = object.find(key);
    if (!v) return false;
    if (v->kind != Kind::string) {
      error(v->at, backticked(key) + " must be a string");
      return false;
    }
    if (!limits::printable_utf8(v->text)) {
      error(v->at,
            backticked(key) + " must not hold control characters, got " + backticked(v->text));
      return false;
    }
    out = v->text;
    return true;
  }
  // Names must be unique within their kind; the second use is the error.
  void check_unique(const std::string& name, TextPosition at, const char* kind,
                    std::unordered_map<std::string, TextPosition>& seen) {
    if (name.empty()) return;
    const auto [first, inserted] = seen.emplace(name, at);
    if (!inserted) {
      error(at, std::string("duplicate ") + kind + " name " + backticked((name)) +
                    " (first used at line " + std::to_string(first->second.line) + ", column " +
                    std::to_string(first->second.column) + ")");
    }
  }
  // Lists longer than a level can use are refused before they are read: reading, checking and
  // simulating them would take minutes.
  bool within_count(const JsonValue& list, std::size_t most, const char* what) {
    if (list.items.size() <= most) return true;
    error(list.at, std::string("`") + what + "` holds " + std::to_string(list.items.size()) +
                       " items; at most " + std::to_string(most) + " are allowed");
    return false;
  }
  // Reads each item of the array `list` (`key` in the file) with `read`, given the item and its
  // index; an item that is not an object is an error, and a list over `most` items is not read.
  template <typename Read>
  void read_objects(const JsonValue& list, std::size_t most, const char* key, const char* noun,
                    Read read) {
    if (!within_count(list, most, key)) return;
    for (std::size_t i = 0; i < list.items.size(); ++i) {
      const JsonValue& item = list.items[i];
      if (expect_object(item, std::string(noun) + " " + std::to_string(i))) read(item, i);
    }
  }
  TextPosition name_position(const JsonValue& object) {
    const JsonValue* v = object.find("name");
    return v ? v->at : object.at;
  }
  static std::string named(const char* kind, const std::string& name, std::size_t index) {
    return name.empty() ? std::string(kind) + " " + std::to_string(index)
                        : std::string(kind) + " " + backticked(name);
  }

  void read_header(const JsonValue& root);
  void read_geometry(const JsonValue& list, Level& level);
  void read_box(const JsonValue& item, const std::string& what, Level& level);
  void read_mesh(const JsonValue& item, const std::string& what, Level& level);
  void read_player(const JsonValue& v, Level& level);
  void read_routes(const JsonValue& list, Level& level);
  void read_profiles(const JsonValue& list, Level& level);
  void read_enemies(const JsonValue& list, Level& level);
  void read_navigation(const JsonValue& v, Level& level);
  // A name that must be one of `names` (`kind`: "route", "profile"), reported where it stands.
  void check_reference(const std::string& name, TextPosition at, const char* kind,
                       const std::vector<std::string_view>& names) {
    if (std::find(names.begin(), names.end(), name) != names.end()) return;
    std::string message = std::string(kind) + " " + backticked(name) + " does not exist";
    if (const auto guess = closest(name, names))
      message += " (did you mean " + backticked(*guess) + "?)";
    error(at, message);
  }
  const JsonValue* expect_array(const JsonValue* v, std::string_view key) {
    if (!v) return nullptr;
    if (v->kind == Kind::array) return v;
    error(v->at, backticked(key) + " must be an array");
    return nullptr;
  }

  const std::string& file_;
  const std::string& base_dir_;
  std::vector<Diagnostic>& out_;
  std::vector<TriangleMesh>& meshes_;
  SourceMap& where_;
  std::unordered_map<std::string, TextPosition> geometry_names_, route_names_, profile_names_,
      enemy_names_;
  std::vector<std::pair<std::string, TextPosition>> enemy_routes_;    // route named by each enemy
  std::vector<std::pair<std::string, TextPosition>> enemy_profiles_;  // profile named by each
  std::vector<std::pair<const JsonValue*, std::string>>
      suggested_;  // keys offered as "did you mean"
};

Level LevelReader::read(const JsonValue& root) {
  Level level;
  if (!expect_object(root, "the level")) return level;
  check_keys(root,
             {"format", "version", "name", "geometry", "player", "routes", "profiles", "enemies",
              "navigation"},
             "the level");
  read_header(root);
  read_string(root, "name", level.name);
  if (const JsonValue* g = expect_array(require(root, "geometry", "the level"), "geometry"))
    read_geometry(*g, level);
  if (const JsonValue* p = require(root, "player", "the level")) read_player(*p, level);
  if (const JsonValue* r = expect_array(root.find("routes"), "routes")) read_routes(*r, level);
  if (const JsonValue* p = expect_array(root.find("profiles"), "profiles"))
    read_profiles(*p, level);
  if (const JsonValue* e = expect_array(root.find("enemies"), "enemies")) read_enemies(*e, level);
  if (const JsonValue* n = root.find("navigation")) read_navigation(*n, level);

  // Cross references, once every route and profile is known.
  std::vector<std::string_view> routes;
  for (const Route& r : level.routes) routes.push_back(r.name);
  for (const auto& [route, at] : enemy_routes_) check_reference(route, at, "route", routes);
  std::vector<std::string_view> profiles;
  for (const Profile& p : level.profiles) profiles.push_back(p.name);
  for (const auto& [profile, at] : enemy_profiles_)
    check_reference(profile, at, "profile", profiles);
  return level;
}

void LevelReader::read_header(const JsonValue& root) {
  if (const JsonValue* f = require(root, "format", "the level")) {
    if (f->kind != Kind::string || f->text != kFormat) {
      error(f->at, "`format` must be \"" + std::string(kFormat) + "\"");
    }
  }
  if (const JsonValue* v = require(root, "version", "the level")) {
    const auto d = number(*v, "version");
    if (d && *d != kVersion) {
      error(v->at, "version " + limits::quoted(v->text) +
                       " is not supported (this build reads version " + std::to_string(kVersion) +
                       ")");
    }
  }
}

void LevelReader::read_geometry(const JsonValue& list, Level& level) {
  if (list.items.empty()) error(list.at, "`geometry` must hold at least one walkable surface");
  if (!within_count(list, kMaxGeometry, "geometry")) return;
  for (std::size_t i = 0; i < list.items.size(); ++i) {
    const JsonValue& item = list.items[i];
    std::string name;
    const std::string what = "geometry " + std::to_string(i);
    if (!expect_object(item, what)) continue;
    read_string(item, "name", name);
    check_unique(name, name_position(item), "geometry", geometry_names_);
    const JsonValue* type = require(item, "type", what);
    if (!type) continue;
    if (type->kind == Kind::string && type->text == "box") {
      read_box(item, named("box", name, i), level);
    } else if (type->kind == Kind::string && type->text == "mesh") {
      read_mesh(item, named("mesh", name, i), level);
    } else {
      std::string message = "geometry `type` must be \"box\" or \"mesh\"";
      if (type->kind == Kind::string) {
        message += ", got \"" + limits::quoted(type->text) + "\"";
        if (const auto guess = closest(type->text, {"box", "mesh"}))
          message += " (did you mean \"" + std::string(*guess) + "\"?)";
      }
      error(type->at, message);
    }
  }
}

void LevelReader::read_box(const JsonValue& item, const std::string& what, Level& level) {
  check_keys(item, {"type", "name", "center", "size", "rotation_deg", "friction"}, what);
  BoxGeometry box;
  read_string(item, "name", box.name);
  if (require(item, "center", what)) read_vec3(item, "center", box.center);
  if (require(item, "size", what) && read_vec3(item, "size", box.size, kShapeSize)) {
    if (box.size.x <= 0 || box.size.y <= 0 || box.size.z <= 0) {
      error(item.find("size")->at, what + " has a zero or negative size; every side must be > 0 m");
    }
  }
  read_vec3(item, "rotation_deg", box.rotation_deg, kRotation);
  read_float(item, "friction", box.friction, 0.0, 10.0, "between 0 and 10");
  level.boxes.push_back(box);
}

void LevelReader::read_mesh(const JsonValue& item, const std::string& what, Level& level) {
  check_keys(item, {"type", "name", "file", "position", "rotation_deg", "scale", "friction"}, what);
  MeshGeometry mesh;
  TriangleMesh file_mesh;
  read_string(item, "name", mesh.name);
  if (require(item, "file", what) && read_string(item, "file", mesh.file)) {
    namespace fs = std::filesystem;
    const std::string ext = fs::path(mesh.file).extension().string();
    if (ext != ".gltf" && ext != ".glb" && ext != ".obj") {
      error(item.find("file")->at,
            "mesh file " + backticked(mesh.file) + " must be .gltf, .glb or .obj");
    } else if (!base_dir_.empty() && !fs::is_regular_file(fs::path(base_dir_) / mesh.file)) {
      error(item.find("file")->at, "mesh file " + backticked(mesh.file) + " not found (looked in " +
                                       (fs::path(base_dir_) / mesh.file).string() + ")");
    } else if (!base_dir_.empty()) {
      auto triangles = load_mesh_file((fs::path(base_dir_) / mesh.file).string());
      if (triangles) {
        file_mesh = std::move(triangles).value();
      } else {
        error(item.find("file")->at, triangles.error());
      }
    }
  }
  read_vec3(item, "position", mesh.position);
  read_vec3(item, "rotation_deg", mesh.rotation_deg, kRotation);
  if (read_vec3(item, "scale", mesh.scale, kScale) &&
      (mesh.scale.x == 0 || mesh.scale.y == 0 || mesh.scale.z == 0)) {
    error(item.find("scale")->at, what + " has a zero scale");
  }
  read_float(item, "friction", mesh.friction, 0.0, 10.0, "between 0 and 10");
  level.meshes.push_back(mesh);
  meshes_.push_back(placed(file_mesh, mesh.position, mesh.rotation_deg, mesh.scale));
  if (const auto problem = placed_mesh_problem(meshes_.back().vertices))
    error(item.at, what + ": " + *problem);
}

void LevelReader::read_player(const JsonValue& v, Level& level) {
  where_.player = at(v.at);
  if (!expect_object(v, "`player`")) return;
  check_keys(v, {"position", "yaw_deg", "hit_points"}, "`player`");
  if (require(v, "position", "`player`")) read_vec3(v, "position", level.player.position);
  read_float(v, "yaw_deg", level.player.yaw_deg, -3600, 3600, "between -3600 and 3600");
  float hit_points = 0;
  read_float(v, "hit_points", hit_points, 0, kMaxHitPoints, "a whole number from 0 to 1000");
  if (hit_points != std::floor(hit_points)) {
    error(v.find("hit_points")->at, "`hit_points` must be a whole number from 0 to 1000");
  } else {
    level.player.hit_points = static_cast<int>(hit_points);
  }
}

void LevelReader::read_routes(const JsonValue& list, Level& level) {
  read_objects(list, kMaxRoutes, "routes", "route", [&](const JsonValue& item, std::size_t i) {
    Route route;
    where_.route_points.emplace_back();
    read_string(item, "name", route.name);
    const std::string what = named("route", route.name, i);
    check_keys(item, {"name", "mode", "points"}, what);
    if (require(item, "name", what))
      check_unique(route.name, name_position(item), "route", route_names_);
    if (const JsonValue* mode = item.find("mode")) {
      if (mode->kind == Kind::string && mode->text == "loop") {
        route.mode = RouteMode::loop;
      } else if (mode->kind == Kind::string && mode->text == "ping-pong") {
        route.mode = RouteMode::ping_pong;
      } else {
        error(mode->at, "`mode` must be \"loop\" or \"ping-pong\"");
      }
    }
    if (const JsonValue* points = expect_array(require(item, "points", what), "points")) {
      if (points->items.empty()) error(points->at, what + " has no points");
      const std::size_t count =
          within_count(*points, kMaxRoutePoints, "points") ? points->items.size() : 0;
      for (std::size_t p = 0; p < count; ++p) {
        const JsonValue& point = points->items[p];
        const std::string point_what = "point " + std::to_string(p) + " of " + what;
        if (!expect_object(point, point_what)) continue;
        check_keys(point, {"position", "wait_s"}, point_what);
        RoutePoint rp;
        where_.route_points.back().push_back(at(point.at));
        if (require(point, "position", point_what)) read_vec3(point, "position", rp.position);
        read_float(point, "wait_s", rp.wait_s, 0.0, 3600.0, "between 0 and 3600 s");
        route.points.push_back(rp);
      }
    }
    level.routes.push_back(route);
  });
}

// A profile keeps its settings as JSON: what they may hold is the simulation's to check
// (stagger/sim/settings.h), at the places kept with them.
void LevelReader::read_profiles(const JsonValue& list, Level& level) {
  read_objects(list, kMaxProfiles, "profiles", "profile",
               [&](const JsonValue& item, std::size_t i) {
                 Profile profile;
                 read_string(item, "name", profile.name);
                 if (require(item, "name", named("profile", profile.name, i)))
                   check_unique(profile.name, name_position(item), "profile", profile_names_);
                 profile.settings = item;
                 auto& members = profile.settings.members;
                 members.erase(std::remove_if(members.begin(), members.end(),
                                              [](const JsonMember& m) { return m.key == "name"; }),
                               members.end());
                 level.profiles.push_back(std::move(profile));
               });
}

void LevelReader::read_enemies(const JsonValue& list, Level& level) {
  read_objects(list, kMaxEnemies, "enemies", "enemy", [&](const JsonValue& item, std::size_t i) {
    EnemySpawn enemy;
    where_.enemies.push_back(at(item.at));
    read_string(item, "name", enemy.name);
    const std::string what = named("enemy", enemy.name, i);
    check_keys(
        item,
        {"name", "position", "yaw_deg", "route", "profile", "height_m", "mass_kg", "blast_immune"},
        what);
    if (require(item, "name", what))
      check_unique(enemy.name, name_position(item), "enemy", enemy_names_);
    if (require(item, "position", what)) read_vec3(item, "position", enemy.position);
    read_float(item, "yaw_deg", enemy.yaw_deg, -3600, 3600, "between -3600 and 3600");
    if (read_string(item, "route", enemy.route))
      enemy_routes_.emplace_back(enemy.route, item.find("route")->at);
    if (read_string(item, "profile", enemy.profile))
      enemy_profiles_.emplace_back(enemy.profile, item.find("profile")->at);
    read_optional_float(item, "height_m", enemy.height_m, static_cast<double>(kMinEnemyHeightM),
                        static_cast<double>(kMaxEnemyHeightM), "between 1 and 2.5 m");
    read_optional_float(item, "mass_kg", enemy.mass_kg, static_cast<double>(kMinEnemyMassKg),
                        static_cast<double>(kMaxEnemyMassKg), "between 30 and 200 kg");
    read_bool(item, "blast_immune", enemy.blast_immune);
    level.enemies.push_back(enemy);
  });
}

void LevelReader::read_navigation(const JsonValue& v, Level& level) {
  if (!expect_object(v, "`navigation`")) return;
  check_keys(v,
             {"agent_radius", "drop_margin_m", "agent_height", "max_climb", "max_slope_deg",
              "cell_size", "cell_height"},
             "`navigation`");
  NavigationSettings& n = level.navigation;
  read_float(v, "agent_radius", n.agent_radius, 0.05, 5.0, "between 0.05 and 5 m");
  read_float(v, "drop_margin_m", n.drop_margin_m, 0.0, 5.0, "between 0 and 5 m");
  read_float(v, "agent_height", n.agent_height, 0.5, 5.0, "between 0.5 and 5 m");
  read_float(v, "max_climb", n.max_climb, 0.0, 2.0, "between 0 and 2 m");
  read_float(v, "max_slope_deg", n.max_slope_deg, 0.0, 85.0, "between 0 and 85 degrees");
  read_float(v, "cell_size", n.cell_size, 0.01, 1.0, "between 0.01 and 1 m");
  read_float(v, "cell_height", n.cell_height, 0.01, 1.0, "between 0.01 and 1 m");
}

}  // namespace

std::string format(const Diagnostic& d) {
  return d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " +
         (d.error ? "error: " : "warning: ") + d.message;
}

bool LoadResult::ok() const {
  return std::none_of(diagnostics.begin(), diagnostics.end(),
                      [](const Diagnostic& d) { return d.error; });
}

LoadResult parse_level(std::string_view text, const std::string& file,
                       const std::string& base_dir) {
  LoadResult result;
  auto parsed = parse_json_with_positions(text);
  if (auto* syntax = std::get_if<JsonSyntaxError>(&parsed)) {
    result.diagnostics.push_back(
        {file, syntax->at.line, syntax->at.column, true, "not valid JSON: " + syntax->message});
    result.level = {};
    return result;
  }
  LevelReader reader(file, base_dir, result.diagnostics, result.mesh_triangles, result.where);
  result.level = reader.read(std::get<JsonValue>(parsed));
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return a.line != b.line ? a.line < b.line : a.column < b.column;
                   });
  return result;
}

LoadResult load_level(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if ((ext == ".gltf" || ext == ".glb") && std::filesystem::exists(path))
    return load_gltf_level(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    LoadResult result;
    result.diagnostics.push_back({path, 1, 1, true, "cannot open the level file"});
    return result;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  return parse_level(text.str(), path, folder.empty() ? "." : folder.string());
}

}  // namespace stagger::levels
