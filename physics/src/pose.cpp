#include "stagger/physics/pose.h"

#include <algorithm>

namespace stagger::physics {

Pose blend(const Pose& from, const Pose& to, float t) {
  Pose out;
  for (std::size_t i = 0; i < out.rotations.size(); ++i) {
    out.rotations[i] = slerp(from.rotations[i], to.rotations[i], t);
  }
  return out;
}

Pose standing_pose() {
  // Angles follow the joint axes: +X flexes knees, -X flexes hips and elbows forward,
  // +Z raises the left arm sideways (-Z the right).
  Pose pose;
  const Vec3 x{1, 0, 0};
  const Vec3 z{0, 0, 1};
  pose[JointName::hip_l] = Quat::from_axis_angle(x, deg_to_rad(-4.0f));
  pose[JointName::hip_r] = Quat::from_axis_angle(x, deg_to_rad(-4.0f));
  pose[JointName::knee_l] = Quat::from_axis_angle(x, deg_to_rad(8.0f));
  pose[JointName::knee_r] = Quat::from_axis_angle(x, deg_to_rad(8.0f));
  pose[JointName::ankle_l] = Quat::from_axis_angle(x, deg_to_rad(-4.0f));
  pose[JointName::ankle_r] = Quat::from_axis_angle(x, deg_to_rad(-4.0f));
  pose[JointName::shoulder_l] = Quat::from_axis_angle(z, deg_to_rad(6.0f));
  pose[JointName::shoulder_r] = Quat::from_axis_angle(z, deg_to_rad(-6.0f));
  pose[JointName::elbow_l] = Quat::from_axis_angle(x, deg_to_rad(-10.0f));
  pose[JointName::elbow_r] = Quat::from_axis_angle(x, deg_to_rad(-10.0f));
  return pose;
}

float max_angle_between(const Pose& a, const Pose& b) {
  float worst = 0;
  for (std::size_t i = 0; i < a.rotations.size(); ++i) {
    worst = std::max(worst, angle_between(a.rotations[i], b.rotations[i]));
  }
  return worst;
}

}  // namespace stagger::physics
