#pragma once
// What the rest of the program asks of a ragdoll's legs (the seam between ai and physics), and how
// the legs take steps: balance steps after a shove and the cyclic steps of walking share one
// stepping controller.

#include <cstdint>
#include <string_view>

#include "stagger/core/math.h"

namespace stagger::physics {

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

/// Why a fall began, judged when the drives let go, from what the body met in the moments before.
/// The first that applies wins, in this order.
enum class FallCause : std::uint8_t {
  pushed,            ///< an impulse applied to it (a script's push, a blast) shortly before
  hit,               ///< a blow delivered by contact (a physics hand's shove) shortly before
  tripped,           ///< the swing foot caught on something short of where it was going
  stepped_off_edge,  ///< the centre of mass went out over ground lower than the feet
  slipped,           ///< a planted foot slid along the ground
  lost_balance,      ///< none of these: no contact at fault
};
std::string_view name_of(FallCause cause);
/// A fall no one caused: neither pushed nor hit.
constexpr bool is_self_fall(FallCause c) {
  return c != FallCause::pushed && c != FallCause::hit;
}

enum class Gait : std::uint8_t { idle, walk, run };
std::string_view name_of(Gait gait);

/// Where the ragdoll should go. The commanded velocity is subtracted from the balance error, so
/// walking on purpose does not count as stumbling.
struct LocomotionIntent {
  Vec3 velocity;            ///< [m/s] desired horizontal velocity (y ignored)
  float facing_rad = 0;     ///< [rad] desired heading, 0 faces +Z
  bool has_facing = false;  ///< false: face where it walks (or keep the heading when idle)
  Gait gait = Gait::idle;   ///< idle stands still whatever the velocity
};

/// An arm reaching for a point in the world (a punch is a reach that straightens fast): the upper
/// arm points at `target` and the elbow opens from bent (`extension` 0) to straight (1). Only
/// while the body is upright; the other joints keep their pose.
struct ArmReach {
  bool active = false;
  Vec3 target;             ///< [m] world point the arm points at
  float extension = 1.0f;  ///< [-] 0: elbow bent 110°, fist by the shoulder; 1: arm straight
};

struct ArmReachSettings {
  float bent_elbow_deg = 110.0f;  ///< [deg] elbow bend of a reach with `extension` 0
};

/// One step: the swing foot lifts (start phase) and is placed (end phase), each phase with its
/// own duration and easing. Lengths are for a 1.8 m body and scale with height.
struct StepSettings {
  float step_error_m = 0.055f;     ///< [m] capture-point error that starts a balance step
  float continue_error_m = 0.04f;  ///< [m] after a step lands, keep stepping above this error
  float lift_s = 0.14f;            ///< [s] start phase: the foot rises and starts to move
  float plant_s = 0.16f;           ///< [s] end phase: the foot moves to its target and sets down
  float run_time_scale = 0.75f;    ///< [-] phase durations when running
  float clearance_m = 0.08f;       ///< [m] swing foot height at the end of the lift
  /// [deg] knee bend the walking stance leg holds the pelvis at (standing uses the balance
  /// settings' stance bend): the travel a leg needs to stay on the ground as the body vaults over
  /// it (at 8° the body flew between steps: vertical speed 0.46 m/s RMS on flat ground, 0.27 at
  /// 16°; 24° and more made walking up a 10° ramp fall more often).
  float walk_knee_bend_deg = 16.0f;
  float stance_width_m = 0.2f;      ///< [m] nominal distance between the feet, sideways
  float min_width_m = 0.12f;        ///< [m] the swing foot never lands closer than this sideways
  float max_step_m = 0.75f;         ///< [m] longest step from the stance foot
  float max_turn_deg = 35.0f;       ///< [deg] most the feet turn in one step
  float max_turn_rate_deg = 90.0f;  ///< [deg/s] how fast the held heading turns
  float max_hip_twist_deg = 40.0f;  ///< [deg] the heading stays this close to a planted foot's
  /// [deg] a turn at least this large goes round through facing uphill where the feet stand on
  /// a slope (turned through facing downhill, guards turning on the spot on a 12° slope slipped)
  float uphill_turn_min_deg = 120.0f;
  /// [deg] the slope under the planted feet from which turns go round through facing uphill
  float uphill_turn_slope_deg = 6.0f;
  /// Foot placement, SIMBICON-style in world space: the foot lands at the capture point predicted
  /// for touchdown, + c_d·(CoM offset) + c_v·(velocity error); the capture point carries both.
  float placement_cd = 0.0f;    ///< [-] extra gain on the CoM offset from the stance foot
  float placement_cv = 0.05f;   ///< [s] extra gain on the velocity error (beyond sqrt(h/g))
  float swing_friction = 0.1f;  ///< [-] slippery swing foot
  float upright_boost = 5.0f;   ///< [-] uprighting cap multiplier while stepping or walking
  /// Assistance while stepping or walking (as BIMOS-AR's pelvis support or PuppetMaster's pins):
  /// a pull of the pelvis toward where the legs are putting it, capped so a shove still wins.
  float hold_ratio = 0.2f;  ///< [-] horizontal cap, as a fraction of body weight
  /// [-] the horizontal cap while the gait walks over stairs or slopes (edges or a slope within
  /// a step ahead): the gait's footholds there are less sure than on the flat
  float terrain_hold_ratio = 0.3f;
  float support_ratio = 0.0f;          ///< [-] vertical cap, as a fraction of body weight
  float hold_time_constant_s = 0.15f;  ///< [s]
  float hold_max_speed = 1.0f;         ///< [m/s] the fastest the hold moves the pelvis
  float hold_after_step_s = 1.0f;      ///< [s] the assistance stays on this long after a step lands
  float assist_fade_s = 0.5f;          ///< [s] ... and then fades out over this long
  float settle_s = 0.3f;       ///< [s] calm this long before feet apart are brought together
  float close_feet_m = 0.08f;  ///< [m] feet this far from their nominal stance get a closing step
  float pelvis_goal_speed = 0.4f;    ///< [m/s] how fast the standing pelvis goal may move
  float pelvis_height_speed = 0.3f;  ///< [m/s] how fast the legs' pelvis height goal may change
  /// [s] the legs aim the pelvis this long's vertical travel short of their height goal over
  /// stairs and slopes (damps the body's bounce on its legs)
  float pelvis_height_damping_s = 0.03f;
  float max_pelvis_lead_m = 0.08f;  ///< [m] walking: the legs' pelvis reference runs at the
                                    ///< commanded velocity at most this far from the real pelvis
  float max_walk_speed = 1.6f;      ///< [m/s] commanded speeds are clamped to this
  float max_run_speed = 2.5f;       ///< [m/s]
  float max_accel = 1.5f;           ///< [m/s²] the commanded velocity ramps to the intent's
  float max_command_lead = 0.3f;    ///< [m/s] the command stays this close to the body's velocity
  float stop_speed = 0.2f;          ///< [m/s] after walking, the gait steps on until this slow
  float moving_speed = 0.05f;       ///< [m/s] an intent or command faster than this is walking
  float turn_in_place_deg = 10.0f;  ///< [deg] a heading this far off is turned to by stepping
  float spawn_settle_s = 0.5f;      ///< [s] a new body stands this long before it may step
  float gait_double_support_s = 0.02f;  ///< [s] both feet down this long between gait steps
  float balance_step_gap_s = 0.03f;     ///< [s] ... and between balance steps
  float first_step_turn_deg = 20.0f;  ///< [deg] a turn this large starts with the foot on its side
  float level_feet_m = 0.03f;         ///< [m] feet closer than this along a lean count as level
  /// [-] part of the step's duration during which the target is re-aimed; the rest goes straight
  float reaim_share = 0.75f;
  float plant_reach = 0.7f;  ///< [-] part of the plant phase that carries the foot over its target
  float press_depth_m = 0.02f;      ///< [m] a late foot is pressed this far below its target ...
  float press_ramp_s = 0.1f;        ///< [s] ... reached over this long
  float landing_timeout_s = 0.15f;  ///< [s] past the plan, a step lands even without contact
  /// [m] a swing that rises less than this keeps its sole clear of the ground under it
  float keep_clear_rise_m = 0.02f;
  float probe_above_m = 0.4f;      ///< [m] ground probes start this far above a foot ...
  float probe_below_m = 0.8f;      ///< [m] ... and reach this far below it
  float sole_probe_m = 0.3f;       ///< [m] the sole-clearance probes reach this far above and below
  float edge_rise_m = 0.04f;       ///< [m] a height change along the foot that counts as an edge
  float edge_margin_m = 0.03f;     ///< [m] kept between the foot's end and an edge
  float edge_precision_m = 0.01f;  ///< [m] an edge is located to within this
  // Footholds of the walking gait, from the ground profile along the swing foot's line (a cache
  // of the surfaces there, built once per step and rebuilt when the aim leaves it).
  float profile_spacing_m = 0.03f;  ///< [m] between the profile's probes
  float profile_behind_m = 0.3f;    ///< [m] the profile starts this far behind the stance foot
  float profile_ahead_m = 0.3f;     ///< [m] ... and ends this far beyond the longest step
  float profile_lateral_m = 0.05f;  ///< [m] an aim this far off the profile's line rebuilds it
  float profile_turn_deg = 10.0f;   ///< [deg] ... and so does a foot turned this far from it
  /// [deg] footholds come from the profile where the ground within a step has an edge or rises
  /// along the walk more steeply than this; elsewhere the foot lands where it is aimed
  float profile_slope_deg = 4.0f;
  /// [m] on a tread shorter than the foot and its margins, the heel (up) or toe (down) may hang
  /// over the nosing by this much; the riser side keeps edge_margin_m
  float max_overhang_m = 0.07f;
  float max_foothold_slope_deg = 30.0f;  ///< [deg] steeper ground is no foothold
  /// [m] a gait step lands at most this far above or below the stance foot's ground: one tread
  /// of a building's stairs at a time (aimed at the capture point, a body hurrying down 0.17 m
  /// stairs stepped three treads, 0.51 m, at once)
  float max_step_height_m = 0.22f;
  /// Stairs: this many edges within stairs_lookahead_m of the stance foot are a flight, walked
  /// at no more than stairs_speed (up 0.17/0.28 m stairs at 1.2 m/s, 16 walks of 16 fell; at 0.5
  /// m/s, 2)
  int stairs_edges = 2;
  float stairs_lookahead_m = 1.5f;  ///< [m]
  float stairs_speed = 0.5f;        ///< [m/s] for a 1.8 m body
  /// [m/s] for a 1.8 m body, a flight that goes down: each step down waits for the pelvis to come
  /// down to the lower tread, and momentum gained there carries the body over its stance toe
  /// (0.17/0.28 m stairs, 40 walks down with the other step-down rules: 20 fell at 0.5 m/s, 12
  /// at 0.35)
  float stairs_down_speed = 0.35f;
  /// [m] the step-down rules above (and the profile's foothold, the slower flight aside) apply to
  /// treads shorter than this along the walk; longer ones keep the edge rule, with which the
  /// arena's 0.6 m treads fell less (3 walks in 32 against 8)
  float short_tread_m = 0.5f;
  /// [m] a walking foothold on ground steeper than profile_slope_deg this far or more below the
  /// stance foot brings the pelvis down through the swing, as a step down does, until the swing
  /// leg reaches it: across a slope the pelvis held over the uphill foot left the downhill one
  /// hanging above the ground
  float low_foothold_m = 0.03f;
  /// [m] a step down's foot that touches the ground this far above its foothold has caught the
  /// tread it leaves (a heel on the nosing): the swing goes on instead of landing there
  float step_down_landing_gap_m = 0.05f;
  /// [m] a step down keeps its toe this far back from the lower tread's nosing where the tread
  /// holds the foot (and riser margin): a toe over the nosing rocked the stance foot off it
  float step_down_toe_margin_m = 0.01f;
  /// [m] going down a flight, a gait step's stance leg on a short tread is hung at most this far
  /// below the real pelvis (however low the legs' pelvis goal): asked to be shorter than the
  /// body, it pulls its foot up off the tread and over the nosing (0.17/0.28 m stairs, 200
  /// crossings each down, straight and at 30°, seeds 1 and 2: 4 falls in 800 without)
  float stairs_down_stance_drop_m = 0.01f;
  /// [m] a swing toe waits this far behind a riser until its sole is this far above the riser
  float riser_clearance_m = 0.03f;
  /// [-] a foothold whose next step finds no foothold within reach scores this much worse (in
  /// metres off the aim)
  float no_next_foothold_penalty_m = 0.3f;
  /// [s] time constant of the smoothed aim by which a gait step chooses the tread it lands on
  /// (0: the aim itself)
  float foothold_choice_smoothing_s = 0.03f;
};

}  // namespace stagger::physics
