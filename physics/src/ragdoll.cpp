#include "stagger/physics/ragdoll.h"

#include <algorithm>
#include <cmath>

#include "bullet_convert.h"
#include "stagger/core/assert.h"
#include "world_impl.h"

namespace stagger::physics {
namespace {

constexpr std::size_t idx(BodyPart part) {
  return static_cast<std::size_t>(index_of(part));
}
constexpr std::size_t idx(JointName joint) {
  return static_cast<std::size_t>(index_of(joint));
}

// The torso joint that twists when a body part is struck (the pelvis has none).
std::optional<JointName> twist_joint_for(BodyPart part) {
  switch (part) {
    case BodyPart::head:
      return JointName::neck;
    case BodyPart::chest:
      return JointName::lumbar;
    default:
      return std::nullopt;
  }
}

// Thigh, shin and foot of leg 0 (left) or 1 (right).
bool in_leg(BodyPart part, int leg) {
  const int first = index_of(leg == 0 ? BodyPart::thigh_l : BodyPart::thigh_r);
  return index_of(part) >= first && index_of(part) < first + 3;
}

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
    out.bodies[idx(b.part)] = impl.add_body(body, owner, index_of(b.part));
  }
  for (const JointBlueprint& j : blueprint.joints) {
    JointSettings joint;
    joint.parent = out.bodies[idx(j.parent)];
    joint.child = out.bodies[idx(j.child)];
    joint.pivot = feet_position + facing.rotate(j.pivot);
    joint.frame_rotation = facing;
    joint.limits = j.limits;
    joint.drive = j.drive;
    out.joints[idx(j.joint)] = impl.add_joint(joint, true, controlled);
  }
  return out;
}

std::string_view name_of(LocomotionState state) {
  switch (state) {
    case LocomotionState::standing:
      return "standing";
    case LocomotionState::stepping:
      return "stepping";
    case LocomotionState::walking:
      return "walking";
    case LocomotionState::falling:
      return "falling";
    case LocomotionState::down:
      return "down";
    case LocomotionState::getting_up:
      return "getting_up";
    case LocomotionState::dead:
      return "dead";
  }
  return "?";
}

Ragdoll::Ragdoll(World& world, const RagdollSettings& settings, Vec3 feet_position, float yaw_rad)
    : world_(world),
      settings_(settings),
      blueprint_(make_blueprint(settings)),
      yaw_(yaw_rad),
      spawn_feet_(feet_position),
      spawn_yaw_(yaw_rad) {
  World::Impl& impl = world_.impl();
  const RagdollAssembly parts =
      assemble_ragdoll(impl, blueprint_, settings_, feet_position, yaw_rad, true);
  owner_ = parts.owner;
  bodies_ = parts.bodies;
  joints_ = parts.joints;
  // Uprighting drive: the pelvis against the static world, tilt axes only (yaw is free). The torso
  // stays upright through the spine drives, which hold it straight above the pelvis.
  JointSettings upright;
  upright.parent_is_world = true;
  upright.child = bodies_[idx(BodyPart::pelvis)];
  upright.pivot = world_.body_state(upright.child).position;
  upright.frame_rotation = Quat::from_yaw(yaw_rad);
  upright.limits = {{1, 1, 1}, {0, 0, 0}};  // free on every axis
  upright.drive = {settings_.upright.frequency_hz, settings_.upright.damping_ratio,
                   settings_.upright.max_torque_nm * settings_.torque_scale()};
  upright.drive_axes[1] = false;
  upright_ = impl.add_joint(upright, false);

  FootAnchorSettings grip;
  grip.max_force_n = settings_.stance_grip_n * settings_.mass_kg / 75.0f;
  grip.slip_m = settings_.stance_slip_m;
  foot_anchors_ = {impl.add_foot_anchor(bodies_[idx(BodyPart::foot_l)], grip),
                   impl.add_foot_anchor(bodies_[idx(BodyPart::foot_r)], grip)};
  pelvis_assist_ = impl.add_pull(bodies_[idx(BodyPart::pelvis)]);

  blend_from_ = blend_to_ = target_ = standing_pose();
  for (int j = 0; j < kJointCount; ++j) {
    world_.set_joint_target(joints_[static_cast<std::size_t>(j)],
                            target_.rotations[static_cast<std::size_t>(j)]);
  }
  update_balance(0.0f);
}

BodyState Ragdoll::body_state(BodyPart part) const {
  return world_.body_state(body(part));
}

void Ragdoll::apply_impulse(BodyPart part, Vec3 impulse) {
  world_.apply_impulse(body(part), impulse);
  react_to_hit(part, impulse);
}

