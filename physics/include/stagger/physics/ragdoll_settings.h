#pragma once
// RagdollSettings (shared, immutable) -> blueprint (bodies and joints as plain data) -> Ragdoll.
// Dimensions and strengths are given for a 1.8 m, 75 kg humanoid and scaled by height and mass.

#include <array>
#include <cstdint>

#include "stagger/core/math.h"
#include "stagger/physics/balance.h"
#include "stagger/physics/drive.h"
#include "stagger/physics/hit_reaction.h"
#include "stagger/physics/locomotion.h"
#include "stagger/physics/skeleton.h"
#include "stagger/physics/world.h"

namespace stagger::physics {

/// Capped drive that keeps the pelvis upright in world space (yaw left free; the spine drives keep
/// the torso straight above it); released when the ragdoll falls.
struct UprightSettings {
  float frequency_hz = 1.5f;    ///< [Hz]
  float damping_ratio = 1.0f;   ///< [-]
  float max_torque_nm = 60.0f;  ///< [N·m] per tilt axis, at 75 kg / 1.8 m
};

/// Getting up after a fall: lie still, tuck, rise with capped assistance, stand.
struct GetUpSettings {
  // Once a falling body has hit the ground (a part other than the feet touches it, or the pelvis
  // is this low) its muscles tense and it settles instead of rolling and sliding on.
  float settle_pelvis_ratio = 0.5f;     ///< [-] pelvis height over its standing height
  float settle_strength = 0.2f;         ///< [-] joint friction then, as a fraction of each cap
  float settle_linear_damping = 0.9f;   ///< [1/s] share of every body's velocity lost per second
  float settle_angular_damping = 0.9f;  ///< [1/s] the same for spin
  float still_speed = 0.7f;             ///< [m/s] every body slower than this counts as lying still
  float still_time_s = 0.2f;            ///< [s] lying still this long: `down`
  // Or no body has moved farther than this for `still_time_s`: a limb held against the ground by
  // a joint's error correction can read a speed it never moves at (a forearm resting on a slope
  // read 1 m/s into it for seconds while moving 2 mm).
  float still_drift_m = 0.02f;  ///< [m]
  float down_time_s = 0.2f;     ///< [s] pause on the ground before the attempt starts
  // Lying `down` on gentle ground, the body lays its legs out straight over `lie_blend_s` and rolls
  // flat onto its front or back (as in the tuck); the attempt starts once it lies within
  // `lie_flat_deg` of flat with both feet on the ground, or `lie_max_s` after the pause at most.
  // (Started from the way it fell, a body on its side had its upper foot on the other leg, 8-16 cm
  // up, and the roll in the tuck swung that foot up too.) On steeper ground it lies as it fell.
  float lie_blend_s = 0.3f;    ///< [s]
  float lie_flat_deg = 18.0f;  ///< [deg] the belly this near straight down or up
  float lie_max_s = 0.8f;      ///< [s]
  float tuck_s = 0.6f;         ///< [s] blend from the lying pose into the tuck
  // Through the tuck a body lying on its side is turned about its spine onto its front or back
  // (trunk, head and arms as one rigid body), as it will rise: a damped spring of this natural
  // frequency, its torque capped (at 75 kg and 1.8 m).
  float roll_frequency_hz = 2.0f;    ///< [Hz]
  float roll_max_torque_nm = 80.0f;  ///< [N·m]
  // On ground steeper than `fall_line_slope_deg` a body lying face down with its head more than
  // `turn_min_deg` from the way up turns about the vertical as it tucks (the whole body as one
  // rigid body) until its head is within `turn_done_deg` of it; the rise waits for the turn for
  // at most `turn_max_s` from the attempt's start. A damped spring of this natural frequency, its
  // torque capped (at 75 kg and 1.8 m).
  float turn_min_deg = 60.0f;         ///< [deg]
  float turn_done_deg = 20.0f;        ///< [deg]
  float turn_max_s = 1.5f;            ///< [s]
  float turn_frequency_hz = 1.0f;     ///< [Hz]
  float turn_max_torque_nm = 300.0f;  ///< [N·m]
  float rise_s = 1.4f;                ///< [s] rise from the tuck to standing
  /// [m] the lift's goal: this far under the pelvis's standing height over the footholds
  float lift_below_standing_m = 0.02f;
  /// On ground steeper than this [deg] the body stands up facing up or down the fall line,
  /// measured by probes this far [m] each side of the pelvis.
  float fall_line_slope_deg = 20.0f;
  float fall_line_probe_m = 0.35f;
  float ground_probe_m = 0.3f;  ///< [m] the rise's ground: probed this far around the body
  float timeout_s = 4.5f;       ///< [s] an attempt that has not stood by then failed
  float fail_lag_m = 0.3f;      ///< [m] a pelvis this far under the rise's plan ...
  float fail_hold_s = 0.5f;     ///< [s] ... for this long: the attempt has failed
  int max_attempts = 3;         ///< failures in a row before the enemy stays down
  float lift_ratio = 0.9f;      ///< [-] cap of the pelvis lift, as a fraction of body weight
  float hold_ratio = 0.7f;      ///< [-] cap of the horizontal hold, as a fraction of body weight
  float upright_boost = 4.0f;   ///< [-] uprighting cap multiplier while rising
  /// [-] the same on ground steeper than `fall_line_slope_deg`, where the hands push the trunk
  /// up off the steps: with the flat ground's boost a body rising on stairs often propped itself
  /// on its hands, straight and leaning 34-61 deg, until the attempt timed out
  float steep_upright_boost = 12.0f;
  float knockdown_ns = 60.0f;  ///< [N·s] a blow this strong ends an attempt (a fall)
  float resistance_s = 1.5f;   ///< [s] after standing up, falling takes `resistance` times ...
  float resistance = 2.0f;     ///< [-] ... the usual balance error and tilt
  float max_resisting_tilt_rad = deg_to_rad(80.0f);  ///< [rad] cap on that raised fall tilt
  // An attempt has stood once the rise has run and the pelvis is this high, this upright and
  // this well balanced, with a foot on the ground.
  float stood_height_ratio = 0.92f;    ///< [-] pelvis height over its standing height
  float stood_tilt_deg = 8.0f;         ///< [deg] pelvis tilt at most
  float stood_error_ratio = 0.5f;      ///< [-] capture-point error over the fall threshold, at most
  float lift_ramp_s = 0.2f;            ///< [s] the lift's cap ramps up over this long
  float lift_time_constant_s = 0.15f;  ///< [s] how fast the lift closes on its target
  float lift_max_speed = 1.5f;         ///< [m/s] the fastest the lift moves the pelvis
  float assist_fade_s = 0.5f;  ///< [s] after standing, the lift and boost let go over this long
  float stand_blend_s = 0.3f;  ///< [s] blend to the standing pose once up
};

/// How a fall's cause is judged (FallCause).
struct FallCauseSettings {
  float blow_window_s = 2.0f;  ///< [s] a push or hit this recent caused the fall
  float foot_window_s = 0.5f;  ///< [s] a foot caught or slid this recently felled the body
  /// [-] share of the lift phase in which the swing foot may still brush the ground it leaves
  float trip_grace_share = 0.5f;
  float trip_distance_m = 0.12f;  ///< [m] a swing foot touching this far short of its target caught
  float drop_m = 0.05f;  ///< [m] ground under the centre of mass this far below the soles: an edge
  float slip_m = 0.03f;  ///< [m] a planted foot slid this far within its stance phase
};

struct RagdollSettings {
  float height_m = 1.8f;  ///< [m] standing height, soles to crown
  float mass_kg = 75.0f;  ///< [kg] total mass

