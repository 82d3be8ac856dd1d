#pragma once
// Why a body fell: a witness that notes the blows a ragdoll takes and watches its feet (a swing
// foot caught short of its target, a planted foot sliding), and when the fall comes names its
// cause (FallCause). It only reads the body: it changes nothing in the simulation.

#include <array>

#include "body_sense.h"
#include "stagger/physics/locomotion.h"
#include "stagger/physics/ragdoll_rig.h"
#include "step_controller.h"

namespace stagger::physics {

class FallWitness {
 public:
  struct State {
    float since_push_s = 1e9f;  ///< [s] since an impulse was applied
    float since_hit_s = 1e9f;   ///< [s] since a blow by contact
    float since_trip_s = 1e9f;  ///< [s] since a swing foot caught
    float since_slip_s = 1e9f;  ///< [s] since a planted foot slid past the slip distance
    std::array<bool, 2> planted{};
    std::array<Vec3, 2> stance_start{};  ///< [m] where each foot stood when its stance began
    std::array<float, 2> slip_m{};       ///< [m] horizontal slide within the current stance
  };

  explicit FallWitness(const FallCauseSettings& settings) : settings_(settings) {}

  void note_push() { state_.since_push_s = 0; }
  void note_hit() { state_.since_hit_s = 0; }
  /// After each physics step: the blows age; the feet are watched while the body is `on_its_feet`
  /// (upright, and settled after its spawn).
  void observe(float dt, bool on_its_feet, const RagdollRig& rig, const BodySense& sense,
               const StepController::Swing& swing);
  /// The cause of a fall beginning now.
  FallCause judge(const RagdollRig& rig, const BodySense& sense) const;
  /// [m] the largest slide of a planted foot within one stance phase, over the body's life.
  float max_foot_slip_m() const { return max_foot_slip_m_; }
  /// Whether foot `leg` (0 left, 1 right) is in a watched stance now.
  bool planted(int leg) const { return state_.planted[static_cast<std::size_t>(leg)]; }
  /// [m] the largest slide of foot `leg` within its current (or latest) stance.
  float stance_slip_m(int leg) const { return state_.slip_m[static_cast<std::size_t>(leg)]; }
  /// Fresh state (the largest slide kept).
  void reset() { state_ = {}; }

 private:
  void watch_swing(const RagdollRig& rig, const StepController::Swing& swing);
  void watch_stance(int leg, bool planted, const RagdollRig& rig);
  bool over_lower_ground(const RagdollRig& rig, const BodySense& sense) const;

  FallCauseSettings settings_;
  State state_;
  float max_foot_slip_m_ = 0;
};

}  // namespace stagger::physics
