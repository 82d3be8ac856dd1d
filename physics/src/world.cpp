#include "stagger/physics/world.h"

#include <cmath>
#include <cstring>

#include "bullet_convert.h"
#include "bullet_ext/ground_ray.h"
#include "stagger/core/assert.h"
#include "stagger/core/limits.h"
#include "stagger/physics/hand.h"
#include "stagger/physics/ragdoll.h"
#include "world_impl.h"

namespace stagger::physics {
namespace {

// [m] Collision margin of box bodies (feet, physics hands), a power of two so that Bullet's
// size with the margin (size − 0.04 + 0.04 − margin + margin) comes back bit for bit: box-on-box
// contacts do not change at all.
constexpr float kBoxMargin = 1.0f / 128.0f;

std::unique_ptr<btCollisionShape> make_shape(const BodySettings& b) {
  switch (b.shape) {
    case BodySettings::Shape::capsule_y:
      return std::make_unique<btCapsuleShape>(b.radius, 2.0f * b.half_length);
    case BodySettings::Shape::capsule_x:
      return std::make_unique<btCapsuleShapeX>(b.radius, 2.0f * b.half_length);
    case BodySettings::Shape::box: {
      // Against anything but another box, Bullet's GJK sees a box as a smaller box swept by a
      // sphere of the margin's radius (0.04 m by default: the whole half height of a foot, which
      // then met a mesh as a slab with round toes and heels and rocked on it). A margin of 8 mm
      // keeps the edges nearly sharp; the box's outer size does not change. Walking up the
      // arena's mesh ramp at 1.0 m/s over 150 nudged spawns: 16 falls before, 2 after (a margin
      // of 1 cm: 0; 2 cm: 11).
      auto box = std::make_unique<btBoxShape>(to_bt(b.half_extents));
      box->setMargin(kBoxMargin);
      return box;
    }
    case BodySettings::Shape::sphere:
      return std::make_unique<btSphereShape>(b.radius);
  }
  STAGGER_ASSERT(false);
  return nullptr;
}

void hash_bytes(std::uint64_t& h, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    h ^= bytes[i];
    h *= 1099511628211ull;
  }
}

void hash_vector(std::uint64_t& h, const btVector3& v) {
  const float xyz[3] = {v.x(), v.y(), v.z()};
  hash_bytes(h, xyz, sizeof(xyz));
}

void hash_body(std::uint64_t& h, const btTransform& t, const btVector3& linear_velocity,
               const btVector3& angular_velocity) {
  hash_vector(h, t.getOrigin());
  for (int r = 0; r < 3; ++r) hash_vector(h, t.getBasis()[r]);
  hash_vector(h, linear_velocity);
  hash_vector(h, angular_velocity);
}

bool finite(const btVector3& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

}  // namespace

BodyState state_of(const btRigidBody& body) {
  const btTransform& t = body.getCenterOfMassTransform();
  return {from_bt(t.getOrigin()), from_bt(t.getRotation()), from_bt(body.getLinearVelocity()),
          from_bt(body.getAngularVelocity())};
}

void place_rigid(btRigidBody& body, const BodyState& state) {
  const btTransform transform(to_bt(state.rotation), to_bt(state.position));
  body.setWorldTransform(transform);
  body.setInterpolationWorldTransform(transform);
  body.setLinearVelocity(to_bt(state.linear_velocity));
  body.setAngularVelocity(to_bt(state.angular_velocity));
  body.setInterpolationLinearVelocity(to_bt(state.linear_velocity));
  body.setInterpolationAngularVelocity(to_bt(state.angular_velocity));
}

World::Impl::Impl(const WorldSettings& s) : settings(s), dt(1.0f / s.physics_hz) {
  STAGGER_ASSERT(s.physics_hz > 0 && s.solver_iterations > 0);
  if (s.bullet_extensions) {
    capsule_box.install(dispatcher, collision_config);
  }
  solver.set_stock(!s.bullet_extensions);
  dynamics.set_stock(!s.bullet_extensions);
  dynamics.setGravity(to_bt(s.gravity));
  auto& info = dynamics.getSolverInfo();
  info.m_numIterations = s.solver_iterations;
  dynamics.set_sweep_every_box(s.sweep_every_box);
  // Deterministic by construction: no solver randomisation, fresh world, fixed insertion order.
  info.m_solverMode &= ~SOLVER_RANDMIZE_ORDER;
  // Two friction directions per contact: feet held by a single friction row creep under the
  // drives' internal forces (measured: 4.9 cm against 1.6 cm of drift in 9 s of standing).
  info.m_solverMode |= SOLVER_USE_2_FRICTION_DIRECTIONS;
  broadphase.getOverlappingPairCache()->setOverlapFilterCallback(&pair_filter);
}

const BodyRecord* World::Impl::record_of(const btCollisionObject& object) const {
  const int i = object.getUserIndex();
  return i >= 0 && static_cast<std::size_t>(i) < bodies.size()
             ? &bodies[static_cast<std::size_t>(i)]
             : nullptr;
}

namespace {

// Pairs of body parts that collide in a limp ragdoll: all but parent and child (the joint holds
// them) and grandparent and grandchild along a limb or the spine (they overlap at the joint
// between them as soon as it bends: chest and forearm, thigh and foot, pelvis and chest).
// Siblings (the two thighs, head and upper arms) do collide.
bool parent_or_grandparent(BodyPart child, BodyPart elder) {
  if (child == BodyPart::pelvis) return false;
  const BodyPart parent = parent_of(child);
  return parent == elder || parent_of(parent) == elder;  // the pelvis is its own parent
}

bool limp_pair_collides(int a, int b) {
  const BodyPart pa = body_part_at(a);
  const BodyPart pb = body_part_at(b);
  return a != b && !parent_or_grandparent(pa, pb) && !parent_or_grandparent(pb, pa);
}

}  // namespace

bool World::Impl::self_pair_collides(const BodyRecord& a, const BodyRecord& b) const {
  switch (self_collision[static_cast<std::size_t>(a.owner)]) {
    case SelfCollision::bullet:
      return true;  // Bullet then skips jointed pairs in the narrowphase
    case SelfCollision::off:
      return false;
    case SelfCollision::limp:
      return limp_pair_collides(a.part, b.part);
  }
  return true;
}

namespace {

// Bodies of two different ragdolls (records may be null: static geometry; owner -1: a hand).
bool two_ragdolls(const BodyRecord* a, const BodyRecord* b) {
  return a != nullptr && b != nullptr && a->owner >= 0 && b->owner >= 0 && a->owner != b->owner;
}

static_assert(index_of(BodyPart::pelvis) == 0 && index_of(BodyPart::chest) == 1 &&
                  index_of(BodyPart::head) == 2,
              "the trunk's parts come first in BodyPart");

// Whether a ragdoll's part (its index, BodyPart order) is of its trunk: pelvis, chest or head.
bool trunk_part(int part) {
  return part <= index_of(BodyPart::head);
}

}  // namespace

bool World::Impl::records_collide(const BodyRecord* a, const BodyRecord* b) const {
  if (two_ragdolls(a, b) && !settings.limbs_meet_other_ragdolls)
    return trunk_part(a->part) && trunk_part(b->part);
  return !same_ragdoll(a, b) || self_pair_collides(*a, *b);
}

bool BodyPairFilter::needBroadphaseCollision(btBroadphaseProxy* a, btBroadphaseProxy* b) const {
  // Bullet's default test first: collision groups and masks.
  if ((a->m_collisionFilterGroup & b->m_collisionFilterMask) == 0 ||
      (b->m_collisionFilterGroup & a->m_collisionFilterMask) == 0) {
    return false;
  }
  return impl.records_collide(impl.record_of(*a), impl.record_of(*b));
}

void World::Impl::set_self_collision(int owner, SelfCollision mode) {
  SelfCollision& current = self_collision[static_cast<std::size_t>(owner)];
  if (current == mode) return;
  current = mode;
  // Out of the world, its bodies have no pairs: the filter decides when they come back.
  if (suspended.count(owner) > 0) return;
  // The filter is asked only when a pair starts to overlap, so pairs that overlap now are
  // dropped or added here, in a fixed order.
  btOverlappingPairCache& cache = *broadphase.getOverlappingPairCache();
  std::vector<std::pair<btBroadphaseProxy*, btBroadphaseProxy*>> dropped;
  for (int i = 0; i < cache.getNumOverlappingPairs(); ++i) {
    const btBroadphasePair& p = cache.getOverlappingPairArrayPtr()[i];
    const BodyRecord* a = record_of(*p.m_pProxy0);
    const BodyRecord* b = record_of(*p.m_pProxy1);
    if (same_ragdoll(a, b) && a->owner == owner && !self_pair_collides(*a, *b)) {
      dropped.emplace_back(p.m_pProxy0, p.m_pProxy1);
    }
  }
  for (const auto& [a, b] : dropped) cache.removeOverlappingPair(a, b, &dispatcher);
  std::vector<const BodyRecord*> own;
  for (const BodyRecord& r : bodies) {
    if (r.owner == owner && r.body) own.push_back(&r);
  }
  for (std::size_t i = 0; i < own.size(); ++i) {
    for (std::size_t j = i + 1; j < own.size(); ++j) {
      if (!self_pair_collides(*own[i], *own[j])) continue;
      btBroadphaseProxy* a = own[i]->body->getBroadphaseHandle();
      btBroadphaseProxy* b = own[j]->body->getBroadphaseHandle();
      if (TestAabbAgainstAabb2(a->m_aabbMin, a->m_aabbMax, b->m_aabbMin, b->m_aabbMax)) {
        cache.addOverlappingPair(a, b);
      }
    }
  }
}

World::Impl::~Impl() {
  // (Removed ragdolls left empty records behind.)
  for (auto it = pulls.rbegin(); it != pulls.rend(); ++it)
    if (*it) dynamics.removeConstraint(&(*it)->constraint());
  for (auto it = foot_anchors.rbegin(); it != foot_anchors.rend(); ++it) {
    if (*it) dynamics.removeConstraint(&(*it)->constraint());
  }
  for (auto it = joints.rbegin(); it != joints.rend(); ++it) {
    if (*it) dynamics.removeConstraint(&(*it)->constraint());
  }
  for (auto it = bodies.rbegin(); it != bodies.rend(); ++it)
    if (it->body) dynamics.removeRigidBody(it->body.get());
  for (auto& b : static_bodies) dynamics.removeRigidBody(b.get());
  for (auto& o : ground_objects) ground.removeCollisionObject(o.get());
}

BodyId World::Impl::add_body(const BodySettings& b, int owner, int part) {
  BodyRecord record;
  record.shape = make_shape(b);
  record.owner = owner;
  record.part = part;
  btVector3 inertia(0, 0, 0);
  if (b.mass_kg > 0) {
    if (b.inertia == Vec3{}) {
      record.shape->calculateLocalInertia(b.mass_kg, inertia);
    } else {
      inertia = to_bt(b.inertia);
    }
  }
  btRigidBody::btRigidBodyConstructionInfo info(b.mass_kg, nullptr, record.shape.get(), inertia);
  info.m_startWorldTransform = btTransform(to_bt(b.rotation), to_bt(b.position));
  info.m_friction = b.friction;
  info.m_rollingFriction = 0;
  record.body = std::make_unique<btRigidBody>(info);
  if (b.keep_awake && b.mass_kg > 0) record.body->setActivationState(DISABLE_DEACTIVATION);
  const auto id = static_cast<BodyId>(bodies.size());
  record.body->setUserIndex(static_cast<int>(id));
  btRigidBody* body = record.body.get();
  bodies.push_back(std::move(record));  // first: adding it asks the broadphase filter about it
  posed.emplace_back();
  dynamics.addRigidBody(body);
  if (b.continuous.motion_threshold_m > 0) {
    body->setCcdMotionThreshold(b.continuous.motion_threshold_m);
    body->setCcdSweptSphereRadius(b.continuous.swept_radius_m);
  }
  return id;
}

JointId World::Impl::add_joint(const JointSettings& j, bool disable_linked_collisions,
                               bool controlled) {
  btRigidBody& child = rigid(j.child);
  btRigidBody& parent = j.parent_is_world ? btTypedConstraint::getFixedBody() : rigid(j.parent);
  const btTransform frame_world(to_bt(j.frame_rotation), to_bt(j.pivot));
  const btTransform in_parent = parent.getCenterOfMassTransform().inverse() * frame_world;
  const btTransform in_child = child.getCenterOfMassTransform().inverse() * frame_world;
  auto joint = std::make_unique<DrivenJoint>(parent, child, in_parent, in_child, j);
  joint->use_stock_rows(!settings.bullet_extensions);
  dynamics.addConstraint(&joint->constraint(), disable_linked_collisions);
  const auto id = static_cast<JointId>(joints.size());
  if (controlled) controlled_joints.push_back(joint.get());
  joints.push_back(std::move(joint));
  return id;
}

std::size_t World::Impl::add_foot_anchor(BodyId foot, const FootAnchorSettings& grip) {
  foot_anchors.push_back(std::make_unique<FootAnchor>(rigid(foot), grip));
  dynamics.addConstraint(&foot_anchors.back()->constraint(), false);
  return foot_anchors.size() - 1;
}

std::size_t World::Impl::add_pull(BodyId body) {
  pulls.push_back(std::make_unique<WorldPull>(rigid(body)));
  dynamics.addConstraint(&pulls.back()->constraint(), false);
  return pulls.size() - 1;
}

bool World::Impl::holds_owner(const btTypedConstraint& constraint, int owner) const {
  const auto owned = [&](const btRigidBody& body) {
    const BodyRecord* record = record_of(body);
    return record != nullptr && record->owner == owner;
  };
  return owned(constraint.getRigidBodyA()) || owned(constraint.getRigidBodyB());
}

namespace {

// Takes the constraints of `records` that hold a body of `owner` out of the dynamics world and
// frees them, leaving their slots empty.
template <typename Record>
void remove_owned_constraints(World::Impl& impl, std::vector<std::unique_ptr<Record>>& records,
                              int owner) {
  for (auto& record : records) {
    if (!record || !impl.holds_owner(record->constraint(), owner)) continue;
    impl.dynamics.removeConstraint(&record->constraint());
    record.reset();
  }
}

}  // namespace

void World::Impl::remove_owner(int owner) {
  set_owner_simulated(owner, true);  // a suspended ragdoll's parts back first, to be removed
  remove_owned_constraints(*this, pulls, owner);
  remove_owned_constraints(*this, foot_anchors, owner);
  std::erase_if(controlled_joints,
                [&](const DrivenJoint* j) { return holds_owner(j->constraint(), owner); });
  remove_owned_constraints(*this, joints, owner);
  for (BodyRecord& record : bodies) {
    if (record.owner != owner || !record.body) continue;
    dynamics.removeRigidBody(record.body.get());
    record.body.reset();
    record.shape.reset();
  }
}

namespace {

// Whether `constraint` switched off collisions between its two bodies when it was added (Bullet
// keeps that as a reference from each body to it).
bool disables_linked_collisions(btTypedConstraint& constraint) {
  btRigidBody& b = constraint.getRigidBodyB();
  for (int i = 0; i < b.getNumConstraintRefs(); ++i) {
    if (b.getConstraintRef(i) == &constraint) return true;
  }
  return false;
}

template <typename Record>
void take_out_owned(World::Impl& impl, std::vector<std::unique_ptr<Record>>& records, int owner,
                    World::Impl::Suspended& out) {
  for (auto& record : records) {
    if (!record || !impl.holds_owner(record->constraint(), owner)) continue;
    btTypedConstraint& c = record->constraint();
    out.constraints.emplace_back(&c, disables_linked_collisions(c));
    impl.dynamics.removeConstraint(&c);
  }
}

}  // namespace

void World::Impl::set_owner_simulated(int owner, bool simulated) {
  const bool suspended_now = suspended.count(owner) > 0;
  if (simulated != suspended_now) return;  // already so
  if (!simulated) {
    Suspended& out = suspended[owner];
    take_out_owned(*this, pulls, owner, out);
    take_out_owned(*this, foot_anchors, owner, out);
    take_out_owned(*this, joints, owner, out);
    std::erase_if(controlled_joints, [&](DrivenJoint* j) {
      if (!holds_owner(j->constraint(), owner)) return false;
      out.controlled.push_back(j);
      return true;
    });
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      BodyRecord& record = bodies[i];
      if (record.owner != owner || !record.body) continue;
      posed[i] = state_of(*record.body);
      record.suspended = true;
      dynamics.removeRigidBody(record.body.get());
    }
    stepped_stale = true;
    return;
  }
  // Bodies first: a constraint refers to its bodies' places in the world.
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    BodyRecord& record = bodies[i];
    if (record.owner != owner || !record.body) continue;
    place_rigid(*record.body, posed[i]);
    record.suspended = false;
    dynamics.addRigidBody(record.body.get());
    record.body->forceActivationState(DISABLE_DEACTIVATION);
    record.touching = false;
  }
  Suspended& held = suspended[owner];
  for (const auto& [constraint, linked_off] : held.constraints)
    dynamics.addConstraint(constraint, linked_off);
  // The drives' order does not matter: each sets only its own joint's motors.
  controlled_joints.insert(controlled_joints.end(), held.controlled.begin(), held.controlled.end());
  suspended.erase(owner);
  stepped_stale = true;
}

