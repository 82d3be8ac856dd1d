#pragma once
// Where the runtime's tracking space stands in the level. Every pose the runtime gives (head,
// controllers, hand joints, eyes) goes through it into world space.

#include "frontend.h"
#include "stagger/core/math.h"
#include "xr_common.h"

namespace stagger::vr {

struct XrRig {
  Vec3 origin;        ///< [m] the base space's origin: the level's player start
  Quat rotation;      ///< the base space's -Z (forward) along the start's facing
  float floor_y = 0;  ///< [m] the level's floor under the player: the feet are the head over it

  Vec3 to_world(const XrVector3f& p) const { return origin + rotation.rotate(to_vec(p)); }
  Quat to_world(const XrQuaternionf& q) const { return rotation * Quat{q.w, q.x, q.y, q.z}; }

  /// A hand the runtime tracks at `pose`, moving at `velocity` [m/s] (both in the base space).
  TrackedHand hand(const XrPosef& pose, const XrVector3f& velocity) const {
    return {true,
            false,
            to_world(pose.position),
            to_world(pose.orientation),
            rotation.rotate(to_vec(velocity)),
            {}};
  }

  static Vec3 to_vec(const XrVector3f& v) { return {v.x, v.y, v.z}; }
};

}  // namespace stagger::vr
