#pragma once
// Walking a patrol route (docs/design.md, Level format: `routes`): the order of the points, waits
// on arrival, the arrival radius, guarding a one-point route, and resuming after a chase or a fall.
// Pure logic over positions; the crowd agent and the ragdoll do the walking.

#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

#include "stagger/core/math.h"

namespace stagger::ai {

enum class PatrolMode { loop, ping_pong };

struct PatrolPoint {
  Vec3 position;     ///< [m]
  float wait_s = 0;  ///< [s] pause on arrival
};

struct PatrolSettings {
  float arrival_radius_m = 0.5f;  ///< [m] horizontal distance that counts as arrived
  float pass_radius_m = 1.0f;     ///< [m] the same for a point without a wait
  /// [m] the same for a waiting point another enemy is within this of: two enemies sharing a route
  /// or a passage otherwise hold each other off the point (one at it, one walking up to it, in
  /// the other's way; or both side by side) until they skip their points as stalled
  float taken_radius_m = 1.5f;
  /// [m] a point is arrived at (or taken) only within this of its height: a point straight above
  /// or below, on another floor, is not reached by standing under or over it
  float arrival_height_m = 1.0f;
  /// [s] the next leg starts this long before a wait is over: a ragdoll needs about that long to
  /// get going (its first step must start), so it stands still for the wait.
  float start_early_s = 0.15f;
};

class Patrol {
 public:
  /// `guard_yaw_rad` is the facing held on a one-point route (the enemy's spawn yaw).
  Patrol(std::vector<PatrolPoint> points, PatrolMode mode, float guard_yaw_rad,
         PatrolSettings settings = {});

  /// Advances by `dt` with the walker at `position`; returns where to go next. A wait starts
  /// once the walker is `settled` (standing, no longer braking). `taken`: another walker is
  /// within taken_radius_m of the point being walked to.
  Vec3 update(Vec3 position, float dt, bool settled = true, bool taken = false);
  /// The point being walked to (or waited at).
  std::size_t target_index() const { return target_; }
  Vec3 target() const { return points_[target_].position; }
  float target_wait_s() const { return points_[target_].wait_s; }
  const PatrolPoint& point(std::size_t index) const { return points_[index]; }
  /// The point arrived at last, if any.
  std::optional<std::size_t> previous() const {
    return reached_.empty() ? std::nullopt : std::optional<std::size_t>(reached_.back());
  }
  /// The point before `index` in the direction of travel.
  std::size_t before(std::size_t index) const;
  bool waiting() const { return arrived_ && wait_left_s_ > 0; }
  /// The point after the target, in the direction of travel (where a wait ends up going).
  Vec3 following() const;
  /// A one-point route: stand at the point, facing `guard_yaw()`.
  bool guarding() const { return points_.size() == 1; }
  float guard_yaw() const { return guard_yaw_; }
  /// Whether `position` is on the floor of route point `point`: within arrival_height_m of it.
  bool on_floor_of(Vec3 point, Vec3 position) const {
    return std::fabs(point.y - position.y) <= settings_.arrival_height_m;
  }
  /// Every arrival so far, in order (the report's route_points_reached).
  const std::vector<std::size_t>& reached() const { return reached_; }

  /// After a chase or a fall, from `position` (the caller passes a navmesh-projected one; as the
  /// crow flies): near the point it was walking to, or the one it came from, it carries on;
  /// elsewhere it heads for the nearest point, or the one after it in the direction of travel
  /// when already past it.
  void resume_from(Vec3 position);
  /// Gives up on the current point (it cannot be reached) and heads for the one after it.
  void skip();

 private:
  /// The point after `index` in the direction of travel; turning round at an end of a ping-pong
  /// route updates `direction`.
  std::size_t next_after(std::size_t index, int& direction) const;
  std::size_t advance(std::size_t index) { return next_after(index, direction_); }

  std::vector<PatrolPoint> points_;
  PatrolMode mode_;
  float guard_yaw_;
  PatrolSettings settings_;
  std::size_t target_ = 0;
  int direction_ = 1;  // ping-pong: +1 toward the last point, -1 back
  float wait_left_s_ = 0;
  bool arrived_ = false;          // at the target, waiting
  Vec3 wait_at_;                  // [m] where it waits: the target, or short of a taken one
  bool waiting_started_ = false;  // the walker stopped there: the wait counts down
  std::vector<std::size_t> reached_;
};

}  // namespace stagger::ai