void World::Impl::place_suspended(BodyId id, const BodyState& state) {
  const auto i = static_cast<std::size_t>(id);
  STAGGER_ASSERT(i < bodies.size() && bodies[i].suspended);
  posed[i] = state;
}

const std::vector<Ragdoll*>& World::Impl::stepped_ragdolls() {
  if (stepped_stale) {
    stepped.clear();
    for (const auto& r : ragdolls)
      if (r && !r->suspended()) stepped.push_back(r.get());
    stepped_stale = false;
  }
  return stepped;
}

void World::Impl::scan_contacts() {
  // Only the bodies marked last time are cleared: most of a crowd's records are suspended.
  for (const std::size_t i : touching_bodies) bodies[i].touching = false;
  touching_bodies.clear();
  const auto mark = [&](const BodyRecord* record) {
    if (record == nullptr || record->touching) return;
    const auto i = static_cast<std::size_t>(record - bodies.data());
    bodies[i].touching = true;
    touching_bodies.push_back(i);
  };
  const int manifolds = dispatcher.getNumManifolds();
  for (int i = 0; i < manifolds; ++i) {
    const btPersistentManifold* m = dispatcher.getManifoldByIndexInternal(i);
    bool in_contact = false;
    for (int p = 0; p < m->getNumContacts() && !in_contact; ++p) {
      in_contact = m->getContactPoint(p).getDistance() < 0.01f;
    }
    if (!in_contact) continue;
    const BodyRecord* a = record_of(*m->getBody0());
    const BodyRecord* b = record_of(*m->getBody1());
    if (same_ragdoll(a, b)) continue;  // self-contact is not support
    mark(a);
    mark(b);
  }
}

