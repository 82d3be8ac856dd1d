#pragma once
// World internals shared by world.cpp, ragdoll.cpp and baseline.cpp.

#include <BulletCollision/CollisionDispatch/btSimulationIslandManager.h>
#include <btBulletDynamicsCommon.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bullet_ext/capsule_box.h"
#include "bullet_ext/dynamics_world.h"
#include "bullet_ext/impulse_solver.h"
#include "driven_joint.h"
#include "stagger/core/assert.h"
#include "stagger/physics/player_body.h"
#include "stagger/physics/ragdoll.h"
#include "stagger/physics/world.h"
#include "world_pull.h"

namespace stagger::physics {

struct BodyRecord {
  std::unique_ptr<btCollisionShape> shape;
  std::unique_ptr<btRigidBody> body;
  bool touching = false;  ///< touched anything outside its own ragdoll in the last step
  /// Out of the simulation: its owner poses it in World::Impl::posed, not in Bullet's body
  bool suspended = false;
  int owner = -1;  ///< ragdoll group (or -1), for the contact scan
  int part = -1;   ///< index of its BodyPart within the ragdoll (or -1)
};

/// Two bodies of one ragdoll (records may be null: static geometry).
inline bool same_ragdoll(const BodyRecord* a, const BodyRecord* b) {
  return a != nullptr && b != nullptr && a->owner >= 0 && a->owner == b->owner;
}

/// How the bodies of one ragdoll collide with each other.
enum class SelfCollision : std::uint8_t {
  bullet,  ///< Bullet's default: every pair but the jointed ones (the benchmark's stock baseline)
  off,     ///< none: the pairs never reach the narrowphase (a driven body)
  limp,    ///< the pairs that can meet in a fall (a limp body; see self_pair_collides)
};

/// Broadphase filter: pairs that World::Impl::records_collide refuses are kept out of the pair
/// cache.
struct BodyPairFilter : btOverlapFilterCallback {
  explicit BodyPairFilter(const World::Impl& world) : impl(world) {}
  bool needBroadphaseCollision(btBroadphaseProxy* a, btBroadphaseProxy* b) const override;
  const World::Impl& impl;
};

struct World::Impl {
  explicit Impl(const WorldSettings& s);
  ~Impl();

  // A body or joint of a removed ragdoll, or an id never given out, is a programmer's error.
  btRigidBody& rigid(BodyId id) {
    const auto i = static_cast<std::size_t>(id);
    STAGGER_ASSERT(i < bodies.size() && bodies[i].body != nullptr);
    return *bodies[i].body;
  }
  const btRigidBody& rigid(BodyId id) const { return const_cast<Impl*>(this)->rigid(id); }
  DrivenJoint& joint(JointId id) {
    const auto i = static_cast<std::size_t>(id);
    STAGGER_ASSERT(i < joints.size() && joints[i] != nullptr);
    return *joints[i];
  }
  const DrivenJoint& joint(JointId id) const { return const_cast<Impl*>(this)->joint(id); }

  BodyId add_body(const BodySettings& body, int owner, int part = -1);
  /// `controlled` joints get their motors set by our drive law every step; the others keep
  /// whatever Bullet motors they were given (the benchmark's stock baseline).
  JointId add_joint(const JointSettings& joint, bool disable_linked_collisions,
                    bool controlled = true);
  void scan_contacts();
  /// Removes the bodies of ragdoll group `owner` and every constraint on them from the dynamics
  /// world and frees them; their records stay, empty, so that other ids keep their meaning.
  void remove_owner(int owner);
  /// Takes the bodies of ragdoll group `owner` and every constraint on them out of the dynamics
  /// world (`simulated` false: they keep their state, collide with nothing and cost nothing in a
  /// step) or puts them back as they were (true).
  void set_owner_simulated(int owner, bool simulated);
  /// Poses a suspended body: kept in `posed` until it comes back (Bullet's body is written then).
  void place_suspended(BodyId id, const BodyState& state);
  /// The ragdolls whose controllers run in a step (not the suspended ones), in index order.
  const std::vector<Ragdoll*>& stepped_ragdolls();
  /// Whether the constraint holds a body of group `owner`.
  bool holds_owner(const btTypedConstraint& constraint, int owner) const;
  /// Switches the self-collision of ragdoll `owner`, adding or removing its pairs at once.
  void set_self_collision(int owner, SelfCollision mode);
  /// Whether bodies `a` and `b` of one ragdoll may collide under `mode`.
  bool self_pair_collides(const BodyRecord& a, const BodyRecord& b) const;
  /// Whether two bodies may collide (records may be null: static geometry): one ragdoll's under
  /// its self-collision mode; two ragdolls' only trunk to trunk (pelvis, chest, head) unless
  /// WorldSettings::limbs_meet_other_ragdolls; anything else always.
  bool records_collide(const BodyRecord* a, const BodyRecord* b) const;
  /// The record of a body the world added (nullptr for static geometry and foreign objects).
  const BodyRecord* record_of(const btCollisionObject& object) const;
  const BodyRecord* record_of(const btBroadphaseProxy& proxy) const {
    return record_of(*static_cast<const btCollisionObject*>(proxy.m_clientObject));
  }
  std::size_t add_foot_anchor(BodyId foot, const FootAnchorSettings& grip);
  std::size_t add_pull(BodyId body);
  /// Static geometry hit by a ray from `above` metres over `at` to `below` metres under it.
  GroundHit probe_ground(Vec3 at, float above, float below) const;
  /// Adds static geometry (already in the dynamics world) to the ground probes' world.
  void add_ground(btCollisionShape& shape, const btTransform& transform);

