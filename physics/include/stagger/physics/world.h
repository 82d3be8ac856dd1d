#pragma once
// The physics world: a fresh Bullet world per scene, stepped exactly one fixed step per call.
// Bodies and joints are inserted in call order, which with a fixed step makes runs bit-identical.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "stagger/core/math.h"
#include "stagger/physics/drive.h"
#include "stagger/physics/skeleton.h"

namespace stagger::physics {

class Hand;
class PlayerBody;
class Ragdoll;
struct HandSettings;
struct PlayerBodySettings;
struct RagdollSettings;

struct WorldSettings {
  float physics_hz = 240.0f;            ///< [Hz] fixed step rate
  int solver_iterations = 10;           ///< [-] sequential-impulse iterations per step
  Vec3 gravity{0.0f, -kGravity, 0.0f};  ///< [m/s²]
  /// [rad] a driven joint's limit rows join the solver only this close to a limit, plus ten
  /// steps at the joint's or its motor's rate (further away they could not act this step, and
  /// 6Dof2 would spend two rows on each ranged axis); a large value keeps them in always.
  float limit_margin_rad = 0.1f;
  /// [-] iterations for the rows of a driven joint with no limit row in the solver (every axis
  /// ranged and far from its limits; 0: the world's count): its motor and point rows converge
  /// in fewer. Near a limit, with a locked axis, limp, or getting up, a joint keeps the full
  /// count (8 for every joint lets joints bend up to 41° past their limits in knock-downs; this
  /// rule and 10 everywhere both keep them within 18°). 32 walkers: −2.2 % instructions against
  /// the full count everywhere.
  int free_joint_iterations = 8;
  /// Bullet's default: every moving body's bounding box also covers its predicted motion over the
  /// step. Off, only bodies with continuous collision (the hands) get that; the others' boxes are
  /// their present ones, which leaves the contacts as they were (the narrowphase runs at present
  /// transforms) and spares a second integration per body: 5.5 % of the patrol bench's time.
  bool sweep_every_box = false;
  /// Whether the world runs Stagger's replacements of Bullet internals (physics/src/bullet_ext:
  /// the solver's iteration loop, the driven joints' row writer, the island batcher, the dynamics
  /// world's step shortcuts and the capsule-box early-out), each of which gives Bullet's results
  /// bit for bit, faster. Off, the same world runs Bullet 3.24's own code for each: the stock
  /// baseline of `stagger bench` and of the StockBullet tests, which compare the two every step.
  bool bullet_extensions = true;
  /// Whether the arms and legs of one ragdoll collide with the bodies of another. Off, two
  /// ragdolls meet through their trunks alone (pelvis, chest, head), which keeps them from
  /// passing through each other while limbs brushing past do not catch: two guards walking a
  /// stairwell's route in opposite directions tripped over each other's limbs where they met
  /// (docs/physics.md, Bodies meeting).
  bool limbs_meet_other_ragdolls = false;
};

struct StaticBoxSettings {
  Vec3 center;        ///< [m]
  Vec3 half_extents;  ///< [m]
  Quat rotation;
  float friction = 0.9f;  ///< [-]
};

/// Static triangle-mesh geometry, in world space.
struct StaticMeshSettings {
  std::vector<Vec3> vertices;          ///< [m]
  std::vector<std::uint32_t> indices;  ///< three per triangle
  float friction = 0.9f;               ///< [-]
};

enum class BodyId : std::uint32_t {};
enum class JointId : std::uint32_t {};
enum class PullId : std::uint32_t {};

/// Continuous collision for a small, fast body: when it moves farther than `motion_threshold_m`
/// in a step, it is swept as a sphere of `swept_radius_m` so that it cannot pass through thin
/// geometry. Zero leaves it off.
struct ContinuousCollision {
  float motion_threshold_m = 0;  ///< [m]
  float swept_radius_m = 0;      ///< [m]
};

/// A free dynamic (or, with zero mass, static) body, for rigs built outside a ragdoll.
struct BodySettings {
  enum class Shape : std::uint8_t { capsule_y, capsule_x, box, sphere } shape = Shape::capsule_y;
  float radius = 0.05f;                 ///< [m]
  float half_length = 0.1f;             ///< [m] half the capsule's cylinder length
  Vec3 half_extents{0.1f, 0.1f, 0.1f};  ///< [m] box
  float mass_kg = 1.0f;                 ///< [kg]; 0 makes the body static
  Vec3 inertia;                         ///< [kg·m²] principal moments; zero = from the shape
  Vec3 position;                        ///< [m]
  Quat rotation;
  float friction = 0.6f;  ///< [-]
  bool keep_awake = true;
  ContinuousCollision continuous;
};

/// The impulse a body gave another dynamic body through their contact in the last step.
struct ContactImpulse {
  BodyId other{};
  Vec3 impulse;  ///< [N·s] on `other`
};

/// Which ragdoll of the world a body belongs to, and which part of it it is.
struct RagdollPart {
  std::size_t ragdoll = 0;  ///< index (World::ragdoll)
  BodyPart part = BodyPart::pelvis;
};

/// A driven joint between two bodies (or a body and the static world when `parent` is unset).
struct JointSettings {
  BodyId parent{};
  bool parent_is_world = false;
  BodyId child{};
  Vec3 pivot;           ///< [m] world position of the joint centre
  Quat frame_rotation;  ///< world orientation of the joint frame (its X, Y, Z Euler axes)
  JointLimits limits;
  DriveSettings drive;
  bool drive_axes[3] = {true, true, true};  ///< which free axes get a motor
};

/// What the solver carries this step: where a step's CPU time goes (`stagger bench` prints it).
struct SolverLoad {
  int broadphase_pairs = 0;     ///< overlapping bounding-box pairs the narrowphase visits
  int self_pairs = 0;           ///< ... of them, pairs of two bodies of one ragdoll
  int contact_points = 0;       ///< contact points in every manifold
  int self_contact_points = 0;  ///< ... of them, between two bodies of one ragdoll
  int constraints = 0;          ///< enabled constraints (joints, drives, pulls)
  int constraint_rows = 0;      ///< solver rows of those constraints
  /// ... each times the iterations the solver gives it (a joint near a limit, limp or getting up
  /// gets more than one in mid-range): the rows' share of the solver's work
  int constraint_row_iterations = 0;
};

/// The static ground under a point, from a vertical ray.
struct GroundHit {
  bool hit = false;
  Vec3 point;  ///< [m]
  Vec3 normal{0, 1, 0};
};

/// What an upright capsule swept through the static geometry met first.
struct SweepHit {
  bool hit = false;
  float fraction = 1;    ///< [0, 1] of the way from the start to the end, where it touches
  Vec3 point;            ///< [m] where it touches
  Vec3 normal{0, 1, 0};  ///< of the surface met, facing the capsule
};

struct BodyState {
  Vec3 position;  ///< [m] centre of mass
  Quat rotation;
  Vec3 linear_velocity;   ///< [m/s]
  Vec3 angular_velocity;  ///< [rad/s]
};

class World {
 public:
  explicit World(const WorldSettings& settings = {});
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  const WorldSettings& settings() const;
  float dt() const;  ///< [s] the fixed step
  std::uint64_t step_count() const;
  double time() const;  ///< [s] step_count × dt

