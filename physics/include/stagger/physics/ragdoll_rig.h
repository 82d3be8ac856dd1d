#pragma once
// A humanoid's rig: its rigid bodies and driven joints in a World, the uprighting drive that holds
// the pelvis against the static world, a grip for each planted foot and a capped pull on the
// pelvis. The rig holds no behaviour: controllers (balance, stepping, get-up, hit reactions, arm
// reach) read its state and set its targets, and Ragdoll ticks them. It is the only part of a
// ragdoll that reaches into the world's bodies.

#include <array>
#include <optional>
#include <span>
#include <string>

#include "stagger/physics/pose.h"
#include "stagger/physics/ragdoll_settings.h"
#include "stagger/physics/world.h"

namespace stagger::physics {

/// A body part found where no real body can be: beyond the world or too fast.
struct Runaway {
  BodyPart part = BodyPart::pelvis;
  std::string what;  ///< e.g. "position 5.7e+25 m from the origin, beyond the world's 10000 m"
};

/// Whole-body mass centre and its velocity.
struct MassCenter {
  Vec3 position;  ///< [m]
  Vec3 velocity;  ///< [m/s]
};

class RagdollRig {
 public:
  /// Builds the bodies and joints in the build pose with the soles at `feet_position`, facing
  /// `yaw_rad` (0 = +Z), drives on.
  RagdollRig(World& world, const RagdollSettings& settings, Vec3 feet_position, float yaw_rad);
  RagdollRig(const RagdollRig&) = delete;
  RagdollRig& operator=(const RagdollRig&) = delete;

  const RagdollSettings& settings() const { return settings_; }
  const RagdollBlueprint& blueprint() const { return blueprint_; }
  float mass() const { return blueprint_.total_mass; }
  /// [rad] the heading it was built facing.
  float spawn_yaw() const { return spawn_yaw_; }

  // --- Reading the body ---
  BodyId body(BodyPart part) const { return bodies_[slot(part)]; }
  JointId joint(JointName j) const { return joints_[slot(j)]; }
  BodyState body_state(BodyPart part) const { return world_.body_state(body(part)); }
  /// The part this body is, if it is one of this rig's.
  std::optional<BodyPart> part_of(BodyId body) const;
  /// The pose the joints are in now (child relative to parent).
  Pose current_pose() const;
  /// Mass-weighted centre of the parts, leaving out leg `skip_leg` (0 left, 1 right; -1 none).
  MassCenter mass_center(int skip_leg) const;
  /// [m/s] the fastest body's linear speed.
  float max_body_speed() const;
  /// [m] the lowest point of any body's bounding box, or `floor` if that is lower.
  float lowest_point(float floor) const;
  /// [m] the largest joint separation of this rig.
  float max_joint_separation() const;
  /// Touched anything outside this rig in the last step.
  bool touching(BodyPart part) const;
  /// [rad] the heading the pelvis faces now.
  float pelvis_yaw() const;
  /// The static ground under `at`, probed from `above` metres over it to `below` under it.
  GroundHit probe_ground(Vec3 at, float above, float below) const;
  /// The first body part whose transform or velocity is not finite, if any.
  std::optional<BodyPart> first_non_finite_part() const;
  /// The first body part beyond the world extent or faster than the speed limit, if any.
  std::optional<Runaway> first_runaway_part() const;
  bool drives_active() const { return drives_active_; }

