#pragma once
// Scenarios shared by the behaviour tests: the built-in scene, stepped with checks per step.

#include <functional>

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
