#pragma once
// Stepping: balance steps after a shove, closing steps that bring the feet back under the body,
// and the walking gait, in one controller that also sets the legs' targets on the ground (leg
// inverse kinematics from a pelvis goal to the feet) and the stepping assistance (the strong
// uprighting drive and the capped pelvis hold).

#include <array>
#include <cstdint>
#include <optional>

#include "body_sense.h"
#include "ground_profile.h"
#include "stagger/physics/locomotion.h"
#include "stagger/physics/pose.h"
#include "stagger/physics/ragdoll_rig.h"
#include "stance_controller.h"

namespace stagger::physics {

class StepController {
 public:
  struct Swing {
    bool active = false;
    int leg = 0;  ///< 0 left, 1 right
    enum class Kind : std::uint8_t { balance, gait, closing } kind = Kind::balance;
    float elapsed_s = 0;
    float lowering_s = 0;  ///< [s] of the swing a step down's pelvis has come down for
    float lift_s = 0;      ///< [s] start phase
    float plant_s = 0;     ///< [s] end phase
    Vec3 start;            ///< [m] foot centre at lift-off
    float start_yaw = 0;
    Vec3 target;  ///< [m] foot centre where it will land
    Vec3 ground_normal{0, 1, 0};
    float target_yaw = 0;
    int edge_side = 0;         ///< -1 behind a step's edge, +1 ahead of it, 0 no edge met yet
    bool on_profile = false;   ///< a gait step by edges, placed from the ground profile
    bool down_a_step = false;  ///< ... to a foothold below where it lifted off, over an edge
    /// a gait step whose stance foot stands on a tread shorter than short_tread_m
    bool stance_on_short_tread = false;
    /// [m] the aim a gait step chooses its tread by: the aim smoothed over
    /// StepSettings::foothold_choice_smoothing_s (horizontal)
    Vec3 choice_aim;
    float choice_aim_at_s = -1;  ///< [s] of the swing when it was last smoothed; < 0 not yet
  };
  struct State {
    LocomotionIntent intent;
    Vec3 commanded;     ///< [m/s] velocity the legs are asked for now, ramped to the intent
    float heading = 0;  ///< [rad] heading held while stepping or walking
    bool holding_heading = false;
    float step_assist = 0;  ///< [-] stepping assistance in effect, 0..1 (fades out)
    Swing swing;
    int last_swing_leg = -1;
    Swing::Kind last_kind = Swing::Kind::balance;
    float since_touchdown_s = 1.0f;  ///< [s] double support time since the last step landed
    float calm_s = 0;                ///< [s] standing calmly with the feet apart
    bool recovering = false;         ///< balance steps continue until back in balance
    bool stance_left_apart = false;  ///< a step left the feet apart: a closing step may follow
    GroundProfile profile;      ///< the ground along the gait's swing foot line (a surface cache)
    bool stairs_ahead = false;  ///< the profile found a flight of steps ahead: speed capped
    bool stairs_down = false;   ///< ... and it goes down
    bool uneven_ahead = false;  ///< the last gait step found edges or a slope within a step
    float terrain_assist = 0;   ///< [-] 0..1, how far the hold has gone over to its terrain cap
    Vec3 pelvis_ref;            ///< [m] pelvis reference while stepping or walking (horizontal)
    Vec3 pelvis_target;         ///< [m] where the legs put the pelvis this step
    float pelvis_height = 0;    ///< [m] rate-limited pelvis height goal
    bool pelvis_height_set = false;
    /// [rad] the yaw each planted foot is held at while walking, from its landing (none: the
    /// foot's own)
    std::array<std::optional<float>, 2> planted_yaw{};
    bool settled = false;  ///< on its feet already: no spawn_settle_s wait (see carry_on)
  };
  /// Steps counted over the body's life (kept by reset).
  struct Counts {
    int recovery_steps = 0;  ///< balance steps
    int steps_taken = 0;     ///< every step: balance, gait and closing
  };

