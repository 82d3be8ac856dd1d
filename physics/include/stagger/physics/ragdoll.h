#pragma once
// An active ragdoll: rigid bodies joined by driven joints, a balance measurement, an uprighting
// drive, an ankle strategy and hit reactions. Created by World::add_ragdoll.

#include <array>
#include <cstdint>
#include <string_view>

#include "stagger/physics/balance.h"
#include "stagger/physics/hit_reaction.h"
#include "stagger/physics/pose.h"
#include "stagger/physics/ragdoll_settings.h"
#include "stagger/physics/world.h"

namespace stagger::physics {

/// What the body is doing, for the rest of the program (ai, reports, rendering).
enum class LocomotionState : std::uint8_t {
  standing,    ///< drives hold the pose; balance, uprighting and foot anchors on
  stepping,    ///< a balance step (arrives with the stepping controller)
  walking,     ///< following a locomotion intent (arrives with the gait)
  falling,     ///< drives released to joint friction; collapsing under gravity
  down,        ///< lying still, about to get up (or staying down after too many failures)
  getting_up,  ///< drives on, blending through the get-up poses with capped assistance
  dead,        ///< limp for good; comes to rest and sleeps
};
std::string_view name_of(LocomotionState state);
/// True in the states where the drives hold the body up.
constexpr bool is_upright(LocomotionState s) {
  return s == LocomotionState::standing || s == LocomotionState::stepping ||
         s == LocomotionState::walking;
}

class Ragdoll {
 public:
  Ragdoll(World& world, const RagdollSettings& settings, Vec3 feet_position, float yaw_rad);
  Ragdoll(const Ragdoll&) = delete;
  Ragdoll& operator=(const Ragdoll&) = delete;

  const RagdollSettings& settings() const { return settings_; }
  const RagdollBlueprint& blueprint() const { return blueprint_; }
  float mass() const { return blueprint_.total_mass; }

  BodyId body(BodyPart part) const { return bodies_[static_cast<std::size_t>(index_of(part))]; }
  JointId joint(JointName j) const { return joints_[static_cast<std::size_t>(index_of(j))]; }
  BodyState body_state(BodyPart part) const;

  /// Applies an impulse [N·s] at the part's centre of mass and starts its hit reaction.
  void apply_impulse(BodyPart part, Vec3 impulse);

  /// Sets the target pose at once.
  void set_pose(const Pose& pose);
  /// Blends (per-joint slerp, eased) from the current target to `pose` over `seconds`.
  void blend_to_pose(const Pose& pose, float seconds);
  /// The target the drives track this step (blend and base pose, before balance corrections).
  const Pose& target_pose() const { return target_; }

  /// Balance measured after the last step.
  const BalanceReadout& balance() const { return balance_; }
  LocomotionState state() const { return state_; }
  /// Releases the drives (the fall response); the ragdoll collapses, lies still, then gets up.
  void fall();
  /// Limp for good: a corpse that comes to rest and sleeps.
  void kill();
  int get_ups() const { return get_ups_; }              ///< successful get-ups so far
  int failed_get_ups() const { return failed_get_ups_; }  ///< since the last success
  /// After `GetUpSettings::max_attempts` failures in a row the enemy stays down.
  bool stays_down() const { return failed_get_ups_ >= settings_.get_up.max_attempts; }
  /// Whether the last get-up started lying face down.
  bool got_up_from_prone() const { return prone_; }
  /// The pose the joints are in now (child relative to parent).
  Pose current_pose() const;

  /// Strength multiplier of a body part after hits, in [0, 1].
  float strength(BodyPart part) const;
  /// Pelvis centre height above the lowest point of the body (soles, or the ground when lying) [m].
  float pelvis_height() const;
  /// Largest joint separation of this ragdoll [m].
  float max_joint_separation() const;
  bool foot_contact(BodyPart foot) const;

  /// Called by World::step: before and after the Bullet step.
  void before_step(float dt);
  void after_step(float dt);

 private:
  void update_targets(float dt);
  void update_balance(float dt);
  void update_fallen(float dt);
  void start_get_up();
  void update_get_up(float dt);
  void finish_get_up(bool stood);
  void fade_assistance(float dt);
  static constexpr float kAssistFadeS = 0.5f;  // [s]
  void set_drives_active(bool active);
  float max_body_speed() const;
  void apply_ankle_strategy(float dt, Pose& pose);
  void plant_legs(float dt, Pose& pose);
  void update_upright();
  void update_foot_anchors();
  void clamp_velocities();

  World& world_;
  RagdollSettings settings_;
  RagdollBlueprint blueprint_;
  std::array<BodyId, kBodyPartCount> bodies_{};
  std::array<JointId, kJointCount> joints_{};
  JointId upright_{};  // world -> pelvis
  std::array<std::size_t, 2> foot_anchors_{};  // left, right
  std::size_t pelvis_assist_ = 0;  // the get-up lift
  float yaw_ = 0;

  Pose target_;
  Pose blend_from_;
  Pose blend_to_;
  float blend_duration_ = 0;
  float blend_elapsed_ = 0;

  BalanceReadout balance_;
  float airtime_s_ = 0;
  Vec3 ankle_integral_;  // x: about the left axis (pitch), z: about forward (roll)
  Vec3 integral_shift_;  // [m] slow part of the planted ankle strategy

  std::array<StrengthEnvelope, kBodyPartCount> strength_{};
  std::array<TwistSpring, kBodyPartCount> twist_{};
  LocomotionState state_ = LocomotionState::standing;
  float state_time_s_ = 0;    // time in the current state
  float still_time_s_ = 0;    // time lying still (falling, down)
  float resistance_time_s_ = 0;  // harder to knock down until this runs out
  float get_up_yaw_ = 0;
  Vec3 get_up_anchor_;        // pelvis position when the rise began
  bool prone_ = false;
  bool rising_ = false;
  float assist_fade_s_ = 0;   // get-up assistance still letting go
  int get_ups_ = 0;
  int failed_get_ups_ = 0;
};

}  // namespace stagger::physics
