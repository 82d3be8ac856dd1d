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
  pose[JointName::shoulder_l] = Quat::from_axis_angle(z, deg_to_rad(10.0f));
  pose[JointName::shoulder_r] = Quat::from_axis_angle(z, deg_to_rad(-10.0f));
  pose[JointName::elbow_l] = Quat::from_axis_angle(x, deg_to_rad(-10.0f));
  pose[JointName::elbow_r] = Quat::from_axis_angle(x, deg_to_rad(-10.0f));
  return pose;
}

namespace {

Quat about_x(float degrees) {
  return Quat::from_axis_angle({1, 0, 0}, deg_to_rad(degrees));
}

void set_legs(Pose& pose, float hip, float knee, float ankle) {
  pose[JointName::hip_l] = pose[JointName::hip_r] = about_x(hip);
  pose[JointName::knee_l] = pose[JointName::knee_r] = about_x(knee);
  pose[JointName::ankle_l] = pose[JointName::ankle_r] = about_x(ankle);
}

}  // namespace

Pose lying_pose(const Pose& lying) {
  Pose pose = lying;
  set_legs(pose, 0.0f, 5.0f, 0.0f);
  return pose;
}

Pose tuck_pose(bool prone, bool on_steep_ground) {
  Pose pose;
  if (!prone) {
    // Face up: the knees raised and the feet flat by the seat, the back curled to sit up.
    set_legs(pose, -55.0f, 125.0f, -15.0f);
    pose[JointName::lumbar] = about_x(-50.0f);
    pose[JointName::shoulder_l] = pose[JointName::shoulder_r] = about_x(-70.0f);
    pose[JointName::elbow_l] = pose[JointName::elbow_r] = about_x(-30.0f);
    return pose;
  }
  if (!on_steep_ground) {
    // Face down on gentle ground: the legs long (bending the knees of a body lying on its thighs
    // lifts the shins), the back curled a little and the arms along the body. (With the stairs'
    // tuck below, pushing up on the arms under the chest, a body lying head down a 12° slope
    // pitched over its head and lifted its feet: 49 of 400 slope get-ups had a foot more than
    // 5 cm up, against 7; on flat ground 3 of 400, against none; both waiting at most 0.4 s to
    // lie flat.)
    set_legs(pose, -25.0f, 5.0f, 20.0f);
    pose[JointName::lumbar] = about_x(-15.0f);
    return pose;
  }
  // Face down on steep ground: on the knees, the toes tucked under, the back curled and the arms
  // under the chest, pushing the trunk up off the steps. (The gentle ground's knees at 5°: 752
  // of 800 stairs knock-downs stood within 6 s, against 763.)
  set_legs(pose, -25.0f, 15.0f, 20.0f);
  pose[JointName::lumbar] = about_x(-50.0f);
  pose[JointName::shoulder_l] = pose[JointName::shoulder_r] = about_x(-60.0f);
  pose[JointName::elbow_l] = pose[JointName::elbow_r] = about_x(-100.0f);
  return pose;
}

Pose crouch_pose() {
  // Shins 40° forward, thighs 70° forward, pelvis leaning 5°: the feet stay flat under the hips.
  Pose pose;
  set_legs(pose, -75.0f, 110.0f, -40.0f);
  pose[JointName::lumbar] = about_x(-15.0f);
  pose[JointName::shoulder_l] = pose[JointName::shoulder_r] = about_x(-40.0f);
  pose[JointName::elbow_l] = pose[JointName::elbow_r] = about_x(-30.0f);
  return pose;
}

Pose pike_pose() {
  Pose pose;
  set_legs(pose, -95.0f, 20.0f, -25.0f);
  pose[JointName::lumbar] = about_x(-20.0f);
  pose[JointName::shoulder_l] = pose[JointName::shoulder_r] = about_x(-80.0f);
  pose[JointName::elbow_l] = pose[JointName::elbow_r] = about_x(-10.0f);
  return pose;
}

float max_angle_between(const Pose& a, const Pose& b) {
  float worst = 0;
  for (std::size_t i = 0; i < a.rotations.size(); ++i) {
    worst = std::max(worst, angle_between(a.rotations[i], b.rotations[i]));
  }
  return worst;
}

void PoseBlend::set(const Pose& pose) {
  from = to = target = pose;
  duration_s = elapsed_s = 0;
}

void PoseBlend::start(const Pose& pose, float seconds) {
  if (seconds <= 0) {
    set(pose);
    return;
  }
  from = target;
  to = pose;
  duration_s = seconds;
  elapsed_s = 0;
}

void PoseBlend::advance(float dt) {
  if (duration_s <= 0) return;
  elapsed_s = std::min(elapsed_s + dt, duration_s);
  target = blend(from, to, smoothstep(elapsed_s / duration_s));
  if (elapsed_s >= duration_s) duration_s = 0;
}

}  // namespace stagger::physics
