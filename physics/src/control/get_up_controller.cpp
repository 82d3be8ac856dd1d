#include "get_up_controller.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace stagger::physics {
namespace {

// [rad] a spine tilted further than this from the horizontal is not lying, and is not rolled:
// about a steep spine the roll would turn the body about the vertical instead
constexpr float kMaxRolledSpinePitch = deg_to_rad(30.0f);

// Every body part, for turning the whole body as one rigid body.
constexpr std::array<BodyPart, kBodyPartCount> kAllParts = [] {
  std::array<BodyPart, kBodyPartCount> all{};
  for (int b = 0; b < kBodyPartCount; ++b) all[static_cast<std::size_t>(b)] = body_part_at(b);
  return all;
}();

// [m] the fall line's probes reach this much farther up than the rise's ground probes (a body
// lying on a flight has treads up to a metre above its pelvis within reach) ...
constexpr float kFallLineAboveM = 1.0f;
// [m] ... and this far down (treads as far below).
constexpr float kFallLineBelowM = 2.0f;

}  // namespace

BalanceSettings GetUpController::fall_thresholds(Vec3 commanded) const {
  const RagdollSettings& settings = rig_.settings();
  // Just after getting up it takes more to knock the body down again.
  BalanceSettings thresholds = settings.balance;
  if (state_.resistance_s > 0) {
    const GetUpSettings& g = settings.get_up;
    thresholds.fall_error_m *= g.resistance;
    thresholds.fall_tilt_rad =
        std::min(thresholds.fall_tilt_rad * g.resistance, g.max_resisting_tilt_rad);
  }
  // Walking, the capture point runs up to half a step from the feet as the body vaults over
  // the stance foot; that much is the gait, not a stumble.
  thresholds.fall_error_m +=
      length(commanded) * 0.5f * (settings.step.lift_s + settings.step.plant_s);
  return thresholds;
}

bool GetUpController::gives_up(const BalanceSettings& thresholds, bool judged_at_once, float dt) {
  const BalanceReadout& balance = sense_.balance;
  float& past = state_.past_fall_error_s;
  past = balance.error_m > thresholds.fall_error_m ? past + dt : 0.0f;
  const BalanceSettings& s = rig_.settings().balance;
  if (judged_at_once || past >= s.walk_fall_hold_s) return past_fall_threshold(balance, thresholds);
  BalanceSettings held = thresholds;
  held.fall_error_m *= s.walk_fall_error_at_once;
  return past_fall_threshold(balance, held);
}

bool GetUpController::resistance_ran_out(float dt) {
  const bool resisting = state_.resistance_s > 0;
  state_.resistance_s = std::max(0.0f, state_.resistance_s - dt);
  return resisting && state_.resistance_s == 0;
}

void GetUpController::on_fall() {
  state_.past_fall_error_s = 0;
  state_.still_s = 0;
  state_.resting_s = 0;
  state_.rest_set = false;
  state_.assist_fade_s = 0;
  state_.rising = false;
  state_.settling = false;
  state_.lying = false;
}

void GetUpController::settle_on_impact() {
  if (state_.settling) return;
  const GetUpSettings& g = rig_.settings().get_up;
  const float standing = rig_.blueprint().bodies[slot(BodyPart::pelvis)].center.y;
  const float sole = sense_.balance.com.y - sense_.balance.com_height_m;
  bool landed = rig_.body_state(BodyPart::pelvis).position.y - rig_.lowest_point(sole) <
                g.settle_pelvis_ratio * standing;
  for (int b = 0; b < kBodyPartCount && !landed; ++b) {
    const BodyPart part = body_part_at(b);
    landed = part != BodyPart::foot_l && part != BodyPart::foot_r && rig_.touching(part);
  }
  if (!landed) return;
  state_.settling = true;
  rig_.set_limp_friction(g.settle_strength);
  rig_.set_damping(g.settle_linear_damping, g.settle_angular_damping);
}

bool GetUpController::lain_still(float dt) {
  const GetUpSettings& g = rig_.settings().get_up;
  state_.still_s = rig_.max_body_speed() < g.still_speed ? state_.still_s + dt : 0.0f;
  state_.resting_s = stayed_put(g.still_drift_m) ? state_.resting_s + dt : 0.0f;
  return std::max(state_.still_s, state_.resting_s) >= g.still_time_s;
}

bool GetUpController::stayed_put(float drift) {
  std::array<Vec3, kBodyPartCount> now;
  bool stayed = state_.rest_set;
  for (std::size_t b = 0; b < now.size(); ++b) {
    now[b] = rig_.body_state(body_part_at(static_cast<int>(b))).position;
    stayed = stayed && length(now[b] - state_.rest_from[b]) <= drift;
  }
  if (!stayed) {
    state_.rest_from = now;
    state_.rest_set = true;
  }
  return stayed;
}