  void add_static_box(const StaticBoxSettings& box);
  void add_static_mesh(const StaticMeshSettings& mesh);
  BodyId add_body(const BodySettings& body);
  JointId add_joint(const JointSettings& joint);
  /// Creates an active ragdoll with its soles at `feet_position`, facing yaw (0 = +Z).
  Ragdoll& add_ragdoll(const RagdollSettings& settings, Vec3 feet_position, float yaw_rad);

  /// Takes ragdoll `index` out of the world and destroys it: its bodies, joints, foot grips and
  /// pulls leave the simulation, and references to it and its BodyIds and JointIds are invalid
  /// from then on. The other ragdolls keep their indices (this one's stays taken, empty).
  void remove_ragdoll(std::size_t index);
  /// Whether `index` names a ragdoll that was added and not removed.
  bool has_ragdoll(std::size_t index) const;
  /// Ragdolls added so far, removed ones included: indices run from 0 to this.
  std::size_t ragdoll_count() const;
  /// Creates a physics hand at `position`.
  Hand& add_hand(const HandSettings& settings, Vec3 position, Quat rotation);
  /// Creates the player's body standing at `feet` [m].
  PlayerBody& add_player_body(const PlayerBodySettings& settings, Vec3 feet);
  Ragdoll& ragdoll(std::size_t index);
  const Ragdoll& ragdoll(std::size_t index) const;

  /// Runs the controllers, then exactly one fixed Bullet step.
  void step();

