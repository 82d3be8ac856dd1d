#include "script.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <numbers>
#include <set>
#include <stdexcept>

#include "math.h"
#include "profiles.h"

namespace stagger::simxr {
namespace {

using nlohmann::json;

struct ScriptError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void fail(const std::string& where, const std::string& what) {
  throw ScriptError(where + ": " + what);
}

void check_keys(const json& object, const std::string& where,
                std::initializer_list<const char*> allowed) {
  if (!object.is_object()) fail(where, "must be an object");
  for (const auto& item : object.items()) {
    const bool known =
        std::any_of(allowed.begin(), allowed.end(), [&](const char* k) { return item.key() == k; });
    if (!known) fail(where, "unknown key \"" + item.key() + "\"");
  }
}

double number(const json& v, const std::string& where) {
  if (!v.is_number()) fail(where, "must be a number");
  const double d = v.get<double>();
  if (!std::isfinite(d)) fail(where, "must be finite");
  return d;
}

XrVector3f vec3(const json& v, const std::string& where) {
  if (!v.is_array() || v.size() != 3) fail(where, "must be an array of 3 numbers");
  return {static_cast<float>(number(v[0], where)), static_cast<float>(number(v[1], where)),
          static_cast<float>(number(v[2], where))};
}

XrQuaternionf quat(const json& v, const std::string& where) {
  if (!v.is_array() || v.size() != 4) fail(where, "must be an array of 4 numbers [x, y, z, w]");
  XrQuaternionf q{static_cast<float>(number(v[0], where)), static_cast<float>(number(v[1], where)),
                  static_cast<float>(number(v[2], where)), static_cast<float>(number(v[3], where))};
  const float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (n < 1e-6f) fail(where, "must not be a zero quaternion");
  return normalized(q);
}

int hand_of(const json& v, const std::string& where) {
  if (v == "left") return 0;
  if (v == "right") return 1;
  fail(where, "must be \"left\" or \"right\"");
  return 0;
}

/// [s] the longest input ramp, as long as a script's longest time (a day).
constexpr double kMaxRampS = 86400.0;

const std::set<std::string>& input_names() {
  static const std::set<std::string> names{
      "trigger",  "squeeze",        "grip",   "thumbstick", "thumbstick_click",
      "trackpad", "trackpad_click", "a",      "b",          "x",
      "y",        "menu",           "system", "select",     "thumbrest"};
  return names;
}

std::vector<PathPoint> parse_path(const json& v, const std::string& where) {
  if (!v.is_array() || v.empty()) fail(where, "must be a non-empty array of points");
  std::vector<PathPoint> points;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string at = where + "[" + std::to_string(i) + "]";
    check_keys(v[i], at, {"t", "position", "orientation"});
    if (!v[i].contains("t") || !v[i].contains("position")) fail(at, "needs \"t\" and \"position\"");
    PathPoint p;
    p.t = number(v[i]["t"], at + ".t");
    p.position = vec3(v[i]["position"], at + ".position");
    if (v[i].contains("orientation"))
      p.orientation = quat(v[i]["orientation"], at + ".orientation");
    if (!points.empty() && p.t < points.back().t) fail(at + ".t", "path times must not decrease");
    points.push_back(p);
  }
  return points;
}

ScriptEvent parse_event(const json& v, const std::string& where) {
  check_keys(v, where, {"t", "frame", "type", "hand", "path", "input", "value", "ramp_s", "state"});
  ScriptEvent e;
  if (v.contains("t")) {
    e.t = number(v["t"], where + ".t");
    if (*e.t < 0.0) fail(where + ".t", "must be >= 0");
  }
  if (v.contains("frame")) {
    if (!v["frame"].is_number_unsigned()) fail(where + ".frame", "must be a non-negative integer");
    e.frame = v["frame"].get<std::uint64_t>();
  }
  if (e.t.has_value() == e.frame.has_value())
    fail(where, "needs exactly one of \"t\" and \"frame\"");
  if (!v.contains("type") || !v["type"].is_string()) fail(where, "needs a string \"type\"");
  const std::string type = v["type"];
  auto require = [&](const char* key) {
    if (!v.contains(key)) fail(where, "a \"" + type + "\" event needs \"" + key + "\"");
  };
  if (v.contains("ramp_s") && type != "input")
    fail(where + ".ramp_s", "only an \"input\" event ramps");
  if (type == "hand") {
    e.type = EventType::Hand;
    require("hand");
    require("path");
    e.hand = hand_of(v["hand"], where + ".hand");
    e.path = parse_path(v["path"], where + ".path");
  } else if (type == "input") {
    e.type = EventType::Input;
    require("hand");
    require("input");
    require("value");
    e.hand = hand_of(v["hand"], where + ".hand");
    if (!v["input"].is_string() || input_names().count(v["input"].get<std::string>()) == 0) {
      fail(where + ".input",
           "unknown input (trigger, squeeze, thumbstick, thumbstick_click, trackpad, "
           "trackpad_click, a, b, x, y, menu, system, select, thumbrest)");
    }
    e.input = v["input"];
    if (e.input == "grip") e.input = "squeeze";
    if (v["value"].is_array()) {
      if (v["value"].size() != 2) fail(where + ".value", "must be a number or [x, y]");
      e.value = {static_cast<float>(number(v["value"][0], where + ".value")),
                 static_cast<float>(number(v["value"][1], where + ".value"))};
    } else if (v["value"].is_boolean()) {
      e.value = {v["value"].get<bool>() ? 1.0f : 0.0f, 0.0f};
    } else {
      e.value = {static_cast<float>(number(v["value"], where + ".value")), 0.0f};
    }
    if (v.contains("ramp_s")) {
      e.ramp_s = number(v["ramp_s"], where + ".ramp_s");
      if (e.ramp_s < 0.0 || e.ramp_s > kMaxRampS)
        fail(where + ".ramp_s", "must be in [0, 86400] seconds");
    }
  } else if (type == "tracking") {
    e.type = EventType::Tracking;
    require("hand");
    require("state");
    e.hand = hand_of(v["hand"], where + ".hand");
    const json& s = v["state"];
    if (s == "tracked")
      e.tracking = Tracking::Tracked;
    else if (s == "untracked")
      e.tracking = Tracking::Untracked;
    else if (s == "lost")
      e.tracking = Tracking::Lost;
    else
      fail(where + ".state", "must be \"tracked\", \"untracked\" or \"lost\"");
  } else if (type == "focus_loss") {
    e.type = EventType::FocusLoss;
  } else if (type == "focus_gain") {
    e.type = EventType::FocusGain;
  } else if (type == "loss_pending") {
    e.type = EventType::LossPending;
  } else if (type == "exit") {
    e.type = EventType::Exit;
  } else if (type == "profile") {
    e.type = EventType::Profile;
    require("path");
    if (!v["path"].is_string() || find_simulated_profile(v["path"].get<std::string>()) == nullptr) {
      fail(where + ".path", "is not a supported interaction profile");
    }
    e.profile = v["path"];
  } else {
    fail(where + ".type",
         "unknown event type \"" + type +
             "\" (hand, input, tracking, focus_loss, focus_gain, loss_pending, exit, profile)");
  }
  return e;
}

Script parse(const json& root) {
  check_keys(root, "script",
             {"display_hz", "view_size", "interaction_profile", "form_factor_unavailable_calls",
              "hand_tracking", "head", "events"});
  Script s;
  if (root.contains("display_hz")) {
    s.display_hz = number(root["display_hz"], "display_hz");
    if (s.display_hz < 0.0 || s.display_hz > 1000.0) fail("display_hz", "must be in [0, 1000]");
  }
  if (root.contains("view_size")) {
    const json& v = root["view_size"];
    if (!v.is_array() || v.size() != 2 || !v[0].is_number_unsigned() ||
        !v[1].is_number_unsigned()) {
      fail("view_size", "must be [width, height] in pixels");
    }
    s.view_width = v[0];
    s.view_height = v[1];
    if (s.view_width == 0 || s.view_height == 0 || s.view_width > 8192 || s.view_height > 8192) {
      fail("view_size", "must be within 1..8192");
    }
  }
  if (root.contains("interaction_profile")) {
    const json& v = root["interaction_profile"];
    // "none": the controllers are put down; hands are seen only through hand tracking.
    if (!v.is_string() ||
        (v != "none" && find_simulated_profile(v.get<std::string>()) == nullptr)) {
      fail("interaction_profile", "is not a supported interaction profile (or \"none\")");
    }
    s.interaction_profile = v;
  }
  if (root.contains("form_factor_unavailable_calls")) {
    if (!root["form_factor_unavailable_calls"].is_number_unsigned()) {
      fail("form_factor_unavailable_calls", "must be a non-negative integer");
    }
    s.form_factor_unavailable_calls = root["form_factor_unavailable_calls"];
  }
  if (root.contains("hand_tracking")) {
    if (!root["hand_tracking"].is_boolean()) fail("hand_tracking", "must be true or false");
    s.hand_tracking = root["hand_tracking"];
  }
  if (root.contains("head")) {
    const json& h = root["head"];
    check_keys(h, "head", {"position", "yaw_deg"});
    if (h.contains("position")) s.head_position = vec3(h["position"], "head.position");
    if (h.contains("yaw_deg")) {
      s.head_yaw_rad =
          static_cast<float>(number(h["yaw_deg"], "head.yaw_deg") * std::numbers::pi / 180.0);
    }
  }
  if (root.contains("events")) {
    const json& events = root["events"];
    if (!events.is_array()) fail("events", "must be an array");
    for (std::size_t i = 0; i < events.size(); ++i) {
      s.events.push_back(parse_event(events[i], "events[" + std::to_string(i) + "]"));
    }
  }
  return s;
}

/// [levels] scripts nested deeper than this are refused (a script needs four).
constexpr int kMaxScriptDepth = 256;

// A parser callback that refuses nesting deeper than kMaxScriptDepth and a key repeated within
// one object (JSON leaves open which of the two counts). nlohmann's parser calls it in document
// order, so a stack of the open objects' keys is enough.
json::parser_callback_t refuse_deep_or_repeated() {
  auto open_keys = std::make_shared<std::vector<std::set<std::string>>>();
  return [open_keys](int depth, json::parse_event_t event, json& parsed) {
    if (depth > kMaxScriptDepth)
      fail("script",
           "nests arrays and objects more than " + std::to_string(kMaxScriptDepth) + " deep");
    if (event == json::parse_event_t::object_start) open_keys->emplace_back();
    if (event == json::parse_event_t::object_end && !open_keys->empty()) open_keys->pop_back();
    if (event == json::parse_event_t::key && !open_keys->empty() &&
        !open_keys->back().insert(parsed.get<std::string>()).second) {
      fail("script", "the key \"" + parsed.get<std::string>().substr(0, 60) +
                         "\" appears twice in one object");
    }
    return true;
  };
}

}  // namespace

