#include "stagger/sim/input_script.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

namespace stagger::sim {
namespace {

using nlohmann::json;


std::string format_time(double t) {
  std::ostringstream out;
  out << t;
  return out.str();
}

std::string join_body_names() {
  std::string names;
  for (std::string_view n : physics::body_part_names()) {
    if (!names.empty()) names += ", ";
    names += n;
  }
  return names;
}

// Collects the problems of one event; the event's label is filled in once its time is known.
class EventChecker {
 public:
  EventChecker(std::string_view source, std::size_t index, std::vector<std::string>& errors)
      : source_(source), index_(index), errors_(errors) {}

  void set_label(const std::string& type, double t, bool has_time) {
    label_ = type;
    if (has_time) label_ += " at t=" + format_time(t);
  }
  void error(const std::string& message) {
    std::string where = std::string(source_) + ": events[" + std::to_string(index_) + "]";
    if (!label_.empty()) where += " (" + label_ + ")";
    errors_.push_back(where + ": " + message);
  }
  bool ok_so_far() const { return errors_.size() == first_error_; }

 private:
  std::string_view source_;
  std::size_t index_;
  std::vector<std::string>& errors_;
  std::size_t first_error_ = errors_.size();
  std::string label_;
};

bool read_vec3(const json& value, Vec3& out) {
  if (!value.is_array() || value.size() != 3) return false;
  float xyz[3];
  for (std::size_t i = 0; i < 3; ++i) {
    if (!value[i].is_number()) return false;
    xyz[i] = value[i].get<float>();
  }
  out = {xyz[0], xyz[1], xyz[2]};
  return true;
}

void read_enemy(const json& value, EventChecker& check, std::string& enemy) {
  if (value.is_string() && !value.get<std::string>().empty()) {
    enemy = value.get<std::string>();
  } else {
    check.error("`enemy` must be a non-empty string");
  }
}

void parse_push(const json& event, std::size_t index, EventChecker& check,
                std::vector<PushEvent>& pushes, double t) {
  PushEvent push;
  push.t = t;
  push.event_index = index;
  for (const auto& [key, value] : event.items()) {
    if (key == "t" || key == "type") continue;
    if (key == "enemy") {
      read_enemy(value, check, push.enemy);
    } else if (key == "body") {
      const auto part = value.is_string() ? physics::body_part_from_name(value.get<std::string>())
                                          : std::nullopt;
      if (!part) {
        check.error("unknown body " + value.dump() + "; expected one of " + join_body_names());
      } else {
        push.body = *part;
      }
    } else if (key == "impulse") {
      if (!read_vec3(value, push.impulse)) {
        check.error("`impulse` must be an array of three numbers [N·s], got " + value.dump());
      } else if (!is_finite(push.impulse)) {
        check.error("`impulse` must be finite (a number is too large for a double)");
      }
    } else {
      check.error("unknown key `" + key + "` in a push event (expected t, type, enemy, body, impulse)");
    }
  }
  if (!event.contains("enemy")) check.error("missing `enemy`");
  if (!event.contains("body")) check.error("missing `body`");
  if (!event.contains("impulse")) check.error("missing `impulse`");
  if (check.ok_so_far()) pushes.push_back(push);
}

void parse_kill(const json& event, std::size_t index, EventChecker& check,
                std::vector<KillEvent>& kills, double t) {
  KillEvent kill;
  kill.t = t;
  kill.event_index = index;
  for (const auto& [key, value] : event.items()) {
    if (key == "t" || key == "type") continue;
    if (key == "enemy") {
      read_enemy(value, check, kill.enemy);
    } else {
      check.error("unknown key `" + key + "` in a kill event (expected t, type, enemy)");
    }
  }
  if (!event.contains("enemy")) check.error("missing `enemy`");
  if (check.ok_so_far()) kills.push_back(kill);
}

void parse_walk(const json& event, std::size_t index, EventChecker& check,
                std::vector<WalkEvent>& walks, double t) {
  WalkEvent walk;
  walk.t = t;
  walk.event_index = index;
  walk.intent.gait = physics::Gait::walk;
  for (const auto& [key, value] : event.items()) {
    if (key == "t" || key == "type") continue;
    if (key == "enemy") {
      read_enemy(value, check, walk.enemy);
    } else if (key == "velocity") {
      if (!read_vec3(value, walk.intent.velocity)) {
        check.error("`velocity` must be an array of three numbers [m/s], got " + value.dump());
      } else if (!is_finite(walk.intent.velocity)) {
        check.error("`velocity` must be finite (a number is too large for a double)");
      }
    } else if (key == "gait") {
      const std::string gait = value.is_string() ? value.get<std::string>() : "";
      if (gait == "walk") walk.intent.gait = physics::Gait::walk;
      else if (gait == "run") walk.intent.gait = physics::Gait::run;
      else if (gait == "idle") walk.intent.gait = physics::Gait::idle;
      else check.error("unknown gait " + value.dump() + "; expected one of idle, walk, run");
    } else if (key == "facing_deg") {
      if (!value.is_number() || !std::isfinite(value.get<double>())) {
        check.error("`facing_deg` must be a finite number of degrees (0 faces +Z), got " + value.dump());
      } else {
        walk.intent.facing_rad = deg_to_rad(value.get<float>());
        walk.intent.has_facing = true;
      }
    } else {
      check.error("unknown key `" + key + "` in a walk event (expected t, type, enemy, velocity, gait, facing_deg)");
    }
  }
  if (!event.contains("enemy")) check.error("missing `enemy`");
  if (!event.contains("velocity") && walk.intent.gait != physics::Gait::idle) {
    check.error("missing `velocity` (use [0, 0, 0] or \"gait\": \"idle\" to stop)");
  }
  if (check.ok_so_far()) walks.push_back(walk);
}

void parse_player(const json& event, std::size_t index, EventChecker& check,
                  std::vector<PlayerEvent>& players, double t) {
  PlayerEvent player;
  player.t = t;
  player.event_index = index;
  for (const auto& [key, value] : event.items()) {
    if (key == "t" || key == "type") continue;
    if (key == "position") {
      if (!read_vec3(value, player.position)) {
        check.error("`position` must be an array of three numbers [m] (the player's feet), got " + value.dump());
      } else if (!is_finite(player.position)) {
        check.error("`position` must be finite (a number is too large for a double)");
      }
    } else if (key == "head_height_m") {
      if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() <= 0 ||
          value.get<double>() > 3) {
        check.error("`head_height_m` must be a number of metres in (0, 3], got " + value.dump());
      } else {
        player.head_height_m = value.get<float>();
      }
    } else if (key == "present") {
      if (!value.is_boolean()) {
        check.error("`present` must be true or false, got " + value.dump());
      } else {
        player.present = value.get<bool>();
      }
    } else {
      check.error("unknown key `" + key + "` in a player event (expected t, type, position, head_height_m, present)");
    }
  }
  if (!event.contains("position") && player.present) check.error("missing `position` (or \"present\": false to remove the player)");
  if (check.ok_so_far()) players.push_back(player);
}

bool read_path_point(const json& value, HandEvent::Point& point) {
  if (!value.is_object() || value.size() != 2 || !value.contains("t") || !value.contains("position")) return false;
  const json& t = value["t"];
  if (!t.is_number() || !std::isfinite(t.get<double>()) || t.get<double>() < 0) return false;
  point.t = t.get<double>();
  return read_vec3(value["position"], point.position) && is_finite(point.position);
}

void parse_hand(const json& event, std::size_t index, EventChecker& check, std::vector<HandEvent>& hands, double t) {
  HandEvent hand;
  hand.t = t;
  hand.event_index = index;
  for (const auto& [key, value] : event.items()) {
    if (key == "t" || key == "type") continue;
    if (key == "hand") {
      const std::string side = value.is_string() ? value.get<std::string>() : "";
      if (side == "left") hand.hand = 0;
      else if (side == "right") hand.hand = 1;
      else check.error("`hand` must be \"left\" or \"right\", got " + value.dump());
    } else if (key == "path") {
      if (!value.is_array() || value.empty()) {
        check.error("`path` must be a non-empty array of { \"t\": seconds, \"position\": [x, y, z] }");
        continue;
      }
      for (std::size_t i = 0; i < value.size(); ++i) {
        HandEvent::Point point;
        if (!read_path_point(value[i], point)) {
          check.error("path[" + std::to_string(i) + "] must be { \"t\": seconds >= 0, \"position\": [x, y, z] in m }, got " +
                      value[i].dump());
        } else if (!hand.path.empty() && point.t < hand.path.back().t) {
          check.error("path[" + std::to_string(i) + "] goes back in time (t=" + format_time(point.t) + " after t=" +
                      format_time(hand.path.back().t) + ")");
        } else {
          hand.path.push_back(point);
        }
      }
    } else {
      check.error("unknown key `" + key + "` in a hand event (expected t, type, hand, path)");
    }
  }
  if (!event.contains("hand")) check.error("missing `hand` (\"left\" or \"right\")");
  if (!event.contains("path")) check.error("missing `path`");
  if (check.ok_so_far()) hands.push_back(hand);
}

void parse_event(const json& event, std::size_t index, std::string_view source,
                 std::vector<std::string>& errors, InputScript& script) {
  EventChecker check(source, index, errors);
  if (!event.is_object()) {
    check.error("an event must be a JSON object");
    return;
  }
  const auto type_it = event.find("type");
  const std::string type = type_it != event.end() && type_it->is_string() ? type_it->get<std::string>() : "";
  double t = 0;
  bool has_time = false;
  const auto t_it = event.find("t");
  if (t_it != event.end() && t_it->is_number()) {
    t = t_it->get<double>();
    has_time = true;
  }
  check.set_label(type.empty() ? "event" : type, t, has_time && std::isfinite(t));

  if (t_it == event.end()) {
    check.error("missing `t` (the event's time in seconds)");
  } else if (!t_it->is_number()) {
    check.error("`t` must be a number of seconds, got " + t_it->dump());
  } else if (!std::isfinite(t)) {
    check.error("`t` must be finite (the number is too large for a double)");
  } else if (t < 0) {
    check.error("`t` must not be negative, got " + format_time(t));
  }

  if (type_it == event.end()) {
    check.error("missing `type`");
    return;
  }
  if (type == "push") {
    parse_push(event, index, check, script.pushes, t);
    return;
  }
  if (type == "kill") {
    parse_kill(event, index, check, script.kills, t);
    return;
  }
  if (type == "walk") {
    parse_walk(event, index, check, script.walks, t);
    return;
  }
  if (type == "player") {
    parse_player(event, index, check, script.players, t);
    return;
  }
  if (type == "hand") {
    parse_hand(event, index, check, script.hands, t);
    return;
  }
  check.error("unknown event type " + type_it->dump() + " (expected push, hand, player, kill or walk)");
}

// JSON has no literal for infinity, but a number such as 1e400 overflows a double; the parser
// would reject the whole file. Such numbers are replaced by a marker string before parsing and by
// NaN after it, so the event that holds one is named in the error like any other bad value.
constexpr std::string_view kNonFiniteMarker = "\x01stagger-non-finite";
constexpr std::string_view kNonFiniteMarkerJson = "\"\\u0001stagger-non-finite\"";

std::string mark_non_finite_numbers(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];
      else if (c == '"') in_string = false;
      ++i;
      continue;
    }
    if (c == '"') in_string = true;
    const bool starts_number = c == '-' || (c >= '0' && c <= '9');
    if (!starts_number) {
      out += c;
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    while (end < text.size() && std::string_view("0123456789+-.eE").find(text[end]) != std::string_view::npos) ++end;
    const std::string token(text.substr(i, end - i));
    const double value = std::strtod(token.c_str(), nullptr);
    out += std::isfinite(value) ? token : std::string(kNonFiniteMarkerJson);
    i = end;
  }
  return out;
}

