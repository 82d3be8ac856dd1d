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

/// Largest per-joint angle between two poses [rad].
float max_angle_between(const Pose& a, const Pose& b);

}  // namespace stagger::physics
