#include "stagger/sim/scene.h"

#include <cmath>

#include "stagger/core/random.h"
#include "stagger/physics/ragdoll_settings.h"

namespace stagger::sim {

SceneDescription vary_spawns(SceneDescription scene, std::uint64_t seed) {
  SplitMix64 random(seed);
  for (levels::EnemySpawn& spawn : scene.enemies) {
    // Uniform over the disc: the radius goes as the square root of a uniform number.
    const float radius = kVarySpawnM * std::sqrt(random.unit());
    const float angle = 2.0f * kPi * random.unit();
    spawn.position.x += radius * std::cos(angle);
    spawn.position.z += radius * std::sin(angle);
    spawn.yaw_deg += kVaryYawDeg * random.symmetric();
  }
  scene.vary_seed = seed;
  return scene;
}

SceneDescription builtin_scene(int enemy_count) {
  SceneDescription scene;
  scene.name = "builtin";
  scene.boxes.push_back({{0, -0.5f, 0}, {50, 0.5f, 50}, {}, 0.9f});
  const int columns = std::max(1, static_cast<int>(std::ceil(std::sqrt(enemy_count))));
  for (int i = 0; i < enemy_count; ++i) {
    levels::EnemySpawn enemy;
    enemy.name = i == 0 ? "dummy" : "dummy-" + std::to_string(i + 1);
    enemy.position = {3.0f * static_cast<float>(i % columns), 0.0f,
                      -3.0f * static_cast<float>(i / columns)};
    scene.enemies.push_back(enemy);
  }
  return scene;
}

SceneDescription scene_from_level(const levels::Level& level,
                                  const std::vector<levels::TriangleMesh>& mesh_triangles) {
  STAGGER_ASSERT(mesh_triangles.size() == level.meshes.size());
  SceneDescription scene;
  scene.name = level.name.empty() ? "level" : level.name;
  for (const levels::BoxGeometry& b : level.boxes) {
    const Vec3 rotation{deg_to_rad(b.rotation_deg.x), deg_to_rad(b.rotation_deg.y),
                        deg_to_rad(b.rotation_deg.z)};
    scene.boxes.push_back({b.center, b.size * 0.5f, Quat::from_euler_xyz(rotation), b.friction});
  }
  for (std::size_t i = 0; i < level.meshes.size(); ++i) {
    scene.meshes.push_back(
        {mesh_triangles[i].vertices, mesh_triangles[i].indices, level.meshes[i].friction});
  }
  scene.enemies = level.enemies;
  // A profile's problems are `stagger check`'s to report (check_profiles); what is good is kept.
  std::vector<levels::Diagnostic> reported_by_check;
  scene.profiles = read_profiles(level, "", reported_by_check);
  scene.routes = level.routes;
  scene.navigation = level.navigation;
  scene.player_position = level.player.position;
  scene.player_yaw_rad = deg_to_rad(level.player.yaw_deg);
  scene.player_hit_points = level.player.hit_points;
  return scene;
}

EnemySettings settings_of(const SceneDescription& scene, const levels::EnemySpawn& spawn) {
  EnemySettings settings = scene.enemy_settings;
  for (const SettingsProfile& profile : scene.profiles) {
    if (profile.name == spawn.profile) apply_settings(profile.values, settings);
  }
  if (spawn.height_m) settings.ragdoll.height_m = *spawn.height_m;
  if (spawn.mass_kg) settings.ragdoll.mass_kg = *spawn.mass_kg;
  return settings;
}

SpawnRoute route_of(const SceneDescription& scene, const levels::EnemySpawn& spawn) {
  SpawnRoute route;
  for (const levels::Route& r : scene.routes) {
    if (r.name != spawn.route) continue;
    for (const levels::RoutePoint& p : r.points) route.points.push_back({p.position, p.wait_s});
    route.mode =
        r.mode == levels::RouteMode::loop ? ai::PatrolMode::loop : ai::PatrolMode::ping_pong;
  }
  return route;
}

Result<std::shared_ptr<ai::Navmesh>> build_navmesh(const SceneDescription& scene,
                                                   const std::vector<Vec3>& extra_seeds) {
  STAGGER_ASSERT(scene.navigation.has_value());
  ai::NavmeshInput input;
  for (const auto& box : scene.boxes) input.add_box(box.center, box.half_extents, box.rotation);
  for (const auto& mesh : scene.meshes) input.add(mesh.vertices, mesh.indices);
  auto built = ai::Navmesh::build(input, *scene.navigation);
  if (!built) return Error{built.error()};
  std::vector<Vec3> seeds = extra_seeds;
  seeds.push_back(scene.player_position);
  for (const auto& e : scene.enemies) {
    seeds.push_back(e.position);
    for (const auto& p : route_of(scene, e).points) seeds.push_back(p.position);
  }
  built.value()->remove_islands(seeds, kOnNavmesh);
  return built.value();
}

Scene::Scene(const SceneDescription& description)
    : description_(description), world_(std::make_unique<physics::World>(description.world)) {
  for (const auto& box : description_.boxes) world_->add_static_box(box);
  for (const auto& mesh : description_.meshes) world_->add_static_mesh(mesh);
  for (const auto& spawn : description_.enemies) spawn_enemy(spawn);
}

void Scene::spawn_enemy(const levels::EnemySpawn& spawn) {
  const physics::RagdollSettings settings = settings_of(description_, spawn).ragdoll;
  const Vec3 feet = spawn.position + Vec3{0, description_.spawn_height_m, 0};
  physics::Ragdoll& ragdoll = world_->add_ragdoll(settings, feet, deg_to_rad(spawn.yaw_deg));
  enemies_.push_back({spawn.name, &ragdoll, world_->ragdoll_count() - 1});
}

std::size_t Scene::add_enemy(const levels::EnemySpawn& spawn) {
  description_.enemies.push_back(spawn);
  spawn_enemy(spawn);
  return enemies_.size() - 1;
}

void Scene::remove_enemy(std::size_t index) {
  Enemy& enemy = enemies_.at(index);
  if (enemy.removed()) return;
  world_->remove_ragdoll(enemy.world_index);
  enemy.ragdoll = nullptr;
}

Enemy* Scene::find_enemy(const std::string& name) {
  for (auto& e : enemies_) {
    if (e.name == name && !e.removed()) return &e;
  }
  return nullptr;
}

}  // namespace stagger::sim
