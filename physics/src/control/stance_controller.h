#pragma once
// The stance: balance on both feet without stepping (the ankle strategy). With both feet planted
// it moves the legs' pelvis goal against the capture-point error; otherwise it tilts the ankles.

#include "body_sense.h"
#include "stagger/physics/pose.h"
#include "stagger/physics/ragdoll_rig.h"

namespace stagger::physics {

class StanceController {
 public:
  struct State {
    Vec3 ankle_integral;  ///< x: about the left axis (pitch), z: about forward (roll)
    Vec3 integral_shift;  ///< [m] slow part of the planted ankle strategy
    Vec3 pelvis_goal;     ///< [m] rate-limited standing pelvis goal (horizontal)
    bool pelvis_goal_set = false;
  };

  /// Where the legs hold the pelvis (horizontal) when standing on both feet.
  Vec3 pelvis_goal(float dt, const RagdollRig& rig, const BodySense& sense);
  /// Tilts both legs about the ankles (a body not standing on both feet).
  void tilt_ankles(float dt, const RagdollSettings& settings, const BodySense& sense, Pose& pose);
  /// The goal starts again from where the pelvis is (after a step, or while walking).
  void forget_goal() { state_.pelvis_goal_set = false; }
  void forget_integral_shift() { state_.integral_shift = {}; }
  void forget_integrals() { state_.ankle_integral = state_.integral_shift = {}; }
  void reset() { state_ = {}; }

 private:
  State state_;
};

}  // namespace stagger::physics
