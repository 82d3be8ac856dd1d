#pragma once
// Drawing a fixed-step world at a display's rate: the world steps at 240 Hz, a headset draws at
// 90 Hz, so a frame falls between two steps. Keep the poses of the last two steps and draw each
// body `alpha` of the way from the older to the newer (StepClock::alpha), which costs one step of
// latency and removes the judder of drawing whole steps.

#include <vector>

#include "stagger/core/math.h"
#include "stagger/physics/world.h"

namespace stagger::physics {

struct BodyPose {
  Vec3 position;  ///< [m] centre of mass
  Quat rotation;
};

/// `alpha` [0, 1] of the way from `from` to `to`: positions linearly, rotations by slerp.
BodyPose interpolate(const BodyPose& from, const BodyPose& to, float alpha);

/// Every body's pose after the last two steps of one world.
class PoseHistory {
 public:
  /// Call after every World::step: the last poses become the older ones, the world's are the new.
  void capture(const World& world);
  /// Both snapshots from the world as it is now: call it once before the first step and after a
  /// teleport, so that nothing is drawn sliding from where it was.
  void reset(const World& world);
  /// The body's pose `alpha` [0, 1] of the way from the older snapshot to the newer. A body added
  /// since the older one is drawn where it is; a removed ragdoll's body, where it was last seen.
  BodyPose pose(BodyId body, float alpha) const;
  /// Bodies in the newer snapshot.
  std::size_t size() const { return newer_.size(); }

 private:
  std::vector<BodyPose> older_;
  std::vector<BodyPose> newer_;
};

}  // namespace stagger::physics
