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

/// Knees drawn up, back curled, arms reaching forward: the first pose of getting up, lying face
/// down (`prone`, arms under the chest) or face up.
Pose tuck_pose(bool prone);

/// A deep crouch with the feet under the hips, the middle of getting up.
Pose crouch_pose();

/// Largest per-joint angle between two poses [rad].
float max_angle_between(const Pose& a, const Pose& b);

}  // namespace stagger::physics