void World::Impl::add_ground(btCollisionShape& shape, const btTransform& transform) {
  auto object = std::make_unique<btCollisionObject>();
  object->setCollisionShape(&shape);
  object->setWorldTransform(transform);
  ground.addCollisionObject(object.get());
  ground_objects.push_back(std::move(object));
}

GroundHit World::Impl::probe_ground(Vec3 at, float above, float below) const {
  const btVector3 from = to_bt(at + Vec3{0, above, 0});
  const btVector3 to = to_bt(at - Vec3{0, below, 0});
  const RayHit ray = closest_ray_hit(ground, from, to);
  GroundHit out;
  if (!ray.hit) return out;
  out.hit = true;
  out.point = from_bt(ray.point);
  out.normal = normalized(from_bt(ray.normal));
  if (out.normal.y < 0) out.normal = -out.normal;
  return out;
}

SweepHit World::sweep_capsule(Vec3 from, Vec3 to, float radius_m, float half_length_m) const {
  const btCapsuleShape capsule(radius_m, 2.0f * half_length_m);
  const btTransform start(btQuaternion::getIdentity(), to_bt(from));
  const btTransform end(btQuaternion::getIdentity(), to_bt(to));
  btCollisionWorld::ClosestConvexResultCallback closest(start.getOrigin(), end.getOrigin());
  impl_->ground.convexSweepTest(&capsule, start, end, closest);
  SweepHit out;
  if (!closest.hasHit()) return out;
  out.hit = true;
  out.fraction = closest.m_closestHitFraction;
  out.point = from_bt(closest.m_hitPointWorld);
  out.normal = normalized(from_bt(closest.m_hitNormalWorld));
  return out;
}

