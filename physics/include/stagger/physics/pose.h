#pragma once
// A pose: one target local rotation per joint (child frame relative to parent frame; identity is
// the build pose: standing straight, arms down, facing +Z).

#include <array>

#include "stagger/core/math.h"
#include "stagger/physics/skeleton.h"

namespace stagger::physics {

struct Pose {
  std::array<Quat, kJointCount> rotations{};

  Quat& operator[](JointName joint) { return rotations[static_cast<std::size_t>(index_of(joint))]; }
  const Quat& operator[](JointName joint) const {
    return rotations[static_cast<std::size_t>(index_of(joint))];
  }
};

/// Per-joint slerp between two poses, t in [0, 1].
Pose blend(const Pose& from, const Pose& to, float t);

/// Relaxed standing pose: slightly bent knees, arms hanging a little away from the body.
Pose standing_pose();

/// `lying` with the legs laid out straight (hips and ankles neutral, knees bent 5°): a body lying
/// on the ground with its feet on it.
Pose lying_pose(const Pose& lying);
/// The first pose of getting up, back curled. Face up: knees drawn up, arms reaching forward.
/// Face down (`prone`): legs long; on gentle ground the arms along the body, on stairs or a steep
/// slope (`on_steep_ground`) on the knees with the arms under the chest.
Pose tuck_pose(bool prone, bool on_steep_ground);

/// A deep crouch with the feet under the hips, the middle of getting up.
Pose crouch_pose();
/// Bent over from the hips with the legs nearly straight and the hands reaching down: a body
/// that lay face down rises through it, pivoting up over its feet, which stay on the ground.
Pose pike_pose();

/// The pose the drives track, blending (per-joint slerp, eased) from one pose to another.
struct PoseBlend {
  Pose target;  ///< this step's pose
  Pose from;
  Pose to;
  float duration_s = 0;  ///< [s] 0: not blending
  float elapsed_s = 0;   ///< [s]

  /// The target becomes `pose` at once.
  void set(const Pose& pose);
  /// Blends from the current target to `pose` over `seconds` (at once when not positive).
  void start(const Pose& pose, float seconds);
  /// Moves the blend on by `dt` seconds and updates the target.
  void advance(float dt);
};

/// Largest per-joint angle between two poses [rad].
float max_angle_between(const Pose& a, const Pose& b);

}  // namespace stagger::physics