void replace_markers_with_nan(json& value) {
  if (value.is_string() && value.get_ref<const std::string&>() == kNonFiniteMarker) {
    value = std::numeric_limits<double>::quiet_NaN();
  } else if (value.is_structured()) {
    for (auto& child : value) replace_markers_with_nan(child);
  }
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) {
    if (!out.empty()) out += '\n';
    out += l;
  }
  return out;
}

}  // namespace

Result<InputScript> parse_input_script(std::string_view json_text, std::string_view source) {
  json root;
  try {
    root = json::parse(mark_non_finite_numbers(json_text));
  } catch (const json::exception& e) {
    return Error{std::string(source) + ": not valid JSON: " + e.what()};
  }
  replace_markers_with_nan(root);
  std::vector<std::string> errors;
  if (!root.is_object()) return Error{std::string(source) + ": the script must be a JSON object with an `events` array"};
  for (const auto& [key, value] : root.items()) {
    if (key != "events") errors.push_back(std::string(source) + ": unknown top-level key `" + key + "` (expected `events`)");
  }
  const auto events = root.find("events");
  if (events == root.end() || !events->is_array()) {
    errors.push_back(std::string(source) + ": missing `events` array");
    return Error{join_lines(errors)};
  }
  InputScript script;
  for (std::size_t i = 0; i < events->size(); ++i) parse_event((*events)[i], i, source, errors, script);
  if (!errors.empty()) return Error{join_lines(errors)};
  std::stable_sort(script.pushes.begin(), script.pushes.end(),
                   [](const PushEvent& a, const PushEvent& b) { return a.t < b.t; });
  std::stable_sort(script.kills.begin(), script.kills.end(),
                   [](const KillEvent& a, const KillEvent& b) { return a.t < b.t; });
  std::stable_sort(script.walks.begin(), script.walks.end(),
                   [](const WalkEvent& a, const WalkEvent& b) { return a.t < b.t; });
  std::stable_sort(script.players.begin(), script.players.end(),
                   [](const PlayerEvent& a, const PlayerEvent& b) { return a.t < b.t; });
  std::stable_sort(script.hands.begin(), script.hands.end(), [](const HandEvent& a, const HandEvent& b) { return a.t < b.t; });
  return script;
}