  BodyState body_state(BodyId body) const;
  /// Bodies added so far, those of removed ragdolls included: ids run from 0 to this.
  std::size_t body_count() const;
  /// Whether `body` names a body that was added and not removed with its ragdoll.
  bool has_body(BodyId body) const;
  /// Applies an instantaneous impulse [N·s] at the body's centre of mass.
  void apply_impulse(BodyId body, Vec3 impulse);
  /// Applies a torque [N·m] to the body for the coming step.
  void apply_torque(BodyId body, Vec3 torque);
  /// Puts a dynamic body at a pose with the given velocities [m/s, rad/s], as it is (a body that
  /// collides with nothing following its target).
  void place_body(BodyId body, Vec3 position, Quat rotation, Vec3 linear_velocity,
                  Vec3 angular_velocity);
  /// Whether the body, put at this pose, would overlap anything it can collide with by more than
  /// `depth_m` [m]. The body stays where it is.
  bool overlaps_at(BodyId body, Vec3 position, Quat rotation, float depth_m);
  /// The impulses the body gave other dynamic bodies through contacts in the last step, in the
  /// solver's order (cleared first).
  void contact_impulses(BodyId body, std::vector<ContactImpulse>& out) const;
  /// The ragdoll and part a body belongs to, if it is a ragdoll's.
  std::optional<RagdollPart> ragdoll_part(BodyId body) const;

  /// A capped pull of a body toward a point: velocity motors against the static world, solved
  /// with the contacts (so a wall simply wins). Released until `pull` is called.
  PullId add_pull(BodyId body);
  /// Pulls toward `target` [m] with at most `max_force` [N] per world axis (0 leaves an axis
  /// free), closing the gap in `time_constant_s`, at most `max_speed` [m/s] faster than
  /// `target_velocity` (a moving target), for the coming step.
  void pull(PullId pull, Vec3 target, Vec3 max_force, float time_constant_s, float max_speed,
            Vec3 target_velocity = {});
  void release(PullId pull);
  /// A kinematic sphere of `radius` [m] (a tracked finger joint): it pushes dynamic bodies and
  /// nothing pushes it. Starts with its collisions off.
  BodyId add_kinematic_sphere(float radius, Vec3 position);
  /// Moves a kinematic body to its pose for the coming step; Bullet gives it the velocity of the
  /// move.
  void move_kinematic(BodyId body, Vec3 position, Quat rotation = {});
  /// Puts a kinematic body somewhere with no velocity (appearing, parking): no fling on arrival.
  void teleport_kinematic(BodyId body, Vec3 position, Quat rotation = {});
  /// Turns a body's contact response on or off (off: it passes through everything).
  void set_collisions(BodyId body, bool on);
  /// Two bodies that never collide with each other (a hand and its own finger spheres).
  void ignore_collisions(BodyId a, BodyId b);

  void set_joint_target(JointId joint, Quat local_rotation);
  /// Current Euler angles (X, Y, Z) of the joint [rad].
  Vec3 joint_angles(JointId joint) const;
  /// Distance between the joint's anchor on the parent and on the child [m].
  float joint_separation(JointId joint) const;
  float max_joint_separation() const;

  /// Sweeps an upright capsule (a cylinder of half length `half_length_m` [m] capped by spheres
  /// of `radius_m` [m]) from centre `from` to centre `to` [m] through the static geometry (boxes,
  /// meshes; bodies do not stop it). For a character controller.
  SweepHit sweep_capsule(Vec3 from, Vec3 to, float radius_m, float half_length_m) const;
  /// True when no static geometry (boxes, meshes) lies on the segment from `from` to `to`;
  /// bodies do not block it. For sight lines.
  bool line_of_sight(Vec3 from, Vec3 to) const;
  /// Counts of pairs, contacts and constraint rows after the last step.
  SolverLoad solver_load() const;
  /// Hash (FNV-1a, 64 bit) of every body's transform and velocities, bit for bit.
  std::uint64_t state_hash() const;
  /// False if any body's transform or velocity holds a NaN or infinity.
  bool all_finite() const;

  struct Impl;

 private:
  // The ragdoll rig and the stock baseline build their bodies and drives in the world's own
  // records; nothing else reaches past this class's interface.
  friend class RagdollRig;
  friend void add_baseline_ragdoll(World& world, const RagdollSettings& settings,
                                   Vec3 feet_position, float yaw_rad);
  Impl& impl() { return *impl_; }
  const Impl& impl() const { return *impl_; }

  std::unique_ptr<Impl> impl_;
};

}  // namespace stagger::physics