std::optional<Script> parse_script(const std::string& text, std::string& error) {
  try {
    return parse(json::parse(text, refuse_deep_or_repeated()));
  } catch (const json::parse_error& e) {
    error = std::string("invalid JSON: ") + e.what();
  } catch (const ScriptError& e) {
    error = e.what();
  } catch (const json::exception& e) {
    error = e.what();
  }
  return std::nullopt;
}

PathSample sample_path(const std::vector<PathPoint>& path, double t) {
  PathSample s;
  if (path.empty()) return s;
  if (t <= path.front().t || path.size() == 1) {
    s.pose = {path.front().orientation, path.front().position};
    return s;
  }
  if (t >= path.back().t) {
    s.pose = {path.back().orientation, path.back().position};
    return s;
  }
  std::size_t i = 1;
  while (path[i].t < t) ++i;
  const PathPoint& a = path[i - 1];
  const PathPoint& b = path[i];
  const double span = b.t - a.t;
  if (span <= 0.0) {
    s.pose = {b.orientation, b.position};
    return s;
  }
  const float u = static_cast<float>((t - a.t) / span);
  s.pose.position = a.position + (b.position - a.position) * u;
  s.pose.orientation = slerp(a.orientation, b.orientation, u);
  s.linear_velocity = (b.position - a.position) * static_cast<float>(1.0 / span);
  s.angular_velocity = angular_velocity(a.orientation, b.orientation, static_cast<float>(span));
  return s;
}

}  // namespace stagger::simxr
