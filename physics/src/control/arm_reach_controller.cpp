#include "arm_reach_controller.h"

#include <algorithm>
#include <cmath>

#include "stagger/core/assert.h"

namespace stagger::physics {

void ArmReachController::set(int arm, const ArmReach& reach) {
  STAGGER_ASSERT(arm == 0 || arm == 1);
  state_.reach[static_cast<std::size_t>(arm)] = reach;
}

void ArmReachController::apply(const RagdollRig& rig, Pose& pose) const {
  for (int arm = 0; arm < 2; ++arm) apply_arm(arm, rig, pose);
}

void ArmReachController::apply_arm(int arm, const RagdollRig& rig, Pose& pose) const {
  const ArmReach& reach = state_.reach[static_cast<std::size_t>(arm)];
  if (!reach.active) return;
  // The upper arm hangs along -Y in the build pose; the shoulder target turns that direction,
  // seen from the chest, onto the direction to the target (the shortest arc, so no twist).
  const RagdollBlueprint& blueprint = rig.blueprint();
  const JointName shoulder = arm == 0 ? JointName::shoulder_l : JointName::shoulder_r;
  const JointName elbow = arm == 0 ? JointName::elbow_l : JointName::elbow_r;
  const BodyState chest = rig.body_state(BodyPart::chest);
  const Vec3 pivot =
      chest.position + chest.rotation.rotate(blueprint.joints[slot(shoulder)].pivot -
                                             blueprint.bodies[slot(BodyPart::chest)].center);
  const Vec3 to_target = reach.target - pivot;
  if (length(to_target) < 1e-3f) return;
  const Vec3 wanted = normalized(chest.rotation.conjugate().rotate(to_target));
  const Vec3 hanging{0, -1, 0};
  const Vec3 axis = cross(hanging, wanted);
  const float angle = std::atan2(length(axis), dot(hanging, wanted));
  pose[shoulder] = length(axis) > 1e-6f ? Quat::from_axis_angle(normalized(axis), angle) : Quat{};
  const float bend =
      deg_to_rad(settings_.bent_elbow_deg) * (1.0f - std::clamp(reach.extension, 0.0f, 1.0f));
  pose[elbow] = Quat::from_axis_angle({1, 0, 0}, -bend);
}

}  // namespace stagger::physics