  StepController(RagdollRig& rig, const BodySense& sense, StanceController& stance)
      : rig_(rig), sense_(sense), stance_(stance) {}

  void set_intent(const LocomotionIntent& intent) { state_.intent = intent; }
  const LocomotionIntent& intent() const { return state_.intent; }
  /// [m/s] the commanded horizontal velocity (while upright).
  Vec3 commanded() const { return state_.commanded; }
  /// The legs' joint targets for this step (an upright body), and the state they leave it in:
  /// stepping, walking or standing. `assist_fading`: a get-up's assistance is still letting go.
  LocomotionState update(float dt, bool assist_fading, Pose& pose);
  /// Ends any step at once, puts the swing foot's friction back, drops the assistance.
  void cancel();
  /// The leg in the air (-1 none).
  int swing_leg() const { return state_.swing.active ? state_.swing.leg : -1; }
  /// The step under way (its `active` false between steps).
  const Swing& swing() const { return state_.swing; }
  /// Where the balance measure counts each foot: during a balance or gait step the swing foot
  /// counts where it will land, less (walking) the ground that `commanded` covers until then.
  void feet_for_balance(Vec3 commanded, Vec3& left, Vec3& right) const;
  bool holding_heading() const { return state_.holding_heading; }
  float heading() const { return state_.heading; }
  const Counts& counts() const { return counts_; }
  /// Fresh state (counts kept), both feet rough again.
  void reset();
  /// After a reset, for a body handed over on its feet and moving (resumed from a posed walk):
  /// no settling as after a spawn, and the command starts at the body's velocity.
  void carry_on();
  /// Whether a new body has stood its spawn_settle_s (or was handed over on its feet).
  bool settled() const;

 private:
  const RagdollSettings& settings() const { return rig_.settings(); }
  bool walking_intent() const;
  Vec3 intended_velocity() const;
  float desired_yaw() const;
  void turn_heading(float dt);
  void ramp_commanded_velocity(float dt);
  void maybe_start_step(float dt);
  int choose_recovery_leg() const;
  int choose_closing_leg() const;
  void start_step(int leg, Swing::Kind kind);
  void aim_swing();
  void update_swing(float dt, Pose& pose);
  void land_swing();
  /// Whether a walking swing's foothold is low_foothold_m or more below the stance foot's centre
  /// `stance_center` [m]: the pelvis comes down through the swing as for a step down.
  bool low_foothold(Vec3 stance_center) const;
  /// Whether a step down's swing foot is more than step_down_landing_gap_m above its foothold
  /// (touching something there, it is on the tread it leaves).
  bool swing_foot_caught_above() const;
  /// The pelvis a stance leg is hung from: the legs' `goal`, on flat ground never below the real
  /// pelvis height [m].
  Vec3 stance_leg_pelvis(Vec3 goal, float pelvis_height) const;
  void plant_legs(float dt, Pose& pose);
  /// While walking, a foot not in the air and without a held yaw (as walking starts or resumes)
  /// is held at the yaw it has; standing, no foot's yaw is held.
  void hold_feet_yaw();
  /// Where the legs hold the pelvis (horizontal) while stepping or walking.
  Vec3 moving_pelvis_goal(float dt);
  void hold_pelvis(float dt);
  /// `most_speed` [m/s]: the rate limit, at least pelvis_height_speed.
  float smooth_pelvis_height(float goal, float dt, float most_speed = 0.0f);
  /// [m] a pelvis height goal less the pelvis's vertical velocity × pelvis_height_damping_s.
  float damp_pelvis_height(float height) const;
  /// The stance leg's pelvis height goal during a step down, lowered through the swing so that
  /// the swing leg reaches its lower foothold at touchdown; and the rate the goal needs [m/s].
  float step_down_pelvis_height(float goal, Vec3 stance_center, Quat pelvis_rotation, float bend,
                                float& speed) const;
  Quat legs_pelvis_yaw(float wanted_yaw) const;
  void set_swing_friction(int leg, bool slippery);

