// Stepping: balance steps after a shove, closing steps that bring the feet back under the body,
// and the walking gait. One controller for all three:
//
//   1. decide (both feet down): a capture-point error past the step threshold starts a balance
//      step with the leg that best catches the lean; a walking intent starts the next step of the
//      gait; feet left apart after a recovery get a closing step once the body is calm.
//   2. swing: the swing foot (slippery, its anchor released) follows a lift phase and a plant
//      phase with easing curves toward a target re-aimed every physics step from the capture
//      point predicted for touchdown (SIMBICON's d/v feedback, in world space); its hip, knee and
//      ankle targets come from leg IK hung from the real pelvis. The stance leg (rough, anchored)
//      holds the pelvis upright at standing height above it, pushed ahead at the commanded
//      velocity when walking.
//   3. land: on contact after the lift (or when the plant phase has run out) the feet swap roles;
//      a balance step is followed by another, with the other leg, until back in balance.

#include <algorithm>
#include <cmath>

#include "leg_ik.h"
#include "stagger/physics/ragdoll.h"
#include "world_impl.h"

namespace stagger::physics {
namespace {

struct LegParts {
  JointName hip, knee, ankle;
  BodyPart foot;
};
constexpr LegParts kLegs[2] = {
    {JointName::hip_l, JointName::knee_l, JointName::ankle_l, BodyPart::foot_l},
    {JointName::hip_r, JointName::knee_r, JointName::ankle_r, BodyPart::foot_r}};

constexpr std::size_t idx(BodyPart part) {
  return static_cast<std::size_t>(index_of(part));
}
constexpr std::size_t idx(JointName joint) {
  return static_cast<std::size_t>(index_of(joint));
}

Vec3 forward_of(float yaw) {
  return {std::sin(yaw), 0.0f, std::cos(yaw)};
}
Vec3 left_of(Vec3 forward) {
  return {forward.z, 0.0f, -forward.x};
}

float ease_in(float u) {
  return u * u;
}
float ease_out(float u) {
  return 1.0f - (1.0f - u) * (1.0f - u);
}

// The foot centre half a foot above `ground` under `at` (or level with `at` where the probe found
// no ground), and the ground's normal.
Vec3 on_ground(Vec3 at, const GroundHit& ground, float half_height, Vec3* normal) {
  if (normal) *normal = ground.hit ? ground.normal : Vec3{0, 1, 0};
  if (ground.hit) at.y = ground.point.y + half_height;
  return at;
}

// [m/m] how far a plane with this normal rises per metre along the horizontal `forward`.
float rise_along(Vec3 normal, Vec3 forward) {
  return -(normal.x * forward.x + normal.z * forward.z) / normal.y;
}

constexpr float kSpawnSettleS = 0.5f;  // [s] a new body stands this long before it may step
constexpr float kPlantReach =
    0.7f;  // [-] part of the plant phase that carries the foot over its target

}  // namespace

std::string_view name_of(Gait gait) {
  switch (gait) {
    case Gait::idle:
      return "idle";
    case Gait::walk:
      return "walk";
    case Gait::run:
      return "run";
  }
  return "?";
}

void Ragdoll::set_intent(const LocomotionIntent& intent) {
  intent_ = intent;
}

Vec3 Ragdoll::intended_velocity() const {
  if (intent_.gait == Gait::idle) return {};
  const float most =
      intent_.gait == Gait::run ? settings_.step.max_run_speed : settings_.step.max_walk_speed;
  Vec3 v = horizontal(intent_.velocity);
  if (length(v) > most) v = normalized(v) * most;
  return v;
}

Vec3 Ragdoll::commanded_velocity() const {
  return is_upright(state_) ? commanded_ : Vec3{};
}

void Ragdoll::turn_heading(float dt) {
  // The heading the body holds while it steps turns toward the desired one at a limited rate.
  if (!holding_heading_) {
    heading_ = yaw_;
    return;
  }
  const float most = deg_to_rad(settings_.step.max_turn_rate_deg) * dt;
  heading_ = wrap_angle(heading_ + std::clamp(wrap_angle(desired_yaw() - heading_), -most, most));
  // The pelvis turns no farther than the hips can twist above the feet on the ground: a heading
  // dragged past that makes the stance foot spin and slide. The feet turn it step by step.
  const float twist = deg_to_rad(settings_.step.max_hip_twist_deg);
  for (int leg = 0; leg < 2; ++leg) {
    if ((swing_.active && swing_.leg == leg) || !planted(leg)) continue;
    const float foot_yaw = yaw_of(body_state(kLegs[leg].foot).rotation.rotate({0, 0, 1}));
    heading_ = wrap_angle(foot_yaw + std::clamp(wrap_angle(heading_ - foot_yaw), -twist, twist));
  }
}

void Ragdoll::ramp_commanded_velocity(float dt) {
  // The intent's velocity is reached with a limited acceleration: a body asked to walk at once
  // would otherwise be "behind" its command by the whole speed.
  if (age_s_ < kSpawnSettleS) return;
  Vec3 wanted = intended_velocity();
  if (!intent_.has_facing && length(wanted) > 0.05f) {
    // Walking where it faces: the body walks along its heading and turns toward where it is
    // asked to go, slowing down (to a turn on the spot) the farther it has to turn.
    const float off = wrap_angle(yaw_of(wanted) - heading_);
    wanted = forward_of(heading_) * (length(wanted) * std::max(0.0f, std::cos(off)));
  }
  const Vec3 change = wanted - commanded_;
  if (length(change) < 1e-6f) return;
  // The command changes no faster than the body follows it (a command far ahead of the body
  // counts as a stumble), and no faster than max_accel.
  const Vec3 direction = normalized(change);
  const float lead = dot(commanded_ - horizontal(balance_.com_velocity), direction);
  if (lead > settings_.step.max_command_lead) return;
  const float most = settings_.step.max_accel * dt;
  commanded_ = length(change) > most ? commanded_ + direction * most : wanted;
}

float Ragdoll::desired_yaw() const {
  if (intent_.gait != Gait::idle) {
    if (intent_.has_facing) return intent_.facing_rad;
    const Vec3 v = intended_velocity();
    if (length(v) > 0.05f) return yaw_of(v);
  }
  return yaw_;
}

bool Ragdoll::walking_intent() const {
  // After the intent stops, the gait carries on until the body has come to a stop.
  const bool stopping = last_swing_leg_ >= 0 && last_kind_ == Swing::Kind::gait &&
                        length(horizontal(balance_.com_velocity)) > settings_.step.stop_speed;
  if (stopping) return true;
  return length(intended_velocity()) > 0.05f || length(commanded_) > 0.05f ||
         std::fabs(wrap_angle(desired_yaw() - yaw_)) > deg_to_rad(10.0f);
}

GroundHit Ragdoll::ground_under_foot(Vec3 at) const {
  return world_.impl().probe_ground(at, 0.4f, 0.8f);
}

Vec3 Ragdoll::foot_center_on_ground(Vec3 at, Vec3* normal) const {
  // The foot centre sits half a foot above the ground under `at` (or level with `at` where there
  // is no ground within reach).
  return on_ground(at, ground_under_foot(at),
                   blueprint_.bodies[idx(BodyPart::foot_l)].half_extents.y, normal);
}

void Ragdoll::planted_foot(int leg, Vec3& center, Quat& rotation) const {
  const BodyState foot = body_state(kLegs[leg].foot);
  const Vec3 forward = normalized(horizontal(foot.rotation.rotate({0, 0, 1})));
  // Where it is, to the millimetre: a target a little above or below the real foot would leave a
  // gap in the loop through the ground that the drives cannot close. A foot that has rocked off
  // the ground is put back down on it. (The ground is probed every step: reusing a probe for a
  // foot that had moved 1 cm on a 10° ramp was enough to make walking up it fail.)
  Vec3 normal;
  const Vec3 on_ground = foot_center_on_ground(foot.position, &normal);
  center = foot.position;
  center.y = std::min(center.y, on_ground.y);
  rotation = foot_on_ground(forward, normal);
}

Ragdoll::LegGeometry Ragdoll::leg_geometry(int leg) const {
  const auto& joints = blueprint_.joints;
  const auto& bodies = blueprint_.bodies;
  const LegParts& parts = kLegs[leg];
  const JointBlueprint& hip = joints[idx(parts.hip)];
  const JointBlueprint& knee = joints[idx(parts.knee)];
  const JointBlueprint& ankle = joints[idx(parts.ankle)];
  return {hip.pivot - bodies[idx(BodyPart::pelvis)].center,
          ankle.pivot - bodies[idx(parts.foot)].center, length(knee.pivot - hip.pivot),
          length(ankle.pivot - knee.pivot)};
}

void Ragdoll::solve_leg_targets(int leg, Vec3 pelvis, Quat pelvis_rotation, Vec3 foot_center,
                                Quat foot_rotation, Pose& pose) const {
  const LegGeometry g = leg_geometry(leg);
  const Vec3 hip_at = pelvis + pelvis_rotation.rotate(g.hip_from_pelvis);
  const Vec3 ankle_at = foot_center + foot_rotation.rotate(g.ankle_from_foot);
  const Vec3 knee_forward = normalized(horizontal(foot_rotation.rotate({0, 0, 1})));
  const LegTargets t =
      solve_leg(hip_at, pelvis_rotation, ankle_at, foot_rotation, knee_forward, g.thigh, g.shin);
  const LegParts& parts = kLegs[leg];
  pose[parts.hip] = t.hip;
  pose[parts.knee] = t.knee;
  pose[parts.ankle] = t.ankle;
}

float Ragdoll::reachable_pelvis_height(int leg, Vec3 pelvis, Quat pelvis_rotation, Vec3 foot_center,
                                       Quat foot_rotation, float knee_bend_deg) const {
  // The highest pelvis (centre) at which this leg still bends its knee by `knee_bend_deg`: with
  // the feet apart or staggered a pelvis at the nominal height would ask a leg to reach farther
  // than it can, and a leg that cannot reach lifts or drags its foot.
  const LegGeometry g = leg_geometry(leg);
  const Vec3 hip_offset = pelvis_rotation.rotate(g.hip_from_pelvis);
  const Vec3 ankle_at = foot_center + foot_rotation.rotate(g.ankle_from_foot);
  const float reach = (g.thigh + g.shin) * std::cos(0.5f * deg_to_rad(knee_bend_deg));
  const float apart = length(horizontal(pelvis + hip_offset - ankle_at));
  const float rise = std::sqrt(std::max(reach * reach - apart * apart, 0.25f * reach * reach));
  return ankle_at.y + rise - hip_offset.y;
}

float Ragdoll::smooth_pelvis_height(float goal, float dt) {
  // The pelvis height the legs aim for changes at a limited rate: a target that jumps when a foot
  // lifts or lands makes the stance leg kick the body into the air.
  if (!pelvis_height_set_) {
    pelvis_height_ = body_state(BodyPart::pelvis).position.y;
    pelvis_height_set_ = true;
  }
  const float most = settings_.step.pelvis_height_speed * dt;
  pelvis_height_ += std::clamp(goal - pelvis_height_, -most, most);
  return pelvis_height_;
}

Quat Ragdoll::legs_pelvis_yaw(float wanted_yaw) const {
  // While the uprighting drive holds the heading, the legs take the pelvis's yaw as it is: legs
  // aiming at another yaw twist the stance foot with the hips' whole torque, and a foot on the
  // ground spins long before the pelvis gives (stance feet turned 30° in a step).
  if (!holding_heading_) return Quat::from_yaw(wanted_yaw);
  return Quat::from_yaw(yaw_of(body_state(BodyPart::pelvis).rotation.rotate({0, 0, 1})));
}

void Ragdoll::set_swing_friction(int leg, bool slippery) {
  world_.impl()
      .rigid(body(kLegs[leg].foot))
      .setFriction(slippery ? settings_.step.swing_friction : settings_.foot_friction);
}

void Ragdoll::update_legs(float dt, Pose& pose) {
  turn_heading(dt);
  ramp_commanded_velocity(dt);
  if (!swing_.active) maybe_start_step(dt);
  if (swing_.active) {
    update_swing(dt, pose);
  } else if (planted(0) && planted(1)) {
    plant_legs(dt, pose);
  } else {
    apply_ankle_strategy(dt, pose);
  }
  if (assist_fade_s_ <= 0) hold_pelvis(dt);
  if (swing_.active) {
    state_ =
        swing_.kind == Swing::Kind::gait ? LocomotionState::walking : LocomotionState::stepping;
  } else {
    state_ = walking_intent() ? LocomotionState::walking : LocomotionState::standing;
  }
}

void Ragdoll::maybe_start_step(float dt) {
  const StepSettings& s = settings_.step;
  since_touchdown_s_ += dt;
  const bool left = planted(0);
  const bool right = planted(1);
  // A new body first settles on its feet (the drop from its spawn height is not a stumble).
  if ((!left && !right) || age_s_ < kSpawnSettleS) return;
  if (walking_intent()) {
    if (since_touchdown_s_ < 0.02f) return;
    int leg = last_swing_leg_ < 0 ? 0 : 1 - last_swing_leg_;
    if (last_swing_leg_ < 0) {
      // First step: the foot on the side of the turn, or the one trailing along the velocity.
      const float turn = wrap_angle(desired_yaw() - yaw_);
      const Vec3 v = commanded_velocity();
      const Vec3 lateral = left_of(balance_.forward);
      if (std::fabs(turn) > deg_to_rad(20.0f)) {
        leg = turn > 0 ? 0 : 1;
      } else if (std::fabs(dot(v, lateral)) > 0.5f * length(v)) {
        leg = dot(v, lateral) > 0 ? 0 : 1;
      } else {
        leg = dot(body_state(BodyPart::foot_l).position - body_state(BodyPart::foot_r).position,
                  v) < 0
                  ? 0
                  : 1;
      }
    }
    if (!planted(1 - leg)) leg = 1 - leg;
    start_step(leg, Swing::Kind::gait);
    return;
  }
  const float threshold = recovering_ ? s.continue_error_m : s.step_error_m;
  if (balance_.error_m > threshold * settings_.height_m / 1.8f && since_touchdown_s_ > 0.03f) {
    const int leg = choose_recovery_leg();
    if (planted(1 - leg)) {
      start_step(leg, Swing::Kind::balance);
      return;
    }
  }
  if (recovering_ && balance_.error_m < s.continue_error_m) recovering_ = false;
  // Feet left apart by a recovery (or a stop) are brought back together once the body is calm.
  const int closing = stance_left_apart_ ? choose_closing_leg() : -1;
  if (closing < 0) stance_left_apart_ = false;
  calm_s_ = closing >= 0 && balance_.error_m < 0.5f * s.step_error_m && left && right ? calm_s_ + dt
                                                                                      : 0.0f;
  if (calm_s_ >= s.settle_s) {
    calm_s_ = 0;
    start_step(closing, Swing::Kind::closing);
  }
}

int Ragdoll::choose_recovery_leg() const {
  // A sideways lean is caught by the foot on that side; a lean forward or back by the foot that
  // trails along it (alternating when the feet are level); a second step uses the other leg.
  const Vec3 e = balance_.error;
  const Vec3 lateral_axis = left_of(balance_.forward);
  const float lateral = dot(e, lateral_axis);
  int leg;
  if (std::fabs(lateral) >= 0.5f * balance_.error_m) {
    leg = lateral > 0 ? 0 : 1;
  } else {
    const float l = dot(body_state(BodyPart::foot_l).position - balance_.support_mid, e);
    const float r = dot(body_state(BodyPart::foot_r).position - balance_.support_mid, e);
    if (std::fabs(l - r) > 0.03f) {
      leg = l < r ? 0 : 1;
    } else {
      leg = last_swing_leg_ == 0 ? 1 : 0;
    }
  }
  if (recovering_ && leg == last_swing_leg_) leg = 1 - leg;
  return leg;
}

int Ragdoll::choose_closing_leg() const {
  // The foot farther from where it belongs beside the other one (nominal width, side by side);
  // -1 when the stance is close enough to nominal.
  const StepSettings& s = settings_.step;
  const float scale = settings_.height_m / 1.8f;
  const Vec3 forward = balance_.forward;
  const Vec3 lateral_axis = left_of(forward);
  const Vec3 l = horizontal(body_state(BodyPart::foot_l).position);
  const Vec3 r = horizontal(body_state(BodyPart::foot_r).position);
  const Vec3 nominal_l = r + lateral_axis * (s.stance_width_m * scale);
  const float off = length(l - nominal_l);
  if (off < s.close_feet_m * scale) return -1;
  // Move the foot whose move brings the feet midpoint closer to the centre of mass.
  const Vec3 com = horizontal(balance_.com);
  const Vec3 mid_if_l = (nominal_l + r) * 0.5f;
  const Vec3 mid_if_r = (l + (l - lateral_axis * (s.stance_width_m * scale))) * 0.5f;
  return length(mid_if_l - com) <= length(mid_if_r - com) ? 0 : 1;
}

void Ragdoll::start_step(int leg, Swing::Kind kind) {
  const StepSettings& s = settings_.step;
  const float time_scale = intent_.gait == Gait::run ? s.run_time_scale : 1.0f;
  swing_ = {};
  swing_.active = true;
  swing_.leg = leg;
  swing_.kind = kind;
  swing_.lift_s = s.lift_s * time_scale;
  swing_.plant_s = s.plant_s * time_scale;
  const BodyState foot = body_state(kLegs[leg].foot);
  swing_.start = foot.position;
  swing_.start_yaw = yaw_of(foot.rotation.rotate({0, 0, 1}));
  if (kind != Swing::Kind::gait) pelvis_ref_ = horizontal(body_state(BodyPart::pelvis).position);
  if (kind == Swing::Kind::balance) {
    recovering_ = true;
    ++recovery_steps_;
  }
  ++steps_taken_;
  calm_s_ = 0;
  set_swing_friction(leg, true);
  aim_swing();
}

void Ragdoll::aim_swing() {
  // Foot placement in world space: the capture point predicted for touchdown (CoM + v·t_left,
  // plus the velocity error × sqrt(h/g)), half a step ahead at the commanded velocity, and half
  // the stance width out to the swing leg's side, never across the stance foot.
  const StepSettings& s = settings_.step;
  const float scale = settings_.height_m / 1.8f;
  const int stance_leg = 1 - swing_.leg;
  const BodyState stance = body_state(kLegs[stance_leg].foot);
  const float stance_yaw = yaw_of(stance.rotation.rotate({0, 0, 1}));
  const float turn = std::clamp(wrap_angle(heading_ - stance_yaw), -deg_to_rad(s.max_turn_deg),
                                deg_to_rad(s.max_turn_deg));
  swing_.target_yaw = stance_yaw + turn;
  const Vec3 forward = forward_of(swing_.target_yaw);
  const Vec3 lateral_axis = left_of(forward) * (swing_.leg == 0 ? 1.0f : -1.0f);

  const Vec3 stance_at = horizontal(stance.position);
  if (swing_.kind == Swing::Kind::closing) {
    // Beside the stance foot at the nominal width.
    Vec3 target = stance_at + lateral_axis * (s.stance_width_m * scale);
    target.y = swing_.start.y;
    swing_.target = foot_center_on_ground(target, &swing_.ground_normal);
    return;
  }
  const float duration = swing_.lift_s + swing_.plant_s;
  const float left = std::max(0.0f, duration - swing_.elapsed_s);
  const float time_constant = std::sqrt(std::max(balance_.com_height_m, 0.3f) / kGravity);
  const Vec3 v = horizontal(balance_.com_velocity);
  const Vec3 commanded = commanded_velocity();
  const Vec3 com = horizontal(balance_.com);
  Vec3 target = com + v * left + (v - commanded) * (time_constant + s.placement_cv) +
                commanded * (0.5f * duration) + (com - stance_at) * s.placement_cd +
                lateral_axis * (0.5f * s.stance_width_m * scale);
  // Never across or too close beside the stance foot; never farther than a long step.
  const float side = dot(target - stance_at, lateral_axis);
  if (side < s.min_width_m * scale) target = target + lateral_axis * (s.min_width_m * scale - side);
  const Vec3 step = target - stance_at;
  if (length(step) > s.max_step_m * scale)
    target = stance_at + normalized(step) * (s.max_step_m * scale);
  target.y = swing_.start.y;
  swing_.target =
      foot_center_clear_of_edges(target, forward, swing_.edge_side, &swing_.ground_normal);
}

namespace {
constexpr float kEdgeRise = 0.04f;    // [m] a height change along the foot that counts as an edge
constexpr float kEdgeMargin = 0.03f;  // [m] kept between the foot's end and an edge

// Where along `forward` (from `center`, in m) the ground within ±reach leaves the plane of
// `mid` (the ground under the centre), and how far the ground beyond the edge is above the
// ground short of it.
struct Edge {
  int ends_off = 0;  // ends of the foot (toe, heel) over ground off the plane
  float at = 0;      // [m] along `forward` from the centre, with one end off
  float rise = 0;    // [m] the ground beyond the edge above the ground short of it
};

Edge edge_along_foot(const World::Impl& world, Vec3 center, const GroundHit& mid, Vec3 forward,
                     float reach) {
  Edge edge;
  if (!mid.hit || mid.normal.y < 0.5f) return edge;
  const float slope = rise_along(mid.normal, forward);  // so that slopes are not edges
  float rise = 0;  // of the ground at the last point probed above the plane
  auto off_plane = [&](float s) {
    const GroundHit g = world.probe_ground(center + forward * s, 0.4f, 0.8f);
    rise = g.hit ? g.point.y - (mid.point.y + slope * s) : -1.0f;
    return std::fabs(rise) > kEdgeRise;
  };
  const bool toe = off_plane(reach);
  const float toe_rise = rise;
  const bool heel = off_plane(-reach);
  edge.ends_off = (toe ? 1 : 0) + (heel ? 1 : 0);
  if (edge.ends_off != 1) return edge;
  edge.rise = toe ? toe_rise : -rise;
  // Bisection between the centre (on the plane) and the end that is off it, to 1 cm.
  float on = 0.0f;
  float off = toe ? reach : -reach;
  while (std::fabs(off - on) > 0.01f) {
    const float m = 0.5f * (on + off);
    (off_plane(m) ? off : on) = m;
  }
  edge.at = 0.5f * (on + off);
  return edge;
}

}  // namespace

Vec3 Ragdoll::foot_center_clear_of_edges(Vec3 target, Vec3 forward, int& side, Vec3* normal) const {
  // A foot set down across the edge of a step down stands on its heel and rocks over the edge
  // (walking down the arena's stairs, 45 falls in 200). The foot goes wholly to the nearer side
  // of the edge, and stays on that side while the target is re-aimed, so that it does not jump
  // from one tread to the other in mid-swing. (Going up, the same rule made falls more frequent,
  // 21 in 200 against 10: a heel over a riser's edge is the stepping up the gait does anyway.)
  // The ground probed under the centre places the foot too.
  const World::Impl& world = world_.impl();
  const Vec3 half_size = blueprint_.bodies[idx(BodyPart::foot_l)].half_extents;
  const float half = half_size.z + kEdgeMargin;
  const GroundHit ground = ground_under_foot(target);
  const Edge edge = edge_along_foot(world, target, ground, forward, half);
  if (edge.ends_off != 1 || edge.rise > 0) return on_ground(target, ground, half_size.y, normal);
  const float behind = edge.at - half;
  const float ahead = edge.at + half;
  if (side == 0) side = std::fabs(behind) <= std::fabs(ahead) ? -1 : 1;
  const Vec3 moved = target + forward * (side < 0 ? behind : ahead);
  // Where the other side is no longer than a foot either, the foot stays where it was aimed.
  const GroundHit moved_ground = ground_under_foot(moved);
  if (edge_along_foot(world, moved, moved_ground, forward, half - 0.5f * kEdgeMargin).ends_off > 0)
    return on_ground(target, ground, half_size.y, normal);
  return on_ground(moved, moved_ground, half_size.y, normal);
}

void Ragdoll::keep_sole_clear(Vec3& foot, Vec3 forward, Vec3 normal, float clearance) const {
  // Down a stair the straight path cuts through the tread the foot leaves: it touched the
  // tread's edge, landed there, and rocked. The foot's heel and toe are kept `clearance` above
  // the ground under them (the sole tilted as the foot is, so that a slope is not an obstacle).
  const Vec3 half = blueprint_.bodies[idx(BodyPart::foot_l)].half_extents;
  const float pitch = rise_along(normal, forward);
  for (float along : {-half.z, half.z}) {
    const GroundHit g = world_.impl().probe_ground(foot + forward * along, 0.3f, 0.3f);
    if (g.hit) foot.y = std::max(foot.y, g.point.y - pitch * along + half.y + clearance);
  }
}

void Ragdoll::update_swing(float dt, Pose& pose) {
  const StepSettings& s = settings_.step;
  swing_.elapsed_s += dt;
  const float t = swing_.elapsed_s;
  const float duration = swing_.lift_s + swing_.plant_s;
  // Re-aim while there is time to get there; the last part of the plant phase goes straight in.
  if (t < 0.75f * duration) aim_swing();

  // Lift: the foot rises and starts toward the target (easing in); plant: it reaches the target
  // and sets down (easing out). Past the plan it presses down until it touches.
  float progress;
  float height;
  const float clearance = s.clearance_m * settings_.height_m / 1.8f;
  if (t < swing_.lift_s) {
    const float u = t / swing_.lift_s;
    progress = 0.5f * ease_in(u);
    height = clearance * smoothstep(u);
  } else {
    // The foot is over its target a little before it sets down: the drives lag their targets.
    const float u = std::min(1.0f, (t - swing_.lift_s) / swing_.plant_s);
    progress = 0.5f + 0.5f * ease_out(std::min(1.0f, u / kPlantReach));
    height = clearance * (1.0f - smoothstep(u));
  }
  if (t > duration) height = -0.02f * std::min(1.0f, (t - duration) / 0.1f);
  Vec3 foot = swing_.start + (swing_.target - swing_.start) * progress;
  // Up a slope the foot climbs in the first half of the step, to clear the ground ahead; down one
  // it descends along the ground: dropped early it struck the slope at the end of the lift,
  // still moving at full speed, and bounced off.
  const float rise = swing_.target.y - swing_.start.y;
  foot.y = swing_.start.y + rise * (rise > 0 ? std::min(1.0f, 2.0f * progress) : progress) + height;
  const float yaw = swing_.start_yaw + wrap_angle(swing_.target_yaw - swing_.start_yaw) * progress;
  const Vec3 normal = normalized(Vec3{0, 1, 0} + (swing_.ground_normal - Vec3{0, 1, 0}) * progress);
  if (t < duration && rise < 0.02f) keep_sole_clear(foot, forward_of(yaw), normal, height);
  const Quat foot_rotation = foot_on_ground(forward_of(yaw), normal);

  // Stance leg: the pelvis upright at standing height above the stance foot, where it is (pushed
  // ahead at the commanded velocity), facing between the two feet.
  const int stance_leg = 1 - swing_.leg;
  Vec3 stance_center;
  Quat stance_rotation;
  planted_foot(stance_leg, stance_center, stance_rotation);
  const Quat pelvis_rotation = legs_pelvis_yaw(heading_);
  const float half_height = blueprint_.bodies[idx(BodyPart::foot_l)].half_extents.y;
  const BodyState pelvis_now = body_state(BodyPart::pelvis);
  Vec3 pelvis = moving_pelvis_goal(dt);
  // A walking stance leg keeps more bend than a standing one: a knee nearly straight has no
  // travel left to follow the body up as it vaults over the foot (see walk_knee_bend_deg).
  const float bend = swing_.kind == Swing::Kind::gait ? s.walk_knee_bend_deg
                                                      : settings_.balance.stance_knee_bend_deg;
  pelvis.y =
      smooth_pelvis_height(std::min(stance_center.y - half_height + pelvis_above_sole(bend),
                                    reachable_pelvis_height(stance_leg, pelvis, pelvis_rotation,
                                                            stance_center, stance_rotation, bend)),
                           dt);
  pelvis_target_ = pelvis;
  solve_leg_targets(stance_leg, pelvis, pelvis_rotation, stance_center, stance_rotation, pose);
  // Swing leg: hung from the real pelvis, so the foot goes where it is aimed in the world.
  solve_leg_targets(swing_.leg, pelvis_now.position, pelvis_now.rotation, foot, foot_rotation,
                    pose);

  const bool touched = foot_contact(kLegs[swing_.leg].foot) && t >= swing_.lift_s;
  if (touched || t > duration + 0.15f) land_swing();
}

Vec3 Ragdoll::moving_pelvis_goal(float dt) {
  // Walking: a reference that moves at the commanded velocity, never more than a little ahead
  // of (or behind) the real pelvis. A balance or closing step holds the pelvis where the step
  // began. (A reference taken from where the pelvis is each step turned the drives' tracking of
  // the moving reference into positive feedback: a 20 N·s push sped up to 0.75 m/s mid-step.)
  const Vec3 actual = horizontal(body_state(BodyPart::pelvis).position);
  if (swing_.active && swing_.kind == Swing::Kind::balance) return pelvis_ref_;
  if (swing_.active && swing_.kind == Swing::Kind::closing) {
    // Carried over to the middle of the feet as they will stand.
    const Vec3 stance = horizontal(body_state(kLegs[1 - swing_.leg].foot).position);
    const Vec3 mid = (stance + horizontal(swing_.target)) * 0.5f;
    const float u = smoothstep(swing_.elapsed_s / (swing_.lift_s + swing_.plant_s));
    return pelvis_ref_ + (mid - pelvis_ref_) * u;
  }
  const float lead = settings_.step.max_pelvis_lead_m * settings_.height_m / 1.8f;
  pelvis_ref_ = pelvis_ref_ + commanded_velocity() * dt;
  const Vec3 gap = pelvis_ref_ - actual;
  if (length(gap) > lead) pelvis_ref_ = actual + normalized(gap) * lead;
  return pelvis_ref_;
}

void Ragdoll::hold_pelvis(float dt) {
  // Single support and walking lean on a stronger uprighting drive (the "strong hip drive") that
  // also holds the heading, and a capped hold of the pelvis on the legs' own pelvis target,
  // moving at the commanded velocity. Standing on both feet needs neither once it has settled
  // after its last step; the assistance then fades out (switched off at once, it jolted the body).
  World::Impl& impl = world_.impl();
  const StepSettings& s = settings_.step;
  const bool moving = swing_.active || walking_intent() || since_touchdown_s_ < s.hold_after_step_s;
  step_assist_ = moving ? 1.0f : std::max(0.0f, step_assist_ - dt / s.assist_fade_s);
  impl.joint(upright_).set_strength(1.0f + (s.upright_boost - 1.0f) * step_assist_);
  holding_heading_ = step_assist_ > 0;
  impl.joint(upright_).set_axis_driven(1, holding_heading_);
  WorldPull& hold = *impl.pulls[pelvis_assist_];
  if (step_assist_ <= 0) {
    hold.release();
    return;
  }
  const float cap = step_assist_ * mass() * kGravity;
  hold.set_target(pelvis_target_);
  hold.pull({s.hold_ratio * cap, s.support_ratio * cap, s.hold_ratio * cap}, s.hold_time_constant_s,
            1.0f, commanded_velocity());
}

void Ragdoll::cancel_steps() {
  if (swing_.active) set_swing_friction(swing_.leg, false);
  swing_.active = false;
  recovering_ = false;
  last_swing_leg_ = -1;
  pelvis_goal_set_ = false;
  pelvis_height_set_ = false;
  holding_heading_ = false;
  step_assist_ = 0;
  world_.impl().joint(upright_).set_axis_driven(1, false);
  calm_s_ = 0;
  commanded_ = {};
}

void Ragdoll::land_swing() {
  last_kind_ = swing_.kind;
  // Only steps leave the feet apart on purpose; the slow creep of standing feet is the anchors'
  // job.
  stance_left_apart_ = swing_.kind != Swing::Kind::closing;
  set_swing_friction(swing_.leg, false);
  last_swing_leg_ = swing_.leg;
  swing_.active = false;
  since_touchdown_s_ = 0;
  pelvis_goal_set_ = false;
  integral_shift_ = {};
}

}  // namespace stagger::physics
