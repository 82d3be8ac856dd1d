#pragma once
// An active ragdoll: a rig (bodies, driven joints, the uprighting drive, foot grips, a pelvis
// pull) and the controllers that read and drive it: the stance (ankle strategy), stepping and
// gait, fall and get-up, hit reactions and arm reach. Ragdoll owns them, measures the body after
// each step and runs the state machine between them. Created by World::add_ragdoll.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stagger/physics/balance.h"
#include "stagger/physics/hit_reaction.h"
#include "stagger/physics/locomotion.h"
#include "stagger/physics/pose.h"
#include "stagger/physics/ragdoll_rig.h"
#include "stagger/physics/ragdoll_settings.h"
#include "stagger/physics/world.h"

namespace stagger::physics {

class ArmReachController;
class FallWitness;
class GetUpController;
class HitReactionController;
class StanceController;
class StepController;
struct BodySense;

/// Something that happened to a ragdoll, for a game to react to (a sound, a score, a blood
/// decal). Ragdoll::take_events hands them over.
enum class RagdollEventKind : std::uint8_t {
  shoved,  ///< an impulse reached a body part: apply_impulse, or a blow delivered by contact
  fell,    ///< the drives let go: it is falling (`cause` says why)
  got_up,  ///< a get-up ended standing
  died,    ///< kill(): limp for good
};
std::string_view name_of(RagdollEventKind kind);

/// A foot's stance as the fall witness watches it: a stance begins when the foot touches the
/// ground while the body stands or walks on it, and lasts while the foot is planted.
struct FootStance {
  bool planted = false;  ///< in a stance now
  float slip_m = 0;      ///< [m] its largest horizontal slide within that (or the latest) stance
};

struct RagdollEvent {
  RagdollEventKind kind = RagdollEventKind::shoved;
  double time_s = 0;                          ///< [s] world time when it happened
  BodyPart part = BodyPart::chest;            ///< shoved: the part struck
  Vec3 impulse;                               ///< [N·s] shoved: the blow
  FallCause cause = FallCause::lost_balance;  ///< fell: why
};

class Ragdoll {
 public:
  Ragdoll(World& world, const RagdollSettings& settings, Vec3 feet_position, float yaw_rad);
  ~Ragdoll();
  Ragdoll(const Ragdoll&) = delete;
  Ragdoll& operator=(const Ragdoll&) = delete;

  const RagdollSettings& settings() const { return rig_.settings(); }
  const RagdollBlueprint& blueprint() const { return rig_.blueprint(); }
  float mass() const { return rig_.mass(); }
  /// The bodies and joints this ragdoll drives.
  const RagdollRig& rig() const { return rig_; }

  BodyId body(BodyPart part) const { return rig_.body(part); }
  JointId joint(JointName j) const { return rig_.joint(j); }
  BodyState body_state(BodyPart part) const { return rig_.body_state(part); }

  /// Applies an impulse [N·s] at the part's centre of mass and starts its hit reaction. The part
  /// gains at most RagdollSettings::max_blow_speed_change; the rest moves the whole body.
  void apply_impulse(BodyPart part, Vec3 impulse);
  /// Starts the hit reaction to a blow that contact has already delivered (a hand's shove).
  void react_to_hit(BodyPart part, Vec3 impulse);
  /// The part this body is, if it is one of this ragdoll's.
  std::optional<BodyPart> part_of(BodyId body) const { return rig_.part_of(body); }
  /// The largest impulse [N·s] received within the last `window_s` seconds (0 if none).
  float recent_hit_ns(float window_s) const;

  /// Sets the target pose at once.
  void set_pose(const Pose& pose) { pose_.set(pose); }
  /// Blends (per-joint slerp, eased) from the current target to `pose` over `seconds`.
  void blend_to_pose(const Pose& pose, float seconds) { pose_.start(pose, seconds); }
  /// The target the drives track this step (blend and base pose, before balance corrections).
  const Pose& target_pose() const { return pose_.target; }

  /// What the legs should do: the default (idle) intent stands still where it is.
  void set_intent(const LocomotionIntent& intent);
  const LocomotionIntent& intent() const;
  /// What an arm does (0 left, 1 right); an inactive reach leaves the arm to the pose.
  void set_arm_reach(int arm, const ArmReach& reach);
  const ArmReach& arm_reach(int arm) const;
  /// Balance steps taken so far (steps of the walking gait and closing steps not counted).
  int recovery_steps() const;
  /// Every step taken so far (balance, walking and closing steps).
  int steps_taken() const;
  /// The commanded horizontal velocity in effect [m/s] (zero when idle or not upright).
  Vec3 commanded_velocity() const;

