#include "stagger/sim/input_script.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <unordered_set>
#include <variant>

#include "stagger/core/limits.h"

namespace stagger::sim {
namespace {

using levels::JsonMember;
using levels::JsonValue;
using levels::TextPosition;
using Kind = JsonValue::Kind;

/// [deg] a walk's facing is a heading, so more than a turn either way is a mistake.
constexpr double kMaxFacingDeg = 360.0;
/// [m] the player's eyes above their feet.
constexpr double kMaxHeadHeightM = 3.0;
/// Names listed in an "unknown enemy" message before "...".
constexpr std::size_t kMaxListedEnemies = 12;

std::string format_time(double t) {
  return limits::number_text(t);
}

std::string join_body_names() {
  std::string names;
  for (std::string_view n : physics::body_part_names()) {
    if (!names.empty()) names += ", ";
    names += n;
  }
  return names;
}

// A JSON value as a message shows it: strings quoted, long values cut.
std::string shown(const JsonValue& v) {
  switch (v.kind) {
    case Kind::null:
      return "null";
    case Kind::boolean:
      return v.boolean ? "true" : "false";
    case Kind::number:
      return limits::quoted(v.text);
    case Kind::string:
      return "\"" + limits::quoted(v.text) + "\"";
    case Kind::array:
      return "an array of " + std::to_string(v.items.size()) + " values";
    case Kind::object:
      return "an object";
  }
  return "?";
}

std::string located(std::string_view source, TextPosition at, const std::string& message) {
  return std::string(source) + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
         ": error: " + message;
}

// Collects the problems of one event, each at its place; the event's label is filled in once its
// time is known.
class EventChecker {
 public:
  EventChecker(std::string_view source, std::size_t index, std::vector<std::string>& errors)
      : source_(source), index_(index), errors_(errors) {}

  void set_label(const std::string& type, double t, bool has_time) {
    label_ = type;
    if (has_time) label_ += " at t=" + format_time(t);
  }
  void error(TextPosition at, const std::string& message) {
    std::string where = "events[" + std::to_string(index_) + "]";
    if (!label_.empty()) where += " (" + label_ + ")";
    errors_.push_back(located(source_, at, where + ": " + message));
  }
  bool ok_so_far() const { return errors_.size() == first_error_; }
  std::size_t error_count() const { return errors_.size(); }

