#include "stagger/sim/scene.h"

#include <cmath>

#include "stagger/physics/ragdoll_settings.h"

namespace stagger::sim {

SceneDescription builtin_scene(int enemy_count) {
  SceneDescription scene;
  scene.name = "builtin";
  scene.boxes.push_back({{0, -0.5f, 0}, {50, 0.5f, 50}, {}, 0.9f});
  const int columns = std::max(1, static_cast<int>(std::ceil(std::sqrt(enemy_count))));
  for (int i = 0; i < enemy_count; ++i) {
    EnemySpawn enemy;
    enemy.name = i == 0 ? "dummy" : "dummy-" + std::to_string(i + 1);
    enemy.position = {3.0f * static_cast<float>(i % columns), 0.0f,
                      -3.0f * static_cast<float>(i / columns)};
    scene.enemies.push_back(enemy);
  }
  return scene;
}

Scene::Scene(const SceneDescription& description)
    : description_(description), world_(std::make_unique<physics::World>(description.world)) {
  for (const auto& box : description_.boxes) world_->add_static_box(box);
  for (const auto& spawn : description_.enemies) {
    physics::RagdollSettings settings;
    settings.height_m = spawn.height_m;
    settings.mass_kg = spawn.mass_kg;
    const Vec3 feet = spawn.position + Vec3{0, description_.spawn_height_m, 0};
    enemies_.push_back({spawn.name, &world_->add_ragdoll(settings, feet, spawn.yaw_rad)});
  }
}

Enemy* Scene::find_enemy(const std::string& name) {
  for (auto& e : enemies_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

}  // namespace stagger::sim