  // Legs on the ground: geometry, inverse kinematics and footholds.
  struct LegGeometry {
    Vec3 hip_from_pelvis;  // hip pivot from the pelvis centre, build pose [m]
    Vec3 ankle_from_foot;  // ankle pivot from the foot centre, build pose [m]
    float thigh = 0;       // [m]
    float shin = 0;        // [m]
  };
  LegGeometry leg_geometry(int leg) const;
  float pelvis_above_sole(float knee_bend_deg) const;
  /// Joint targets of one leg: hip from the pelvis given, foot centre and orientation given.
  void solve_leg_targets(int leg, Vec3 pelvis, Quat pelvis_rotation, Vec3 foot_center,
                         Quat foot_rotation, Pose& pose) const;
  float reachable_pelvis_height(int leg, Vec3 pelvis, Quat pelvis_rotation, Vec3 foot_center,
                                Quat foot_rotation, float knee_bend_deg) const;
  /// The foot as it stands: where it is, flat on the ground under it.
  void planted_foot(int leg, Vec3& center, Quat& rotation) const;
  /// Whether a planted foot stands on an edge above the ground under its centre (`on_ground`, a
  /// foot centre on that ground) and is to be held where it stands.
  bool perched(const BodyState& foot, Vec3 on_ground) const;
  GroundHit ground_under_foot(Vec3 at) const;
  Vec3 foot_center_on_ground(Vec3 at, Vec3* normal) const;
  /// The uphill direction (horizontal, unit) under the planted feet; none on level ground.
  std::optional<Vec3> uphill_under_feet() const;
  /// [rad] the signed turn from `from_yaw` to the desired heading, the way the body turns.
  float turn_to_desired(float from_yaw) const;
  /// foot_center_on_ground for a swing target (a foot centre), first moved along `forward` so
  /// that the whole foot stands on one side of a step's edge; `side` keeps the side chosen for
  /// the rest of a swing.
  Vec3 foot_center_clear_of_edges(Vec3 target, Vec3 forward, int& side, Vec3* normal) const;
  void keep_sole_clear(Vec3& foot, Vec3 forward, Vec3 normal, float clearance) const;
  /// The gait's swing foot over the ground profile at swing time `t`, `height` its clearance of
  /// the moment, `pitch` the sole's rise along the line [m/m]: climbs a step up during the lift,
  /// waits behind a riser, clears the ground.
  void clear_profile(Vec3& foot, float t, float height, float pitch) const;
  /// A gait step's foothold near `target` (a foot centre) from the ground profile: on one surface,
  /// clear of risers, reachable, with a foothold for the step after it; the profile is built or
  /// rebuilt when needed. Falls back to foot_center_clear_of_edges where none is found.
  Vec3 gait_foothold(Vec3 target, Vec3 forward, Vec3* normal);
  /// The aim by which the tread is chosen: `target` smoothed over foothold_choice_smoothing_s
  /// while going down a flight, `target` itself elsewhere (horizontal; kept in the swing).
  Vec3 smoothed_choice_aim(Vec3 target);
  /// The foot centre on the profile nearest `aim_s` where a foot fits, on the segment whose
  /// foothold is nearest `choice_s`, scored also by whether the step after it has a foothold;
  /// false when there is none within reach.
  bool choose_foothold(float aim_s, float choice_s, float stance_s, float stride_s, Vec3 lateral,
                       float& chosen_s, const GroundSegment*& chosen) const;
  /// [m] the height of the stance foot's sole while `swing_leg` swings.
  float stance_sole(int swing_leg) const;
  /// The range of foot centres along the profile that `segment` (index `i`) holds; false if none.
  bool foothold_range(std::size_t i, float& lo, float& hi) const;

  RagdollRig& rig_;
  const BodySense& sense_;
  StanceController& stance_;
  State state_;
  Counts counts_;
};

}  // namespace stagger::physics