  // Joint drives at 75 kg / 1.8 m; caps scale with mass × height (the gravity torque they carry).
  DriveSettings spine_drive{8.0f, 1.0f, 300.0f};  ///< lumbar (pelvis to chest)
  DriveSettings neck_drive{6.0f, 1.0f, 60.0f};
  DriveSettings shoulder_drive{6.0f, 1.0f, 80.0f};
  DriveSettings elbow_drive{6.0f, 1.0f, 50.0f};
  DriveSettings hip_drive{8.0f, 1.0f, 300.0f};
  DriveSettings knee_drive{8.0f, 1.0f, 300.0f};
  DriveSettings ankle_drive{8.0f, 1.0f, 180.0f};

  float limp_strength = 0.02f;  ///< [-] fraction of each cap kept as joint friction while limp
  /// [-] solver iterations for the joints while limp. A limp body hitting the ground opened its
  /// joints by up to 22 mm at the world's 10 iterations and 8 mm at 20. Not used while standing:
  /// joint rows iterated more often than the contacts make the feet creep (1.4 m in 60 s).
  int limp_solver_iterations = 20;
  /// [m] after each step a joint opened wider than this has its child moved back to it: the last
  /// line of defence where contacts pin a limb (a foot caught in a stair's nosing while the
  /// get-up's lift pulls, a tumble down a flight) and the solver lets the joint open by 10 cm.
  float max_joint_gap_m = 0.015f;
  float body_friction = 0.6f;  ///< [-]
  float foot_friction = 1.0f;  ///< [-] rough soles stop skating
  /// Static friction for planted feet: a capped horizontal pull back to where the foot was
  /// planted (Bullet's friction lets a loaded foot creep: 4 cm a minute when standing).
  float stance_grip_n = 40.0f;  ///< [N] per foot at 75 kg, scaled with mass
  float stance_slip_m = 0.02f;  ///< [m] a foot pushed farther than this is re-planted where it is
  /// [m/s] the most velocity a blow (apply_impulse) gives the part it strikes; the rest of the
  /// impulse goes to the whole body by mass. A 400 N·s blow would give a 2.6 kg forearm 157 m/s,
  /// which the joints cannot pass on to the body within a step: they tore open by 25 cm.
  float max_blow_speed_change = 6.0f;
  float max_linear_speed = 12.0f;   ///< [m/s] clamp applied on state changes
  float max_angular_speed = 40.0f;  ///< [rad/s] clamp applied on state changes

