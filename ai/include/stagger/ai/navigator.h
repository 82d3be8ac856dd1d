#pragma once
// The leash between ragdolls and their crowd agents (docs/ai.md, The leash).
// Each tick: project every body onto the navmesh with our own query, clamp each agent's speed by
// its lead over its body, pull an agent that got too far ahead back along its corridor, re-seat
// it only when that cannot bridge the gap, update the crowd, and say where each body should aim.
// Also notices stalls: a body that makes no progress toward its goal for a while.

#include <memory>
#include <optional>
#include <vector>

#include "stagger/ai/crowd.h"
#include "stagger/ai/navmesh.h"

namespace stagger::ai {

struct LeashSettings {
  float slack_m = 0.4f;        ///< [m] Ls: the agent walks at full speed up to this lead ...
  float hard_m = 1.2f;         ///< [m] Lh: ... stops at this lead, and is pulled back beyond it
  float reseat_gap_m = 0.3f;   ///< [m] a pull-back that ends farther than this from where it
                               ///< aimed (a wall, another floor) re-seats the agent instead
  float look_ahead_s = 0.3f;   ///< [s] the body aims where the agent will be this much later
  float corner_lead_m = 0.8f;  ///< [m] out of sight of its agent, it aims this far along the way
  /// [m] the body aims at the first point of its agent's own trail at least this far from it:
  /// about the radius a walking body turns on, so that it follows the agent round a corner
  /// rather than cutting across toward it
  float trail_lead_m = 0.6f;
  /// [-] a trail this many times longer than the straight way to the agent is a loop (agents
  /// dodging one another), which the body cuts: it heads straight for the agent instead
  float trail_loop_ratio = 1.6f;
  float stall_s = 3.0f;  ///< [s] no progress toward the goal in this long is a stall
  /// [m] this much less of the way left to the goal (along the navmesh) is progress
  float progress_m = 0.3f;
  float arrived_m = 0.6f;  ///< [m] within this of the goal nobody counts stalls
};

class Navigator {
 public:
  Navigator(std::shared_ptr<const Navmesh> navmesh, int max_enemies, float agent_radius,
            float agent_height, LeashSettings settings = {});

  /// Adds an enemy whose feet stand at `feet`; returns its handle (0, 1, ...) or -1 when the
  /// point is off the navmesh.
  int add(Vec3 feet);
  /// Takes the enemy's agent out of the crowd; its handle stays taken and is skipped from then on.
  void remove(int enemy);
  /// Puts the enemy's agent at the navmesh under `feet` [m] (a teleported body), keeping its goal.
  /// False when `feet` is off the navmesh: the agent stays where it was.
  bool teleport(int enemy, Vec3 feet);
  int size() const { return static_cast<int>(enemies_.size()); }

  /// Where the enemy should go (nothing: stand) and how fast [m/s]. Replans only when the goal
  /// moved.
  void set_goal(int enemy, std::optional<Vec3> goal, float speed);
  /// Whether the enemy's handle is in use (added and not removed).
  bool has(int enemy) const {
    return enemy >= 0 && enemy < size() && enemies_[static_cast<std::size_t>(enemy)].agent >= 0;
  }
  /// The body's centre of mass this tick, and whether it is up (false: down or getting up; the
  /// agent then waits, and is brought back to the body when it stands).
  void set_body(int enemy, Vec3 com, bool upright);
  /// One navigation tick of `dt` seconds for every enemy.
  void tick(float dt);

  struct Follow {
    Vec3 feet;                ///< [m] the body's centre of mass projected onto the navmesh
    bool on_navmesh = false;  ///< false: the projection found nothing (thrown, airborne)
    Vec3 agent;               ///< [m] the crowd agent
    Vec3 aim;                 ///< [m] where the body should head: the agent plus a look-ahead
    float lead_m = 0;         ///< [m] horizontal distance agent - feet, before any correction
    float max_lead_m = 0;     ///< [m] the largest lead so far while upright
    bool valid = true;        ///< Detour still has the agent
    bool stalled = false;     ///< this tick: no progress for `stall_s` (the path was replanned)
    int replans = 0;          ///< stalls, each answered by planning the path again
    int pull_backs = 0;
    int reseats = 0;
    int invalid_ticks = 0;  ///< ticks at which Detour had lost the agent (then re-seated)
  };
  const Follow& follow(int enemy) const { return enemies_[static_cast<std::size_t>(enemy)].follow; }
  /// The next corners of the agent's path (for drawing), nearest first [m].
  std::vector<Vec3> path_corners(int enemy) const {
    return crowd_.corners(enemies_[static_cast<std::size_t>(enemy)].agent);
  }
  const LeashSettings& settings() const { return settings_; }

 private:
  struct Enemy {
    int agent = -1;  // -1: removed
    Vec3 com;
    bool upright = true;
    bool held = false;
    std::optional<Vec3> goal;
    float speed = 0;
    float way_left_m = -1;  // [m] along the navmesh to the goal at the window's start (-1: unknown)
    float since_progress_s = 0;
    std::vector<Vec3> trail;  // [m] where the agent has been since the body was last with it
    Follow follow;
  };
  void project(Enemy& e) const;
  /// Whether navmesh points `a` and `b` [m] lie on different floors, one over the other.
  bool on_other_floor(Vec3 a, Vec3 b) const;
  /// [m] how far a walker at the body's feet has to go to its agent at `agent`: straight across
  /// where it sees it, along the path where a wall or a drop is between them.
  float way_to(const Enemy& e, Vec3 agent) const;
  void leash(Enemy& e, bool measure);
  void aim(Enemy& e);
  /// Adds the agent's position to its trail (which is emptied whenever the agent is moved back
  /// toward its body: a pull-back, a re-seat, a body that is down or teleported).
  static void lay_trail(Enemy& e);
  /// The first point of the trail at least `trail_lead_m` from the body (the points it has
  /// passed dropped first), if any.
  std::optional<Vec3> trail_point(Enemy& e) const;
  /// [m] across, from the body along its agent's trail to the agent.
  static float trail_length(const Enemy& e);
  bool reseat(Enemy& e);
  void watch_progress(Enemy& e, float dt);

  std::shared_ptr<const Navmesh> navmesh_;
  Crowd crowd_;
  float agent_radius_;
  float agent_height_;
  LeashSettings settings_;
  std::vector<Enemy> enemies_;
};

}  // namespace stagger::ai
