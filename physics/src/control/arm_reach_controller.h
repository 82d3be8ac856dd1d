#pragma once
// Arm reach: an arm points at a point in the world with its elbow opened by a given extension (a
// punch is a reach that straightens fast). Only while the body is upright; the other joints keep
// their pose.

#include <array>

#include "stagger/physics/locomotion.h"
#include "stagger/physics/pose.h"
#include "stagger/physics/ragdoll_rig.h"

namespace stagger::physics {

class ArmReachController {
 public:
  struct State {
    std::array<ArmReach, 2> reach{};  ///< left, right
  };

  explicit ArmReachController(const ArmReachSettings& settings) : settings_(settings) {}

  /// What arm `arm` (0 left, 1 right) does; an inactive reach leaves the arm to the pose.
  void set(int arm, const ArmReach& reach);
  const ArmReach& get(int arm) const { return state_.reach[static_cast<std::size_t>(arm)]; }
  /// Turns both arms' shoulder and elbow targets toward their reach targets.
  void apply(const RagdollRig& rig, Pose& pose) const;
  void reset() { state_ = {}; }

 private:
  void apply_arm(int arm, const RagdollRig& rig, Pose& pose) const;

  ArmReachSettings settings_;
  State state_;
};

}  // namespace stagger::physics