bool World::line_of_sight(Vec3 from, Vec3 to) const {
  const btVector3 a = to_bt(from);
  const btVector3 b = to_bt(to);
  return !closest_ray_hit(impl_->ground, a, b).hit;
}

World::World(const WorldSettings& settings) : impl_(std::make_unique<Impl>(settings)) {}
World::~World() = default;

const WorldSettings& World::settings() const {
  return impl_->settings;
}
float World::dt() const {
  return impl_->dt;
}
std::uint64_t World::step_count() const {
  return impl_->steps;
}
double World::time() const {
  return static_cast<double>(impl_->steps) * static_cast<double>(impl_->dt);
}

namespace {

// A static body of `shape` at `transform`, added to the world and to the ground grid; the world
// keeps the shape and the body.
void add_static_body(World::Impl& impl, std::unique_ptr<btCollisionShape> shape,
                     const btTransform& transform, float friction) {
  btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, shape.get());
  info.m_startWorldTransform = transform;
  info.m_friction = friction;
  auto body = std::make_unique<btRigidBody>(info);
  body->setUserIndex(-1);
  impl.dynamics.addRigidBody(body.get());
  impl.add_ground(*shape, body->getWorldTransform());
  impl.static_shapes.push_back(std::move(shape));
  impl.static_bodies.push_back(std::move(body));
}

}  // namespace

