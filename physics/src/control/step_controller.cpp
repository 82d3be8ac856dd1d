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

#include "step_controller.h"

#include <algorithm>
#include <cmath>

#include "leg_ik.h"
#include "stagger/core/enum_table.h"

namespace stagger::physics {
namespace {

struct LegParts {
  JointName hip, knee, ankle;
  BodyPart foot;
};
constexpr LegParts kLegs[2] = {
    {JointName::hip_l, JointName::knee_l, JointName::ankle_l, BodyPart::foot_l},
    {JointName::hip_r, JointName::knee_r, JointName::ankle_r, BodyPart::foot_r}};

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

}  // namespace

std::string_view name_of(Gait gait) {
  static constexpr std::string_view kNames[] = {"idle", "walk", "run"};
  return enum_name<Gait::run>(kNames, gait);
}

Vec3 StepController::intended_velocity() const {
  if (state_.intent.gait == Gait::idle) return {};
  const float most = state_.intent.gait == Gait::run ? settings().step.max_run_speed
                                                     : settings().step.max_walk_speed;
  Vec3 v = horizontal(state_.intent.velocity);
  if (length(v) > most) v = normalized(v) * most;
  return v;
}

void StepController::turn_heading(float dt) {
  // The heading the body holds while it steps turns toward the desired one at a limited rate.
  if (!state_.holding_heading) {
    state_.heading = sense_.yaw;
    return;
  }
  const float most = deg_to_rad(settings().step.max_turn_rate_deg) * dt;
  state_.heading =
      wrap_angle(state_.heading + std::clamp(turn_to_desired(state_.heading), -most, most));
  // The pelvis turns no farther than the hips can twist above the feet on the ground: a heading
  // dragged past that makes the stance foot spin and slide. The feet turn it step by step.
  const float twist = deg_to_rad(settings().step.max_hip_twist_deg);
  for (int leg = 0; leg < 2; ++leg) {
    if ((state_.swing.active && state_.swing.leg == leg) || !sense_.planted(leg)) continue;
    const float foot_yaw = yaw_of(rig_.body_state(kLegs[leg].foot).rotation.rotate({0, 0, 1}));
    state_.heading =
        wrap_angle(foot_yaw + std::clamp(wrap_angle(state_.heading - foot_yaw), -twist, twist));
  }
}

void StepController::ramp_commanded_velocity(float dt) {
  // The intent's velocity is reached with a limited acceleration: a body asked to walk at once
  // would otherwise be "behind" its command by the whole speed.
  if (!settled()) return;
  Vec3 wanted = intended_velocity();
  if (!state_.intent.has_facing && length(wanted) > settings().step.moving_speed) {
    // Walking where it faces: the body walks along its heading and turns toward where it is
    // asked to go, slowing down (to a turn on the spot) the farther it has to turn.
    const float off = wrap_angle(yaw_of(wanted) - state_.heading);
    wanted = forward_of(state_.heading) * (length(wanted) * std::max(0.0f, std::cos(off)));
  }
  // Stairs ahead: a step per tread, at a speed the legs can climb or descend.
  const float stairs_speed =
      (state_.stairs_down ? settings().step.stairs_down_speed : settings().step.stairs_speed) *
      settings().length_scale();
  if (state_.stairs_ahead && length(wanted) > stairs_speed)
    wanted = normalized(wanted) * stairs_speed;
  const Vec3 change = wanted - state_.commanded;
  if (length(change) < 1e-6f) return;
  // The command changes no faster than the body follows it (a command far ahead of the body
  // counts as a stumble), and no faster than max_accel.
  const Vec3 direction = normalized(change);
  const float lead = dot(state_.commanded - horizontal(sense_.balance.com_velocity), direction);
  if (lead > settings().step.max_command_lead) return;
  const float most = settings().step.max_accel * dt;
  state_.commanded = length(change) > most ? state_.commanded + direction * most : wanted;
}

std::optional<Vec3> StepController::uphill_under_feet() const {
  // The ground's normal under each planted foot leans away from the uphill side. (Probed: a
  // sole rolling from heel to toe is tilted on level ground too.)
  Vec3 up;
  int found = 0;
  for (int leg = 0; leg < 2; ++leg) {
    if (!sense_.planted(leg)) continue;
    const GroundHit ground = ground_under_foot(rig_.body_state(kLegs[leg].foot).position);
    if (!ground.hit) continue;
    up += ground.normal;
    ++found;
  }
  if (found == 0) return std::nullopt;
  const Vec3 lean = horizontal(up) / static_cast<float>(found);
  if (length(lean) < std::sin(deg_to_rad(settings().step.uphill_turn_slope_deg)))
    return std::nullopt;
  return -normalized(lean);
}

float StepController::turn_to_desired(float from_yaw) const {
  // The shorter way round, except that on a slope a big turn does not pass through facing
  // downhill: on a 12° slope, every one of 22 falls of guards turning at their route points (48
  // runs of the hillside trial) came on a turn through facing downhill, none on the turns
  // through facing uphill.
  float turn = wrap_angle(desired_yaw() - from_yaw);
  if (std::fabs(turn) < deg_to_rad(settings().step.uphill_turn_min_deg)) return turn;
  const std::optional<Vec3> uphill = uphill_under_feet();
  if (!uphill) return turn;
  const float downhill = wrap_angle(yaw_of(-*uphill) - from_yaw);
  const bool through_downhill =
      turn > 0 ? downhill > 0 && downhill < turn : downhill < 0 && downhill > turn;
  if (through_downhill) turn -= std::copysign(2.0f * kPi, turn);
  return turn;
}

float StepController::desired_yaw() const {
  if (state_.intent.gait != Gait::idle) {
    if (state_.intent.has_facing) return state_.intent.facing_rad;
    const Vec3 v = intended_velocity();
    if (length(v) > settings().step.moving_speed) return yaw_of(v);
  }
  return sense_.yaw;
}

bool StepController::settled() const {
  return state_.settled || sense_.age_s >= settings().step.spawn_settle_s;
}

bool StepController::walking_intent() const {
  // After the intent stops, the gait carries on until the body has come to a stop.
  const bool stopping =
      state_.last_swing_leg >= 0 && state_.last_kind == Swing::Kind::gait &&
      length(horizontal(sense_.balance.com_velocity)) > settings().step.stop_speed;
  if (stopping) return true;
  const StepSettings& s = settings().step;
  return length(intended_velocity()) > s.moving_speed ||
         length(state_.commanded) > s.moving_speed ||
         std::fabs(wrap_angle(desired_yaw() - sense_.yaw)) > deg_to_rad(s.turn_in_place_deg);
}

GroundHit StepController::ground_under_foot(Vec3 at) const {
  return rig_.probe_ground(at, settings().step.probe_above_m, settings().step.probe_below_m);
}

Vec3 StepController::foot_center_on_ground(Vec3 at, Vec3* normal) const {
  // The foot centre sits half a foot above the ground under `at` (or level with `at` where there
  // is no ground within reach).
  return on_ground(at, ground_under_foot(at),
                   rig_.blueprint().bodies[slot(BodyPart::foot_l)].half_extents.y, normal);
}

void StepController::planted_foot(int leg, Vec3& center, Quat& rotation) const {
  const BodyState foot = rig_.body_state(kLegs[leg].foot);
  // Turned as it landed while walking: a target turned as the foot is now holds nothing, and
  // along a 12 deg slope's contour the stance foot pivoted 30-40 deg toward the fall line in one
  // step, the heading followed it and the walk went downhill into slips and trips (16 deg across,
  // 200 crossings: 83 falls; none with the landing yaw held).
  const std::optional<float> held = state_.planted_yaw[static_cast<std::size_t>(leg)];
  const Vec3 forward =
      held ? forward_of(*held) : normalized(horizontal(foot.rotation.rotate({0, 0, 1})));
  // Where it is, to the millimetre: a target a little above or below the real foot would leave a
  // gap in the loop through the ground that the drives cannot close. A foot that has rocked off
  // the ground is put back down on it. (The ground is probed every step: reusing a probe for a
  // foot that had moved 1 cm on a 10° ramp was enough to make walking up it fail.)
  Vec3 normal;
  const Vec3 on_ground = foot_center_on_ground(foot.position, &normal);
  center = foot.position;
  if (!perched(foot, on_ground)) center.y = std::min(center.y, on_ground.y);
  rotation = foot_on_ground(forward, normal);
}

bool StepController::perched(const BodyState& foot, Vec3 on_ground) const {
  // A foot whose centre is more than an edge's rise above the ground under it stands on an edge
  // (a nosing), not on that ground. Put down onto the ground under its centre, its leg was asked
  // to reach a tread lower and straightened: going up a flight it lifted the pelvis and slid the
  // foot back off the nosing (the terrain course's twelve flights up, 40 crossings each: 34
  // falls, 24 with the foot held where it stands); going down, the pelvis stayed a riser above
  // its goal and the swing foot hung over the tread below until the step timed out.
  const StepSettings& s = settings().step;
  if (foot.position.y - on_ground.y <= s.edge_rise_m) return false;
  // On an edge: the ground under its heel or toe is where the foot stands (a foot raised over
  // flat ground, on the other foot say, has the ground far below both).
  const Vec3 half = rig_.blueprint().bodies[slot(BodyPart::foot_l)].half_extents;
  const Vec3 forward = foot.rotation.rotate({0, 0, half.z});
  for (const Vec3 end : {foot.position + forward, foot.position - forward}) {
    const GroundHit ground = ground_under_foot(end);
    if (ground.hit && std::fabs(ground.point.y + half.y - foot.position.y) < s.edge_rise_m)
      return true;
  }
  return false;
}

StepController::LegGeometry StepController::leg_geometry(int leg) const {
  const auto& joints = rig_.blueprint().joints;
  const auto& bodies = rig_.blueprint().bodies;
  const LegParts& parts = kLegs[leg];
  const JointBlueprint& hip = joints[slot(parts.hip)];
  const JointBlueprint& knee = joints[slot(parts.knee)];
  const JointBlueprint& ankle = joints[slot(parts.ankle)];
  return {hip.pivot - bodies[slot(BodyPart::pelvis)].center,
          ankle.pivot - bodies[slot(parts.foot)].center, length(knee.pivot - hip.pivot),
          length(ankle.pivot - knee.pivot)};
}

void StepController::solve_leg_targets(int leg, Vec3 pelvis, Quat pelvis_rotation, Vec3 foot_center,
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

float StepController::reachable_pelvis_height(int leg, Vec3 pelvis, Quat pelvis_rotation,
                                              Vec3 foot_center, Quat foot_rotation,
                                              float knee_bend_deg) const {
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

float StepController::smooth_pelvis_height(float goal, float dt, float most_speed) {
  // The pelvis height the legs aim for changes at a limited rate: a target that jumps when a foot
  // lifts or lands makes the stance leg kick the body into the air.
  if (!state_.pelvis_height_set) {
    state_.pelvis_height = rig_.body_state(BodyPart::pelvis).position.y;
    state_.pelvis_height_set = true;
  }
  const float most = std::max(settings().step.pelvis_height_speed, most_speed) * dt;
  state_.pelvis_height += std::clamp(goal - state_.pelvis_height, -most, most);
  return state_.pelvis_height;
}

float StepController::damp_pelvis_height(float height) const {
  // The legs and the body on them are a stiff spring: a pelvis that had sunk below its goal (a
  // long step down a kerb, the crest of a ramp) was driven back up at 1.7-2.3 m/s, overshot the
  // goal by up to 0.14 m and lifted the stance foot off the ground, and the next step sank it
  // again. The goal less the pelvis's vertical velocity times a time damps that bounce: 24
  // flights at 200 crossings each fell 211 times without it, 67 with 0.03 s (112 with 0.06 s).
  // Only while stepping or walking over stairs and slopes, faded in and out with the terrain's
  // hold: on flat ground the bounce does not arise, and damped there too a walker on the glTF
  // yard tripped 4 times in 8 runs of 300 s (none undamped); a standing body crept 5 % farther.
  const float rising = rig_.body_state(BodyPart::pelvis).linear_velocity.y;
  return height - settings().step.pelvis_height_damping_s * state_.terrain_assist * rising;
}

Quat StepController::legs_pelvis_yaw(float wanted_yaw) const {
  // While the uprighting drive holds the heading, the legs take the pelvis's yaw as it is: legs
  // aiming at another yaw twist the stance foot with the hips' whole torque, and a foot on the
  // ground spins long before the pelvis gives (stance feet turned 30° in a step).
  if (!state_.holding_heading) return Quat::from_yaw(wanted_yaw);
  return Quat::from_yaw(rig_.pelvis_yaw());
}

void StepController::set_swing_friction(int leg, bool slippery) {
  rig_.set_foot_friction(leg, slippery ? settings().step.swing_friction : settings().foot_friction);
}

float StepController::pelvis_above_sole(float knee_bend_deg) const {
  // Pelvis centre above the soles with straight-down legs bent a little at the knees.
  const LegGeometry g = leg_geometry(0);
  const float bend = deg_to_rad(knee_bend_deg) * 0.5f;
  const float ankle_above_sole = rig_.blueprint().joints[slot(JointName::ankle_l)].pivot.y;
  return ankle_above_sole + (g.thigh + g.shin) * std::cos(bend) - g.hip_from_pelvis.y;
}

void StepController::plant_legs(float dt, Pose& pose) {
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
  const Vec3 facing =
      length(feet_forward) > 1e-3f ? normalized(feet_forward) : sense_.balance.forward;
  const Quat pelvis_rotation = legs_pelvis_yaw(yaw_of(facing));
  Vec3 pelvis;
  const bool walking = walking_intent();
  if (walking) {
    // Walking: the legs push the pelvis ahead at the commanded velocity.
    pelvis = moving_pelvis_goal(dt);
    stance_.forget_goal();
  } else {
    pelvis = stance_.pelvis_goal(dt, rig_, sense_);
    state_.pelvis_ref = horizontal(rig_.body_state(BodyPart::pelvis).position);
  }
  const float half_height = rig_.blueprint().bodies[slot(BodyPart::foot_l)].half_extents.y;
  const float bend = settings().balance.stance_knee_bend_deg;
  pelvis.y = 0.5f * (feet[0].y + feet[1].y) - half_height + pelvis_above_sole(bend);
  for (int leg = 0; leg < 2; ++leg) {
    pelvis.y = std::min(pelvis.y, reachable_pelvis_height(leg, pelvis, pelvis_rotation, feet[leg],
                                                          feet_rotation[leg], bend));
  }
  pelvis.y = smooth_pelvis_height(pelvis.y, dt);
  if (walking) pelvis.y = damp_pelvis_height(pelvis.y);
  state_.pelvis_target = pelvis;
  for (int leg = 0; leg < 2; ++leg)
    solve_leg_targets(leg, pelvis, pelvis_rotation, feet[leg], feet_rotation[leg], pose);
}

void StepController::hold_feet_yaw() {
  // Standing, the feet keep their own yaw: held there too, they crept apart (7 cm in a minute).
  // A walker resumed from its light pose has no landing yet: its feet, free to turn, splayed
  // 50 deg each way in half a second, so they keep the yaw they had as walking began.
  const bool walking = walking_intent();
  for (int leg = 0; leg < 2; ++leg) {
    std::optional<float>& held = state_.planted_yaw[static_cast<std::size_t>(leg)];
    if (!walking) held.reset();
    if (!walking || held || (state_.swing.active && state_.swing.leg == leg)) continue;
    held = yaw_of(rig_.body_state(kLegs[leg].foot).rotation.rotate({0, 0, 1}));
  }
}

LocomotionState StepController::update(float dt, bool assist_fading, Pose& pose) {
  turn_heading(dt);
  ramp_commanded_velocity(dt);
  if (!state_.swing.active) maybe_start_step(dt);
  hold_feet_yaw();
  if (state_.swing.active) {
    update_swing(dt, pose);
  } else if (sense_.planted(0) && sense_.planted(1)) {
    plant_legs(dt, pose);
  } else {
    stance_.tilt_ankles(dt, settings(), sense_, pose);
  }
  if (!assist_fading) hold_pelvis(dt);
  if (state_.swing.active) {
    return state_.swing.kind == Swing::Kind::gait ? LocomotionState::walking
                                                  : LocomotionState::stepping;
  }
  return walking_intent() ? LocomotionState::walking : LocomotionState::standing;
}

void StepController::maybe_start_step(float dt) {
  const StepSettings& s = settings().step;
  state_.since_touchdown_s += dt;
  const bool left = sense_.planted(0);
  const bool right = sense_.planted(1);
  // A new body first settles on its feet (the drop from its spawn height is not a stumble).
  if ((!left && !right) || !settled()) return;
  if (walking_intent()) {
    if (state_.since_touchdown_s < s.gait_double_support_s) return;
    int leg = state_.last_swing_leg < 0 ? 0 : 1 - state_.last_swing_leg;
    if (state_.last_swing_leg < 0) {
      // First step: the foot on the side of the turn, or the one trailing along the velocity.
      const float turn = turn_to_desired(sense_.yaw);
      const Vec3 v = state_.commanded;
      const Vec3 lateral = left_of(sense_.balance.forward);
      if (std::fabs(turn) > deg_to_rad(s.first_step_turn_deg)) {
        leg = turn > 0 ? 0 : 1;
      } else if (std::fabs(dot(v, lateral)) > 0.5f * length(v)) {
        leg = dot(v, lateral) > 0 ? 0 : 1;
      } else {
        leg = dot(rig_.body_state(BodyPart::foot_l).position -
                      rig_.body_state(BodyPart::foot_r).position,
                  v) < 0
                  ? 0
                  : 1;
      }
    }
    if (!sense_.planted(1 - leg)) leg = 1 - leg;
    start_step(leg, Swing::Kind::gait);
    return;
  }
  const float threshold = state_.recovering ? s.continue_error_m : s.step_error_m;
  if (sense_.balance.error_m > threshold * settings().height_m / 1.8f &&
      state_.since_touchdown_s > s.balance_step_gap_s) {
    const int leg = choose_recovery_leg();
    if (sense_.planted(1 - leg)) {
      start_step(leg, Swing::Kind::balance);
      return;
    }
  }
  // A foot that has come off the ground while the body stands on the other is set down beside
  // it: waiting for both feet to be planted, as a closing step does, left it hanging, dragged
  // out 0.4 m by the leg, and the body fell (pushed front-right at 65 N·s, not front-left).
  if (left != right && state_.since_touchdown_s > s.balance_step_gap_s) {
    start_step(left ? 1 : 0, Swing::Kind::closing);
    return;
  }
  if (state_.recovering && sense_.balance.error_m < s.continue_error_m) state_.recovering = false;
  // Feet left apart by a recovery (or a stop) are brought back together once the body is calm.
  const int closing = state_.stance_left_apart ? choose_closing_leg() : -1;
  if (closing < 0) state_.stance_left_apart = false;
  state_.calm_s = closing >= 0 && sense_.balance.error_m < 0.5f * s.step_error_m && left && right
                      ? state_.calm_s + dt
                      : 0.0f;
  if (closing >= 0 && state_.calm_s >= s.settle_s) {  // (settle_s may be 0: no wait)
    state_.calm_s = 0;
    start_step(closing, Swing::Kind::closing);
  }
}

int StepController::choose_recovery_leg() const {
  // A sideways lean is caught by the foot on that side; a lean forward or back by the foot that
  // trails along it (alternating when the feet are level); a second step uses the other leg.
  const Vec3 e = sense_.balance.error;
  const Vec3 lateral_axis = left_of(sense_.balance.forward);
  const float lateral = dot(e, lateral_axis);
  int leg;
  if (std::fabs(lateral) >= 0.5f * sense_.balance.error_m) {
    leg = lateral > 0 ? 0 : 1;
  } else {
    const float l = dot(rig_.body_state(BodyPart::foot_l).position - sense_.balance.support_mid, e);
    const float r = dot(rig_.body_state(BodyPart::foot_r).position - sense_.balance.support_mid, e);
    if (std::fabs(l - r) > settings().step.level_feet_m) {
      leg = l < r ? 0 : 1;
    } else {
      leg = state_.last_swing_leg == 0 ? 1 : 0;
    }
  }
  if (state_.recovering && leg == state_.last_swing_leg) leg = 1 - leg;
  return leg;
}

int StepController::choose_closing_leg() const {
  // The foot farther from where it belongs beside the other one (nominal width, side by side);
  // -1 when the stance is close enough to nominal.
  const StepSettings& s = settings().step;
  const float scale = settings().height_m / 1.8f;
  const Vec3 forward = sense_.balance.forward;
  const Vec3 lateral_axis = left_of(forward);
  const Vec3 l = horizontal(rig_.body_state(BodyPart::foot_l).position);
  const Vec3 r = horizontal(rig_.body_state(BodyPart::foot_r).position);
  const Vec3 nominal_l = r + lateral_axis * (s.stance_width_m * scale);
  const float off = length(l - nominal_l);
  if (off < s.close_feet_m * scale) return -1;
  // Move the foot whose move brings the feet midpoint closer to the centre of mass.
  const Vec3 com = horizontal(sense_.balance.com);
  const Vec3 mid_if_l = (nominal_l + r) * 0.5f;
  const Vec3 mid_if_r = (l + (l - lateral_axis * (s.stance_width_m * scale))) * 0.5f;
  return length(mid_if_l - com) <= length(mid_if_r - com) ? 0 : 1;
}

void StepController::start_step(int leg, Swing::Kind kind) {
  const StepSettings& s = settings().step;
  const float time_scale = state_.intent.gait == Gait::run ? s.run_time_scale : 1.0f;
  state_.swing = {};
  state_.swing.active = true;
  state_.swing.leg = leg;
  state_.swing.kind = kind;
  state_.swing.lift_s = s.lift_s * time_scale;
  state_.swing.plant_s = s.plant_s * time_scale;
  const BodyState foot = rig_.body_state(kLegs[leg].foot);
  state_.swing.start = foot.position;
  state_.swing.start_yaw = yaw_of(foot.rotation.rotate({0, 0, 1}));
  state_.planted_yaw[static_cast<std::size_t>(leg)].reset();
  if (kind != Swing::Kind::gait)
    state_.pelvis_ref = horizontal(rig_.body_state(BodyPart::pelvis).position);
  if (kind == Swing::Kind::balance) {
    state_.recovering = true;
    ++counts_.recovery_steps;
  }
  ++counts_.steps_taken;
  state_.calm_s = 0;
  set_swing_friction(leg, true);
  aim_swing();
}

void StepController::aim_swing() {
  // Foot placement in world space: the capture point predicted for touchdown (CoM + v·t_left,
  // plus the velocity error × sqrt(h/g)), half a step ahead at the commanded velocity, and half
  // the stance width out to the swing leg's side, never across the stance foot.
  const StepSettings& s = settings().step;
  const float scale = settings().height_m / 1.8f;
  const int stance_leg = 1 - state_.swing.leg;
  const BodyState stance = rig_.body_state(kLegs[stance_leg].foot);
  const float stance_yaw = yaw_of(stance.rotation.rotate({0, 0, 1}));
  const float turn = std::clamp(wrap_angle(state_.heading - stance_yaw),
                                -deg_to_rad(s.max_turn_deg), deg_to_rad(s.max_turn_deg));
  state_.swing.target_yaw = stance_yaw + turn;
  const Vec3 forward = forward_of(state_.swing.target_yaw);
  const Vec3 lateral_axis = left_of(forward) * (state_.swing.leg == 0 ? 1.0f : -1.0f);

  const Vec3 stance_at = horizontal(stance.position);
  if (state_.swing.kind == Swing::Kind::closing) {
    // Beside the stance foot at the nominal width.
    Vec3 target = stance_at + lateral_axis * (s.stance_width_m * scale);
    target.y = state_.swing.start.y;
    state_.swing.target = foot_center_on_ground(target, &state_.swing.ground_normal);
    return;
  }
  const float duration = state_.swing.lift_s + state_.swing.plant_s;
  const float left = std::max(0.0f, duration - state_.swing.elapsed_s);
  const float time_constant = std::sqrt(
      std::max(sense_.balance.com_height_m, settings().balance.min_com_height_m) / kGravity);
  const Vec3 v = horizontal(sense_.balance.com_velocity);
  const Vec3 commanded = state_.commanded;
  const Vec3 com = horizontal(sense_.balance.com);
  Vec3 target = com + v * left + (v - commanded) * (time_constant + s.placement_cv) +
                commanded * (0.5f * duration) + (com - stance_at) * s.placement_cd +
                lateral_axis * (0.5f * s.stance_width_m * scale);
  // Never across or too close beside the stance foot; never farther than a long step.
  const float side = dot(target - stance_at, lateral_axis);
  if (side < s.min_width_m * scale) target = target + lateral_axis * (s.min_width_m * scale - side);
  const Vec3 step = target - stance_at;
  if (length(step) > s.max_step_m * scale)
    target = stance_at + normalized(step) * (s.max_step_m * scale);
  target.y = state_.swing.start.y;
  state_.swing.target = state_.swing.kind == Swing::Kind::gait
                            ? gait_foothold(target, forward, &state_.swing.ground_normal)
                            : foot_center_clear_of_edges(target, forward, state_.swing.edge_side,
                                                         &state_.swing.ground_normal);
}

namespace {
// Where along `forward` (from `center`, in m) the ground within ±reach leaves the plane of
// `mid` (the ground under the centre), and how far the ground beyond the edge is above the
// ground short of it.
struct Edge {
  int ends_off = 0;  // ends of the foot (toe, heel) over ground off the plane
  float at = 0;      // [m] along `forward` from the centre, with one end off
  float rise = 0;    // [m] the ground beyond the edge above the ground short of it
};

Edge edge_along_foot(const RagdollRig& rig, Vec3 center, const GroundHit& mid, Vec3 forward,
                     float reach) {
  const StepSettings& settings = rig.settings().step;
  Edge edge;
  if (!mid.hit || mid.normal.y < 0.5f) return edge;
  const float slope = rise_along(mid.normal, forward);  // so that slopes are not edges
  float rise = 0;  // of the ground at the last point probed above the plane
  auto off_plane = [&](float s) {
    const GroundHit g =
        rig.probe_ground(center + forward * s, settings.probe_above_m, settings.probe_below_m);
    rise = g.hit ? g.point.y - (mid.point.y + slope * s) : -1.0f;
    return std::fabs(rise) > settings.edge_rise_m;
  };
  const bool toe = off_plane(reach);
  const float toe_rise = rise;
  const bool heel = off_plane(-reach);
  edge.ends_off = (toe ? 1 : 0) + (heel ? 1 : 0);
  if (edge.ends_off != 1) return edge;
  edge.rise = toe ? toe_rise : -rise;
  // Bisection between the centre (on the plane) and the end that is off it.
  float on = 0.0f;
  float off = toe ? reach : -reach;
  while (std::fabs(off - on) > settings.edge_precision_m) {
    const float m = 0.5f * (on + off);
    (off_plane(m) ? off : on) = m;
  }
  edge.at = 0.5f * (on + off);
  return edge;
}

}  // namespace

Vec3 StepController::foot_center_clear_of_edges(Vec3 target, Vec3 forward, int& side,
                                                Vec3* normal) const {
  // A foot set down across the edge of a step down stands on its heel and rocks over the edge
  // (walking down the arena's stairs, 45 falls in 200). The foot goes wholly to the nearer side
  // of the edge, and stays on that side while the target is re-aimed, so that it does not jump
  // from one tread to the other in mid-swing. (Going up, the same rule made falls more frequent,
  // 21 in 200 against 10: a heel over a riser's edge is the stepping up the gait does anyway.)
  // The ground probed under the centre places the foot too.
  const float margin = settings().step.edge_margin_m;
  const Vec3 half_size = rig_.blueprint().bodies[slot(BodyPart::foot_l)].half_extents;
  const float half = half_size.z + margin;
  const GroundHit ground = ground_under_foot(target);
  const Edge edge = edge_along_foot(rig_, target, ground, forward, half);
  if (edge.ends_off != 1 || edge.rise > 0) return on_ground(target, ground, half_size.y, normal);
  const float behind = edge.at - half;
  const float ahead = edge.at + half;
  if (side == 0) side = std::fabs(behind) <= std::fabs(ahead) ? -1 : 1;
  const Vec3 moved = target + forward * (side < 0 ? behind : ahead);
  // Where the other side is no longer than a foot either, the foot stays where it was aimed.
  const GroundHit moved_ground = ground_under_foot(moved);
  if (edge_along_foot(rig_, moved, moved_ground, forward, half - 0.5f * margin).ends_off > 0)
    return on_ground(target, ground, half_size.y, normal);
  return on_ground(moved, moved_ground, half_size.y, normal);
}

void StepController::keep_sole_clear(Vec3& foot, Vec3 forward, Vec3 normal, float clearance) const {
  // Down a stair the straight path cuts through the tread the foot leaves: it touched the
  // tread's edge, landed there, and rocked. The foot's heel and toe are kept `clearance` above
  // the ground under them (the sole tilted as the foot is, so that a slope is not an obstacle).
  const Vec3 half = rig_.blueprint().bodies[slot(BodyPart::foot_l)].half_extents;
  const float pitch = rise_along(normal, forward);
  for (float along : {-half.z, half.z}) {
    const float reach = settings().step.sole_probe_m;
    const GroundHit g = rig_.probe_ground(foot + forward * along, reach, reach);
    if (g.hit) foot.y = std::max(foot.y, g.point.y - pitch * along + half.y + clearance);
  }
}

void StepController::update_swing(float dt, Pose& pose) {
  const StepSettings& s = settings().step;
  state_.swing.elapsed_s += dt;
  // A step down's pelvis comes down only while the swing foot is off the tread it leaves: lowered
  // while that foot still bore weight on the nosing, the stance leg folded, its foot kicked up
  // 0.3 m and the body came down on the swing foot as it slid off (200 crossings down 0.20/0.40
  // stairs: 45 falls against 28).
  const bool on_the_tread_left =
      swing_foot_caught_above() && rig_.touching(kLegs[state_.swing.leg].foot);
  if (!on_the_tread_left) state_.swing.lowering_s += dt;
  const float t = state_.swing.elapsed_s;
  const float duration = state_.swing.lift_s + state_.swing.plant_s;
  // Re-aim while there is time to get there; the last part of the plant phase goes straight in.
  if (t < s.reaim_share * duration) aim_swing();

  // Lift: the foot rises and starts toward the target (easing in); plant: it reaches the target
  // and sets down (easing out). Past the plan it presses down until it touches.
  float progress;
  float height;
  const float clearance = s.clearance_m * settings().height_m / 1.8f;
  if (t < state_.swing.lift_s) {
    const float u = t / state_.swing.lift_s;
    progress = 0.5f * ease_in(u);
    height = clearance * smoothstep(u);
  } else {
    // The foot is over its target a little before it sets down: the drives lag their targets.
    const float u = std::min(1.0f, (t - state_.swing.lift_s) / state_.swing.plant_s);
    progress = 0.5f + 0.5f * ease_out(std::min(1.0f, u / s.plant_reach));
    height = clearance * (1.0f - smoothstep(u));
  }
  if (t > duration) height = -s.press_depth_m * std::min(1.0f, (t - duration) / s.press_ramp_s);
  Vec3 foot = state_.swing.start + (state_.swing.target - state_.swing.start) * progress;
  // Up a slope the foot climbs in the first half of the step, to clear the ground ahead; down one
  // it descends along the ground: dropped early it struck the slope at the end of the lift,
  // still moving at full speed, and bounced off.
  const float rise = state_.swing.target.y - state_.swing.start.y;
  foot.y = state_.swing.start.y + rise * (rise > 0 ? std::min(1.0f, 2.0f * progress) : progress) +
           height;
  const float yaw = state_.swing.start_yaw +
                    wrap_angle(state_.swing.target_yaw - state_.swing.start_yaw) * progress;
  const Vec3 normal =
      normalized(Vec3{0, 1, 0} + (state_.swing.ground_normal - Vec3{0, 1, 0}) * progress);
  if (t < duration && state_.swing.kind == Swing::Kind::gait && state_.swing.on_profile) {
    clear_profile(foot, t, height, rise_along(normal, forward_of(yaw)));
  } else if (t < duration && rise < s.keep_clear_rise_m) {
    keep_sole_clear(foot, forward_of(yaw), normal, height);
  }
  const Quat foot_rotation = foot_on_ground(forward_of(yaw), normal);

  // Stance leg: the pelvis upright at standing height above the stance foot, where it is (pushed
  // ahead at the commanded velocity), facing between the two feet.
  const int stance_leg = 1 - state_.swing.leg;
  Vec3 stance_center;
  Quat stance_rotation;
  planted_foot(stance_leg, stance_center, stance_rotation);
  const Quat pelvis_rotation = legs_pelvis_yaw(state_.heading);
  const float half_height = rig_.blueprint().bodies[slot(BodyPart::foot_l)].half_extents.y;
  const BodyState pelvis_now = rig_.body_state(BodyPart::pelvis);
  Vec3 pelvis = moving_pelvis_goal(dt);
  // A walking stance leg keeps more bend than a standing one: a knee nearly straight has no
  // travel left to follow the body up as it vaults over the foot (see walk_knee_bend_deg).
  const float bend = state_.swing.kind == Swing::Kind::gait
                         ? s.walk_knee_bend_deg
                         : settings().balance.stance_knee_bend_deg;
  float height_goal = std::min(stance_center.y - half_height + pelvis_above_sole(bend),
                               reachable_pelvis_height(stance_leg, pelvis, pelvis_rotation,
                                                       stance_center, stance_rotation, bend));
  float height_speed = 0;
  if (state_.swing.down_a_step || low_foothold(stance_center)) {
    height_goal =
        step_down_pelvis_height(height_goal, stance_center, pelvis_rotation, bend, height_speed);
  }
  pelvis.y = damp_pelvis_height(smooth_pelvis_height(height_goal, dt, height_speed));
  state_.pelvis_target = pelvis;
  solve_leg_targets(stance_leg, stance_leg_pelvis(pelvis, pelvis_now.position.y), pelvis_rotation,
                    stance_center, stance_rotation, pose);
  // Swing leg: hung from the real pelvis, so the foot goes where it is aimed in the world.
  solve_leg_targets(state_.swing.leg, pelvis_now.position, pelvis_now.rotation, foot, foot_rotation,
                    pose);

  // A step down's foot that touches the ground well above its foothold has caught the tread it
  // leaves (its heel on the nosing): landed there, the body stood on the nosing and rocked off.
  // The swing goes on; the slippery sole slides off the edge.
  const bool caught = swing_foot_caught_above();
  const bool touched =
      rig_.touching(kLegs[state_.swing.leg].foot) && t >= state_.swing.lift_s && !caught;
  if (touched || t > duration + s.landing_timeout_s) land_swing();
}

Vec3 StepController::stance_leg_pelvis(Vec3 goal, float pelvis_height) const {
  // Legs push the body up; gravity brings it down. A stance leg hung from a goal below the real
  // pelvis is asked to be shorter than it is, and a leg cannot pull the body down: it pulls its
  // own foot up instead. On flat ground the body rose 5-7 mm past the goal as it vaulted over a
  // new stance foot, and the nearly straight stance leg lifted its foot and dragged it back
  // 4-10 cm. There the leg is hung from the real height when that is higher: it holds, and the
  // body comes down onto it. Over stairs and slopes, where the damped goal answers the same
  // overshoot and steps down need the leg to lower the body, the goal stands (faded with the
  // terrain's hold), but down a flight of short treads only so far below the real height: a
  // stance foot that a short tread lets hang over its nosing was pulled up and dragged over it.
  const float over = std::max(0.0f, pelvis_height - goal.y);
  float lift = over * (1.0f - state_.terrain_assist);
  if (state_.stairs_down && state_.swing.stance_on_short_tread)
    lift = std::max(lift, over - settings().step.stairs_down_stance_drop_m);
  goal.y += lift;
  return goal;
}

bool StepController::low_foothold(Vec3 stance_center) const {
  // A walking foothold on a slope well below the stance foot: the downhill foot across a slope
  // (the hillside trial's guards turning on the spot, 48 runs of 300 s: 10 self-falls with the
  // pelvis held over the uphill foot, 2 lowered). Not on level treads: steps down stairs have
  // their own rule, and the long treads that rule leaves alone walk better without this one.
  const StepSettings& s = settings().step;
  const bool sloped = state_.swing.ground_normal.y < std::cos(deg_to_rad(s.profile_slope_deg));
  return state_.swing.kind == Swing::Kind::gait && sloped &&
         stance_center.y - state_.swing.target.y >= s.low_foothold_m;
}

bool StepController::swing_foot_caught_above() const {
  const float above_target =
      rig_.body_state(kLegs[state_.swing.leg].foot).position.y - state_.swing.target.y;
  return state_.swing.down_a_step && above_target > settings().step.step_down_landing_gap_m;
}

float StepController::step_down_pelvis_height(float goal, Vec3 stance_center, Quat pelvis_rotation,
                                              float bend, float& speed) const {
  // Held at the stance leg's height, the pelvis left the swing foot hanging above the lower
  // tread or the ground down the slope (a leg's reach short of it) until the body dropped onto it
  // (across a slope, the swing timed out and the same foot swung again while the body stood on
  // the uphill foot alone, which slid up the slope from under it). The goal comes down through
  // the swing to the height from which the swing leg reaches its foothold with the walking knee
  // bend, the pelvis then midway between the feet; the rate limit gives way where the swing's
  // time left needs it.
  const Swing& swing = state_.swing;
  const float duration = swing.lift_s + swing.plant_s;
  const Vec3 midway = (horizontal(stance_center) + horizontal(swing.target)) * 0.5f;
  const Quat target_rotation = foot_on_ground(forward_of(swing.target_yaw), swing.ground_normal);
  const float at_touchdown = reachable_pelvis_height(swing.leg, midway, pelvis_rotation,
                                                     swing.target, target_rotation, bend);
  const float u = smoothstep(std::min(1.0f, swing.lowering_s / duration));
  const float lowered = std::min(goal, goal + (at_touchdown - goal) * u);
  const float left = duration - swing.lowering_s;
  speed = left > 0 ? (state_.pelvis_height - lowered) / left : 0.0f;
  return lowered;
}

Vec3 StepController::moving_pelvis_goal(float dt) {
  // Walking: a reference that moves at the commanded velocity, never more than a little ahead
  // of (or behind) the real pelvis. A balance or closing step holds the pelvis where the step
  // began. (A reference taken from where the pelvis is each step turned the drives' tracking of
  // the moving reference into positive feedback: a 20 N·s push sped up to 0.75 m/s mid-step.)
  const Vec3 actual = horizontal(rig_.body_state(BodyPart::pelvis).position);
  if (state_.swing.active && state_.swing.kind == Swing::Kind::balance) return state_.pelvis_ref;
  if (state_.swing.active && state_.swing.kind == Swing::Kind::closing) {
    // Carried over to the middle of the feet as they will stand.
    const Vec3 stance = horizontal(rig_.body_state(kLegs[1 - state_.swing.leg].foot).position);
    const Vec3 mid = (stance + horizontal(state_.swing.target)) * 0.5f;
    const float u =
        smoothstep(state_.swing.elapsed_s / (state_.swing.lift_s + state_.swing.plant_s));
    return state_.pelvis_ref + (mid - state_.pelvis_ref) * u;
  }
  const float lead = settings().step.max_pelvis_lead_m * settings().height_m / 1.8f;
  state_.pelvis_ref = state_.pelvis_ref + state_.commanded * dt;
  const Vec3 gap = state_.pelvis_ref - actual;
  if (length(gap) > lead) state_.pelvis_ref = actual + normalized(gap) * lead;
  return state_.pelvis_ref;
}

void StepController::hold_pelvis(float dt) {
  // Single support and walking lean on a stronger uprighting drive (the "strong hip drive") that
  // also holds the heading, and a capped hold of the pelvis on the legs' own pelvis target,
  // moving at the commanded velocity. Standing on both feet needs neither once it has settled
  // after its last step; the assistance then fades out (switched off at once, it jolted the body).
  const StepSettings& s = settings().step;
  const bool moving =
      state_.swing.active || walking_intent() || state_.since_touchdown_s < s.hold_after_step_s;
  state_.step_assist = moving ? 1.0f : std::max(0.0f, state_.step_assist - dt / s.assist_fade_s);
  rig_.set_upright_strength(1.0f + (s.upright_boost - 1.0f) * state_.step_assist);
  state_.holding_heading = state_.step_assist > 0;
  rig_.set_upright_holds_heading(state_.holding_heading);
  if (state_.step_assist <= 0) {
    rig_.release_pelvis();
    return;
  }
  // Over stairs and slopes the horizontal cap is the terrain's, eased in and out over the fade
  // time (a cap that jumps jolts the body): twenty-four flights, 200 crossings each, fell 67
  // times with the flat cap there and 22 with 0.3 (0.20/0.40 down: 16 and 0). Flat ground keeps
  // the flat cap, so that the shoves a body survives there are its legs' doing (with 0.4
  // everywhere, a hand's shove at 7 m/s no longer felled a walker).
  const float toward = state_.uneven_ahead ? 1.0f : 0.0f;
  const float most = dt / s.assist_fade_s;
  state_.terrain_assist += std::clamp(toward - state_.terrain_assist, -most, most);
  const float ratio = s.hold_ratio + (s.terrain_hold_ratio - s.hold_ratio) * state_.terrain_assist;
  const float cap = state_.step_assist * rig_.mass() * kGravity;
  rig_.pull_pelvis(state_.pelvis_target, {ratio * cap, s.support_ratio * cap, ratio * cap},
                   s.hold_time_constant_s, s.hold_max_speed, state_.commanded);
}

void StepController::cancel() {
  if (state_.swing.active) set_swing_friction(state_.swing.leg, false);
  state_.swing.active = false;
  state_.recovering = false;
  state_.last_swing_leg = -1;
  stance_.forget_goal();
  state_.pelvis_height_set = false;
  state_.holding_heading = false;
  state_.step_assist = 0;
  rig_.set_upright_holds_heading(false);
  state_.calm_s = 0;
  state_.commanded = {};
  state_.uneven_ahead = false;
  state_.terrain_assist = 0;
}

void StepController::land_swing() {
  state_.last_kind = state_.swing.kind;
  // Only steps leave the feet apart on purpose; the slow creep of standing feet is the anchors'
  // job.
  state_.stance_left_apart = state_.swing.kind != Swing::Kind::closing;
  set_swing_friction(state_.swing.leg, false);
  state_.planted_yaw[static_cast<std::size_t>(state_.swing.leg)] =
      yaw_of(rig_.body_state(kLegs[state_.swing.leg].foot).rotation.rotate({0, 0, 1}));
  state_.last_swing_leg = state_.swing.leg;
  state_.swing.active = false;
  state_.since_touchdown_s = 0;
  stance_.forget_goal();
  stance_.forget_integral_shift();
}

}  // namespace stagger::physics

namespace stagger::physics {

void StepController::feet_for_balance(Vec3 commanded, Vec3& left, Vec3& right) const {
  const Swing& swing = state_.swing;
  Vec3 planned = swing.target;
  if (swing.active && swing.kind == Swing::Kind::gait) {
    const float left_s = std::max(0.0f, swing.lift_s + swing.plant_s - swing.elapsed_s);
    planned = planned - commanded * left_s;
  }
  const bool planning = swing.active && swing.kind != Swing::Kind::closing;
  left = planning && swing.leg == 0 ? planned : rig_.body_state(BodyPart::foot_l).position;
  right = planning && swing.leg == 1 ? planned : rig_.body_state(BodyPart::foot_r).position;
}

void StepController::reset() {
  state_ = {};
  for (int leg = 0; leg < 2; ++leg) set_swing_friction(leg, false);
}

void StepController::carry_on() {
  // A walker resumed from its posed cycle waited out the spawn's settling time, commanded to
  // stand: it braked from walking speed on both feet and took its first step half a second
  // later, a visible hitch (and at some phases of the cycle, a fall).
  state_.settled = true;
  state_.since_touchdown_s = 0;  // handed over as a foot lands: the gait's double support first
  state_.commanded = horizontal(sense_.balance.com_velocity);
  const float most = length(intended_velocity()) + settings().step.max_command_lead;
  if (length(state_.commanded) > most) state_.commanded = normalized(state_.commanded) * most;
  state_.pelvis_ref = horizontal(rig_.body_state(BodyPart::pelvis).position);
}

}  // namespace stagger::physics