 private:
  std::string_view source_;
  std::size_t index_;
  std::vector<std::string>& errors_;
  std::size_t first_error_ = errors_.size();
  std::string label_;
};

// The number a JSON number stands for; nothing for another kind or one too large for a double.
std::optional<double> number_of(const JsonValue& v) {
  if (v.kind != Kind::number) return std::nullopt;
  const double d = std::strtod(v.text.c_str(), nullptr);
  if (!std::isfinite(d)) return std::nullopt;
  return d;
}

enum class VecProblem { none, shape, non_finite };

VecProblem read_vec3(const JsonValue& v, Vec3& out, TextPosition& at) {
  at = v.at;
  if (v.kind != Kind::array || v.items.size() != 3) return VecProblem::shape;
  double xyz[3] = {0, 0, 0};
  for (std::size_t i = 0; i < 3; ++i) {
    at = v.items[i].at;
    if (v.items[i].kind != Kind::number) return VecProblem::shape;
    const auto d = number_of(v.items[i]);
    // A float holds up to about 3.4e38: beyond it the value would become infinite.
    if (!d || std::fabs(*d) > 3.0e38) return VecProblem::non_finite;
    xyz[i] = *d;
  }
  out = {static_cast<float>(xyz[0]), static_cast<float>(xyz[1]), static_cast<float>(xyz[2])};
  at = v.at;
  return VecProblem::none;
}

bool within_world(Vec3 p) {
  return limits::within_world(static_cast<double>(p.x), static_cast<double>(p.y),
                              static_cast<double>(p.z));
}

std::string world_bound_text() {
  return "every coordinate within +-" + limits::number_text(limits::kWorldExtentM) + " m";
}

// Reads three numbers, reporting a wrong shape (`form` says the right one, e.g. "[N·s]") or a
// number too large; true when `out` holds them.
bool read_event_vec3(const JsonValue& value, std::string_view key, const std::string& form,
                     EventChecker& check, Vec3& out) {
  TextPosition at;
  switch (read_vec3(value, out, at)) {
    case VecProblem::shape:
      check.error(at, "`" + std::string(key) + "` must be an array of three numbers " + form +
                          ", got " + shown(value));
      return false;
    case VecProblem::non_finite:
      check.error(at,
                  "`" + std::string(key) + "` must be finite (a number is too large for a double)");
      return false;
    case VecProblem::none:
      break;
  }
  return true;
}

// Reads a position [m], checking it lies inside the world; `what` describes it in messages.
void read_position(const JsonValue& value, std::string_view key, const std::string& what,
                   EventChecker& check, Vec3& out) {
  if (!read_event_vec3(value, key, "[m] (" + what + ")", check, out)) return;
  if (!within_world(out))
    check.error(value.at, "`" + std::string(key) + "` must lie inside the world (" +
                              world_bound_text() + ")");
}

// Unknown and repeated keys of an event. JSON leaves a repeated key's meaning open, so it is an
// error, as in level files.
void check_event_keys(const JsonValue& object, std::initializer_list<std::string_view> allowed,
                      const std::string& what, EventChecker& check) {
  const auto error = [&check](TextPosition at, const std::string& m) { check.error(at, m); };
  std::unordered_set<std::string_view> seen;
  std::string expected;
  for (std::string_view k : allowed) expected += (expected.empty() ? "" : ", ") + std::string(k);
  for (const JsonMember& m : object.members) {
    if (!seen.insert(m.key).second) {
      error(m.key_at, "duplicate key `" + limits::quoted(m.key) + "` in " + what);
    } else if (std::find(allowed.begin(), allowed.end(), m.key) == allowed.end()) {
      error(m.key_at, "unknown key `" + limits::quoted(m.key) + "` in " + what + " (expected " +
                          expected + ")");
    }
  }
}

void read_enemy(const JsonValue& event, EventChecker& check, std::string& enemy,
                TextPosition& enemy_at) {
  const JsonValue* value = event.find("enemy");
  if (value == nullptr) {
    check.error(event.at, "missing `enemy`");
    return;
  }
  enemy_at = value->at;
  if (value->kind == Kind::string && !value->text.empty()) {
    enemy = value->text;
  } else {
    check.error(value->at, "`enemy` must be a non-empty string, got " + shown(*value));
  }
}

// Reads a push event into `push`, whose time and place in the file are set.
void parse_push(const JsonValue& event, EventChecker& check, PushEvent& push) {
  check_event_keys(event, {"t", "type", "enemy", "body", "impulse"}, "a push event", check);
  read_enemy(event, check, push.enemy, push.enemy_at);
  if (const JsonValue* body = event.find("body")) {
    const auto part =
        body->kind == Kind::string ? physics::body_part_from_name(body->text) : std::nullopt;
    if (!part) {
      check.error(body->at,
                  "unknown body " + shown(*body) + "; expected one of " + join_body_names());
    } else {
      push.body = *part;
    }
  } else {
    check.error(event.at, "missing `body`");
  }
  if (const JsonValue* impulse = event.find("impulse")) {
    const double ns = read_event_vec3(*impulse, "impulse", "[N·s]", check, push.impulse)
                          ? static_cast<double>(length(push.impulse))
                          : 0.0;
    if (ns > limits::kMaxImpulseNs) {
      check.error(impulse->at, "`impulse` must be at most " +
                                   limits::number_text(limits::kMaxImpulseNs) +
                                   " N·s long (a hard shove is 40-150 N·s), got " +
                                   limits::number_text(ns) + " N·s");
    }
  } else {
    check.error(event.at, "missing `impulse`");
  }
}

// Reads a kill event into `kill`, whose time and place in the file are set.
void parse_kill(const JsonValue& event, EventChecker& check, KillEvent& kill) {
  check_event_keys(event, {"t", "type", "enemy", "hit"}, "a kill event", check);
  read_enemy(event, check, kill.enemy, kill.enemy_at);
  if (const JsonValue* hit = event.find("hit")) {
    Vec3 v;
    if (!read_event_vec3(*hit, "hit", "[N·s] (the killing blow)", check, v)) return;
    const double ns = static_cast<double>(length(v));
    if (ns <= 0 || ns > limits::kMaxImpulseNs) {
      check.error(hit->at, "`hit` must be longer than 0 and at most " +
                               limits::number_text(limits::kMaxImpulseNs) + " N·s, got " +
                               limits::number_text(ns) + " N·s");
      return;
    }
    kill.hit = v;
  }
}

void read_gait(const JsonValue& value, EventChecker& check, physics::Gait& gait) {
  const std::string name = value.kind == Kind::string ? value.text : "";
  if (name == "walk")
    gait = physics::Gait::walk;
  else if (name == "run")
    gait = physics::Gait::run;
  else if (name == "idle")
    gait = physics::Gait::idle;
  else
    check.error(value.at, "unknown gait " + shown(value) + "; expected one of idle, walk, run");
}

// A walk's velocity is horizontal and no faster than its gait's top speed: the legs would clamp a
// faster one without a word.
void check_walk_velocity(const JsonValue& value, const WalkEvent& walk, EventChecker& check) {
  const Vec3 v = walk.intent.velocity;
  if (v.y != 0.0f) {
    check.error(
        value.at,
        "`velocity` is horizontal [m/s]: its y must be 0 (the legs follow the ground), got " +
            limits::number_text(static_cast<double>(v.y)));
    return;
  }
  const physics::StepSettings legs;
  const bool running = walk.intent.gait == physics::Gait::run;
  const float top = running ? legs.max_run_speed : legs.max_walk_speed;
  const float speed = length(horizontal(v));
  if (speed > top) {
    check.error(
        value.at,
        "`velocity` must be at most " + limits::number_text(static_cast<double>(top)) + " m/s " +
            (running ? "running"
                     : "walking (\"gait\": \"run\" goes up to " +
                           limits::number_text(static_cast<double>(legs.max_run_speed)) + ")") +
            ", got " + limits::number_text(static_cast<double>(speed)) + " m/s");
  }
}

// Reads a walk event into `walk`, whose time and place in the file are set.
void parse_walk(const JsonValue& event, EventChecker& check, WalkEvent& walk) {
  walk.intent.gait = physics::Gait::walk;
  check_event_keys(event, {"t", "type", "enemy", "velocity", "gait", "facing_deg"}, "a walk event",
                   check);
  read_enemy(event, check, walk.enemy, walk.enemy_at);
  if (const JsonValue* gait = event.find("gait")) read_gait(*gait, check, walk.intent.gait);
  if (const JsonValue* velocity = event.find("velocity")) {
    if (read_event_vec3(*velocity, "velocity", "[m/s]", check, walk.intent.velocity)) {
      check_walk_velocity(*velocity, walk, check);
    }
  } else if (walk.intent.gait != physics::Gait::idle) {
    check.error(event.at, "missing `velocity` (use [0, 0, 0] or \"gait\": \"idle\" to stop)");
  }
  if (const JsonValue* facing = event.find("facing_deg")) {
    const auto deg = number_of(*facing);
    if (!deg) {
      check.error(facing->at, "`facing_deg` must be a finite number of degrees (0 faces +Z), got " +
                                  shown(*facing));
    } else if (std::fabs(*deg) > kMaxFacingDeg) {
      check.error(facing->at,
                  "`facing_deg` must be a heading, -360 <= deg <= 360, got " + shown(*facing));
    } else {
      walk.intent.facing_rad = deg_to_rad(static_cast<float>(*deg));
      walk.intent.has_facing = true;
    }
  }
}

// Reads a player event into `player`, whose time and place in the file are set.
void parse_player(const JsonValue& event, EventChecker& check, PlayerEvent& player) {
  check_event_keys(event, {"t", "type", "position", "head_height_m", "present"}, "a player event",
                   check);
  if (const JsonValue* present = event.find("present")) {
    if (present->kind != Kind::boolean) {
      check.error(present->at, "`present` must be true or false, got " + shown(*present));
    } else {
      player.present = present->boolean;
    }
  }
  if (const JsonValue* position = event.find("position")) {
    read_position(*position, "position", "the player's feet", check, player.position);
  } else if (player.present) {
    check.error(event.at, "missing `position` (or \"present\": false to remove the player)");
  }
  if (const JsonValue* head = event.find("head_height_m")) {
    const auto h = number_of(*head);
    if (!h || *h <= 0 || *h > kMaxHeadHeightM) {
      check.error(head->at,
                  "`head_height_m` must be a number of metres, 0 < m <= 3, got " + shown(*head));
    } else {
      player.head_height_m = static_cast<float>(*h);
    }
  }
}

const char* kPathPointForm = "{ \"t\": seconds >= 0, \"position\": [x, y, z] in m }";

// One point of a hand's path; reports its own problems.
bool read_path_point(const JsonValue& value, std::size_t i, EventChecker& check,
                     HandEvent::Point& point) {
  const std::string name = "path[" + std::to_string(i) + "]";
  const JsonValue* t = value.kind == Kind::object ? value.find("t") : nullptr;
  const JsonValue* position = value.kind == Kind::object ? value.find("position") : nullptr;
  TextPosition at = value.at;
  const auto seconds = t != nullptr ? number_of(*t) : std::nullopt;
  const bool shaped = t != nullptr && position != nullptr && value.members.size() == 2 && seconds &&
                      *seconds >= 0 && read_vec3(*position, point.position, at) == VecProblem::none;
  if (!shaped) {
    check.error(at, name + " must be " + kPathPointForm + ", got " + shown(value));
    return false;
  }
  if (*seconds > limits::kMaxDurationS) {
    check.error(t->at, name + ".t must be at most " + limits::number_text(limits::kMaxDurationS) +
                           " s, got " + shown(*t));
    return false;
  }
  point.t = *seconds;
  if (!within_world(point.position)) {
    check.error(position->at,
                "`" + name + ".position` must lie inside the world (" + world_bound_text() + ")");
    return false;
  }
  return true;
}

void read_hand_side(const JsonValue& value, EventChecker& check, int& hand) {
  const std::string side = value.kind == Kind::string ? value.text : "";
  if (side == "left")
    hand = 0;
  else if (side == "right")
    hand = 1;
  else
    check.error(value.at, "`hand` must be \"left\" or \"right\", got " + shown(value));
}

void read_hand_path(const JsonValue& value, EventChecker& check, HandEvent& hand) {
  if (value.kind != Kind::array || value.items.empty()) {
    check.error(value.at,
                "`path` must be a non-empty array of { \"t\": seconds, \"position\": [x, y, z] }");
    return;
  }
  for (std::size_t i = 0; i < value.items.size(); ++i) {
    HandEvent::Point point;
    if (!read_path_point(value.items[i], i, check, point)) continue;
    if (!hand.path.empty() && point.t < hand.path.back().t) {
      check.error(value.items[i].at, "path[" + std::to_string(i) +
                                         "] goes back in time (t=" + format_time(point.t) +
                                         " after t=" + format_time(hand.path.back().t) + ")");
    } else {
      hand.path.push_back(point);
    }
  }
}

// Reads a hand event into `hand`, whose time and place in the file are set.
void parse_hand(const JsonValue& event, EventChecker& check, HandEvent& hand) {
  check_event_keys(event, {"t", "type", "hand", "path"}, "a hand event", check);
  if (const JsonValue* side = event.find("hand")) {
    read_hand_side(*side, check, hand.hand);
  } else {
    check.error(event.at, "missing `hand` (\"left\" or \"right\")");
  }
  if (const JsonValue* path = event.find("path")) {
    read_hand_path(*path, check, hand);
  } else {
    check.error(event.at, "missing `path`");
  }
}

// A positive number of `unit` no larger than `most`, read into `out`; `what` is what it measures
// ("the blast's reach").
void read_positive(const JsonValue& event, std::string_view key, double most, const char* unit,
                   const std::string& what, EventChecker& check, float& out) {
  const JsonValue* value = event.find(key);
  if (value == nullptr) {
    check.error(event.at, "missing `" + std::string(key) + "` (" + what + ")");
    return;
  }
  const auto number = number_of(*value);
  if (!number || *number <= 0 || *number > most) {
    check.error(value->at, "`" + std::string(key) + "` must be a number of " + unit + ", 0 < " +
                               unit + " <= " + limits::number_text(most) + ", got " +
                               shown(*value));
    return;
  }
  out = static_cast<float>(*number);
}

// Reads a blast event into `blast`, whose time and place in the file are set.
void parse_blast(const JsonValue& event, EventChecker& check, BlastEvent& blast) {
  check_event_keys(event, {"t", "type", "position", "radius_m", "impulse_ns"}, "a blast event",
                   check);
  if (const JsonValue* position = event.find("position")) {
    read_position(*position, "position", "the blast's centre", check, blast.position);
  } else {
    check.error(event.at, "missing `position` (the blast's centre [m])");
  }
  read_positive(event, "radius_m", kMaxBlastRadiusM, "m", "how far the blast reaches [m]", check,
                blast.radius_m);
  read_positive(event, "impulse_ns", limits::kMaxImpulseNs, "N·s",
                "the impulse at the blast's centre [N·s]", check, blast.impulse_ns);
}

// The event's time: finite, not negative, at most a day.
std::optional<double> read_time(const JsonValue& event, EventChecker& check) {
  const JsonValue* t = event.find("t");
  if (t == nullptr) {
    check.error(event.at, "missing `t` (the event's time in seconds)");
    return std::nullopt;
  }
  if (t->kind != Kind::number) {
    check.error(t->at, "`t` must be a number of seconds, got " + shown(*t));
    return std::nullopt;
  }
  const auto seconds = number_of(*t);
  if (!seconds) {
    check.error(t->at, "`t` must be finite (the number is too large for a double)");
  } else if (*seconds < 0) {
    check.error(t->at, "`t` must not be negative, got " + format_time(*seconds));
  } else if (*seconds > limits::kMaxDurationS) {
    check.error(t->at, "`t` must be at most " + limits::number_text(limits::kMaxDurationS) +
                           " s (a run lasts at most a day), got " + limits::quoted(t->text));
  }
  return seconds;
}

// One event at `index` in the file: parsed by `parse` and kept unless it has a problem.
template <typename Event>
void add_event(const JsonValue& event, std::size_t index, double t, EventChecker& check,
               std::vector<Event>& events, void (*parse)(const JsonValue&, EventChecker&, Event&)) {
  Event e;
  e.t = t;
  e.event_index = index;
  parse(event, check, e);
  if (check.ok_so_far()) events.push_back(std::move(e));
}

void parse_event(const JsonValue& event, std::size_t index, std::string_view source,
                 std::vector<std::string>& errors, InputScript& script) {
  EventChecker check(source, index, errors);
  if (event.kind != Kind::object) {
    check.error(event.at, "an event must be a JSON object, got " + shown(event));
    return;
  }
  const JsonValue* type_value = event.find("type");
  const std::string type =
      type_value != nullptr && type_value->kind == Kind::string ? type_value->text : "";
  const JsonValue* t_value = event.find("t");
  const auto t_number = t_value != nullptr ? number_of(*t_value) : std::nullopt;
  check.set_label(type.empty() ? "event" : limits::quoted(type), t_number.value_or(0),
                  t_number.has_value());
  const double t = read_time(event, check).value_or(0);

  if (type_value == nullptr) {
    check.error(event.at, "missing `type`");
    return;
  }
  if (type == "push") return add_event(event, index, t, check, script.pushes, parse_push);
  if (type == "kill") return add_event(event, index, t, check, script.kills, parse_kill);
  if (type == "walk") return add_event(event, index, t, check, script.walks, parse_walk);
  if (type == "player") return add_event(event, index, t, check, script.players, parse_player);
  if (type == "hand") return add_event(event, index, t, check, script.hands, parse_hand);
  if (type == "blast") return add_event(event, index, t, check, script.blasts, parse_blast);
  check.error(type_value->at, "unknown event type " + shown(*type_value) +
                                  " (expected push, hand, player, kill, walk or blast)");
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) {
    if (!out.empty()) out += '\n';
    out += l;
  }
  return out;
}

template <typename Event>
void sort_by_time(std::vector<Event>& events) {
  std::stable_sort(events.begin(), events.end(),
                   [](const Event& a, const Event& b) { return a.t < b.t; });
}

}  // namespace