  BalanceSettings balance;
  StepSettings step;
  UprightSettings upright;
  HitReactionSettings hit;
  GetUpSettings get_up;

  ArmReachSettings arm;
  FallCauseSettings fall_cause;

  /// Scale factor for torques: (mass / 75 kg) × (height / 1.8 m).
  float torque_scale() const { return (mass_kg / 75.0f) * (height_m / 1.8f); }
  /// Scale factor for lengths: height / 1.8 m.
  float length_scale() const { return height_m / 1.8f; }
};

/// The ragdoll's shapes are the world's body shapes.
using ShapeKind = BodySettings::Shape;

/// One rigid body of the ragdoll in its build pose (soles at y = 0, facing +Z, centred on x = 0).
struct BodyBlueprint {
  BodyPart part = BodyPart::pelvis;
  ShapeKind shape = ShapeKind::capsule_y;
  float radius = 0;       ///< [m] capsule or sphere radius
  float half_length = 0;  ///< [m] half the capsule's cylinder length
  Vec3 half_extents;      ///< [m] box half extents
  Vec3 center;            ///< [m] centre of mass in the build pose
  float mass = 0;         ///< [kg]
  Vec3 shape_inertia;  ///< [kg·m²] principal moments of the shape, floored, before conditioning
  Vec3 inertia;        ///< [kg·m²] principal moments about local X, Y, Z (conditioned)
};

struct JointBlueprint {
  JointName joint = JointName::lumbar;
  BodyPart parent = BodyPart::pelvis;
  BodyPart child = BodyPart::chest;
  Vec3 pivot;  ///< [m] in the build pose
  JointLimits limits;
  DriveSettings drive;  ///< with the torque cap already scaled
};

struct RagdollBlueprint {
  std::array<BodyBlueprint, kBodyPartCount> bodies{};
  std::array<JointBlueprint, kJointCount> joints{};
  float total_mass = 0;       ///< [kg]
  float rest_com_height = 0;  ///< [m] CoM height in the build pose
};

/// Shapes, masses (Winter's fractions flattened so neighbours stay within 4:1) and conditioned
/// inertias (each parent at least the sum of its children, as Jolt's Stabilize does).
RagdollBlueprint make_blueprint(const RagdollSettings& settings);

}  // namespace stagger::physics
