#pragma once
// A level, version 1 of the format in docs/design.md, Level format: geometry, the player start,
// patrol routes, enemy profiles, enemies and navigation settings. Plain data in core's math types;
// load.h reads and writes it.

#include <optional>
#include <string>
#include <vector>

#include "stagger/core/math.h"
#include "stagger/core/navigation.h"
#include "stagger/levels/json_tree.h"

namespace stagger::levels {

struct BoxGeometry {
  std::string name;
  Vec3 center;            ///< [m]
  Vec3 size{1, 1, 1};     ///< [m] full extents
  Vec3 rotation_deg;      ///< [deg] about X, Y, Z (Quat::from_euler_xyz)
  float friction = 0.9f;  ///< [-]
  bool operator==(const BoxGeometry&) const = default;
};

/// A triangle mesh from a glTF 2.0 (.gltf/.glb) or OBJ file, relative to the level file.
struct MeshGeometry {
  std::string name;
  std::string file;   ///< as written in the level
  Vec3 position;      ///< [m]
  Vec3 rotation_deg;  ///< [deg]
  Vec3 scale{1, 1, 1};
  float friction = 0.9f;
  bool operator==(const MeshGeometry&) const = default;
};

struct PlayerStart {
  Vec3 position;      ///< [m] feet
  float yaw_deg = 0;  ///< [deg] 0 faces +Z
  /// Punches the player can take; at zero `stagger play` starts the level again. 0: no limit.
  int hit_points = 0;
  bool operator==(const PlayerStart&) const = default;
};

enum class RouteMode { loop, ping_pong };

struct RoutePoint {
  Vec3 position;     ///< [m]
  float wait_s = 0;  ///< [s] pause on arrival
  bool operator==(const RoutePoint&) const = default;
};

struct Route {
  std::string name;
  RouteMode mode = RouteMode::loop;
  std::vector<RoutePoint> points;
  bool operator==(const Route&) const = default;
};

/// The sizes of enemy the ragdoll is built and tuned for: a spawn's height [m] and mass [kg].
inline constexpr float kMinEnemyHeightM = 1.0f;
inline constexpr float kMaxEnemyHeightM = 2.5f;
inline constexpr float kMinEnemyMassKg = 30.0f;
inline constexpr float kMaxEnemyMassKg = 200.0f;
/// The most hit points a level may give the player.
inline constexpr int kMaxHitPoints = 1000;

/// A named set of enemy settings that spawns pick by name. The level keeps its settings as the
/// JSON they were written in, with the place of every key and value: the simulation reads them
/// against its table of settings (stagger/sim/settings.h), so the level format names no setting.
struct Profile {
  std::string name;
  JsonValue settings;  ///< the profile's object without its `name`: groups of settings
  /// Equal names and equal JSON; where the JSON stood in its file does not count.
  bool operator==(const Profile& other) const {
    return name == other.name && same_json(settings, other.settings);
  }
};

struct EnemySpawn {
  std::string name;
  Vec3 position;        ///< [m] feet
  float yaw_deg = 0;    ///< [deg]
  std::string route;    ///< empty: stands where it spawns
  std::string profile;  ///< a profile's name; empty: the default settings
  /// [m] and [kg]; unset: the profile's (or the default settings': 1.8 m, 75 kg)
  std::optional<float> height_m;
  std::optional<float> mass_kg;
  /// Blasts never throw it as a fake ragdoll (a boss, a scripted enemy): `blast_immune`.
  bool blast_immune = false;
  bool operator==(const EnemySpawn&) const = default;
};

struct Level {
  std::string name;
  std::vector<BoxGeometry> boxes;
  std::vector<MeshGeometry> meshes;
  PlayerStart player;
  std::vector<Route> routes;
  std::vector<Profile> profiles;
  std::vector<EnemySpawn> enemies;
  NavigationSettings navigation;  ///< the level's `navigation` object: the navmesh's settings
  bool operator==(const Level&) const = default;
};

}  // namespace stagger::levels