std::optional<BodyPart> Ragdoll::part_of(BodyId id) const {
  for (int p = 0; p < kBodyPartCount; ++p) {
    if (bodies_[static_cast<std::size_t>(p)] == id) return body_part_at(p);
  }
  return std::nullopt;
}

void Ragdoll::react_to_hit(BodyPart part, Vec3 impulse) {
  const float magnitude = length(impulse);
  last_hit_ns_ = since_hit_s_ > 0 ? magnitude : std::max(last_hit_ns_, magnitude);
  since_hit_s_ = 0;
  if (state_ == LocomotionState::getting_up && magnitude >= settings_.get_up.knockdown_ns) {
    finish_get_up(false);
  }
  const HitReactionSettings& hit = settings_.hit;
  const float depth = hit_depth(magnitude, hit);
  if (depth <= 0) return;

  // The struck part loses the most strength; its parent and children less.
  strength_[idx(part)].hit(depth, hit);
  if (part != BodyPart::pelvis)
    strength_[idx(parent_of(part))].hit(depth * hit.neighbour_share, hit);
  for (int c = 1; c < kBodyPartCount; ++c) {
    if (parent_of(body_part_at(c)) == part) {
      strength_[static_cast<std::size_t>(c)].hit(depth * hit.neighbour_share, hit);
    }
  }

  // A struck head or torso tilts away from the blow (about up × direction, in the character's
  // frame) and turns a little toward its sideways part, then springs back.
  if (!twist_joint_for(part)) return;
  const Quat to_local = Quat::from_yaw(yaw_).conjugate();
  const Vec3 direction = normalized(horizontal(to_local.rotate(impulse)));
  if (length(direction) < 0.5f) return;
  const Vec3 axis = cross({0, 1, 0}, direction) + Vec3{0, 1, 0} * (0.5f * direction.x);
  twist_[idx(part)].kick(normalized(axis), magnitude, hit);
}

void Ragdoll::set_pose(const Pose& pose) {
  blend_from_ = blend_to_ = target_ = pose;
  blend_duration_ = blend_elapsed_ = 0;
}

void Ragdoll::blend_to_pose(const Pose& pose, float seconds) {
  if (seconds <= 0) {
    set_pose(pose);
    return;
  }
  blend_from_ = target_;
  blend_to_ = pose;
  blend_duration_ = seconds;
  blend_elapsed_ = 0;
}

void Ragdoll::update_joint_iterations() {
  // Extra joint iterations keep joints together when a limp body hits the ground, but while
  // standing they would outrun the contacts and make the feet creep. Getting up, and until its
  // extra resistance runs out, every joint has the world's full count (with fewer in mid-range,
  // 18 of 20 knock-downs stood and stayed up, against 19); otherwise a driven joint far from its
  // limits has WorldSettings::free_joint_iterations.
  World::Impl& impl = world_.impl();
  int iterations = 0;
  if (!drives_active_) {
    iterations = settings_.limp_solver_iterations;
  } else if (state_ == LocomotionState::getting_up || resistance_time_s_ > 0) {
    iterations = impl.settings.solver_iterations;
  }
  for (JointId j : joints_) impl.joint(j).set_solver_iterations(iterations);
}

void Ragdoll::set_drives_active(bool active) {
  World::Impl& impl = world_.impl();
  for (JointId j : joints_) {
    impl.joint(j).set_limp(!active);
    impl.joint(j).set_strength(active ? 1.0f : settings_.limp_strength);
  }
  drives_active_ = active;
  update_joint_iterations();
  impl.joint(upright_).set_strength(active ? 1.0f : 0.0f);
  impl.pulls[pelvis_assist_]->release();
  impl.set_self_collision(owner_, active ? SelfCollision::off : SelfCollision::limp);
  for (BodyId b : bodies_) {
    btRigidBody& rigid = impl.rigid(b);
    if (active) {
      rigid.forceActivationState(DISABLE_DEACTIVATION);
    } else {
      // A limp body may fall asleep once it comes to rest.
      rigid.forceActivationState(ACTIVE_TAG);
      rigid.setDeactivationTime(0);
    }
  }
}

