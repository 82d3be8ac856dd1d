#pragma once
// Walking a patrol route (design.md §5, issue 5): the order of the points, waits on arrival,
// the arrival radius, guarding a one-point route, and resuming after a chase or a fall. Pure
// logic over positions; the crowd agent and the ragdoll do the walking.

#include <cstddef>
#include <vector>

#include "stagger/core/math.h"

namespace stagger::ai {

enum class PatrolMode { loop, ping_pong };

struct PatrolPoint {
  Vec3 position;      ///< [m]
  float wait_s = 0;   ///< [s] pause on arrival
};

struct PatrolSettings {
  float arrival_radius_m = 0.5f;  ///< [m] horizontal distance that counts as arrived
};

class Patrol {
 public:
  /// `guard_yaw_rad` is the facing held on a one-point route (the enemy's spawn yaw).
  Patrol(std::vector<PatrolPoint> points, PatrolMode mode, float guard_yaw_rad, PatrolSettings settings = {});

  /// Advances by `dt` with the walker at `position`; returns where to go next.
  Vec3 update(Vec3 position, float dt);
  /// The point being walked to (or waited at).
  std::size_t target_index() const { return target_; }
  Vec3 target() const { return points_[target_].position; }
  bool waiting() const { return wait_left_s_ > 0; }
  /// A one-point route: stand at the point, facing `guard_yaw()`.
  bool guarding() const { return points_.size() == 1; }
  float guard_yaw() const { return guard_yaw_; }
  /// Every arrival so far, in order (the report's route_points_reached).
  const std::vector<std::size_t>& reached() const { return reached_; }

  /// After a chase or a fall: go on from the point nearest to `position` (as the crow flies;
  /// the caller passes a navmesh-projected position), keeping the direction of travel.
  void resume_from(Vec3 position);

 private:
  std::size_t next_after(std::size_t index);

  std::vector<PatrolPoint> points_;
  PatrolMode mode_;
  float guard_yaw_;
  PatrolSettings settings_;
  std::size_t target_ = 0;
  int direction_ = 1;  // ping-pong: +1 toward the last point, -1 back
  float wait_left_s_ = 0;
  bool arrived_ = false;  // at the target, waiting
  std::vector<std::size_t> reached_;
};

}  // namespace stagger::ai
