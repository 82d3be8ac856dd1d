#pragma once
// An active ragdoll: rigid bodies joined by driven joints, a balance measurement, an uprighting
// drive, an ankle strategy and hit reactions. Created by World::add_ragdoll.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "stagger/physics/balance.h"
#include "stagger/physics/hit_reaction.h"
#include "stagger/physics/locomotion.h"
#include "stagger/physics/pose.h"
#include "stagger/physics/ragdoll_settings.h"
#include "stagger/physics/world.h"

namespace stagger::physics {

struct GroundHit;  // world_impl.h

/// A body part found where no real body can be: beyond the world or too fast.
struct Runaway {
  BodyPart part = BodyPart::pelvis;
  std::string what;  ///< e.g. "position 5.7e+25 m from the origin, beyond the world's 10000 m"
};

/// What the body is doing, for the rest of the program (ai, reports, rendering).
enum class LocomotionState : std::uint8_t {
  standing,    ///< drives hold the pose; balance, uprighting and foot anchors on
  stepping,    ///< a balance step: a foot in the air to catch a lean
  walking,     ///< following a locomotion intent with a cyclic gait
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
  /// Starts the hit reaction to a blow that contact has already delivered (a hand's shove).
  void react_to_hit(BodyPart part, Vec3 impulse);
  /// The part this body is, if it is one of this ragdoll's.
  std::optional<BodyPart> part_of(BodyId body) const;
  /// The largest impulse [N·s] received within the last `window_s` seconds (0 if none).
  float recent_hit_ns(float window_s) const {
    return since_hit_s_ <= window_s ? last_hit_ns_ : 0.0f;
  }

  /// Sets the target pose at once.
  void set_pose(const Pose& pose);
  /// Blends (per-joint slerp, eased) from the current target to `pose` over `seconds`.
  void blend_to_pose(const Pose& pose, float seconds);
  /// The target the drives track this step (blend and base pose, before balance corrections).
  const Pose& target_pose() const { return target_; }

  /// What the legs should do: the default (idle) intent stands still where it is.
  void set_intent(const LocomotionIntent& intent);
  const LocomotionIntent& intent() const { return intent_; }
  /// What an arm does (0 left, 1 right); an inactive reach leaves the arm to the pose.
  void set_arm_reach(int arm, const ArmReach& reach);
  const ArmReach& arm_reach(int arm) const { return reach_[static_cast<std::size_t>(arm)]; }
  /// Balance steps taken so far (steps of the walking gait and closing steps not counted).
  int recovery_steps() const { return recovery_steps_; }
  /// Every step taken so far (balance, walking and closing steps).
  int steps_taken() const { return steps_taken_; }
  /// The commanded horizontal velocity in effect [m/s] (zero when idle or not upright).
  Vec3 commanded_velocity() const;

  /// Balance measured after the last step.
  const BalanceReadout& balance() const { return balance_; }
  LocomotionState state() const { return state_; }
  /// Releases the drives (the fall response); the ragdoll collapses, lies still, then gets up.
  void fall();
  /// Limp for good: a corpse that comes to rest and sleeps.
  void kill();
  /// Back to where and how it was created: standing at its spawn in the build pose, at rest, its
  /// controller and hit reactions fresh (the counts of falls, get-ups and steps are kept). The
  /// cure for a body that went non-finite.
  void reset();
  /// The first body part whose transform or velocity is not finite, if any.
  std::optional<BodyPart> first_non_finite_part() const;
  /// The first body part beyond the world extent or faster than the speed limit
  /// (stagger/core/limits.h), if any: finite, but the state of a blow-up all the same.
  std::optional<Runaway> first_runaway_part() const;
  int get_ups() const { return get_ups_; }                ///< successful get-ups so far
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
  void update_joint_iterations();
  float max_body_speed() const;
  void apply_ankle_strategy(float dt, Pose& pose);
  void plant_legs(float dt, Pose& pose);
  Vec3 standing_pelvis_goal(float dt);
  float pelvis_above_sole(float knee_bend_deg) const;