bool GetUpController::stays_down() const {
  return state_.failed_attempts >= rig_.settings().get_up.max_attempts;
}

void GetUpController::lie_down(PoseBlend& pose) {
  state_.lying = true;
  state_.prone = belly_up() < 0;
  rig_.set_upright_strength(0.0f);
  pose.target = rig_.current_pose();
  pose.start(lying_pose(pose.target), rig_.settings().get_up.lie_blend_s);
}

bool GetUpController::ready_to_rise(float down_s) const {
  const GetUpSettings& g = rig_.settings().get_up;
  if (down_s < g.down_time_s) return false;
  if (!state_.lying || down_s >= g.down_time_s + g.lie_max_s) return true;
  return std::fabs(belly_up()) > std::cos(deg_to_rad(g.lie_flat_deg)) &&
         rig_.touching(BodyPart::foot_l) && rig_.touching(BodyPart::foot_r);
}

void GetUpController::start(PoseBlend& pose) {
  state_.lying = false;
  const Quat pelvis = rig_.body_state(BodyPart::pelvis).rotation;
  // Face down when the belly (pelvis +Z) points at the ground. A body lying face up stands up
  // facing its feet; one lying face down pushes up and faces where its head was.
  state_.prone = belly_up() < 0;
  Vec3 head_direction = horizontal(pelvis.rotate({0, 1, 0}));
  if (length(head_direction) < 1e-3f) head_direction = horizontal(pelvis.rotate({0, 0, 1}));
  Vec3 facing = state_.prone ? head_direction : -head_direction;
  const GetUpSettings& g = rig_.settings().get_up;
  const std::optional<Vec3> uphill = fall_line();
  // Face down on steep ground with the head not up the fall line, the body first turns head-up
  // (pushing up with its feet above its head, a third of such attempts on stairs failed) and
  // then rises facing uphill. Face up it sits up toward its feet, up or down the flight.
  state_.turning = uphill && state_.prone && g.turn_max_s > 0 &&
                   dot(*uphill, normalized(head_direction)) < std::cos(deg_to_rad(g.turn_min_deg));
  state_.turn_overrun_s = 0;
  if (uphill) facing = state_.turning || dot(*uphill, facing) >= 0 ? *uphill : -*uphill;
  state_.on_steep_ground = uphill.has_value();
  state_.facing_yaw = yaw_of(facing);
  state_.rising = false;
  state_.lagging_s = 0;
  rig_.set_upright_strength(0.0f);
  pose.target = rig_.current_pose();
  pose.start(tuck_pose(state_.prone, state_.on_steep_ground), g.tuck_s);
}

void GetUpController::roll_flat() {
  // A body lying on its side tucks with the upper leg on the lower one, its foot 0.15-0.25 m
  // over the ground, and rises rolling over its side. Its trunk, head and arms are turned about
  // the spine as one rigid body, belly down (prone) or up: a damped spring on the roll angle,
  // capped. The legs follow through the hips. (A torque on the pelvis and chest alone wrenched
  // the shoulders past their limits; with the legs turned too, fewer bodies stood.)
  static constexpr BodyPart kRolled[] = {
      BodyPart::pelvis,      BodyPart::chest,       BodyPart::head,       BodyPart::upper_arm_l,
      BodyPart::lower_arm_l, BodyPart::upper_arm_r, BodyPart::lower_arm_r};
  const GetUpSettings& g = rig_.settings().get_up;
  const BodyState pelvis = rig_.body_state(BodyPart::pelvis);
  const Vec3 spine = pelvis.rotation.rotate({0, 1, 0});
  const Vec3 belly = pelvis.rotation.rotate({0, 0, 1});
  if (std::fabs(spine.y) > std::sin(kMaxRolledSpinePitch)) return;
  const Vec3 down{0, state_.prone ? -1.0f : 1.0f, 0};
  const Vec3 want = normalized(down - spine * dot(down, spine));  // the belly's goal
  const float angle = std::atan2(dot(cross(belly, want), spine), dot(belly, want));
  const float omega = 2.0f * kPi * g.roll_frequency_hz;
  const float rate = dot(pelvis.angular_velocity, spine);
  rig_.apply_roll(kRolled, pelvis.position, spine, omega * omega * angle - 2.0f * omega * rate,
                  g.roll_max_torque_nm * rig_.settings().torque_scale());
}

