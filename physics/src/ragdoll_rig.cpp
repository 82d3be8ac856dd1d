#include "stagger/physics/ragdoll_rig.h"

#include <algorithm>

#include "bullet_convert.h"
#include "world_impl.h"

namespace stagger::physics {
namespace {

// [kg] the mass the stance grip's force is given for; it scales with the body's mass.
constexpr float kGripReferenceMassKg = 75.0f;

}  // namespace

RagdollAssembly assemble_ragdoll(World::Impl& impl, const RagdollBlueprint& blueprint,
                                 const RagdollSettings& settings, Vec3 feet_position, float yaw_rad,
                                 bool controlled) {
  RagdollAssembly out;
  const int owner = impl.next_owner++;
  out.owner = owner;
  // A driven body does not collide with itself (the usual active-ragdoll practice, PuppetMaster's
  // among them: its pose is the drives' business, and its 30-odd pairs of nearby limbs
  // were a third of a patrolling ragdoll's collision work); it does once it goes limp.
  impl.self_collision.push_back(controlled ? SelfCollision::off : SelfCollision::bullet);
  const Quat facing = Quat::from_yaw(yaw_rad);
  // Bodies and joints are inserted in enum order: a fixed insertion order keeps runs identical.
  for (const BodyBlueprint& b : blueprint.bodies) {
    BodySettings body;
    body.shape = b.shape;
    body.radius = b.radius;
    body.half_length = b.half_length;
    body.half_extents = b.half_extents;
    body.mass_kg = b.mass;
    body.inertia = b.inertia;
    body.position = feet_position + facing.rotate(b.center);
    body.rotation = facing;
    const bool foot = b.part == BodyPart::foot_l || b.part == BodyPart::foot_r;
    body.friction = foot ? settings.foot_friction : settings.body_friction;
    out.bodies[slot(b.part)] = impl.add_body(body, owner, index_of(b.part));
  }
  for (const JointBlueprint& j : blueprint.joints) {
    JointSettings joint;
    joint.parent = out.bodies[slot(j.parent)];
    joint.child = out.bodies[slot(j.child)];
    joint.pivot = feet_position + facing.rotate(j.pivot);
    joint.frame_rotation = facing;
    joint.limits = j.limits;
    joint.drive = j.drive;
    out.joints[slot(j.joint)] = impl.add_joint(joint, true, controlled);
  }
  return out;
}

namespace {

constexpr float kSpawnProbeAboveM = 0.5f;  // [m] the ground under a spawn is looked for from here
constexpr float kSpawnProbeBelowM = 0.5f;  // [m] ... down to this far under the soles

// [m] `feet` raised so that no corner of either sole in the build pose is inside the static
// ground under it: a level's spawn point lies on the ground, but on a slope the uphill half of
// each foot would be built inside it and thrown out at the first step of the simulation.
Vec3 clear_of_ground(const World::Impl& impl, const RagdollBlueprint& blueprint, Vec3 feet,
                     float yaw_rad) {
  const Quat facing = Quat::from_yaw(yaw_rad);
  float raise = 0;
  for (const BodyPart foot : {BodyPart::foot_l, BodyPart::foot_r}) {
    const BodyBlueprint& b = blueprint.bodies[slot(foot)];
    for (const float x : {-b.half_extents.x, b.half_extents.x}) {
      for (const float z : {-b.half_extents.z, b.half_extents.z}) {
        const Vec3 corner = feet + facing.rotate(b.center + Vec3{x, -b.half_extents.y, z});
        const GroundHit ground = impl.probe_ground(corner, kSpawnProbeAboveM, kSpawnProbeBelowM);
        if (ground.hit) raise = std::max(raise, ground.point.y - corner.y);
      }
    }
  }
  return feet + Vec3{0, raise, 0};
}

}  // namespace

RagdollRig::RagdollRig(World& world, const RagdollSettings& settings, Vec3 feet_position,
                       float yaw_rad)
    : world_(world),
      settings_(settings),
      blueprint_(make_blueprint(settings)),
      spawn_feet_(clear_of_ground(world.impl(), blueprint_, feet_position, yaw_rad)),
      spawn_yaw_(yaw_rad) {
  World::Impl& impl = world_.impl();
  const RagdollAssembly parts =
      assemble_ragdoll(impl, blueprint_, settings_, spawn_feet_, yaw_rad, true);
  owner_ = parts.owner;
  bodies_ = parts.bodies;
  joints_ = parts.joints;
  // Uprighting drive: the pelvis against the static world, tilt axes only (yaw is free). The torso
  // stays upright through the spine drives, which hold it straight above the pelvis.
  JointSettings upright;
  upright.parent_is_world = true;
  upright.child = bodies_[slot(BodyPart::pelvis)];
  upright.pivot = world_.body_state(upright.child).position;
  upright.frame_rotation = Quat::from_yaw(yaw_rad);
  upright.limits = {{1, 1, 1}, {0, 0, 0}};  // free on every axis
  upright.drive = {settings_.upright.frequency_hz, settings_.upright.damping_ratio,
                   settings_.upright.max_torque_nm * settings_.torque_scale()};
  upright.drive_axes[1] = false;
  upright_ = impl.add_joint(upright, false);

  FootAnchorSettings grip;
  grip.max_force_n = settings_.stance_grip_n * settings_.mass_kg / kGripReferenceMassKg;
  grip.slip_m = settings_.stance_slip_m;
  foot_anchors_ = {impl.add_foot_anchor(bodies_[slot(BodyPart::foot_l)], grip),
                   impl.add_foot_anchor(bodies_[slot(BodyPart::foot_r)], grip)};
  pelvis_pull_ = impl.add_pull(bodies_[slot(BodyPart::pelvis)]);
}

void RagdollRig::move_spawn(Vec3 feet_position, float yaw_rad) {
  spawn_feet_ = clear_of_ground(world_.impl(), blueprint_, feet_position, yaw_rad);
  spawn_yaw_ = yaw_rad;
}

std::optional<BodyPart> RagdollRig::part_of(BodyId id) const {
  for (int p = 0; p < kBodyPartCount; ++p) {
    if (bodies_[static_cast<std::size_t>(p)] == id) return body_part_at(p);
  }
  return std::nullopt;
}

Pose RagdollRig::current_pose() const {
  // Every joint frame shares its bodies' build orientation, so a joint's rotation is simply the
  // child's orientation relative to the parent's.
  Pose pose;
  for (int j = 0; j < kJointCount; ++j) {
    const JointName joint = joint_at(j);
    const Quat parent = body_state(joint_parent(joint)).rotation;
    const Quat child = body_state(child_of(joint)).rotation;
    pose.rotations[static_cast<std::size_t>(j)] = normalized(parent.conjugate() * child);
  }
  return pose;
}

MassCenter RagdollRig::mass_center(int skip_leg) const {
  const int first_skipped = skip_leg < 0
                                ? kBodyPartCount
                                : index_of(skip_leg == 0 ? BodyPart::thigh_l : BodyPart::thigh_r);
  Vec3 com;
  Vec3 velocity;
  float total = 0;
  for (int p = 0; p < kBodyPartCount; ++p) {
    if (p >= first_skipped && p < first_skipped + 3) continue;  // thigh, shin, foot
    const float m = blueprint_.bodies[static_cast<std::size_t>(p)].mass;
    const BodyId id = bodies_[static_cast<std::size_t>(p)];
    if (!simulated_) {
      const BodyState s = world_.body_state(id);  // its posed state
      com += s.position * m;
      velocity += s.linear_velocity * m;
    } else {
      // (Bullet's numbers directly: body_state would also make each part's quaternion.)
      const btRigidBody& b = world_.impl().rigid(id);
      com += from_bt(b.getCenterOfMassTransform().getOrigin()) * m;
      velocity += from_bt(b.getLinearVelocity()) * m;
    }
    total += m;
  }
  return {com / total, velocity / total};
}

float RagdollRig::max_body_speed() const {
  float fastest = 0;
  for (BodyId id : bodies_)
    fastest = std::max(fastest, length(world_.body_state(id).linear_velocity));
  return fastest;
}

float RagdollRig::lowest_point(float floor) const {
  float lowest = floor;
  for (BodyId id : bodies_) {
    btVector3 min;
    btVector3 max;
    world_.impl().rigid(id).getAabb(min, max);
    lowest = std::min(lowest, min.y());
  }
  return lowest;
}

float RagdollRig::max_joint_separation() const {
  float worst = 0;
  for (JointId j : joints_) worst = std::max(worst, world_.joint_separation(j));
  return worst;
}

bool RagdollRig::touching(BodyPart part) const {
  return world_.impl().bodies[static_cast<std::size_t>(body(part))].touching;
}

float RagdollRig::pelvis_yaw() const {
  return yaw_of(body_state(BodyPart::pelvis).rotation.rotate({0, 0, 1}));
}

GroundHit RagdollRig::probe_ground(Vec3 at, float above, float below) const {
  return world_.impl().probe_ground(at, above, below);
}

std::optional<Runaway> RagdollRig::first_runaway_part() const {
  const World::Impl& impl = world_.impl();
  for (int p = 0; p < kBodyPartCount; ++p) {
    if (auto what = body_runaway(impl.rigid(body(body_part_at(p)))))
      return Runaway{body_part_at(p), std::move(*what)};
  }
  return std::nullopt;
}

std::optional<BodyPart> RagdollRig::first_non_finite_part() const {
  // Bullet's own numbers, without turning the basis into a quaternion for every part in every
  // step (body_state would).
  const World::Impl& impl = world_.impl();
  for (int p = 0; p < kBodyPartCount; ++p) {
    if (!body_finite(impl.rigid(body(body_part_at(p))))) return body_part_at(p);
  }
  return std::nullopt;
}

void RagdollRig::apply_impulse(BodyPart part, Vec3 impulse) {
  world_.apply_impulse(body(part), impulse);
}

void RagdollRig::apply_roll(std::span<const BodyPart> parts, Vec3 point, Vec3 axis,
                            float angular_acceleration, float max_torque) {
  std::array<Vec3, kBodyPartCount> radial{};
  std::array<float, kBodyPartCount> own{};  // [kg·m²] each part's inertia about its own axis
  float inertia = 0;                        // [kg·m²] all of them, about the line
  for (const BodyPart part : parts) {
    const std::size_t i = slot(part);
    const BodyBlueprint& shape = blueprint_.bodies[i];
    const BodyState s = world_.body_state(bodies_[i]);
    const Vec3 off = s.position - point;
    const Vec3 local = s.rotation.conjugate().rotate(axis);
    radial[i] = off - axis * dot(off, axis);
    own[i] = shape.inertia.x * local.x * local.x + shape.inertia.y * local.y * local.y +
             shape.inertia.z * local.z * local.z;
    inertia += shape.mass * dot(radial[i], radial[i]) + own[i];
  }
  if (!(inertia > 0)) return;
  const float torque = std::clamp(inertia * angular_acceleration, -max_torque, max_torque);
  const Vec3 alpha = axis * (torque / inertia);
  const float dt = world_.dt();
  for (const BodyPart part : parts) {
    const std::size_t i = slot(part);
    const float mass = blueprint_.bodies[i].mass;
    world_.apply_impulse(bodies_[i], cross(alpha, radial[i]) * (mass * dt));
    world_.apply_torque(bodies_[i], alpha * own[i]);
  }
}

void RagdollRig::apply_impulse_to_all(Vec3 impulse) {
  for (int b = 0; b < kBodyPartCount; ++b) {
    const BodyPart part = body_part_at(b);
    world_.apply_impulse(body(part), impulse * (blueprint_.bodies[slot(part)].mass / mass()));
  }
}

void RagdollRig::drive_joint(JointName joint, Quat target, float strength) {
  DrivenJoint& j = world_.impl().joint(joints_[slot(joint)]);
  j.set_target(target);
  j.set_strength(strength);
}

void RagdollRig::set_drives_active(bool active) {
  World::Impl& impl = world_.impl();
  for (JointId j : joints_) {
    impl.joint(j).set_limp(!active);
    impl.joint(j).set_strength(active ? 1.0f : settings_.limp_strength);
  }
  drives_active_ = active;
  impl.joint(upright_).set_strength(active ? 1.0f : 0.0f);
  impl.pulls[pelvis_pull_]->release();
  impl.set_self_collision(owner_, active ? SelfCollision::off : SelfCollision::limp);
  for (BodyId b : bodies_) {
    btRigidBody& rigid = impl.rigid(b);
    rigid.setDamping(0, 0);
    if (active) {
      rigid.forceActivationState(DISABLE_DEACTIVATION);
    } else {
      // A limp body may fall asleep once it comes to rest.
      rigid.forceActivationState(ACTIVE_TAG);
      rigid.setDeactivationTime(0);
    }
  }
}

void RagdollRig::set_limp_friction(float strength) {
  if (drives_active_) return;
  World::Impl& impl = world_.impl();
  for (JointId j : joints_) impl.joint(j).set_strength(strength);
}

void RagdollRig::set_damping(float linear, float angular) {
  World::Impl& impl = world_.impl();
  for (BodyId b : bodies_) impl.rigid(b).setDamping(linear, angular);
}

void RagdollRig::close_joint_gaps(float max_gap) {
  // joints_ runs from the trunk out (lumbar, neck, shoulders, elbows, hips, knees, ankles).
  for (JointId j : joints_) world_.impl().joint(j).close_gap(max_gap);
}

void RagdollRig::set_joint_iterations(int iterations) {
  World::Impl& impl = world_.impl();
  for (JointId j : joints_) impl.joint(j).set_solver_iterations(iterations);
}

void RagdollRig::set_upright_strength(float strength) {
  world_.impl().joint(upright_).set_strength(strength);
}

void RagdollRig::set_upright_holds_heading(bool on) {
  world_.impl().joint(upright_).set_axis_driven(1, on);
}

float RagdollRig::upright_body_yaw() const {
  const DrivenJoint& joint = world_.impl().joint(upright_);
  return yaw_of(from_bt(joint.constraint().getRigidBodyB().getOrientation()).rotate({0, 0, 1}));
}

void RagdollRig::aim_upright(float yaw_rad) {
  // Keep the drive's world frame turned with the body, so only tilt is corrected.
  DrivenJoint& joint = world_.impl().joint(upright_);
  joint.constraint().getFrameOffsetA().setRotation(to_bt(Quat::from_yaw(yaw_rad)));
  joint.set_target(Quat::identity());
}

void RagdollRig::grip_foot(int leg, bool hold) {
  world_.impl().foot_anchors[foot_anchors_[static_cast<std::size_t>(leg)]]->update(hold);
}

void RagdollRig::set_foot_friction(int leg, float friction) {
  const BodyPart foot = leg == 0 ? BodyPart::foot_l : BodyPart::foot_r;
  world_.impl().rigid(body(foot)).setFriction(friction);
}

void RagdollRig::pull_pelvis(Vec3 target, Vec3 max_force, float time_constant_s, float max_speed,
                             Vec3 target_velocity) {
  WorldPull& pull = *world_.impl().pulls[pelvis_pull_];
  pull.set_target(target);
  pull.pull(max_force, time_constant_s, max_speed, target_velocity);
}

void RagdollRig::release_pelvis() {
  world_.impl().pulls[pelvis_pull_]->release();
}

void RagdollRig::clamp_velocities(float max_linear, float max_angular) {
  World::Impl& impl = world_.impl();
  for (BodyId id : bodies_) {
    btRigidBody& b = impl.rigid(id);
    const btVector3 v = b.getLinearVelocity();
    if (v.length() > max_linear) b.setLinearVelocity(v * (max_linear / v.length()));
    const btVector3 w = b.getAngularVelocity();
    if (w.length() > max_angular) b.setAngularVelocity(w * (max_angular / w.length()));
  }
}

void RagdollRig::reset_to_spawn() {
  World::Impl& impl = world_.impl();
  // The build pose at the spawn, at rest, simulated again (Bullet takes a body with a non-finite
  // bounding box out of the simulation).
  const Quat facing = Quat::from_yaw(spawn_yaw_);
  for (const BodyBlueprint& b : blueprint_.bodies) {
    btRigidBody& rigid = impl.rigid(body(b.part));
    const btTransform transform(to_bt(facing), to_bt(spawn_feet_ + facing.rotate(b.center)));
    rigid.setWorldTransform(transform);
    rigid.setCenterOfMassTransform(transform);
    rigid.setInterpolationWorldTransform(transform);
    rigid.setLinearVelocity({0, 0, 0});
    rigid.setAngularVelocity({0, 0, 0});
    rigid.setInterpolationLinearVelocity({0, 0, 0});
    rigid.setInterpolationAngularVelocity({0, 0, 0});
    rigid.clearForces();
    rigid.forceActivationState(DISABLE_DEACTIVATION);
    impl.dynamics.updateSingleAabb(&rigid);
  }
}

void RagdollRig::set_simulated(bool simulated) {
  World::Impl& impl = world_.impl();
  impl.set_owner_simulated(owner_, simulated);  // back at the pose last placed, if simulated
  if (simulated) {
    for (const BodyBlueprint& b : blueprint_.bodies) {
      btRigidBody& rigid = impl.rigid(body(b.part));
      rigid.updateInertiaTensor();
      rigid.clearForces();
    }
  }
  simulated_ = simulated;
}

bool RagdollRig::overlaps_anything(float depth_m) {
  for (const BodyBlueprint& b : blueprint_.bodies) {
    const BodyState s = body_state(b.part);
    if (world_.overlaps_at(body(b.part), s.position, s.rotation, depth_m)) return true;
  }
  return false;
}

void RagdollRig::place_parts(const std::array<BodyState, kBodyPartCount>& parts) {
  World::Impl& impl = world_.impl();
  for (const BodyBlueprint& b : blueprint_.bodies) {
    const BodyState& to = parts[slot(b.part)];
    // A body out of the world is posed in the world's packed poses; Bullet's body gets the
    // pose, and its world inertia, when it comes back (set_simulated).
    if (!simulated_) {
      impl.place_suspended(body(b.part), to);
      continue;
    }
    btRigidBody& rigid = impl.rigid(body(b.part));
    place_rigid(rigid, to);
    rigid.updateInertiaTensor();
    rigid.clearForces();
    impl.dynamics.updateSingleAabb(&rigid);
  }
}

void RagdollRig::set_joint_targets(const Pose& pose, bool forget_motion) {
  World::Impl& impl = world_.impl();
  for (int j = 0; j < kJointCount; ++j) {
    DrivenJoint& joint = impl.joint(joints_[static_cast<std::size_t>(j)]);
    if (forget_motion) joint.forget_motion();
    joint.set_target(pose.rotations[static_cast<std::size_t>(j)]);
  }
}

}  // namespace stagger::physics