Result<InputScript> parse_input_script(std::string_view json_text, std::string_view source) {
  // Numbers too large for a double are kept as values, so the event that holds one is named.
  auto parsed = levels::parse_json_with_positions(json_text, levels::HugeNumbers::as_values);
  if (const auto* syntax = std::get_if<levels::JsonSyntaxError>(&parsed)) {
    return Error{located(source, syntax->at, "not valid JSON: " + syntax->message)};
  }
  const JsonValue& root = std::get<JsonValue>(parsed);
  if (root.kind != Kind::object) {
    return Error{
        located(source, root.at, "the script must be a JSON object with an `events` array")};
  }
  std::vector<std::string> errors;
  std::unordered_set<std::string_view> top_keys;
  for (const JsonMember& m : root.members) {
    if (!top_keys.insert(m.key).second) {
      errors.push_back(
          located(source, m.key_at, "duplicate key `" + limits::quoted(m.key) + "` in the script"));
    } else if (m.key != "events") {
      errors.push_back(
          located(source, m.key_at,
                  "unknown top-level key `" + limits::quoted(m.key) + "` (expected `events`)"));
    }
  }
  const JsonValue* events = root.find("events");
  if (events == nullptr || events->kind != Kind::array) {
    errors.push_back(located(source, events ? events->at : root.at, "missing `events` array"));
    return Error{join_lines(errors)};
  }
  InputScript script;
  for (std::size_t i = 0; i < events->items.size(); ++i)
    parse_event(events->items[i], i, source, errors, script);
  if (!errors.empty()) return Error{join_lines(errors)};
  sort_by_time(script.pushes);
  sort_by_time(script.kills);
  sort_by_time(script.walks);
  sort_by_time(script.players);
  sort_by_time(script.hands);
  sort_by_time(script.blasts);
  return script;
}

