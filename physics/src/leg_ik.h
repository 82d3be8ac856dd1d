#pragma once
// Two-bone inverse kinematics for a leg: joint targets that put the ankle at a point and the foot
// in an orientation, given where the hip is and how the pelvis is turned.

#include "stagger/core/math.h"

namespace stagger::physics {

struct LegTargets {
  Quat hip;    ///< thigh relative to pelvis
  Quat knee;   ///< shin relative to thigh
  Quat ankle;  ///< foot relative to shin
};

/// Orientation of a limb segment in the build convention (bone along -Y, hinge axis X), given the
/// direction from its distal to its proximal end and the forward direction of its leg's plane.
Quat segment_rotation(Vec3 up_along_bone, Vec3 forward);

/// Hip at `hip`, ankle reaching for `ankle` (clamped to the leg's reach), the knee bending toward
/// `knee_forward`, the foot turned to `foot_rotation`. Lengths [m].
LegTargets solve_leg(Vec3 hip, Quat pelvis_rotation, Vec3 ankle, Quat foot_rotation,
                     Vec3 knee_forward, float thigh, float shin);

/// A foot flat on ground with this normal, its toes toward `forward` (horizontal).
Quat foot_on_ground(Vec3 forward, Vec3 ground_normal);

}  // namespace stagger::physics