void World::add_static_box(const StaticBoxSettings& box) {
  add_static_body(*impl_, std::make_unique<btBoxShape>(to_bt(box.half_extents)),
                  btTransform(to_bt(box.rotation), to_bt(box.center)), box.friction);
}

void World::add_static_mesh(const StaticMeshSettings& mesh) {
  STAGGER_ASSERT(mesh.indices.size() % 3 == 0 && !mesh.indices.empty());
  auto data = std::make_unique<StaticMeshSettings>(mesh);
  auto array = std::make_unique<btTriangleIndexVertexArray>(
      static_cast<int>(data->indices.size() / 3), reinterpret_cast<int*>(data->indices.data()),
      static_cast<int>(3 * sizeof(std::uint32_t)), static_cast<int>(data->vertices.size()),
      reinterpret_cast<btScalar*>(data->vertices.data()), static_cast<int>(sizeof(Vec3)));
  add_static_body(*impl_, std::make_unique<btBvhTriangleMeshShape>(array.get(), true),
                  btTransform::getIdentity(), mesh.friction);
  impl_->mesh_arrays.push_back(std::move(array));
  impl_->mesh_data.push_back(std::move(data));
}

BodyId World::add_body(const BodySettings& body) {
  return impl_->add_body(body, -1);
}

JointId World::add_joint(const JointSettings& joint) {
  return impl_->add_joint(joint, true);
}

Ragdoll& World::add_ragdoll(const RagdollSettings& settings, Vec3 feet_position, float yaw_rad) {
  impl_->ragdolls.push_back(std::make_unique<Ragdoll>(*this, settings, feet_position, yaw_rad));
  impl_->stepped_stale = true;
  return *impl_->ragdolls.back();
}