std::string check_against_scene(const InputScript& script, const SceneDescription& scene,
                                std::string_view source) {
  std::vector<std::string> errors;
  std::string names;
  for (std::size_t i = 0; i < scene.enemies.size() && i < kMaxListedEnemies; ++i) {
    names += (i == 0 ? "" : ", ") + scene.enemies[i].name;
  }
  if (scene.enemies.size() > kMaxListedEnemies)
    names += ", ... (" + std::to_string(scene.enemies.size()) + " in all)";
  const auto check = [&](const std::string& enemy, TextPosition at, std::size_t index,
                         const char* type, double t) {
    const bool found = std::any_of(scene.enemies.begin(), scene.enemies.end(),
                                   [&](const levels::EnemySpawn& e) { return e.name == enemy; });
    if (!found) {
      errors.push_back(located(source, at,
                               "events[" + std::to_string(index) + "] (" + type +
                                   " at t=" + format_time(t) + "): unknown enemy `" +
                                   limits::quoted(enemy) + "` (the scene has: " + names + ")"));
    }
  };
  for (const PushEvent& push : script.pushes)
    check(push.enemy, push.enemy_at, push.event_index, "push", push.t);
  for (const KillEvent& kill : script.kills)
    check(kill.enemy, kill.enemy_at, kill.event_index, "kill", kill.t);
  for (const WalkEvent& walk : script.walks)
    check(walk.enemy, walk.enemy_at, walk.event_index, "walk", walk.t);
  return join_lines(errors);
}

}  // namespace stagger::sim
