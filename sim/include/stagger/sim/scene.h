#pragma once
// Scene assembly: a description (ground, enemies, player) becomes a fresh physics world.
// A loaded level becomes the same SceneDescription (scene_from_level), its enemies as the level
// has them, so `stagger sim` and the tests do not care where a scene came from.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "stagger/ai/navmesh.h"
#include "stagger/ai/patrol.h"
#include "stagger/core/result.h"
#include "stagger/levels/level.h"
#include "stagger/levels/mesh.h"
#include "stagger/physics/hand.h"
#include "stagger/physics/ragdoll.h"
#include "stagger/physics/world.h"
#include "stagger/sim/activity.h"
#include "stagger/sim/settings.h"

namespace stagger::sim {

struct SceneDescription {
  std::string name = "builtin";
  physics::WorldSettings world;
  std::vector<physics::StaticBoxSettings> boxes;
  std::vector<physics::StaticMeshSettings> meshes;  ///< world-space triangles
  std::vector<levels::EnemySpawn> enemies;  ///< as a level has them: `route` names one of `routes`
  std::vector<levels::Route> routes;        ///< the patrol routes the enemies walk
  Vec3 player_position{0, 0, 3};            ///< [m] feet
  float player_yaw_rad = kPi;               ///< [rad] facing -Z, toward the origin
  int player_hit_points = 0;  ///< punches the player takes before the level restarts; 0: no limit
  float spawn_height_m = 0.02f;  ///< [m] enemies are dropped from this height above their spawn
  /// The most enemies present at once, those added at run time (Simulation::add_enemy) included:
  /// the crowd is sized for it. 0: as many as `enemies`.
  int max_enemies = 0;
  physics::HandSettings hands;  ///< the physics hands that `hand` events move
  /// Activity levels (sim/activity.h): off unless `activity.max_active` caps the full ragdolls.
  ActivitySettings activity;
  /// Navmesh settings of a level; enemies with routes walk them on it. Unset: nobody patrols.
  std::optional<NavigationSettings> navigation;
  /// The seed vary_spawns nudged the spawns with; unset: the spawns are as the level has them.
  std::optional<std::uint64_t> vary_seed;
  /// What every enemy is tuned by before its profile: a `--settings` file's, else the defaults.
  EnemySettings enemy_settings;
  std::string settings_file;  ///< the file `enemy_settings` came from; empty: the defaults
  std::vector<SettingsProfile> profiles;  ///< the level's, set over `enemy_settings` by name
};

/// What a spawn is tuned by: the scene's `enemy_settings`, its profile's values over them, then
/// its own height and mass.
EnemySettings settings_of(const SceneDescription& scene, const levels::EnemySpawn& spawn);

/// How far vary_spawns moves a spawn: up to this far across [m] and this much in yaw [deg].
inline constexpr float kVarySpawnM = 0.01f;
inline constexpr float kVaryYawDeg = 0.5f;

/// The scene with every enemy's spawn nudged by a seeded amount, up to kVarySpawnM across (a
/// uniform disc) and kVaryYawDeg in yaw: repeated runs of one level with different seeds are
/// independent samples, and one seed repeats step for step. Records the seed in `vary_seed`.
SceneDescription vary_spawns(SceneDescription scene, std::uint64_t seed);

/// How far a point may stand from the navmesh and still count as on it [m]: across (x, z) and
/// up or down (y).
inline constexpr Vec3 kOnNavmesh{0.5f, 1.0f, 0.5f};

/// The scene's navmesh (`scene.navigation` must be set) without the islands (wall tops, crates)
/// that neither the player start, a spawn, a route point of an enemy nor one of `extra_seeds`
/// stands on.
Result<std::shared_ptr<ai::Navmesh>> build_navmesh(const SceneDescription& scene,
                                                   const std::vector<Vec3>& extra_seeds = {});

/// The route an enemy walks, in the navigation's terms: the points of the route in
/// `scene.routes` that `spawn.route` names, and its mode. No points: it guards its spawn.
struct SpawnRoute {
  std::vector<ai::PatrolPoint> points;
  ai::PatrolMode mode = ai::PatrolMode::loop;
};
SpawnRoute route_of(const SceneDescription& scene, const levels::EnemySpawn& spawn);

/// The built-in scene: flat ground and `enemy_count` enemies, the first named `dummy` at the
/// origin facing +Z, the others `dummy-2`, `dummy-3`, ... on a 3 m grid toward -Z.
SceneDescription builtin_scene(int enemy_count = 1);

/// The scene of a loaded level: its boxes, meshes (`mesh_triangles`, one per `level.meshes`, as
/// levels::LoadResult carries them), enemies, routes and player start.
SceneDescription scene_from_level(const levels::Level& level,
                                  const std::vector<levels::TriangleMesh>& mesh_triangles);

struct Enemy {
  std::string name;
  physics::Ragdoll* ragdoll = nullptr;  ///< nullptr once removed
  std::size_t world_index = 0;          ///< its index among the world's ragdolls
  bool removed() const { return ragdoll == nullptr; }
};

/// A running scene: the world and its enemies, in spawn order.
class Scene {
 public:
  explicit Scene(const SceneDescription& description);

  const SceneDescription& description() const { return description_; }
  physics::World& world() { return *world_; }
  const physics::World& world() const { return *world_; }
  /// Every enemy in spawn order, removed ones included (their `ragdoll` is null).
  std::vector<Enemy>& enemies() { return enemies_; }
  const std::vector<Enemy>& enemies() const { return enemies_; }
  /// The present enemy with this name, or nullptr.
  Enemy* find_enemy(const std::string& name);
  /// Creates an enemy as the description's spawns are created, and appends its spawn to the
  /// description; returns its index.
  std::size_t add_enemy(const levels::EnemySpawn& spawn);
  /// Removes an enemy's ragdoll from the world; the entry stays, with a null `ragdoll`.
  void remove_enemy(std::size_t index);

 private:
  void spawn_enemy(const levels::EnemySpawn& spawn);

  SceneDescription description_;
  std::unique_ptr<physics::World> world_;
  std::vector<Enemy> enemies_;
};

}  // namespace stagger::sim