  WorldSettings settings;
  float dt;
  std::uint64_t steps = 0;
  int next_owner = 0;
  std::vector<SelfCollision> self_collision;  ///< per owner
  /// What set_owner_simulated took out, per suspended owner, to put back.
  struct Suspended {
    std::vector<std::pair<btTypedConstraint*, bool>> constraints;  ///< and linked-collisions off
    std::vector<DrivenJoint*> controlled;
  };
  std::map<int, Suspended> suspended;

  BodyPairFilter pair_filter{*this};  // first: the broadphase asks it until destroyed
  btDefaultCollisionConfiguration collision_config;
  CapsuleBoxCreateFunc capsule_box{collision_config};  // outlives the dispatcher that uses it
  btCollisionDispatcher dispatcher{&collision_config};
  btDbvtBroadphase broadphase;
  ImpulseSolver solver;
  DynamicsWorld dynamics{&dispatcher, &broadphase, &solver, &collision_config};

  // Triangle data of static meshes, which Bullet's mesh shapes point into (declared first, so
  // destroyed after the shapes).
  std::vector<std::unique_ptr<StaticMeshSettings>> mesh_data;
  std::vector<std::unique_ptr<btTriangleIndexVertexArray>> mesh_arrays;
  std::vector<std::unique_ptr<btCollisionShape>> static_shapes;
  std::vector<std::unique_ptr<btRigidBody>> static_bodies;
  std::vector<BodyRecord> bodies;
  std::vector<std::size_t> touching_bodies;  ///< the records scan_contacts marked touching
  /// Per body: where a suspended body is posed. Many far enemies are posed every step; their
  /// poses go here, packed, rather than into Bullet's bodies, which are large and scattered
  /// (posing a crowd's light walkers took 0.42 ms a frame that way, 0.29 ms this way).
  std::vector<BodyState> posed;
  std::vector<std::unique_ptr<DrivenJoint>> joints;
  std::vector<DrivenJoint*> controlled_joints;
  std::vector<std::unique_ptr<FootAnchor>> foot_anchors;
  std::vector<std::unique_ptr<WorldPull>> pulls;
  std::vector<std::unique_ptr<Ragdoll>> ragdolls;
  /// What stepped_ragdolls() gives, made again after a ragdoll is added, removed, suspended or
  /// resumed: a step passes over the suspended ones without touching them.
  std::vector<Ragdoll*> stepped;
  bool stepped_stale = true;
  std::vector<std::unique_ptr<Hand>> hands;
  std::vector<std::unique_ptr<PlayerBody>> players;

  // The static geometry again, alone in a collision world of its own, for ground probes: a ray
  // through the dynamics world's broadphase also walks every ragdoll's bodies (two probes per
  // ragdoll per step made 32 standing ragdolls 10 % slower).
  std::vector<std::unique_ptr<btCollisionObject>> ground_objects;
  btCollisionDispatcher ground_dispatcher{&collision_config};
  btDbvtBroadphase ground_broadphase;
  btCollisionWorld ground{&ground_dispatcher, &ground_broadphase, &collision_config};
};

/// A body's pose and motion as Bullet holds them (world centre of mass).
BodyState state_of(const btRigidBody& body);
/// Puts a body at a pose with a motion, its interpolation state too (no fling from the last one).
void place_rigid(btRigidBody& body, const BodyState& state);
/// Whether every number Bullet keeps of the body's pose and motion is finite. (Its rotation is
/// then finite too: Bullet keeps the basis a rotation.)
bool body_finite(const btRigidBody& body);
/// What is wrong with a finite body beyond the world extent or faster than the speed limit
/// (stagger/core/limits.h); nothing for a body within both.
std::optional<std::string> body_runaway(const btRigidBody& body);

/// The bodies and joints of one humanoid, inserted into the world in a fixed order.
struct RagdollAssembly {
  int owner = -1;
  std::array<BodyId, kBodyPartCount> bodies{};
  std::array<JointId, kJointCount> joints{};
};
RagdollAssembly assemble_ragdoll(World::Impl& impl, const RagdollBlueprint& blueprint,
                                 const RagdollSettings& settings, Vec3 feet_position, float yaw_rad,
                                 bool controlled);

}  // namespace stagger::physics
