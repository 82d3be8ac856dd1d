#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include "stagger/levels/load.h"

namespace stagger::levels {
namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

// Floats are written as the shortest decimal of their double value, which reads back as the
// same float: load -> save -> load gives an equal level.
void write_vec3(Writer& w, const char* key, Vec3 v) {
  w.Key(key);
  w.SetFormatOptions(rapidjson::kFormatSingleLineArray);
  w.StartArray();
  w.Double(static_cast<double>(v.x));
  w.Double(static_cast<double>(v.y));
  w.Double(static_cast<double>(v.z));
  w.EndArray();
  w.SetFormatOptions(rapidjson::kFormatDefault);
}

void write_float(Writer& w, const char* key, float value) {
  w.Key(key);
  w.Double(static_cast<double>(value));
}

void write_string(Writer& w, const char* key, const std::string& value) {
  w.Key(key);
  w.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
}

// One object per item of `items`, its members written by `members`.
template <typename Items, typename Members>
void write_objects(Writer& w, const Items& items, Members members) {
  for (const auto& item : items) {
    w.StartObject();
    members(item);
    w.EndObject();
  }
}

// An array under `key` of one object per item, as write_objects.
template <typename Items, typename Members>
void write_array(Writer& w, const char* key, const Items& items, Members members) {
  w.Key(key);
  w.StartArray();
  write_objects(w, items, members);
  w.EndArray();
}

// An object under `key`, its members written by `members`.
template <typename Members>
void write_object(Writer& w, const char* key, Members members) {
  w.Key(key);
  w.StartObject();
  members();
  w.EndObject();
}

// The members a geometry item starts with; an unnamed item has no `name`.
void write_type_and_name(Writer& w, const char* type, const std::string& name) {
  write_string(w, "type", type);
  if (!name.empty()) write_string(w, "name", name);
}

void write_geometry(Writer& w, const Level& level) {
  w.Key("geometry");
  w.StartArray();
  write_objects(w, level.boxes, [&w](const BoxGeometry& b) {
    write_type_and_name(w, "box", b.name);
    write_vec3(w, "center", b.center);
    write_vec3(w, "size", b.size);
    write_vec3(w, "rotation_deg", b.rotation_deg);
    write_float(w, "friction", b.friction);
  });
  write_objects(w, level.meshes, [&w](const MeshGeometry& m) {
    write_type_and_name(w, "mesh", m.name);
    write_string(w, "file", m.file);
    write_vec3(w, "position", m.position);
    write_vec3(w, "rotation_deg", m.rotation_deg);
    write_vec3(w, "scale", m.scale);
    write_float(w, "friction", m.friction);
  });
  w.EndArray();
}

void write_routes(Writer& w, const Level& level) {
  write_array(w, "routes", level.routes, [&w](const Route& r) {
    write_string(w, "name", r.name);
    write_string(w, "mode", r.mode == RouteMode::loop ? "loop" : "ping-pong");
    write_array(w, "points", r.points, [&w](const RoutePoint& p) {
      write_vec3(w, "position", p.position);
      write_float(w, "wait_s", p.wait_s);
    });
  });
}

void write_enemies(Writer& w, const Level& level) {
  write_array(w, "enemies", level.enemies, [&w](const EnemySpawn& e) {
    write_string(w, "name", e.name);
    write_vec3(w, "position", e.position);
    write_float(w, "yaw_deg", e.yaw_deg);
    if (!e.route.empty()) write_string(w, "route", e.route);
    if (!e.profile.empty()) write_string(w, "profile", e.profile);
    if (e.height_m) write_float(w, "height_m", *e.height_m);
    if (e.mass_kg) write_float(w, "mass_kg", *e.mass_kg);
    if (e.blast_immune) {
      w.Key("blast_immune");
      w.Bool(true);
    }
  });
}

// JSON as it was read: numbers keep the digits they were written with.
void write_json(Writer& w, const JsonValue& v) {
  switch (v.kind) {
    case JsonValue::Kind::null:
      w.Null();
      return;
    case JsonValue::Kind::boolean:
      w.Bool(v.boolean);
      return;
    case JsonValue::Kind::number:
      w.RawValue(v.text.c_str(), v.text.size(), rapidjson::kNumberType);
      return;
    case JsonValue::Kind::string:
      w.String(v.text.c_str(), static_cast<rapidjson::SizeType>(v.text.size()));
      return;
    case JsonValue::Kind::array:
      w.StartArray();
      for (const JsonValue& item : v.items) write_json(w, item);
      w.EndArray();
      return;
    case JsonValue::Kind::object:
      w.StartObject();
      for (const JsonMember& m : v.members) {
        w.Key(m.key.c_str(), static_cast<rapidjson::SizeType>(m.key.size()));
        write_json(w, *m.value);
      }
      w.EndObject();
      return;
  }
}

void write_profiles(Writer& w, const Level& level) {
  if (level.profiles.empty()) return;
  write_array(w, "profiles", level.profiles, [&w](const Profile& p) {
    write_string(w, "name", p.name);
    for (const JsonMember& m : p.settings.members) {
      w.Key(m.key.c_str(), static_cast<rapidjson::SizeType>(m.key.size()));
      write_json(w, *m.value);
    }
  });
}

}  // namespace

std::string save_level(const Level& level) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.SetIndent(' ', 2);
  w.StartObject();
  write_string(w, "format", "stagger-level");
  w.Key("version");
  w.Int(1);
  if (!level.name.empty()) write_string(w, "name", level.name);
  write_geometry(w, level);
  write_object(w, "player", [&] {
    write_vec3(w, "position", level.player.position);
    write_float(w, "yaw_deg", level.player.yaw_deg);
    if (level.player.hit_points > 0) {
      w.Key("hit_points");
      w.Int(level.player.hit_points);
    }
  });
  write_routes(w, level);
  write_profiles(w, level);
  write_enemies(w, level);
  const NavigationSettings& n = level.navigation;
  write_object(w, "navigation", [&] {
    write_float(w, "agent_radius", n.agent_radius);
    write_float(w, "drop_margin_m", n.drop_margin_m);
    write_float(w, "agent_height", n.agent_height);
    write_float(w, "max_climb", n.max_climb);
    write_float(w, "max_slope_deg", n.max_slope_deg);
    write_float(w, "cell_size", n.cell_size);
    write_float(w, "cell_height", n.cell_height);
  });
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace stagger::levels
