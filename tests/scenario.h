#pragma once
// Scenarios shared by the behaviour tests: the built-in scene, stepped with checks per step.

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "stagger/levels/load.h"
#include "stagger/sim/input_script.h"
#include "stagger/sim/scene.h"
#include "stagger/sim/simulation.h"

namespace stagger::test {

inline sim::InputScript push_script(const std::string& enemy, physics::BodyPart body, Vec3 impulse,
                                    double t) {
  sim::InputScript script;
  sim::PushEvent push;
  push.t = t;
  push.enemy = enemy;
  push.body = body;
  push.impulse = impulse;
  script.pushes.push_back(push);
  return script;
}

inline sim::WalkEvent walk_event(const std::string& enemy, Vec3 velocity, double t) {
  sim::WalkEvent walk;
  walk.t = t;
  walk.enemy = enemy;
  walk.intent.gait = physics::Gait::walk;
  walk.intent.velocity = velocity;
  return walk;
}

// The golden scenario: three enemies, two pushes (a recovery step and a knock-down) and a walk,
// 4 s at 240 Hz. Its one definition is tests/data/golden_pushes.json, which `stagger sim` runs too.
inline sim::InputScript golden_script() {
  const std::string path = STAGGER_TEST_DATA "/golden_pushes.json";
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  auto script = sim::parse_input_script(text.str(), path);
  if (!script.ok()) throw std::runtime_error(path + ": " + script.error());
  return std::move(script).value();
}

/// The scene of a level (`file` in the folder `dir` of levels/), as `stagger sim` builds it. A
/// level that does not load fails the test and ends it.
inline sim::SceneDescription level_scene(const std::string& file, const std::string& dir = "data") {
  const std::string path = STAGGER_SOURCE_DIR "/levels/" + dir + "/" + file;
  const levels::LoadResult level = levels::load_level(path);
  EXPECT_TRUE(level.ok()) << path;
  if (!level.ok()) throw std::runtime_error(path + " does not load");
  return sim::scene_from_level(level.level, level.mesh_triangles);
}

/// Whether route points were reached in a loop's order over `n` points (a two-point ping-pong's
/// too): each the one after the one before.
inline bool in_loop_order(const std::vector<std::size_t>& reached, std::size_t n) {
  for (std::size_t k = 1; k < reached.size(); ++k) {
    if (reached[k] != (reached[k - 1] + 1) % n) return false;
  }
  return true;
}

/// Runs `steps` physics steps, calling `each` after every one.
inline void run_steps(sim::Simulation& s, int steps, const std::function<void()>& each = {}) {
  for (int i = 0; i < steps; ++i) {
    s.step();
    if (each) each();
  }
}

inline Vec3 horizontal_direction(int index_of_eight) {
  const float a = static_cast<float>(index_of_eight) * kPi / 4.0f;
  return {std::sin(a), 0.0f, std::cos(a)};
}

}  // namespace stagger::test