  // Stepping (ragdoll_step.cpp): balance steps, closing steps and the walking gait.
  struct Swing {
    bool active = false;
    int leg = 0;  // 0 left, 1 right
    enum class Kind : std::uint8_t { balance, gait, closing } kind = Kind::balance;
    float elapsed_s = 0;
    float lift_s = 0;   // start phase
    float plant_s = 0;  // end phase
    Vec3 start;         // foot centre at lift-off
    float start_yaw = 0;
    Vec3 target;  // foot centre where it will land
    Vec3 ground_normal{0, 1, 0};
    float target_yaw = 0;
    int edge_side = 0;  // -1 behind a step's edge, +1 ahead of it, 0 no edge met yet
  };
  void update_legs(float dt, Pose& pose);
  void maybe_start_step(float dt);
  int choose_recovery_leg() const;
  int choose_closing_leg() const;
  void start_step(int leg, Swing::Kind kind);
  /// Where the legs hold the pelvis (horizontal) while stepping or walking.
  Vec3 moving_pelvis_goal(float dt);
  void aim_swing();
  void update_swing(float dt, Pose& pose);
  void keep_sole_clear(Vec3& foot, Vec3 forward, Vec3 normal, float clearance) const;
  void land_swing();
  void cancel_steps();
  void hold_pelvis(float dt);
  float smooth_pelvis_height(float goal, float dt);
  /// Whether an upright body gives up (falls) under `thresholds`, this step.
  bool gives_up(const BalanceSettings& thresholds, float dt);
  Quat legs_pelvis_yaw(float wanted_yaw) const;
  bool walking_intent() const;
  Vec3 intended_velocity() const;
  void ramp_commanded_velocity(float dt);
  void turn_heading(float dt);
  float desired_yaw() const;
  struct LegGeometry {
    Vec3 hip_from_pelvis;  // hip pivot from the pelvis centre, build pose [m]
    Vec3 ankle_from_foot;  // ankle pivot from the foot centre, build pose [m]
    float thigh = 0;       // [m]
    float shin = 0;        // [m]
  };
  LegGeometry leg_geometry(int leg) const;
  /// Joint targets of one leg: hip from the pelvis given, foot centre and orientation given.
  void solve_leg_targets(int leg, Vec3 pelvis, Quat pelvis_rotation, Vec3 foot_center,
                         Quat foot_rotation, Pose& pose) const;
  float reachable_pelvis_height(int leg, Vec3 pelvis, Quat pelvis_rotation, Vec3 foot_center,
                                Quat foot_rotation, float knee_bend_deg) const;
  /// The foot as it stands: where it is, flat on the ground under it.
  void planted_foot(int leg, Vec3& center, Quat& rotation) const;
  Vec3 foot_center_on_ground(Vec3 at, Vec3* normal) const;
  GroundHit ground_under_foot(Vec3 at) const;
  /// foot_center_on_ground for a swing target (a foot centre), first moved along `forward` so
  /// that the whole foot stands on one side of a step's edge; `side` keeps the side chosen for
  /// the rest of a swing.
  Vec3 foot_center_clear_of_edges(Vec3 target, Vec3 forward, int& side, Vec3* normal) const;
  void set_swing_friction(int leg, bool slippery);
  /// A foot that touched the ground within the last moment (contacts flicker as a foot rocks).
  bool planted(int leg) const {
    return off_ground_s_[static_cast<std::size_t>(leg)] < kPlantedGraceS;
  }
  static constexpr float kPlantedGraceS = 0.1f;  // [s]
  void update_upright();
  void apply_arm_reach(int arm, Pose& pose) const;
  void update_foot_anchors();
  void clamp_velocities();

  World& world_;
  RagdollSettings settings_;
  RagdollBlueprint blueprint_;
  int owner_ = -1;  // the world's group of this ragdoll's bodies
  std::array<BodyId, kBodyPartCount> bodies_{};
  std::array<JointId, kJointCount> joints_{};
  JointId upright_{};                          // world -> pelvis
  std::array<std::size_t, 2> foot_anchors_{};  // left, right
  std::size_t pelvis_assist_ = 0;              // the get-up lift
  float yaw_ = 0;

  Pose target_;
  Pose blend_from_;
  Pose blend_to_;
  float blend_duration_ = 0;
  float blend_elapsed_ = 0;

  BalanceReadout balance_;
  float airtime_s_ = 0;
  float past_fall_error_s_ = 0;  // [s] walking: how long the error has been past the fall threshold
  Vec3 ankle_integral_;          // x: about the left axis (pitch), z: about forward (roll)
  Vec3 integral_shift_;          // [m] slow part of the planted ankle strategy

  std::array<StrengthEnvelope, kBodyPartCount> strength_{};
  std::array<TwistSpring, kBodyPartCount> twist_{};
  LocomotionState state_ = LocomotionState::standing;
  float state_time_s_ = 0;       // time in the current state
  float still_time_s_ = 0;       // time lying still (falling, down)
  float resistance_time_s_ = 0;  // harder to knock down until this runs out
  float get_up_yaw_ = 0;
  Vec3 get_up_anchor_;  // pelvis position when the rise began
  bool prone_ = false;
  bool rising_ = false;
  bool drives_active_ = true;
  float assist_fade_s_ = 0;  // get-up assistance still letting go
  int get_ups_ = 0;
  int failed_get_ups_ = 0;

  LocomotionIntent intent_;
  std::array<ArmReach, 2> reach_{};  // left, right
  float last_hit_ns_ = 0;            // [N·s] the latest impulse (the larger of two at once)
  float since_hit_s_ = 1e9f;         // [s] since it
  Vec3 commanded_;                   // velocity the legs are asked for now, ramped to the intent
  float heading_ = 0;                // heading held while stepping or walking [rad]
  bool holding_heading_ = false;
  float step_assist_ = 0;  // stepping assistance in effect, 0..1 (fades out)
  Swing swing_;
  int last_swing_leg_ = -1;
  Swing::Kind last_kind_ = Swing::Kind::balance;
  float since_touchdown_s_ = 1.0f;  // double support time since the last step landed
  float calm_s_ = 0;                // standing calmly with the feet apart
  bool recovering_ = false;         // balance steps continue until back in balance
  bool stance_left_apart_ = false;  // a step left the feet apart: a closing step may follow
  Vec3 pelvis_goal_;                // rate-limited standing pelvis goal (horizontal)
  Vec3 pelvis_ref_;                 // pelvis reference while stepping or walking (horizontal)
  Vec3 pelvis_target_;              // where the legs put the pelvis this step
  float pelvis_height_ = 0;         // rate-limited pelvis height goal
  bool pelvis_height_set_ = false;
  bool pelvis_goal_set_ = false;
  int recovery_steps_ = 0;
  int steps_taken_ = 0;
  std::array<float, 2> off_ground_s_{};  // per foot: time since it last touched anything
  float age_s_ = 0;                      // since the ragdoll was created
  Vec3 spawn_feet_;                      // where it was created, for reset()
  float spawn_yaw_ = 0;
};

}  // namespace stagger::physics
