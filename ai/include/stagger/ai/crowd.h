#pragma once
// Crowd agents on a navmesh (Detour's dtCrowd, PRIVATE to ai/): each enemy's ragdoll follows its
// agent, and the agent follows its target at a speed the leash sets.

#include <memory>
#include <vector>

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
  /// Frees the agent's slot (a later add_agent may take it).
  void remove_agent(int agent);
  /// Plans a path to the navmesh point nearest `target`; false when there is none near it.
  bool set_target(int agent, Vec3 target);
  /// Stops the agent where it is (no target).
  void clear_target(int agent);
  void set_max_speed(int agent, float speed);  ///< [m/s]
  void update(float dt);
  Vec3 position(int agent) const;
  Vec3 velocity(int agent) const;
  /// The next corners of the agent's planned path (at most four, nearest first) [m].
  std::vector<Vec3> corners(int agent) const;
  /// False once Detour lost the agent (its polygon became invalid and nothing was found near).
  bool valid(int agent) const;

  /// Moves the agent along the surface of its corridor toward `toward` (a small correction that
  /// keeps its path and cannot cross a wall) and stops it. Returns where it ended up.
  Vec3 pull_back(int agent, Vec3 toward);
  /// Removes the agent and adds it again at `position` with the same parameters and target (for
  /// discontinuities a pull-back cannot bridge). Returns false when `position` is off the navmesh;
  /// the agent then stays where it was.
  bool reseat(int agent, Vec3 position);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace stagger::ai