void World::remove_ragdoll(std::size_t index) {
  STAGGER_ASSERT(has_ragdoll(index));
  const int owner = impl_->ragdolls[index]->rig().owner();
  impl_->ragdolls[index].reset();
  impl_->remove_owner(owner);
  impl_->stepped_stale = true;
}

bool World::has_ragdoll(std::size_t index) const {
  return index < impl_->ragdolls.size() && impl_->ragdolls[index] != nullptr;
}

std::size_t World::ragdoll_count() const {
  return impl_->ragdolls.size();
}

Hand& World::add_hand(const HandSettings& settings, Vec3 position, Quat rotation) {
  impl_->hands.push_back(std::make_unique<Hand>(*this, settings, position, rotation));
  return *impl_->hands.back();
}
PlayerBody& World::add_player_body(const PlayerBodySettings& settings, Vec3 feet) {
  impl_->players.push_back(std::make_unique<PlayerBody>(*this, settings, feet));
  return *impl_->players.back();
}

Ragdoll& World::ragdoll(std::size_t index) {
  STAGGER_ASSERT(has_ragdoll(index));
  return *impl_->ragdolls[index];
}
const Ragdoll& World::ragdoll(std::size_t index) const {
  STAGGER_ASSERT(has_ragdoll(index));
  return *impl_->ragdolls[index];
}

void World::step() {
  const float dt = impl_->dt;
  // 1. Controllers: balance, uprighting and hit reactions set joint targets.
  for (Ragdoll* r : impl_->stepped_ragdolls()) r->before_step(dt);
  for (auto& h : impl_->hands) h->before_step(dt);
  // 2. Drives: every joint turns its target into motor velocities for this step.
  for (DrivenJoint* j : impl_->controlled_joints) j->update_motors(dt, impl_->settings);
  // 3. Exactly one fixed Bullet step (maxSubSteps = 0: no internal accumulator).
  impl_->dynamics.stepSimulation(dt, 0, dt);
  ++impl_->steps;
  // 4. Contacts and balance readouts for the next step.
  impl_->scan_contacts();
  for (auto& h : impl_->hands) h->after_step(dt);
  for (Ragdoll* r : impl_->stepped_ragdolls()) r->after_step(dt);
}

BodyState World::body_state(BodyId body) const {
  const btRigidBody& b = impl_->rigid(body);  // (asserts the id)
  const auto i = static_cast<std::size_t>(body);
  return impl_->bodies[i].suspended ? impl_->posed[i] : state_of(b);
}

std::size_t World::body_count() const {
  return impl_->bodies.size();
}

bool World::has_body(BodyId body) const {
  const auto i = static_cast<std::size_t>(body);
  return i < impl_->bodies.size() && impl_->bodies[i].body != nullptr;
}

void World::apply_impulse(BodyId body, Vec3 impulse) {
  btRigidBody& b = impl_->rigid(body);
  b.activate(true);
  b.applyCentralImpulse(to_bt(impulse));
}

void World::apply_torque(BodyId body, Vec3 torque) {
  btRigidBody& b = impl_->rigid(body);
  b.activate(true);
  b.applyTorque(to_bt(torque));
}

void World::place_body(BodyId body, Vec3 position, Quat rotation, Vec3 linear_velocity,
                       Vec3 angular_velocity) {
  STAGGER_ASSERT(!impl_->bodies[static_cast<std::size_t>(body)].suspended);  // posed otherwise
  btRigidBody& b = impl_->rigid(body);
  b.setWorldTransform(btTransform(to_bt(rotation), to_bt(position)));
  b.setLinearVelocity(to_bt(linear_velocity));
  b.setAngularVelocity(to_bt(angular_velocity));
}

namespace {

// Counts what a body at a pose would overlap by more than `depth` metres, among the objects it
// can touch (not the bodies it ignores, not those with collisions off, not the pairs that
// World::Impl::records_collide keeps apart).
struct OverlapCounter : btCollisionWorld::ContactResultCallback {
  OverlapCounter(const World::Impl& world, const btCollisionObject& self, float depth)
      : world_(world), self_(self), self_record_(world.record_of(self)), depth_(depth) {}
  bool needsCollision(btBroadphaseProxy* proxy) const override {
    if (!ContactResultCallback::needsCollision(proxy)) return false;
    const auto* other = static_cast<const btCollisionObject*>(proxy->m_clientObject);
    return self_.checkCollideWith(other) &&
           !(other->getCollisionFlags() & btCollisionObject::CF_NO_CONTACT_RESPONSE) &&
           world_.records_collide(self_record_, world_.record_of(*other));
  }
  btScalar addSingleResult(btManifoldPoint& point, const btCollisionObjectWrapper*, int, int,
                           const btCollisionObjectWrapper*, int, int) override {
    if (point.getDistance() < -depth_) ++overlaps;
    return 0;
  }
  int overlaps = 0;