bool Ragdoll::gives_up(const BalanceSettings& thresholds, float dt) {
  // A walking body's capture-point error is given a moment past the threshold before it gives
  // up: the gait's next step may still catch it. A shove is judged at once.
  constexpr float kJudgedAtOnceAfterHitS = 1.0f;  // [s]
  past_fall_error_s_ = balance_.error_m > thresholds.fall_error_m ? past_fall_error_s_ + dt : 0.0f;
  const BalanceSettings& s = settings_.balance;
  const bool walking = state_ == LocomotionState::walking && since_hit_s_ > kJudgedAtOnceAfterHitS;
  if (!walking || past_fall_error_s_ >= s.walk_fall_hold_s)
    return past_fall_threshold(balance_, thresholds);
  BalanceSettings held = thresholds;
  held.fall_error_m *= s.walk_fall_error_at_once;
  return past_fall_threshold(balance_, held);
}

void Ragdoll::fall() {
  if (state_ == LocomotionState::falling || state_ == LocomotionState::down ||
      state_ == LocomotionState::dead) {
    return;
  }
  cancel_steps();
  past_fall_error_s_ = 0;
  state_ = LocomotionState::falling;
  state_time_s_ = still_time_s_ = 0;
  assist_fade_s_ = 0;
  rising_ = false;
  set_drives_active(false);
  clamp_velocities();
}

void Ragdoll::kill() {
  if (state_ == LocomotionState::dead) return;
  if (is_upright(state_) || state_ == LocomotionState::getting_up) clamp_velocities();
  cancel_steps();
  state_ = LocomotionState::dead;
  state_time_s_ = 0;
  rising_ = false;
  assist_fade_s_ = 0;
  set_drives_active(false);
}

