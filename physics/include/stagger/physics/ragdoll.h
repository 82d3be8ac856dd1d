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

/// What the drives are doing. Stepping, walking and getting up arrive with the gait controller.
enum class ControlMode : std::uint8_t {
  active,  ///< drives track the target pose; balance and uprighting on
  limp,    ///< drives reduced to joint friction after a fall; the body may sleep
};
std::string_view name_of(ControlMode mode);

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
  ControlMode mode() const { return mode_; }
  /// Releases the drives (the fall response); the ragdoll collapses under gravity.
  void go_limp();

  /// Strength multiplier of a body part after hits, in [0, 1].
  float strength(BodyPart part) const;
  /// Pelvis centre height above the soles [m].
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
  void apply_ankle_strategy(float dt, Pose& pose);
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
  float yaw_ = 0;

  Pose target_;
  Pose blend_from_;
  Pose blend_to_;
  float blend_duration_ = 0;
  float blend_elapsed_ = 0;

  BalanceReadout balance_;
  float airtime_s_ = 0;
  Vec3 ankle_integral_;  // x: about the left axis (pitch), z: about forward (roll)

  std::array<StrengthEnvelope, kBodyPartCount> strength_{};
  std::array<TwistSpring, kBodyPartCount> twist_{};
  ControlMode mode_ = ControlMode::active;
};

}  // namespace stagger::physics
