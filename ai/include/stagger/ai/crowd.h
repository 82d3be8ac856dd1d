#pragma once
// Crowd agents on a navmesh (Detour's dtCrowd, PRIVATE to ai/): each enemy's ragdoll follows its
// agent, and the agent follows its target at a speed the leash sets.

#include <memory>

#include "stagger/ai/navmesh.h"

namespace stagger::ai {

class Crowd {
 public:
  Crowd(std::shared_ptr<const Navmesh> navmesh, int max_agents, float max_agent_radius);
  ~Crowd();
  Crowd(const Crowd&) = delete;
  Crowd& operator=(const Crowd&) = delete;

  /// Returns the agent's index, or -1 when `position` is not on the navmesh or the crowd is full.
  int add_agent(Vec3 position, float radius, float height, float max_speed);
  void set_target(int agent, Vec3 target);
  void set_max_speed(int agent, float speed);  ///< [m/s]
  void update(float dt);
  Vec3 position(int agent) const;
  Vec3 velocity(int agent) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace stagger::ai