 private:
  const World::Impl& world_;
  const btCollisionObject& self_;
  const BodyRecord* self_record_;
  float depth_;
};

}  // namespace

bool World::overlaps_at(BodyId body, Vec3 position, Quat rotation, float depth_m) {
  btRigidBody& rigid = impl_->rigid(body);
  const btTransform was = rigid.getWorldTransform();
  rigid.setWorldTransform(btTransform(to_bt(rotation), to_bt(position)));
  OverlapCounter counter(*impl_, rigid, depth_m);
  impl_->dynamics.contactTest(&rigid, counter);
  rigid.setWorldTransform(was);
  return counter.overlaps > 0;
}

void World::contact_impulses(BodyId body, std::vector<ContactImpulse>& out) const {
  out.clear();
  const btCollisionObject* self = &impl_->rigid(body);
  const int manifolds = impl_->dispatcher.getNumManifolds();
  for (int i = 0; i < manifolds; ++i) {
    const btPersistentManifold* m = impl_->dispatcher.getManifoldByIndexInternal(i);
    const bool self_is_a = m->getBody0() == self;
    if (!self_is_a && m->getBody1() != self) continue;
    const int other = (self_is_a ? m->getBody1() : m->getBody0())->getUserIndex();
    if (other < 0) continue;  // static geometry
    // The normal points from B toward A; A gets +n·impulse, B −n·impulse.
    Vec3 impulse;
    for (int p = 0; p < m->getNumContacts(); ++p) {
      const btManifoldPoint& point = m->getContactPoint(p);
      impulse = impulse + from_bt(point.m_normalWorldOnB) * point.getAppliedImpulse();
    }
    if (self_is_a) impulse = -impulse;
    out.push_back({static_cast<BodyId>(other), impulse});
  }
}

std::optional<RagdollPart> World::ragdoll_part(BodyId body) const {
  if (!has_body(body)) return std::nullopt;
  const int owner = impl_->bodies[static_cast<std::size_t>(body)].owner;
  if (owner < 0 || !has_ragdoll(static_cast<std::size_t>(owner))) return std::nullopt;
  const auto ragdoll = static_cast<std::size_t>(owner);
  const auto part = impl_->ragdolls[ragdoll]->part_of(body);
  if (!part) return std::nullopt;
  return RagdollPart{ragdoll, *part};
}

PullId World::add_pull(BodyId body) {
  return static_cast<PullId>(impl_->add_pull(body));
}

void World::pull(PullId pull, Vec3 target, Vec3 max_force, float time_constant_s, float max_speed,
                 Vec3 target_velocity) {
  WorldPull& p = *impl_->pulls[static_cast<std::size_t>(pull)];
  p.set_target(target);
  p.pull(max_force, time_constant_s, max_speed, target_velocity);
}

void World::release(PullId pull) {
  impl_->pulls[static_cast<std::size_t>(pull)]->release();
}

