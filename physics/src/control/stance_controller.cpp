#include "stance_controller.h"

#include <algorithm>

namespace stagger::physics {

Vec3 StanceController::pelvis_goal(float dt, const RagdollRig& rig, const BodySense& sense) {
  // Ankle strategy: the desired pelvis sits over the middle of the feet, shifted against the
  // capture-point error (a proportional part and a slow integral), which moves the centre of
  // mass back over the feet. After a step the goal moves there at a limited speed from where the
  // pelvis is, so the legs do not kick.
  const RagdollSettings& settings = rig.settings();
  const BalanceSettings& s = settings.balance;
  const BalanceReadout& balance = sense.balance;
  const float limit = s.max_pelvis_shift_m * settings.height_m / 1.8f;
  Vec3& integral_shift = state_.integral_shift;
  integral_shift += balance.error * (s.ankle_integral_per_s * dt);
  integral_shift = horizontal(integral_shift);
  if (length(integral_shift) > limit) integral_shift = normalized(integral_shift) * limit;
  Vec3 shift = -(balance.error * s.ankle_gain_m + integral_shift);
  if (length(shift) > limit) shift = normalized(shift) * limit;
  const Vec3 goal = horizontal(balance.support_mid + shift);
  if (!state_.pelvis_goal_set) {
    state_.pelvis_goal = horizontal(rig.body_state(BodyPart::pelvis).position);
    state_.pelvis_goal_set = true;
  }
  const Vec3 move = goal - state_.pelvis_goal;
  const float most = settings.step.pelvis_goal_speed * dt;
  state_.pelvis_goal = length(move) > most ? state_.pelvis_goal + normalized(move) * most : goal;
  return state_.pelvis_goal;
}

void StanceController::tilt_ankles(float dt, const RagdollSettings& settings,
                                   const BodySense& sense, Pose& pose) {
  // Tilt both legs about the ankles to move the capture point back over the feet, and
  // counter-rotate the hips so the pelvis keeps its orientation (the legs form a parallelogram).
  // A slow integral removes the steady lean of a body whose CoM is not over the middle of its
  // feet.
  const BalanceSettings& s = settings.balance;
  const BalanceReadout& balance = sense.balance;
  const float h = std::max(balance.com_height_m, s.min_com_height_m);
  const float lean_forward = balance.error_forward_m / h;
  const float lean_left = balance.error_left_m / h;
  const float limit = s.max_ankle_offset_rad;
  Vec3& integral = state_.ankle_integral;
  integral.x = std::clamp(integral.x + s.ankle_integral_per_s * lean_forward * dt, -limit, limit);
  integral.z = std::clamp(integral.z + s.ankle_integral_per_s * lean_left * dt, -limit, limit);
  // A forward error needs the shins tilted back: +X on the ankle (foot relative to shin).
  // A leftward error needs them tilted right: -Z on the ankle.
  const float pitch = std::clamp(s.ankle_gain * lean_forward + integral.x, -limit, limit);
  const float roll = std::clamp(-(s.ankle_gain * lean_left + integral.z), -limit, limit);
  const Quat ankle_offset = Quat::from_euler_xyz({pitch, 0, roll});
  const Quat hip_offset = Quat::from_euler_xyz({-pitch, 0, -roll});
  for (JointName ankle : {JointName::ankle_l, JointName::ankle_r})
    pose[ankle] = pose[ankle] * ankle_offset;
  for (JointName hip : {JointName::hip_l, JointName::hip_r}) pose[hip] = hip_offset * pose[hip];
}

}  // namespace stagger::physics