bool GetUpController::turn_head_up(Vec3 uphill) {
  // The whole body, tucking, turns as one rigid body about the vertical through its centre of
  // mass (no joint carries the turn): a damped spring on the head's heading, capped. (About the
  // flight's normal, a body lying across the treads caught on the nosings and stopped short.)
  const GetUpSettings& g = rig_.settings().get_up;
  const BodyState pelvis = rig_.body_state(BodyPart::pelvis);
  const Vec3 head = horizontal(pelvis.rotation.rotate({0, 1, 0}));
  if (length(head) < 1e-3f) return true;  // head straight up or down: no heading to turn
  const Vec3 up{0, 1, 0};
  const Vec3 from = normalized(head);
  const float angle = std::atan2(dot(cross(from, uphill), up), dot(from, uphill));
  if (std::fabs(angle) < deg_to_rad(g.turn_done_deg)) return true;
  const float omega = 2.0f * kPi * g.turn_frequency_hz;
  rig_.apply_roll(kAllParts, rig_.mass_center(-1).position, up,
                  omega * omega * angle - 2.0f * omega * pelvis.angular_velocity.y,
                  g.turn_max_torque_nm * rig_.settings().torque_scale());
  return false;
}

std::optional<Vec3> GetUpController::fall_line() const {
  // On steep ground (stairs, a steep slope) a body standing across the fall line has its feet at
  // different heights and leans: it stands up facing up or down the slope instead, whichever is
  // nearer the way it would have faced. The way up, where the ground is that steep.
  const GetUpSettings& g = rig_.settings().get_up;
  const Vec3 at = rig_.body_state(BodyPart::pelvis).position;
  const float r = g.fall_line_probe_m;
  float h[4];
  const Vec3 offsets[4] = {{r, 0, 0}, {-r, 0, 0}, {0, 0, r}, {0, 0, -r}};
  for (int i = 0; i < 4; ++i) {
    const GroundHit hit =
        rig_.probe_ground(at + offsets[i], g.ground_probe_m + kFallLineAboveM, kFallLineBelowM);
    if (!hit.hit) return std::nullopt;
    h[i] = hit.point.y;
  }
  const Vec3 uphill{(h[0] - h[1]) / (2.0f * r), 0.0f, (h[2] - h[3]) / (2.0f * r)};
  if (length(uphill) < std::tan(deg_to_rad(g.fall_line_slope_deg))) return std::nullopt;
  return normalized(uphill);
}

void GetUpController::update(float t, PoseBlend& pose) {
  // Stages: 1. tuck (blend from the lying pose; face down on steep ground, turning head-up,
  // which the rise waits for); 2. rise: the joints blend to a crouch (face down: bent over the
  // straight legs), then to standing, while a capped lift carries the pelvis to standing height
  // and the uprighting drive, boosted, turns it upright; 3. `stood` declares success once up,
  // `failing` or `timed_out` failure.
  const GetUpSettings& g = rig_.settings().get_up;
  if (state_.turning) {
    // The rise waits for the turn, for at most `turn_max_s` from the attempt's start.
    const std::optional<Vec3> uphill = fall_line();
    state_.turning = uphill && !turn_head_up(*uphill) && t < g.turn_max_s;
    state_.turn_overrun_s = std::max(0.0f, t - g.tuck_s);
    if (state_.turning && t >= g.tuck_s) return;
  }
  t = stage_time(t);
  if (t < g.tuck_s) {
    // Not on stairs or steep slopes: there fewer stood with it (146 of 200 within 6 s on stairs
    // against 163).
    if (!state_.on_steep_ground) roll_flat();
    return;
  }
  if (!state_.rising) {
    state_.rising = true;
    state_.anchor = rig_.body_state(BodyPart::pelvis).position;
    state_.last_update_s = t;
    state_.lagging_s = 0;
    pose.start(state_.prone ? pike_pose() : crouch_pose(), 0.5f * g.rise_s);
  }
  const float u = std::clamp((t - g.tuck_s) / g.rise_s, 0.0f, 1.0f);
  if (u >= 0.5f && max_angle_between(pose.to, standing_pose()) > 1e-4f) {
    pose.start(standing_pose(), 0.5f * g.rise_s);
  }
  const BalanceReadout& balance = sense_.balance;
  const Vec3 anchor = state_.anchor;
  const float standing = rig_.blueprint().bodies[slot(BodyPart::pelvis)].center.y;
  // Standing height (less a margin, so the lift never carries the pelvis past it) over the ground.
  const float goal = ground_under_feet() + standing - g.lift_below_standing_m;
  const float height = anchor.y + (goal - anchor.y) * smoothstep(u);
  track_progress(t, height);
  // In the second half of the rise the hold moves the pelvis over the feet, which the legs have
  // drawn under the body by then.
  const float over_feet = smoothstep(2.0f * u - 1.0f);
  const Vec3 over = balance.support_mid;
  const float weight = rig_.mass() * kGravity;
  const float ramp = std::min(1.0f, (t - g.tuck_s) / g.lift_ramp_s);
  rig_.pull_pelvis({anchor.x + (over.x - anchor.x) * over_feet, height,
                    anchor.z + (over.z - anchor.z) * over_feet},
                   {g.hold_ratio * weight, g.lift_ratio * weight * ramp, g.hold_ratio * weight},
                   g.lift_time_constant_s, g.lift_max_speed);
  rig_.set_upright_strength(rise_boost() * std::min(1.0f, 2.0f * u));
}