Pose Ragdoll::current_pose() const {
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

float Ragdoll::max_body_speed() const {
  float fastest = 0;
  for (BodyId id : bodies_)
    fastest = std::max(fastest, length(world_.body_state(id).linear_velocity));
  return fastest;
}

float Ragdoll::strength(BodyPart part) const {
  return strength_[idx(part)].strength(settings_.hit);
}

float Ragdoll::pelvis_height() const {
  // Above the lowest point of the body: the soles when standing, the ground when lying.
  float lowest = balance_.com.y - balance_.com_height_m;
  for (BodyId id : bodies_) {
    btVector3 min;
    btVector3 max;
    world_.impl().rigid(id).getAabb(min, max);
    lowest = std::min(lowest, min.y());
  }
  return body_state(BodyPart::pelvis).position.y - lowest;
}

float Ragdoll::max_joint_separation() const {
  float worst = 0;
  for (JointId j : joints_) worst = std::max(worst, world_.joint_separation(j));
  return worst;
}

bool Ragdoll::foot_contact(BodyPart foot) const {
  return world_.impl().bodies[static_cast<std::size_t>(body(foot))].touching;
}

void Ragdoll::before_step(float dt) {
  age_s_ += dt;
  since_hit_s_ += dt;
  for (auto& s : strength_) s.advance(dt);
  for (auto& t : twist_) t.advance(dt, settings_.hit);
  state_time_s_ += dt;
  const bool resisting = resistance_time_s_ > 0;
  resistance_time_s_ = std::max(0.0f, resistance_time_s_ - dt);
  if (resisting && resistance_time_s_ == 0) update_joint_iterations();  // full count ends
  update_foot_anchors();
  if (state_ == LocomotionState::getting_up) update_get_up(dt);
  if (assist_fade_s_ > 0 && is_upright(state_)) fade_assistance(dt);
  if (!is_upright(state_) && state_ != LocomotionState::getting_up) return;
  update_targets(dt);
  update_upright();
}

void Ragdoll::after_step(float dt) {
  update_balance(dt);
  switch (state_) {
    case LocomotionState::standing:
    case LocomotionState::stepping:
    case LocomotionState::walking: {
      // Just after getting up it takes more to knock the body down again.
      BalanceSettings thresholds = settings_.balance;
      if (resistance_time_s_ > 0) {
        thresholds.fall_error_m *= settings_.get_up.resistance;
        thresholds.fall_tilt_rad =
            std::min(thresholds.fall_tilt_rad * settings_.get_up.resistance, deg_to_rad(80.0f));
      }
      // Walking, the capture point runs up to half a step from the feet as the body vaults over
      // the stance foot; that much is the gait, not a stumble.
      thresholds.fall_error_m +=
          length(commanded_velocity()) * 0.5f * (settings_.step.lift_s + settings_.step.plant_s);
      if (gives_up(thresholds, dt)) fall();
      break;
    }
    case LocomotionState::getting_up: {
      const GetUpSettings& g = settings_.get_up;
      const float standing = blueprint_.bodies[idx(BodyPart::pelvis)].center.y;
      const bool up = rising_ && state_time_s_ >= g.tuck_s + g.rise_s &&
                      pelvis_height() > 0.92f * standing && balance_.tilt_rad < deg_to_rad(8.0f) &&
                      balance_.error_m < 0.5f * settings_.balance.fall_error_m &&
                      (foot_contact(BodyPart::foot_l) || foot_contact(BodyPart::foot_r));
      if (up) {
        finish_get_up(true);
      } else if (state_time_s_ > g.timeout_s) {
        finish_get_up(false);
      }
      break;
    }
    case LocomotionState::falling:
    case LocomotionState::down:
      update_fallen(dt);
      break;
    case LocomotionState::dead:
      break;
  }
}

void Ragdoll::update_fallen(float dt) {
  const GetUpSettings& g = settings_.get_up;
  still_time_s_ = max_body_speed() < g.still_speed ? still_time_s_ + dt : 0.0f;
  if (state_ == LocomotionState::falling && still_time_s_ >= g.still_time_s) {
    state_ = LocomotionState::down;
    state_time_s_ = 0;
  }
  if (state_ == LocomotionState::down && !stays_down() && state_time_s_ >= g.down_time_s) {
    start_get_up();
  }
}

void Ragdoll::start_get_up() {
  const Quat pelvis = body_state(BodyPart::pelvis).rotation;
  // Face down when the belly (pelvis +Z) points at the ground. A body lying face up stands up
  // facing its feet; one lying face down pushes up and faces where its head was.
  prone_ = pelvis.rotate({0, 0, 1}).y < 0;
  Vec3 head_direction = horizontal(pelvis.rotate({0, 1, 0}));
  if (length(head_direction) < 1e-3f) head_direction = horizontal(pelvis.rotate({0, 0, 1}));
  const Vec3 facing = prone_ ? head_direction : -head_direction;
  get_up_yaw_ = yaw_of(facing);

  state_ = LocomotionState::getting_up;
  state_time_s_ = 0;
  rising_ = false;
  set_drives_active(true);
  world_.impl().joint(upright_).set_strength(0.0f);
  target_ = current_pose();
  blend_to_pose(tuck_pose(prone_), settings_.get_up.tuck_s);
}

void Ragdoll::update_get_up(float /*dt*/) {
  // Stages: 1. tuck (blend from the lying pose); 2. rise: the joints blend to a crouch, then to
  // standing, while a capped lift carries the pelvis to standing height and the uprighting drive,
  // boosted, turns it upright; 3. after_step declares success once up, or failure on timeout.
  const GetUpSettings& g = settings_.get_up;
  World::Impl& impl = world_.impl();
  const float t = state_time_s_;
  if (t < g.tuck_s) return;
  WorldPull& lift = *impl.pulls[pelvis_assist_];
  if (!rising_) {
    rising_ = true;
    get_up_anchor_ = body_state(BodyPart::pelvis).position;
    blend_to_pose(crouch_pose(), 0.5f * g.rise_s);
  }
  const float u = std::clamp((t - g.tuck_s) / g.rise_s, 0.0f, 1.0f);
  if (u >= 0.5f && max_angle_between(blend_to_, standing_pose()) > 1e-4f) {
    blend_to_pose(standing_pose(), 0.5f * g.rise_s);
  }
  const float standing = blueprint_.bodies[idx(BodyPart::pelvis)].center.y;
  const float sole = balance_.com.y - balance_.com_height_m;
  const float height = get_up_anchor_.y + (sole + standing - get_up_anchor_.y) * smoothstep(u);
  // In the second half of the rise the hold moves the pelvis over the feet, which the legs have
  // drawn under the body by then.
  const float over_feet = smoothstep(2.0f * u - 1.0f);
  const Vec3 over = balance_.support_mid;
  lift.set_target({get_up_anchor_.x + (over.x - get_up_anchor_.x) * over_feet, height,
                   get_up_anchor_.z + (over.z - get_up_anchor_.z) * over_feet});
  const float weight = mass() * kGravity;
  const float ramp = std::min(1.0f, (t - g.tuck_s) / 0.2f);
  lift.pull({g.hold_ratio * weight, g.lift_ratio * weight * ramp, g.hold_ratio * weight}, 0.15f,
            1.5f);
  impl.joint(upright_).set_strength(g.upright_boost * std::min(1.0f, 2.0f * u));
}

void Ragdoll::fade_assistance(float dt) {
  // After a get-up the lift and the boosted uprighting let go over a moment, not at once.
  World::Impl& impl = world_.impl();
  assist_fade_s_ = std::max(0.0f, assist_fade_s_ - dt);
  const float left = assist_fade_s_ / kAssistFadeS;
  const GetUpSettings& g = settings_.get_up;
  if (left <= 0) {
    impl.pulls[pelvis_assist_]->release();
    impl.joint(upright_).set_strength(1.0f);
    return;
  }
  const float weight = mass() * kGravity;
  WorldPull& lift = *impl.pulls[pelvis_assist_];
  lift.set_target(body_state(BodyPart::pelvis).position);
  lift.pull(
      {g.hold_ratio * weight * left, g.lift_ratio * weight * left, g.hold_ratio * weight * left},
      0.15f, 1.5f);
  impl.joint(upright_).set_strength(1.0f + (g.upright_boost - 1.0f) * left);
}

void Ragdoll::finish_get_up(bool stood) {
  World::Impl& impl = world_.impl();
  if (!stood) impl.pulls[pelvis_assist_]->release();
  rising_ = false;
  if (!stood) {
    ++failed_get_ups_;
    fall();
    return;
  }
  ++get_ups_;
  failed_get_ups_ = 0;
  assist_fade_s_ = kAssistFadeS;
  state_ = LocomotionState::standing;
  state_time_s_ = 0;
  resistance_time_s_ = settings_.get_up.resistance_s;
  update_joint_iterations();
  ankle_integral_ = {};
  integral_shift_ = {};
  cancel_steps();
  yaw_ = get_up_yaw_;
  blend_to_pose(standing_pose(), 0.3f);
}

void Ragdoll::update_targets(float dt) {
  if (blend_duration_ > 0) {
    blend_elapsed_ = std::min(blend_elapsed_ + dt, blend_duration_);
    target_ = blend(blend_from_, blend_to_, smoothstep(blend_elapsed_ / blend_duration_));
    if (blend_elapsed_ >= blend_duration_) blend_duration_ = 0;
  }
  Pose pose = target_;
  for (int p = 0; p < kBodyPartCount; ++p) {
    const auto part = body_part_at(p);
    const auto joint = twist_joint_for(part);
    if (!joint || !twist_[static_cast<std::size_t>(p)].active()) continue;
    pose[*joint] = pose[*joint] * Quat::from_rotation_vector(
                                      twist_[static_cast<std::size_t>(p)].rotation_vector());
  }
  if (is_upright(state_)) {
    update_legs(dt, pose);
    for (int arm = 0; arm < 2; ++arm) apply_arm_reach(arm, pose);
  }

  World::Impl& impl = world_.impl();
  for (int j = 0; j < kJointCount; ++j) {
    const auto name = joint_at(j);
    DrivenJoint& joint = impl.joint(joints_[static_cast<std::size_t>(j)]);
    joint.set_target(pose.rotations[static_cast<std::size_t>(j)]);
    joint.set_strength(std::min(strength(child_of(name)), strength(joint_parent(name))));
  }
}

std::optional<Runaway> Ragdoll::first_runaway_part() const {
  const World::Impl& impl = world_.impl();
  for (int p = 0; p < kBodyPartCount; ++p) {
    if (auto what = body_runaway(impl.rigid(body(body_part_at(p)))))
      return Runaway{body_part_at(p), std::move(*what)};
  }
  return std::nullopt;
}

std::optional<BodyPart> Ragdoll::first_non_finite_part() const {
  // Bullet's own numbers, without turning the basis into a quaternion for every part in every
  // step (body_state would).
  const World::Impl& impl = world_.impl();
  for (int p = 0; p < kBodyPartCount; ++p) {
    if (!body_finite(impl.rigid(body(body_part_at(p))))) return body_part_at(p);
  }
  return std::nullopt;
}

void Ragdoll::reset() {
  World::Impl& impl = world_.impl();
  // The bodies: the build pose at the spawn, at rest, simulated again (Bullet takes a body with
  // a non-finite bounding box out of the simulation).
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
  // The controller, as the constructor leaves it (counts kept).
  const int get_ups = get_ups_;
  const int recovery_steps = recovery_steps_;
  const int steps_taken = steps_taken_;
  yaw_ = spawn_yaw_;
  blend_duration_ = blend_elapsed_ = 0;
  balance_ = {};
  airtime_s_ = past_fall_error_s_ = 0;
  ankle_integral_ = integral_shift_ = {};
  strength_ = {};
  twist_ = {};
  state_ = LocomotionState::standing;
  state_time_s_ = still_time_s_ = resistance_time_s_ = 0;
  get_up_yaw_ = 0;
  get_up_anchor_ = {};
  prone_ = rising_ = false;
  assist_fade_s_ = 0;
  failed_get_ups_ = 0;
  intent_ = {};
  reach_ = {};
  last_hit_ns_ = 0;
  since_hit_s_ = 1e9f;
  commanded_ = {};
  heading_ = spawn_yaw_;
  holding_heading_ = false;
  step_assist_ = 0;
  swing_ = {};
  last_swing_leg_ = -1;
  last_kind_ = Swing::Kind::balance;
  since_touchdown_s_ = 1.0f;
  calm_s_ = 0;
  recovering_ = stance_left_apart_ = false;
  pelvis_goal_ = pelvis_ref_ = pelvis_target_ = {};
  pelvis_height_ = 0;
  pelvis_height_set_ = pelvis_goal_set_ = false;
  off_ground_s_ = {};
  age_s_ = 0;
  get_ups_ = get_ups;
  recovery_steps_ = recovery_steps;
  steps_taken_ = steps_taken;
  set_drives_active(true);
  for (int leg = 0; leg < 2; ++leg) set_swing_friction(leg, false);
  blend_from_ = blend_to_ = target_ = standing_pose();
  for (int j = 0; j < kJointCount; ++j) {
    impl.joint(joints_[static_cast<std::size_t>(j)]).forget_motion();
    world_.set_joint_target(joints_[static_cast<std::size_t>(j)],
                            target_.rotations[static_cast<std::size_t>(j)]);
  }
  update_balance(0.0f);
}

void Ragdoll::set_arm_reach(int arm, const ArmReach& reach) {
  STAGGER_ASSERT(arm == 0 || arm == 1);
  reach_[static_cast<std::size_t>(arm)] = reach;
}

void Ragdoll::apply_arm_reach(int arm, Pose& pose) const {
  const ArmReach& reach = reach_[static_cast<std::size_t>(arm)];
  if (!reach.active) return;
  // The upper arm hangs along -Y in the build pose; the shoulder target turns that direction,
  // seen from the chest, onto the direction to the target (the shortest arc, so no twist).
  const JointName shoulder = arm == 0 ? JointName::shoulder_l : JointName::shoulder_r;
  const JointName elbow = arm == 0 ? JointName::elbow_l : JointName::elbow_r;
  const BodyState chest = body_state(BodyPart::chest);
  const Vec3 pivot =
      chest.position + chest.rotation.rotate(blueprint_.joints[idx(shoulder)].pivot -
                                             blueprint_.bodies[idx(BodyPart::chest)].center);
  const Vec3 to_target = reach.target - pivot;
  if (length(to_target) < 1e-3f) return;
  const Vec3 wanted = normalized(chest.rotation.conjugate().rotate(to_target));
  const Vec3 hanging{0, -1, 0};
  const Vec3 axis = cross(hanging, wanted);
  const float angle = std::atan2(length(axis), dot(hanging, wanted));
  pose[shoulder] = length(axis) > 1e-6f ? Quat::from_axis_angle(normalized(axis), angle) : Quat{};
  const float bend = deg_to_rad(110.0f) * (1.0f - std::clamp(reach.extension, 0.0f, 1.0f));
  pose[elbow] = Quat::from_axis_angle({1, 0, 0}, -bend);
}

float Ragdoll::pelvis_above_sole(float knee_bend_deg) const {
  // Pelvis centre above the soles with straight-down legs bent a little at the knees.
  const LegGeometry g = leg_geometry(0);
  const float bend = deg_to_rad(knee_bend_deg) * 0.5f;
  const float ankle_above_sole = blueprint_.joints[idx(JointName::ankle_l)].pivot.y;
  return ankle_above_sole + (g.thigh + g.shin) * std::cos(bend) - g.hip_from_pelvis.y;
}

Vec3 Ragdoll::standing_pelvis_goal(float dt) {
  // Ankle strategy: the desired pelvis sits over the middle of the feet, shifted against the
  // capture-point error (a proportional part and a slow integral), which moves the centre of
  // mass back over the feet. After a step the goal moves there at a limited speed from where the
  // pelvis is, so the legs do not kick.
  const BalanceSettings& s = settings_.balance;
  const float limit = s.max_pelvis_shift_m * settings_.height_m / 1.8f;
  integral_shift_ += balance_.error * (s.ankle_integral_per_s * dt);
  integral_shift_ = horizontal(integral_shift_);
  if (length(integral_shift_) > limit) integral_shift_ = normalized(integral_shift_) * limit;
  Vec3 shift = -(balance_.error * s.ankle_gain_m + integral_shift_);
  if (length(shift) > limit) shift = normalized(shift) * limit;
  const Vec3 goal = horizontal(balance_.support_mid + shift);
  if (!pelvis_goal_set_) {
    pelvis_goal_ = horizontal(body_state(BodyPart::pelvis).position);
    pelvis_goal_set_ = true;
  }
  const Vec3 move = goal - pelvis_goal_;
  const float most = settings_.step.pelvis_goal_speed * dt;
  pelvis_goal_ = length(move) > most ? pelvis_goal_ + normalized(move) * most : goal;
  return pelvis_goal_;
}

void Ragdoll::plant_legs(float dt, Pose& pose) {
  // Both feet planted: the legs and the ground form a closed loop, and leg targets taken from a
  // pose would not match where the feet really are; the drives would then fight each other
  // through the ground until a foot slipped. Instead each leg's hip, knee and ankle targets come
  // from inverse kinematics between a desired pelvis (upright, at standing height) and the foot
  // where it stands, so the loop closes by construction.
  Vec3 feet[2];
  Quat feet_rotation[2];
  for (int leg = 0; leg < 2; ++leg) planted_foot(leg, feet[leg], feet_rotation[leg]);
  // The pelvis faces where the feet point: taking its own heading would leave yaw unheld.
  const Vec3 feet_forward =
      horizontal(feet_rotation[0].rotate({0, 0, 1}) + feet_rotation[1].rotate({0, 0, 1}));
  const Vec3 facing = length(feet_forward) > 1e-3f ? normalized(feet_forward) : balance_.forward;
  const Quat pelvis_rotation = legs_pelvis_yaw(yaw_of(facing));
  Vec3 pelvis;
  if (walking_intent()) {
    // Walking: the legs push the pelvis ahead at the commanded velocity.
    pelvis = moving_pelvis_goal(dt);
    pelvis_goal_set_ = false;
  } else {
    pelvis = standing_pelvis_goal(dt);
    pelvis_ref_ = horizontal(body_state(BodyPart::pelvis).position);
  }
  const float half_height = blueprint_.bodies[idx(BodyPart::foot_l)].half_extents.y;
  const float bend = settings_.balance.stance_knee_bend_deg;
  pelvis.y = 0.5f * (feet[0].y + feet[1].y) - half_height + pelvis_above_sole(bend);
  for (int leg = 0; leg < 2; ++leg) {
    pelvis.y = std::min(pelvis.y, reachable_pelvis_height(leg, pelvis, pelvis_rotation, feet[leg],
                                                          feet_rotation[leg], bend));
  }
  pelvis.y = smooth_pelvis_height(pelvis.y, dt);
  pelvis_target_ = pelvis;
  for (int leg = 0; leg < 2; ++leg)
    solve_leg_targets(leg, pelvis, pelvis_rotation, feet[leg], feet_rotation[leg], pose);
}

void Ragdoll::apply_ankle_strategy(float dt, Pose& pose) {
  // Ankle strategy: tilt both legs about the ankles to move the capture point back over the feet,
  // and counter-rotate the hips so the pelvis keeps its orientation (the legs form a
  // parallelogram). A slow integral removes the steady lean of a body whose CoM is not over the
  // middle of its feet.
  const BalanceSettings& s = settings_.balance;
  const float h = std::max(balance_.com_height_m, 0.3f);
  const float lean_forward = balance_.error_forward_m / h;
  const float lean_left = balance_.error_left_m / h;
  const float limit = s.max_ankle_offset_rad;
  ankle_integral_.x =
      std::clamp(ankle_integral_.x + s.ankle_integral_per_s * lean_forward * dt, -limit, limit);
  ankle_integral_.z =
      std::clamp(ankle_integral_.z + s.ankle_integral_per_s * lean_left * dt, -limit, limit);
  // A forward error needs the shins tilted back: +X on the ankle (foot relative to shin).
  // A leftward error needs them tilted right: -Z on the ankle.
  const float pitch = std::clamp(s.ankle_gain * lean_forward + ankle_integral_.x, -limit, limit);
  const float roll = std::clamp(-(s.ankle_gain * lean_left + ankle_integral_.z), -limit, limit);
  const Quat ankle_offset = Quat::from_euler_xyz({pitch, 0, roll});
  const Quat hip_offset = Quat::from_euler_xyz({-pitch, 0, -roll});
  for (JointName ankle : {JointName::ankle_l, JointName::ankle_r})
    pose[ankle] = pose[ankle] * ankle_offset;
  for (JointName hip : {JointName::hip_l, JointName::hip_r}) pose[hip] = hip_offset * pose[hip];
}

void Ragdoll::update_upright() {
  // Keep the drive's world frame turned with the body, so only tilt is corrected.
  DrivenJoint& joint = world_.impl().joint(upright_);
  // While stepping or walking it also holds the heading (a stance foot alone does not stop the
  // body spinning: each swing turned it by up to 40°).
  float yaw =
      yaw_of(from_bt(joint.constraint().getRigidBodyB().getOrientation()).rotate({0, 0, 1}));
  if (state_ == LocomotionState::getting_up) yaw = get_up_yaw_;
  if (holding_heading_) yaw = heading_;
  joint.constraint().getFrameOffsetA().setRotation(to_bt(Quat::from_yaw(yaw)));
  joint.set_target(Quat::identity());
}

void Ragdoll::update_foot_anchors() {
  World::Impl& impl = world_.impl();
  const bool upright = is_upright(state_);
  // The swing foot is let go; the stance foot is held (the "rough" foot).
  const bool swing_l = swing_.active && swing_.leg == 0;
  const bool swing_r = swing_.active && swing_.leg == 1;
  impl.foot_anchors[foot_anchors_[0]]->update(upright && !swing_l &&
                                              foot_contact(BodyPart::foot_l));
  impl.foot_anchors[foot_anchors_[1]]->update(upright && !swing_r &&
                                              foot_contact(BodyPart::foot_r));
}

void Ragdoll::update_balance(float dt) {
  // Mid-step the swing leg is left out: its momentum is on loan (it stops when the foot lands),
  // and counted in it would push the capture point, and so the foot's own target, ahead of itself.
  Vec3 com;
  Vec3 velocity;
  float total = 0;
  for (int p = 0; p < kBodyPartCount; ++p) {
    const BodyPart part = body_part_at(p);
    if (swing_.active && in_leg(part, swing_.leg)) continue;
    // (Bullet's numbers directly: body_state would also make each part's quaternion.)
    const btRigidBody& b = world_.impl().rigid(body(part));
    const float m = blueprint_.bodies[static_cast<std::size_t>(p)].mass;
    com += from_bt(b.getCenterOfMassTransform().getOrigin()) * m;
    velocity += from_bt(b.getLinearVelocity()) * m;
    total += m;
  }
  com = com / total;
  velocity = velocity / total;

  const bool touching = foot_contact(BodyPart::foot_l) || foot_contact(BodyPart::foot_r);
  off_ground_s_[0] = foot_contact(BodyPart::foot_l) ? 0.0f : off_ground_s_[0] + dt;
  off_ground_s_[1] = foot_contact(BodyPart::foot_r) ? 0.0f : off_ground_s_[1] + dt;
  airtime_s_ = touching ? 0.0f : airtime_s_ + dt;

  const BodyState left = body_state(BodyPart::foot_l);
  const BodyState right = body_state(BodyPart::foot_r);
  const float half_height = blueprint_.bodies[idx(BodyPart::foot_l)].half_extents.y;
  BalanceInputs in;
  in.com = com;
  in.com_velocity = velocity;
  in.commanded_velocity = commanded_velocity();
  // During a balance step the support is judged against where the swing foot will land: the step
  // is placed to catch the capture point, and the lean it is catching is not yet a fall.
  // While walking, the swing foot counts where it will land, less the ground the commanded
  // velocity covers until then (the body keeps walking meanwhile).
  Vec3 planned = swing_.target;
  if (swing_.active && swing_.kind == Swing::Kind::gait) {
    const float left_s = std::max(0.0f, swing_.lift_s + swing_.plant_s - swing_.elapsed_s);
    planned = planned - commanded_velocity() * left_s;
  }
  const bool planning = swing_.active && swing_.kind != Swing::Kind::closing;
  in.left_foot = planning && swing_.leg == 0 ? planned : left.position;
  in.right_foot = planning && swing_.leg == 1 ? planned : right.position;
  in.sole_height = std::min(left.position.y, right.position.y) - half_height;
  in.pelvis_rotation = body_state(BodyPart::pelvis).rotation;
  in.rest_com_height = blueprint_.rest_com_height;
  in.airtime_s = airtime_s_;
  balance_ = measure_balance(in, settings_.balance);
  yaw_ = yaw_of(balance_.forward);
}

void Ragdoll::clamp_velocities() {
  World::Impl& impl = world_.impl();
  for (BodyId id : bodies_) {
    btRigidBody& b = impl.rigid(id);
    const btVector3 v = b.getLinearVelocity();
    if (v.length() > settings_.max_linear_speed)
      b.setLinearVelocity(v * (settings_.max_linear_speed / v.length()));
    const btVector3 w = b.getAngularVelocity();
    if (w.length() > settings_.max_angular_speed)
      b.setAngularVelocity(w * (settings_.max_angular_speed / w.length()));
  }
}

}  // namespace stagger::physics
