#pragma once
// A btGeneric6DofSpring2Constraint whose angular velocity motors make each joint follow a
// reference motion: a spring-damper of the configured frequency and damping ratio, integrated
// implicitly toward the target. The motor asks for the reference's velocity plus a pull onto the
// reference's angle, so the joint moves like the spring when its target changes but holds its
// pose stiffly against loads (gravity, the rest of the body) up to its torque cap.
//
// Why not Bullet's servo or spring: the servo's response is a fixed-rate ramp (no frequency or
// damping ratio), and 6Dof2 springs cannot hold a standing pose (their soft rows give way under a
// body's weight at any stiffness that stays stable).
// Why not a spring on the measured state: with the velocity fed back, a joint's stiffness against
// a load is its own (tiny) inertia times ω², and a 1.5 Hz drive on the pelvis let a standing body
// fold at the hips.

#include <btBulletDynamicsCommon.h>

#include <memory>

#include "bullet_ext/driven_constraint.h"
#include "stagger/physics/world.h"

namespace stagger::physics {

class DrivenJoint {
 public:
  DrivenJoint(btRigidBody& parent, btRigidBody& child, const btTransform& frame_in_parent,
              const btTransform& frame_in_child, const JointSettings& settings);

  btGeneric6DofSpring2Constraint& constraint() { return *constraint_; }
  const btGeneric6DofSpring2Constraint& constraint() const { return *constraint_; }

  /// Stock Bullet's row writer instead of DrivenConstraint's (WorldSettings::bullet_extensions).
  void use_stock_rows(bool stock) { constraint_->set_stock(stock); }
  /// Target rotation of the child frame relative to the parent frame.
  void set_target(Quat local_rotation);
  const DriveSettings& drive() const { return drive_; }
  /// Multiplies the torque cap (hurt, limp); 0 switches the motors off.
  void set_strength(float strength) { strength_ = strength; }
  /// While limp the motors only resist motion (target velocity 0) with `strength` × cap.
  void set_limp(bool limp) { limp_ = limp; }
  /// Solver iterations for this joint's rows whatever its limits (0: as `update_motors` says).
  void set_solver_iterations(int iterations) { fixed_iterations_ = iterations; }

  /// Switches one rotation axis's motor on or off (0 X, 1 Y, 2 Z). A motor switched on starts its
  /// reference motion from where the joint is.
  void set_axis_driven(int axis, bool on);

  /// Hands the joint to Bullet's own servo motors, holding `local_rotation` (benchmark baseline).
  void hold_with_bullet_servos(Quat local_rotation, float servo_speed);

  /// Forgets the previous target (its velocity feed-forward): after a teleport.
  void forget_motion() { has_previous_target_ = false; }

  /// Sets the motors' velocity targets and caps for the coming step, engages each axis's limit
  /// rows only when the joint is near that limit (see update_limits), and has the rows of a joint
  /// far from every limit solved `free_joint_iterations` times unless set_solver_iterations
  /// fixed a count.
  void update_motors(float dt, const WorldSettings& world);

  Vec3 angles() const;
  float separation() const;
  /// Moves the child so that its anchor lies at most `max_gap` [m] from the parent's, and takes
  /// away the child's velocity apart from it along the gap: a position-level repair that adds no
  /// energy (the solver turns a joint's error into velocity instead).
  void close_gap(float max_gap);
  bool anchored_to_world() const { return anchored_to_world_; }

 private:
  void resync_model(const btVector3& relative_omega);
  void drive_axes(const btVector3& relative_omega, float dt);
  void update_limits(const btVector3& relative_omega, float dt, float margin_rad);
  void update_iterations(int free_iterations);

  std::unique_ptr<DrivenConstraint> constraint_;
  DriveSettings drive_;
  bool driven_[3] = {false, false, false};
  Quat target_rotation_;
  bool has_target_rotation_ = false;
  btVector3 target_{0, 0, 0};
  btVector3 previous_target_{0, 0, 0};
  float model_angle_[3] = {0, 0, 0};  // the reference motion, in Bullet's angle convention
  float model_rate_[3] = {0, 0, 0};
  bool has_previous_target_ = false;
  float strength_ = 1.0f;
  bool limp_ = false;
  bool anchored_to_world_ = false;
  // Angular limits in Bullet's angle convention, and whether each axis's limit rows are in the
  // solver this step. An axis with a range (lower < upper) costs 6Dof2 two limit rows every step,
  // wherever the joint is: 66 of a ragdoll's 156 joint rows, nearly always idle.
  float limit_lo_[3] = {0, 0, 0};
  float limit_hi_[3] = {0, 0, 0};
  bool limit_engaged_[3] = {true, true, true};
  int fixed_iterations_ = 0;
};

}  // namespace stagger::physics