  // --- Driving the body ---
  /// An impulse [N·s] at the part's centre of mass.
  void apply_impulse(BodyPart part, Vec3 impulse);
  /// Turns `parts` about the line through `point` [m] along the unit `axis` as one rigid body
  /// would turn at `angular_acceleration` [rad/s²] through the coming step, the torque that takes
  /// capped at `max_torque` [N·m]: each part gets its share of force and spin, so the joints
  /// between them carry none of it.
  void apply_roll(std::span<const BodyPart> parts, Vec3 point, Vec3 axis,
                  float angular_acceleration, float max_torque);
  /// An impulse [N·s] shared by every body in proportion to its mass: the whole body gains
  /// `impulse` / mass of velocity and no spin.
  void apply_impulse_to_all(Vec3 impulse);
  /// The joint's target rotation and its strength (a multiplier of its torque cap) this step.
  void drive_joint(JointName joint, Quat target, float strength);
  /// Drives on (upright) or released to joint friction (limp): the uprighting drive follows, the
  /// pelvis pull lets go, and a limp body may fall asleep and collides with itself where a fall
  /// can bring two parts together.
  void set_drives_active(bool active);
  /// While limp: the joints' friction, as a fraction of each drive's torque cap.
  void set_limp_friction(float strength);
  /// Every body's velocity damping, Bullet's: the share of its linear and angular velocity lost
  /// per second [1/s] (0 while the drives are on).
  void set_damping(float linear, float angular);
  /// Every joint opened wider than `max_gap` [m] has its child moved back (parents first, so a
  /// repair carries down the limb).
  void close_joint_gaps(float max_gap);
  /// Solver iterations of every joint's rows (0: as the world decides near limits).
  void set_joint_iterations(int iterations);
  /// The world's full solver iteration count.
  int world_solver_iterations() const { return world_.settings().solver_iterations; }
  /// Multiplies the uprighting drive's torque cap (0 switches it off).
  void set_upright_strength(float strength);
  /// Whether the uprighting drive also holds the heading (its yaw axis).
  void set_upright_holds_heading(bool on);
  /// Turns the uprighting drive's world frame to `yaw_rad` and aims it at upright.
  void aim_upright(float yaw_rad);
  /// [rad] the heading of the body the uprighting drive holds.
  float upright_body_yaw() const;
  /// Holds foot `leg` where it stands (the rough stance foot) or lets it go.
  void grip_foot(int leg, bool hold);
  void set_foot_friction(int leg, float friction);
  /// Pulls the pelvis toward `target` [m] with at most `max_force` [N] per world axis, closing
  /// the gap in `time_constant_s`, at most `max_speed` [m/s] faster than `target_velocity`.
  void pull_pelvis(Vec3 target, Vec3 max_force, float time_constant_s, float max_speed,
                   Vec3 target_velocity = {});
  void release_pelvis();
  /// Caps every body's linear [m/s] and angular [rad/s] speed.
  void clamp_velocities(float max_linear, float max_angular);
  /// Every body back to the build pose at the spawn, at rest and awake.
  void reset_to_spawn();
  /// Takes every body and joint out of the simulation (`simulated` false: they keep their state,
  /// touch nothing and cost nothing in a step) or puts them back.
  void set_simulated(bool simulated);
  bool simulated() const { return simulated_; }
  /// Whether any part, where it is now, is inside something it collides with (static geometry,
  /// another body) by more than `depth_m` [m]: a suspended body about to be resumed there would
  /// be thrown out of it.
  bool overlaps_anything(float depth_m);
  /// Moves every part to `parts[slot(part)]` (centre of mass [m], rotation, velocities [m/s],
  /// [rad/s]) at once.
  void place_parts(const std::array<BodyState, kBodyPartCount>& parts);
  /// Moves the spawn (feet [m], facing [rad], 0 = +Z) that reset_to_spawn returns to, raised as
  /// a new rig's is so that no sole is inside the ground under it.
  void move_spawn(Vec3 feet_position, float yaw_rad);
  /// The world's group of this rig's bodies (its index among the world's ragdolls).
  int owner() const { return owner_; }
  /// [s] the world's time.
  double world_time() const { return world_.time(); }
  /// Sets every joint's target at once; `forget_motion` drops the targets' velocity feed-forward
  /// (after a teleport).
  void set_joint_targets(const Pose& pose, bool forget_motion);

 private:
  World& world_;
  RagdollSettings settings_;
  RagdollBlueprint blueprint_;
  int owner_ = -1;  // the world's group of this rig's bodies
  std::array<BodyId, kBodyPartCount> bodies_{};
  std::array<JointId, kJointCount> joints_{};
  JointId upright_{};                          // world -> pelvis
  std::array<std::size_t, 2> foot_anchors_{};  // left, right
  std::size_t pelvis_pull_ = 0;                // the get-up lift and the stepping hold
  bool drives_active_ = true;
  bool simulated_ = true;
  Vec3 spawn_feet_;  // where it was built, for reset_to_spawn
  float spawn_yaw_ = 0;
};

}  // namespace stagger::physics