BodyId World::add_kinematic_sphere(float radius, Vec3 position) {
  BodySettings sphere;
  sphere.shape = BodySettings::Shape::sphere;
  sphere.radius = radius;
  sphere.mass_kg = 0;
  sphere.position = position;
  const BodyId id = impl_->add_body(sphere, -1);
  btRigidBody& b = impl_->rigid(id);
  b.setCollisionFlags(b.getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
  b.setActivationState(DISABLE_DEACTIVATION);
  set_collisions(id, false);
  return id;
}

void World::move_kinematic(BodyId body, Vec3 position, Quat rotation) {
  impl_->rigid(body).setWorldTransform(btTransform(to_bt(rotation), to_bt(position)));
}

void World::teleport_kinematic(BodyId body, Vec3 position, Quat rotation) {
  btRigidBody& b = impl_->rigid(body);
  const btTransform pose(to_bt(rotation), to_bt(position));
  // Bullet derives a kinematic body's velocity from its interpolation transform to the new one.
  b.setWorldTransform(pose);
  b.setInterpolationWorldTransform(pose);
  b.setLinearVelocity(btVector3(0, 0, 0));
  b.setAngularVelocity(btVector3(0, 0, 0));
}

void World::set_collisions(BodyId body, bool on) {
  btRigidBody& b = impl_->rigid(body);
  const int flags = b.getCollisionFlags();
  b.setCollisionFlags(on ? flags & ~btCollisionObject::CF_NO_CONTACT_RESPONSE
                         : flags | btCollisionObject::CF_NO_CONTACT_RESPONSE);
}

void World::ignore_collisions(BodyId a, BodyId b) {
  impl_->rigid(a).setIgnoreCollisionCheck(&impl_->rigid(b), true);
  impl_->rigid(b).setIgnoreCollisionCheck(&impl_->rigid(a), true);
}

void World::set_joint_target(JointId joint, Quat local_rotation) {
  impl_->joint(joint).set_target(local_rotation);
}

Vec3 World::joint_angles(JointId joint) const {
  return impl_->joint(joint).angles();
}

float World::joint_separation(JointId joint) const {
  return impl_->joint(joint).separation();
}

float World::max_joint_separation() const {
  float worst = 0;
  for (const auto& j : impl_->joints) {
    if (j && !j->anchored_to_world()) worst = std::max(worst, j->separation());
  }
  return worst;
}

SolverLoad World::solver_load() const {
  SolverLoad load;
  btOverlappingPairCache& pairs = *impl_->broadphase.getOverlappingPairCache();
  load.broadphase_pairs = pairs.getNumOverlappingPairs();
  for (int i = 0; i < load.broadphase_pairs; ++i) {
    const btBroadphasePair& p = pairs.getOverlappingPairArrayPtr()[i];
    if (same_ragdoll(impl_->record_of(*p.m_pProxy0), impl_->record_of(*p.m_pProxy1)))
      ++load.self_pairs;
  }
  btCollisionDispatcher& dispatcher = impl_->dispatcher;
  for (int i = 0; i < dispatcher.getNumManifolds(); ++i) {
    const btPersistentManifold* m = dispatcher.getManifoldByIndexInternal(i);
    load.contact_points += m->getNumContacts();
    if (same_ragdoll(impl_->record_of(*m->getBody0()), impl_->record_of(*m->getBody1()))) {
      load.self_contact_points += m->getNumContacts();
    }
  }
  // Counting rows asks each constraint for them (getInfo1), which only refreshes what it caches
  // for the solver; the next step computes that again, so the simulation is not changed.
  auto& dynamics = const_cast<DynamicsWorld&>(impl_->dynamics);
  const int world_iterations = dynamics.getSolverInfo().m_numIterations;
  for (int i = 0; i < dynamics.getNumConstraints(); ++i) {
    btTypedConstraint* c = dynamics.getConstraint(i);
    if (!c->isEnabled()) continue;
    btTypedConstraint::btConstraintInfo1 info;
    c->getInfo1(&info);
    ++load.constraints;
    load.constraint_rows += info.m_numConstraintRows;
    const int own = c->getOverrideNumSolverIterations();
    load.constraint_row_iterations += info.m_numConstraintRows * (own > 0 ? own : world_iterations);
  }
  return load;
}

std::uint64_t World::state_hash() const {
  std::uint64_t h = 14695981039346656037ull;
  for (std::size_t i = 0; i < impl_->bodies.size(); ++i) {
    const BodyRecord& record = impl_->bodies[i];
    if (!record.body) continue;  // a removed ragdoll's
    if (record.suspended) {
      // As Bullet would hold the pose: the same numbers as a simulated body's.
      const BodyState& s = impl_->posed[i];
      hash_body(h, btTransform(to_bt(s.rotation), to_bt(s.position)), to_bt(s.linear_velocity),
                to_bt(s.angular_velocity));
    } else {
      const btRigidBody& b = *record.body;
      hash_body(h, b.getCenterOfMassTransform(), b.getLinearVelocity(), b.getAngularVelocity());
    }
  }
  return h;
}

bool body_finite(const btRigidBody& b) {
  const btTransform& t = b.getCenterOfMassTransform();
  return finite(t.getOrigin()) && finite(t.getBasis()[0]) && finite(t.getBasis()[1]) &&
         finite(t.getBasis()[2]) && finite(b.getLinearVelocity()) && finite(b.getAngularVelocity());
}

std::optional<std::string> body_runaway(const btRigidBody& b) {
  const btVector3& p = b.getCenterOfMassTransform().getOrigin();
  const auto extent = static_cast<btScalar>(limits::kWorldExtentM);
  const auto speed_limit = static_cast<btScalar>(limits::kMaxBodySpeedMps);
  if (std::fabs(p.x()) > extent || std::fabs(p.y()) > extent || std::fabs(p.z()) > extent) {
    return "at " + limits::number_text(static_cast<double>(p.length())) +
           " m from the origin, beyond the world's " + limits::number_text(limits::kWorldExtentM) +
           " m";
  }
  if (b.getLinearVelocity().length2() > speed_limit * speed_limit) {
    return "moving at " + limits::number_text(static_cast<double>(b.getLinearVelocity().length())) +
           " m/s, faster than the limit of " + limits::number_text(limits::kMaxBodySpeedMps) +
           " m/s";
  }
  return std::nullopt;
}

bool World::all_finite() const {
  for (const auto& record : impl_->bodies) {
    if (record.body && !body_finite(*record.body)) return false;
  }
  return true;
}

}  // namespace stagger::physics