  /// Balance measured after the last step. Its `com` is the point balance is judged by: the
  /// centre of mass less the swing leg while a step is under way (center_of_mass has it all).
  const BalanceReadout& balance() const;
  /// The whole body's centre of mass [m] and its velocity [m/s], now.
  MassCenter center_of_mass() const { return rig_.mass_center(-1); }
  LocomotionState state() const { return state_; }
  /// Releases the drives (the fall response); the ragdoll collapses, lies still, then gets up.
  void fall();
  /// Why the latest fall began (lost_balance before any fall).
  FallCause last_fall_cause() const { return last_fall_cause_; }
  /// [m] the largest horizontal slide of a planted foot within one stance phase so far.
  float max_foot_slip_m() const;
  /// Foot `leg`'s stance (0 left, 1 right).
  FootStance foot_stance(int leg) const;
  /// Limp for good: a corpse that comes to rest and sleeps.
  void kill();
  /// Activity levels: takes the body out of the simulation. Its bodies and joints leave the
  /// physics world (they touch nothing and cost nothing in a step) and its controllers stop; its
  /// owner poses it with pose_suspended(). State, intent and counts are kept.
  void suspend();
  bool suspended() const { return !rig_.simulated(); }
  /// Places a suspended body's parts (world centre of mass [m], rotation, velocities [m/s],
  /// [rad/s]) and updates what the minds read from them (centre of mass, heading).
  void pose_suspended(const std::array<BodyState, kBodyPartCount>& parts);
  /// Whether a suspended body, where it is posed, is inside anything by more than `depth_m` [m].
  bool posed_inside_something(float depth_m) { return rig_.overlaps_anything(depth_m); }
  /// Back into the simulation from the parts' current pose and velocities, its controllers
  /// started afresh (as after a reset, counts kept) with the intent it had: standing (then
  /// walking, if told to), or, with `upright` false, falling limp (a body that lies down gets up).
  void resume(bool upright = true);
  /// Back to where and how it was created: standing at its spawn in the build pose, at rest, its
  /// controllers fresh (the counts of get-ups and steps are kept). The cure for a body that went
  /// non-finite.
  void reset();
  /// Moves the spawn to `feet_position` [m] facing `yaw_rad` [rad] (0 = +Z) and resets there: a
  /// teleport. Later resets return here.
  void teleport(Vec3 feet_position, float yaw_rad);
  /// Moves the events since the last call into `out` (cleared first), oldest first. At most
  /// kMaxPendingEvents wait: a game that never asks loses the oldest, not memory.
  void take_events(std::vector<RagdollEvent>& out);
  static constexpr std::size_t kMaxPendingEvents = 64;
  /// The first body part whose transform or velocity is not finite, if any.
  std::optional<BodyPart> first_non_finite_part() const { return rig_.first_non_finite_part(); }
  /// The first body part beyond the world extent or faster than the speed limit
  /// (stagger/core/limits.h), if any: finite, but the state of a blow-up all the same.
  std::optional<Runaway> first_runaway_part() const { return rig_.first_runaway_part(); }
  int get_ups() const;  ///< successful get-ups so far
  /// After `GetUpSettings::max_attempts` failures in a row the enemy stays down.
  bool stays_down() const;
  /// Whether the last get-up started lying face down.
  bool got_up_from_prone() const;

  /// Strength multiplier of a body part after hits, in [0, 1].
  float strength(BodyPart part) const;
  /// Pelvis centre height above the lowest point of the body (soles, or the ground when lying) [m].
  float pelvis_height() const;
  /// Largest joint separation of this ragdoll [m].
  float max_joint_separation() const { return rig_.max_joint_separation(); }

  /// Called by World::step: the controllers before the Bullet step, the measurement and the
  /// state machine after it.
  void before_step(float dt);
  void after_step(float dt);

 private:
  void measure(float dt);
  void measure_suspended();
  void restart_controllers(float yaw_rad);
  void react(BodyPart part, Vec3 impulse);
  void update_targets(float dt);
  void update_upright();
  void update_foot_grips();
  void update_fallen(float dt);
  void start_get_up();
  void finish_get_up(bool stood);
  void set_drives_active(bool active);
  void update_joint_iterations();
  void clamp_velocities();
  void post(RagdollEvent event);
  /// Posts fell, got_up or died when the state has changed so since the last call.
  void post_state_change();

  RagdollRig rig_;
  // Controllers hold references to the rig and the sense: both are declared first.
  std::unique_ptr<BodySense> sense_;
  std::unique_ptr<HitReactionController> hits_;
  std::unique_ptr<ArmReachController> arms_;
  std::unique_ptr<StanceController> stance_;
  std::unique_ptr<StepController> steps_;
  std::unique_ptr<GetUpController> get_up_;
  std::unique_ptr<FallWitness> witness_;
  PoseBlend pose_;
  LocomotionState state_ = LocomotionState::standing;
  float state_time_s_ = 0;  // [s] in the current state
  FallCause last_fall_cause_ = FallCause::lost_balance;
  LocomotionState posted_state_ = LocomotionState::standing;  // as the events last told it
  std::vector<RagdollEvent> events_;                          // not yet taken
};

}  // namespace stagger::physics