Result<InputScript> load_input_script(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error{path + ": cannot open the input script"};
  std::ostringstream text;
  text << file.rdbuf();
  return parse_input_script(text.str(), path);
}

std::string check_against_scene(const InputScript& script, const SceneDescription& scene,
                                std::string_view source) {
  std::vector<std::string> errors;
  std::string names;
  for (const auto& e : scene.enemies) names += (names.empty() ? "" : ", ") + e.name;
  const auto check = [&](const std::string& enemy, std::size_t index, const char* type, double t) {
    const bool found = std::any_of(scene.enemies.begin(), scene.enemies.end(),
                                   [&](const EnemySpawn& e) { return e.name == enemy; });
    if (!found) {
      errors.push_back(std::string(source) + ": events[" + std::to_string(index) + "] (" + type +
                       " at t=" + format_time(t) + "): unknown enemy `" + enemy +
                       "` (the scene has: " + names + ")");
    }
  };
  for (const PushEvent& push : script.pushes) check(push.enemy, push.event_index, "push", push.t);
  for (const KillEvent& kill : script.kills) check(kill.enemy, kill.event_index, "kill", kill.t);
  for (const WalkEvent& walk : script.walks) check(walk.enemy, walk.event_index, "walk", walk.t);
  return join_lines(errors);
}

}  // namespace stagger::sim