void GetUpController::track_progress(float t, float planned_height) {
  // A rise that has run its course with the pelvis still `fail_lag_m` short of its goal for
  // `fail_hold_s` has failed: it is given up then (and tried again from the ground) rather than
  // left to run to the timeout. (Judged earlier, in the second half of the rise, it cut short
  // attempts on stairs that would have stood.)
  const GetUpSettings& g = rig_.settings().get_up;
  const float dt = t - state_.last_update_s;
  state_.last_update_s = t;
  const float pelvis = rig_.body_state(BodyPart::pelvis).position.y;
  const bool late = pelvis < planned_height - g.fail_lag_m && t >= g.tuck_s + g.rise_s;
  state_.lagging_s = late ? state_.lagging_s + dt : 0.0f;
}

bool GetUpController::failing() const {
  return state_.lagging_s >= rig_.settings().get_up.fail_hold_s;
}

float GetUpController::ground_under_feet() const {
  // The ground under the lower foot, probed every step (on stairs the feet move between treads),
  // not the soles: a height goal that followed a sole rose with a foot that left the ground and
  // lifted the body off it.
  const GetUpSettings& g = rig_.settings().get_up;
  float lowest = 1e9f;
  float sole = 1e9f;
  for (BodyPart foot : {BodyPart::foot_l, BodyPart::foot_r}) {
    const BodyState s = rig_.body_state(foot);
    const GroundHit ground = rig_.probe_ground(s.position, g.ground_probe_m, g.ground_probe_m);
    if (ground.hit) lowest = std::min(lowest, ground.point.y);
    sole = std::min(sole, s.position.y);
  }
  return lowest < 1e9f ? lowest
                       : sole - rig_.blueprint().bodies[slot(BodyPart::foot_l)].half_extents.y;
}

float GetUpController::belly_up() const {
  return rig_.body_state(BodyPart::pelvis).rotation.rotate({0, 0, 1}).y;
}

float GetUpController::rise_boost() const {
  const GetUpSettings& g = rig_.settings().get_up;
  return state_.on_steep_ground ? g.steep_upright_boost : g.upright_boost;
}

bool GetUpController::stood(float t) const {
  const RagdollSettings& settings = rig_.settings();
  const GetUpSettings& g = settings.get_up;
  const BalanceReadout& balance = sense_.balance;
  const float standing = rig_.blueprint().bodies[slot(BodyPart::pelvis)].center.y;
  const float pelvis_height = rig_.body_state(BodyPart::pelvis).position.y -
                              rig_.lowest_point(balance.com.y - balance.com_height_m);
  return state_.rising && stage_time(t) >= g.tuck_s + g.rise_s &&
         pelvis_height > g.stood_height_ratio * standing &&
         balance.tilt_rad < deg_to_rad(g.stood_tilt_deg) &&
         balance.error_m < g.stood_error_ratio * settings.balance.fall_error_m &&
         (rig_.touching(BodyPart::foot_l) || rig_.touching(BodyPart::foot_r));
}

void GetUpController::finish(bool stood) {
  state_.rising = false;
  if (!stood) {
    rig_.release_pelvis();
    ++state_.failed_attempts;
    return;
  }
  ++get_ups_;
  state_.failed_attempts = 0;
  state_.assist_fade_s = rig_.settings().get_up.assist_fade_s;
  state_.resistance_s = rig_.settings().get_up.resistance_s;
}

void GetUpController::fade_assistance(float dt) {
  const GetUpSettings& g = rig_.settings().get_up;
  state_.assist_fade_s = std::max(0.0f, state_.assist_fade_s - dt);
  const float left = state_.assist_fade_s / g.assist_fade_s;
  if (left <= 0) {
    rig_.release_pelvis();
    rig_.set_upright_strength(1.0f);
    return;
  }
  // The uprighting fades from the flat ground's boost on any ground (from the steep ground's,
  // 45 of 800 stairs get-ups fell again within 2 s of standing, against 33).
  const float weight = rig_.mass() * kGravity;
  rig_.pull_pelvis(
      rig_.body_state(BodyPart::pelvis).position,
      {g.hold_ratio * weight * left, g.lift_ratio * weight * left, g.hold_ratio * weight * left},
      g.lift_time_constant_s, g.lift_max_speed);
  rig_.set_upright_strength(1.0f + (g.upright_boost - 1.0f) * left);
}

}  // namespace stagger::physics
