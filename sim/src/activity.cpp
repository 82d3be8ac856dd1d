#include "stagger/sim/activity.h"

#include <algorithm>
#include <cmath>

#include "stagger/core/enum_table.h"
#include "stagger/core/random.h"

namespace stagger::sim {

namespace {

constexpr std::string_view kActivityNames[] = {"active", "light", "fake", "clip", "asleep"};
constexpr float kWalkingSpeedMps = 0.1f;  // [m/s] an intent slower than this stands
constexpr float kProbeAboveM = 0.6f;      // [m] the ground probe starts this far over the root
constexpr float kProbeBelowM = 1.5f;      // [m] and looks this far under it
constexpr float kStandingWeight = 0.05f;  // [-] a pose this near standing has both feet down
// [m/s] another recorded gait is played only when it is this much nearer the speed (a speed
// hovering between two would swap them, and their phases, every step)
constexpr float kCycleHysteresisMps = 0.05f;
// Cycles a promotion waits for a hand-over phase before it takes the body as it is.
constexpr float kMostPromoteWaitCycles = 2.0f;
constexpr float kMostFadeSpeedMps = 0.25f;  // [m/s] how fast a carried offset may fade
constexpr float kSmoothstepPeakSlope = 1.5f;
// [s] a body's velocity beyond the cycle's at a demotion dies away this fast (a part 1 m/s off
// the cycle's goes on 0.1 m)
constexpr float kCarriedVelocityTimeS = 0.1f;
constexpr float kLyingComHeightM = 0.12f;      // [m] a body lying flat: its centre over the ground
constexpr float kLieAfterLandingS = 1.0f;      // [s] a landed fake ragdoll lies before it gets up
constexpr float kBodyRadiusPerHeight = 0.17f;  // [-] the room a body needs, per metre of height
constexpr float kTurnTimeS = 0.25f;  // [s] a light walker closes its heading error this fast
const float kTurnAccelRadps2 = deg_to_rad(720.0f);       // [rad/s²] and changes its turn no faster
const float kMostHandOverTurnRadps = deg_to_rad(20.0f);  // [rad/s] turning slower: hand over
// [rad/s] the turn rate a body standing to be handed over keeps to (under the limit above)
const float kHandOverTurnRadps = deg_to_rad(15.0f);
// [rad] a walker whose heading is off its path by more than this skates (0.09 m/s at 1 m/s)
const float kMostHandOverHeadingErrorRad = deg_to_rad(5.0f);
constexpr float kRootHeightTimeS = 0.1f;  // [s] a light walker's root eases to the ground this fast
// [m] a light pose inside something (another body, a riser) deeper than this waits to be promoted
constexpr float kMostOverlapM = 0.02f;
// A light walker steps aside out of a full ragdoll's room (its agent keeps only the agents
// apart: a chaser walked through a full ragdoll standing at the player for 3 s, was handed over
// inside it and thrown out, every part's speed changed by 0.4-1.1 m/s). The room is a circle
// as wide as the shoulders and arms; the sidestep is smooth, so that a switch made while it
// goes on does not change the pose's speed.
constexpr float kRoomRadiusPerHeight = 0.14f;  // [-] per metre of height (0.25 m at 1.8 m)
constexpr float kStepAsideTimeS = 0.3f;        // [s] an overlap closes this fast ...
constexpr float kStepAsideSpeedMps = 0.5f;     // [m/s] ... but no faster than this
constexpr float kStepAsideAccelMps2 = 3.0f;    // [m/s²] the sidestep's speed changes this fast

using Parts = std::array<physics::BodyState, physics::kBodyPartCount>;

Parts parts_of(const physics::Ragdoll& body) {
  Parts parts{};
  for (int p = 0; p < physics::kBodyPartCount; ++p)
    parts[static_cast<std::size_t>(p)] = body.body_state(static_cast<physics::BodyPart>(p));
  return parts;
}

float largest_jump(const Parts& before, const Parts& after) {
  float jump = 0;
  for (std::size_t p = 0; p < before.size(); ++p)
    jump = std::max(jump, length(after[p].linear_velocity - before[p].linear_velocity));
  return jump;
}

}  // namespace

std::string_view name_of(Activity activity) {
  return enum_name<Activity::asleep>(kActivityNames, activity);
}

ActivityLevels::ActivityLevels(const ActivitySettings& settings,
                               const physics::WorldSettings& world)
    : settings_(settings), world_(world) {}

void ActivityLevels::add_enemy(std::size_t index, physics::Ragdoll& body,
                               const std::vector<float>& walk_speeds_mps, std::uint64_t rig_key) {
  if (enemies_.size() <= index) enemies_.resize(index + 1);
  Tracked& e = enemies_[index];
  e = {};
  e.body = &body;
  e.active_s = settings_.calm_s;  // a fresh spawn is calm: far away, it goes light at once
  if (!enabled()) return;
  for (float speed : walk_speeds_mps) {
    const std::uint64_t key =
        rig_key ^ splitmix64(static_cast<std::uint64_t>(std::lround(speed * 1000.0f)));
    auto found = cycles_.find(key);
    if (found == cycles_.end()) {
      physics::WalkCycleResult recorded =
          physics::record_walk_cycle(body.settings(), world_, speed);
      if (!recorded.ok) continue;  // that gait is not played; without any it stays a ragdoll
      found = cycles_.emplace(key, std::move(recorded.cycle)).first;
    }
    e.gaits.push_back(&found->second);
  }
  if (!e.gaits.empty()) e.cycle = e.gaits.front();
}

void ActivityLevels::start_fade(Light& l) const {
  // Long enough that no part's offset (with what its carried velocity adds to it) fades faster
  // than kMostFadeSpeedMps at its steepest (a smoothstep's slope peaks at 1.5).
  float most = 0;
  for (std::size_t p = 0; p < l.offset.size(); ++p) {
    most = std::max(
        most, length(l.offset[p].position) + length(l.offset_velocity[p]) * kCarriedVelocityTimeS);
  }
  l.blend_s = std::max(settings_.demote_blend_s, kSmoothstepPeakSlope * most / kMostFadeSpeedMps);
  l.blend_left_s = l.blend_s;
}

void ActivityLevels::carry_offset_velocity(Light& l, float dt) {
  // The velocity the body had beyond the cycle's carries the offset on and dies away, so that
  // the switch keeps every body's speed.
  const float decay = std::exp(-dt / kCarriedVelocityTimeS);
  for (std::size_t p = 0; p < l.offset.size(); ++p) {
    l.offset[p].position = l.offset[p].position + l.offset_velocity[p] * dt;
    l.offset_velocity[p] = l.offset_velocity[p] * decay;
  }
}

void ActivityLevels::pick_cycle(Tracked& e, float speed_mps, float hysteresis_mps) {
  // The recorded gait nearest in speed (the phase carries over: every cycle starts as a step
  // starts, from the same stance).
  if (speed_mps <= kWalkingSpeedMps) return;
  const physics::WalkCycle* best = e.cycle;
  for (const physics::WalkCycle* c : e.gaits) {
    if (std::fabs(c->speed_mps - speed_mps) < std::fabs(best->speed_mps - speed_mps)) best = c;
  }
  if (std::fabs(best->speed_mps - speed_mps) + hysteresis_mps <
      std::fabs(e.cycle->speed_mps - speed_mps))
    e.cycle = best;
}

void ActivityLevels::remove_enemy(std::size_t index) {
  if (index < enemies_.size()) enemies_[index] = {};
}

int ActivityLevels::active_count() const {
  return static_cast<int>(std::count_if(enemies_.begin(), enemies_.end(), [](const Tracked& e) {
    return e.body != nullptr && e.activity == Activity::active;
  }));
}

bool ActivityLevels::calm(const Tracked& e) const {
  const physics::LocomotionState state = e.body->state();
  return (state == physics::LocomotionState::standing ||
          state == physics::LocomotionState::walking) &&
         e.active_s >= settings_.calm_s && e.body->recent_hit_ns(settings_.calm_s) <= 0.0f;
}

void ActivityLevels::decide(const ActivityViewer& viewer) {
  // Who wants to be active: those near the player or in view, and those that must be (not calm).
  // Those that must come first, then the nearest, up to the cap.
  struct Claim {
    std::size_t index;
    bool must;
    float distance_m;
  };
  std::vector<Claim> claims;
  const float cos_view = std::cos(deg_to_rad(settings_.view_half_angle_deg));
  for (std::size_t i = 0; i < enemies_.size(); ++i) {
    Tracked& e = enemies_[i];
    e.wanted = false;
    if (e.body == nullptr || e.cycle == nullptr) continue;
    if (e.activity != Activity::active && e.activity != Activity::light) continue;
    const Vec3 pelvis = e.body->body_state(physics::BodyPart::pelvis).position;
    const float distance = viewer.present ? length(horizontal(pelvis - viewer.feet)) : 1e30f;
    const bool must = e.activity == Activity::active && !calm(e);
    const float near_m =
        e.activity == Activity::active ? settings_.demote_distance_m : settings_.promote_distance_m;
    bool in_view = false;
    if (viewer.present && length(viewer.gaze) > 0 && distance < settings_.view_distance_m) {
      const Vec3 to = pelvis - viewer.head;
      in_view = dot(normalized(to), viewer.gaze) >= cos_view;
    }
    if (must || distance < near_m || in_view) claims.push_back({i, must, distance});
  }
  std::sort(claims.begin(), claims.end(), [](const Claim& a, const Claim& b) {
    if (a.must != b.must) return a.must;
    if (a.distance_m != b.distance_m) return a.distance_m < b.distance_m;
    return a.index < b.index;
  });
  int slots = settings_.max_active;
  for (const Claim& c : claims) {
    if (!c.must && slots <= 0) break;
    enemies_[c.index].wanted = true;
    --slots;
  }
  for (Tracked& e : enemies_) {
    if (e.body == nullptr || e.cycle == nullptr) continue;
    if (e.activity == Activity::active && !e.wanted && !e.placed) {
      // Its first level, before anything was drawn: no switch to hide.
      e.placed = demote(e);
      if (e.placed) {
        e.light.offset = {};
        e.before_switch.reset();
        --e.stats.demotions;
      }
      continue;
    }
    e.placed = true;
    if (e.activity == Activity::active && !e.wanted && calm(e)) {
      e.demote_due = true;  // as soon as its bodies move as the cycle's would
    } else if (e.activity == Activity::light && e.wanted && e.promote_wait_s < 0) {
      e.promote_wait_s = 0;  // at the next hand-over phase
    } else if (e.activity == Activity::light && !e.wanted) {
      e.promote_wait_s = -1;
    }
  }
}

ActivityLevels::SwitchMatch ActivityLevels::match_at(const Tracked& e, const Parts& now,
                                                     const Light& l, Vec3 root_velocity,
                                                     float phase) const {
  // The light pose moves as the cycle does at `phase`: how far any body's velocity is from that.
  const float phase_rate = length(root_velocity) / e.cycle->stride_m;  // [cycles/s]
  constexpr float kPhaseStep = 1.0f / static_cast<float>(physics::WalkCycle::kFrames);
  const physics::BodyPoses cycle = physics::sample_walk_cycle(*e.cycle, phase, l.walk_weight);
  const physics::BodyPoses ahead =
      physics::sample_walk_cycle(*e.cycle, phase + kPhaseStep, l.walk_weight);
  const Quat turn = Quat::from_yaw(l.yaw_rad);
  // The light pose turns as a whole about its root: at the pelvis's yaw rate when the body is
  // turning, at none when the pelvis only sways with the gait (the planted foot does not turn
  // with it). Whichever moves the bodies more as they move now is not taken.
  const float pelvis_turn = now[physics::slot(physics::BodyPart::pelvis)].angular_velocity.y;
  float mismatch[2] = {0, 0};  // [m/s] with no turn, with the pelvis's
  SwitchMatch m;
  std::array<Vec3, physics::kBodyPartCount> turned{};
  for (std::size_t p = 0; p < now.size(); ++p) {
    const Vec3 local_velocity = (ahead[p].position - cycle[p].position) * (phase_rate / kPhaseStep);
    const Vec3 velocity = turn.rotate(local_velocity) + root_velocity;
    const Vec3 arm = horizontal(now[p].position - l.root);
    const Vec3 swing = Vec3{arm.z, 0, -arm.x} * pelvis_turn;  // (0, w, 0) x arm
    mismatch[0] = std::max(mismatch[0], length(velocity - now[p].linear_velocity));
    mismatch[1] = std::max(mismatch[1], length(velocity + swing - now[p].linear_velocity));
    m.velocity[p] = velocity;
    turned[p] = velocity + swing;
  }
  const bool turning = mismatch[1] < mismatch[0];
  if (turning) m.velocity = turned;
  m.turn_rate_radps = turning ? pelvis_turn : 0.0f;
  m.mismatch_mps = mismatch[turning ? 1 : 0];
  return m;
}

bool ActivityLevels::demote(Tracked& e) {
  // Onto the cycle from where the body is: its root on the ground under the pelvis, its heading,
  // the phase whose frame is nearest its pose. Only while its bodies move near enough as the
  // cycle's do (on flat ground, as a foot lands or standing still). What the pose misses of the
  // cycle's frame, in place and in velocity, is carried and faded out, so that nothing jumps.
  const Parts now = parts_of(*e.body);
  Light l;
  const Vec3 pelvis = now[physics::slot(physics::BodyPart::pelvis)].position;
  const physics::BalanceReadout& b = e.body->balance();
  l.root = {pelvis.x, b.com.y - b.com_height_m, pelvis.z};
  l.probed_at = l.root;
  l.ground_y = l.root.y;
  // The heading the light walker turns toward from the start (the pelvis's yaw sways with the
  // gait; a root turned from it toward the walk at once would swing the whole body round it).
  const Vec3 walk = horizontal(e.body->intent().velocity);
  const bool walking = length(walk) > kWalkingSpeedMps;
  l.yaw_rad = walking ? yaw_of(walk) : yaw_of(b.forward);
  pick_cycle(e, length(walk), 0.0f);
  l.walk_weight = walking ? 1.0f : 0.0f;
  const Vec3 root_velocity = walking ? walk : Vec3{};
  l.phase = physics::closest_phase(*e.cycle, now, l.root, l.yaw_rad);
  const SwitchMatch best = match_at(e, now, l, root_velocity, l.phase);
  if (best.mismatch_mps > settings_.max_switch_speed_mps) return false;
  const physics::BodyPoses cycle = physics::sample_walk_cycle(*e.cycle, l.phase, l.walk_weight);
  l.turn_rate_radps = best.turn_rate_radps;
  const Quat unturn = Quat::from_yaw(-l.yaw_rad);
  for (std::size_t p = 0; p < now.size(); ++p) {
    l.offset[p].position = unturn.rotate(now[p].position - l.root) - cycle[p].position;
    l.offset[p].rotation = normalized(unturn * now[p].rotation * cycle[p].rotation.conjugate());
    l.offset_velocity[p] = unturn.rotate(now[p].linear_velocity - best.velocity[p]);
  }
  start_fade(l);
  for (std::size_t p = 0; p < now.size(); ++p) {
    l.shown[p].position = cycle[p].position + l.offset[p].position;
    l.shown[p].rotation = normalized(l.offset[p].rotation * cycle[p].rotation);
  }
  e.light = l;
  e.before_switch = now;
  e.parts = now;
  e.body->suspend();
  e.activity = Activity::light;
  e.promote_wait_s = -1;
  e.demote_due = false;
  ++e.stats.demotions;
  return true;
}

void ActivityLevels::lift_clear_of_ground(Tracked& e) {
  // The cycle was walked on flat ground: over a step or a slope a sole of the light pose can be
  // inside the ground, and a body resumed inside it is thrown out. Raised until neither is.
  // Each corner of each sole counts: on a slope a foot posed level with its centre on the
  // ground has its heel or toe inside it, and the first step threw that foot out at 0.5 m/s.
  float lift = 0;
  const Vec3 half =
      e.body->blueprint().bodies[physics::slot(physics::BodyPart::foot_l)].half_extents;
  for (physics::BodyPart foot : {physics::BodyPart::foot_l, physics::BodyPart::foot_r}) {
    const physics::BodyState& part = e.parts[physics::slot(foot)];
    for (const float x : {-half.x, half.x}) {
      for (const float z : {-half.z, half.z}) {
        const Vec3 corner = part.position + part.rotation.rotate({x, -half.y, z});
        const physics::GroundHit ground =
            e.body->rig().probe_ground(corner, kProbeAboveM, kProbeAboveM);
        if (ground.hit) lift = std::max(lift, ground.point.y - corner.y);
      }
    }
  }
  if (lift <= 0) return;
  for (physics::BodyState& part : e.parts) part.position.y += lift;
  e.body->pose_suspended(e.parts);
}

void ActivityLevels::promote(Tracked& e) {
  if (e.light.walk_weight >= 1.0f) {
    // The controllers take over walking as the body walks: at the gait's speed along its
    // heading, as in the trials of the hand-over phases (at the mind's speed when that differs,
    // they would start another stride and stop the swing leg in mid-air). The mind's next
    // intent changes the speed from there, as it would any walker's.
    physics::LocomotionIntent walking = e.body->intent();
    walking.velocity = Quat::from_yaw(e.light.yaw_rad).rotate({0, 0, e.cycle->speed_mps});
    e.body->set_intent(walking);
  }
  lift_clear_of_ground(e);
  e.before_switch = e.parts;
  e.body->resume(true);
  e.activity = Activity::active;
  e.active_s = 0;
  e.promote_wait_s = -1;
  ++e.stats.promotions;
}

bool ActivityLevels::promote_now(std::size_t index) {
  if (index >= enemies_.size()) return true;
  Tracked& e = enemies_[index];
  if (e.body == nullptr) return true;
  if (e.activity == Activity::light) {
    promote(e);
    // A blow follows at once: the speed change is the blow's, not a pop of the switch.
    e.before_switch.reset();
  }
  if (e.activity == Activity::asleep && e.lie_left_s >= 0) get_up_from_lying(e);
  return e.activity == Activity::active;
}

void ActivityLevels::set_navmesh(std::shared_ptr<const ai::Navmesh> navmesh,
                                 std::uint64_t level_seed) {
  BlastSettings blast;
  blast.step_s = 1.0f / world_.physics_hz;  // as World::dt()
  fakes_ = std::make_unique<FakeRagdolls>(std::move(navmesh), blast, level_seed);
}

std::vector<std::size_t> ActivityLevels::blast(const Blast& blast,
                                               const std::vector<bool>& immune) {
  std::vector<std::size_t> thrown;
  if (!fakes_) return thrown;
  std::vector<LaunchCandidate> candidates;
  for (std::size_t i = 0; i < enemies_.size(); ++i) {
    const Tracked& e = enemies_[i];
    if (e.body == nullptr || e.activity != Activity::light) continue;
    LaunchCandidate c;
    c.enemy = static_cast<std::uint32_t>(i);
    c.feet = e.light.root;
    c.yaw_rad = e.light.yaw_rad;
    c.mass_kg = e.body->mass();
    c.radius_m = e.body->settings().height_m * kBodyRadiusPerHeight;
    c.immune = i < immune.size() && immune[i];
    candidates.push_back(c);
  }
  for (std::uint32_t enemy : fakes_->blast(blast, candidates)) {
    Tracked& e = enemies_[enemy];
    e.activity = Activity::fake;
    e.promote_wait_s = -1;
    thrown.push_back(enemy);
  }
  return thrown;
}

bool ActivityLevels::play_death_clip(std::size_t index, Vec3 hit) {
  Tracked& e = enemies_[index];
  if (!has_death_clips() || e.body == nullptr) return false;
  if (e.activity != Activity::light && e.activity != Activity::asleep) return false;
  const float yaw =
      e.activity == Activity::light ? e.light.yaw_rad : yaw_of(e.body->balance().forward);
  const Vec3 feet = e.activity == Activity::light
                        ? e.light.root
                        : e.body->balance().com - Vec3{0, e.body->balance().com_height_m, 0};
  e.clip_choice = clips_->nearest(to_enemy_frame(hit, yaw));
  e.clip_s = 0;
  e.clip_feet = feet;
  e.clip_yaw_rad = yaw + e.clip_choice->extra_yaw_rad;
  e.lie_left_s = -1;
  e.body->kill();  // its mind stops; the clip is its fall
  e.activity = Activity::clip;
  return true;
}

bool ActivityLevels::at_hand_over_phase(const Tracked& e) const {
  // The step whose phase has just passed one of the cycle's hand-over phases.
  const Light& l = e.light;
  if (l.walk_weight < kStandingWeight) return true;  // standing: both feet are down
  return std::any_of(e.cycle->hand_over_phases.begin(), e.cycle->hand_over_phases.end(),
                     [&](float p) {
                       const float behind = l.phase - p - std::floor(l.phase - p);  // [0, 1)
                       return behind <= l.phase_advance;
                     });
}

void ActivityLevels::pose_light(Tracked& e, float dt) {
  // Walks where the mind's intent says, turning at a limited rate, its cycle advanced by the
  // ground covered (the feet do not skate), on the ground probed under it.
  Light& l = e.light;
  const physics::WalkCycle* was = e.cycle;
  const physics::LocomotionIntent& intent = e.body->intent();
  Vec3 velocity = intent.gait == physics::Gait::idle ? Vec3{} : horizontal(intent.velocity);
  const bool handing_over = e.promote_wait_s >= 0 && length(velocity) > kWalkingSpeedMps;
  if (handing_over) {
    // About to be handed to the controllers: walking exactly as the gait it plays was
    // recorded, whose hand-over phases were tried at that speed, and keeping that gait (a
    // change of gait fades in, and no hand-over comes while it does).
    velocity = normalized(velocity) * e.cycle->speed_mps;
  } else {
    pick_cycle(e, length(velocity), kCycleHysteresisMps);
  }
  const float speed = length(velocity);
  const float most = deg_to_rad(settings_.light_turn_rate_deg_s) * dt;
  // The turn speeds up and slows down smoothly (a pose whose heading jumps to a turning rate
  // swings its hands and feet round the root at once).
  float wanted = l.yaw_rad;
  if (speed > kWalkingSpeedMps) {
    wanted = yaw_of(velocity);
  } else if (intent.has_facing) {
    wanted = intent.facing_rad;
  }
  // Standing and waiting to be handed over, it turns on the spot no faster than a hand-over
  // allows (slowing within a quarter of a second at the turn's acceleration), so that one
  // comes; a walker's heading must catch up with its path first.
  const bool standing = l.walk_weight < kStandingWeight;
  const float most_rate =
      e.promote_wait_s >= 0 && standing ? std::min(most / dt, kHandOverTurnRadps) : most / dt;
  l.heading_error_rad = std::remainder(wanted - l.yaw_rad, 2.0f * kPi);
  const float turn_rate = std::clamp(l.heading_error_rad / kTurnTimeS, -most_rate, most_rate);
  const float change = kTurnAccelRadps2 * dt;
  l.turn_rate_radps += std::clamp(turn_rate - l.turn_rate_radps, -change, change);
  l.yaw_rad += l.turn_rate_radps * dt;
  // The root goes where the intent says (the mind's agent leads it there); while the heading
  // lags the intent's direction the feet skate by 2 sin(error / 2) times the speed, so no
  // hand-over comes until they agree.
  l.root = l.root + velocity * dt;
  step_aside(e, dt);
  l.root = l.root + l.aside_velocity * dt;
  if (length(horizontal(l.root - l.probed_at)) >= settings_.ground_probe_every_m) {
    const physics::GroundHit ground =
        e.body->rig().probe_ground(l.root, kProbeAboveM, kProbeBelowM);
    if (ground.hit) l.ground_y = ground.point.y;
    l.probed_at = l.root;
  }
  // Toward the probed ground smoothly: a step in the probes' heights is no jump of the body.
  l.root.y += (l.ground_y - l.root.y) * std::min(1.0f, dt / kRootHeightTimeS);
  l.phase_advance = speed * dt / e.cycle->stride_m;  // the ground covered, in cycles
  l.phase += l.phase_advance;
  l.phase -= std::floor(l.phase);
  const float target = speed > kWalkingSpeedMps ? 1.0f : 0.0f;
  const float rate = dt / std::max(settings_.walk_blend_s, dt);
  l.walk_weight += std::clamp(target - l.walk_weight, -rate, rate);
  physics::BodyPoses local = physics::sample_walk_cycle(*e.cycle, l.phase, l.walk_weight);
  if (e.cycle != was) {
    // Another gait's frame differs from the last one's at the same phase: the difference is
    // carried and faded out, as after a demotion.
    for (std::size_t p = 0; p < local.size(); ++p) {
      l.offset[p].position = l.shown[p].position - local[p].position;
      l.offset[p].rotation = normalized(l.shown[p].rotation * local[p].rotation.conjugate());
    }
    start_fade(l);
  }
  if (l.blend_left_s > 0) {
    carry_offset_velocity(l, dt);
    l.blend_left_s = std::max(0.0f, l.blend_left_s - dt);
    const float own = 1.0f - smoothstep(1.0f - l.blend_left_s / l.blend_s);
    for (std::size_t p = 0; p < local.size(); ++p) {
      local[p].position = local[p].position + l.offset[p].position * own;
      local[p].rotation = normalized(slerp(Quat{}, l.offset[p].rotation, own) * local[p].rotation);
    }
  }
  l.shown = local;
  const Parts last = e.parts;
  physics::place_poses(local, l.root, l.yaw_rad, e.parts);
  for (std::size_t p = 0; p < e.parts.size(); ++p) {
    physics::BodyState& s = e.parts[p];
    s.linear_velocity = (s.position - last[p].position) / dt;
    s.angular_velocity =
        rotation_vector(normalized(s.rotation * last[p].rotation.conjugate())) / dt;
  }
  e.body->pose_suspended(e.parts);
}

void ActivityLevels::mark_rooms() {
  rooms_.clear();
  for (const Tracked& e : enemies_) {
    if (e.body == nullptr || e.activity != Activity::active) continue;
    rooms_.push_back({&e, e.body->body_state(physics::BodyPart::pelvis).position,
                      e.body->settings().height_m * kRoomRadiusPerHeight});
  }
}

void ActivityLevels::step_aside(Tracked& e, float dt) const {
  const float radius = e.body->settings().height_m * kRoomRadiusPerHeight;
  const Vec3 pelvis = e.parts[physics::slot(physics::BodyPart::pelvis)].position;
  Vec3 away;
  for (const Room& room : rooms_) {
    if (room.owner == &e) continue;  // demoted in this step
    const Vec3 gap = horizontal(pelvis - room.center);
    const float apart = length(gap);
    const float overlap = radius + room.radius_m - apart;
    // (Exactly on top of one another there is no side to step to: the walk moves it off.)
    if (overlap > 0 && apart > 1e-4f) away = away + gap * (overlap / apart);
  }
  Vec3 wanted = away / kStepAsideTimeS;
  if (length(wanted) > kStepAsideSpeedMps) wanted = normalized(wanted) * kStepAsideSpeedMps;
  Vec3& v = e.light.aside_velocity;
  const Vec3 change = wanted - v;
  const float most = kStepAsideAccelMps2 * dt;
  v = length(change) > most ? v + normalized(change) * most : wanted;
}

void ActivityLevels::pose_tipped(Tracked& e, Vec3 feet, Quat orientation, float pivot_height_m,
                                 bool moving) {
  const float com_height = e.body->blueprint().rest_com_height;
  const Parts last = e.parts;
  for (std::size_t p = 0; p < e.parts.size(); ++p) {
    const physics::PartPose& local = e.cycle->standing[p];
    physics::BodyState& s = e.parts[p];
    s.position = feet + Vec3{0, pivot_height_m, 0} +
                 orientation.rotate(local.position - Vec3{0, com_height, 0});
    s.rotation = normalized(orientation * local.rotation);
    s.linear_velocity = moving && dt_ > 0 ? (s.position - last[p].position) / dt_ : Vec3{};
    s.angular_velocity =
        moving && dt_ > 0
            ? rotation_vector(normalized(s.rotation * last[p].rotation.conjugate())) / dt_
            : Vec3{};
  }
  e.body->pose_suspended(e.parts);
}

void ActivityLevels::pose_fake(Tracked& e, const Flight& flight) {
  // A point body drawn as the standing body tipped by its spin about its centre of mass, that
  // centre going from standing height over the point to lying height as it turns flat.
  const float com_height = e.body->blueprint().rest_com_height;
  const float pivot = com_height * std::fabs(std::cos(flight.spin_rad)) +
                      kLyingComHeightM * std::fabs(std::sin(flight.spin_rad));
  pose_tipped(e, flight.position, flight.orientation(), pivot, true);
}

void ActivityLevels::pose_lying(Tracked& e, const Landing& landing) {
  pose_tipped(e, landing.feet, landing.orientation, kLyingComHeightM, false);
  e.activity = Activity::asleep;
  e.lie_left_s = kLieAfterLandingS;
}

void ActivityLevels::get_up_from_lying(Tracked& e) {
  e.lie_left_s = -1;
  if (e.body->state() == physics::LocomotionState::dead) return;  // killed in flight: a corpse
  // Handed to its controllers lying down: limp, it settles, then gets up by itself.
  lift_clear_of_ground(e);
  e.body->resume(false);
  e.activity = Activity::active;
  e.active_s = 0;
  e.lie_left_s = -1;
  ++e.stats.promotions;
}

void ActivityLevels::play_clip(Tracked& e, float dt) {
  const DeathClip& clip = clips_->clips()[e.clip_choice->clip];
  e.clip_s += dt;
  const ClipPose pose = sample(clip, e.clip_s, e.clip_feet, e.clip_yaw_rad);
  const auto velocities = sample_velocities(clip, e.clip_s, e.clip_feet, e.clip_yaw_rad);
  const bool over = e.clip_s >= clip.duration_s;
  for (std::size_t p = 0; p < e.parts.size(); ++p) {
    e.parts[p].position = pose[p].position;
    e.parts[p].rotation = pose[p].rotation;
    e.parts[p].linear_velocity = over ? Vec3{} : velocities[p].linear;
    e.parts[p].angular_velocity = over ? Vec3{} : velocities[p].angular;
  }
  e.body->pose_suspended(e.parts);
  if (over) e.activity = Activity::asleep;  // a corpse at rest
}

void ActivityLevels::advance_fakes(float dt) {
  if (!fakes_ || fakes_->flying() == 0) return;
  fakes_->step(dt);
  for (const Flight& flight : fakes_->flights()) {
    Tracked& e = enemies_[flight.enemy];
    if (e.body != nullptr && e.activity == Activity::fake) pose_fake(e, flight);
  }
  landings_.clear();
  fakes_->take_landings(landings_);
  for (const Landing& landing : landings_) {
    Tracked& e = enemies_[landing.enemy];
    if (e.body != nullptr && e.activity == Activity::fake) pose_lying(e, landing);
  }
}

void ActivityLevels::before_step(const ActivityViewer& viewer, const std::vector<Vec3>& hands,
                                 float dt, bool decide_now) {
  if (!enabled()) return;
  dt_ = dt;
  if (decide_now) decide(viewer);
  advance_fakes(dt);
  mark_rooms();
  for (Tracked& e : enemies_) {
    if (e.body == nullptr) continue;
    if (e.activity == Activity::clip) {
      play_clip(e, dt);
      continue;
    }
    if (e.activity == Activity::asleep && e.lie_left_s >= 0) {
      e.lie_left_s -= dt;
      if (e.lie_left_s < 0) get_up_from_lying(e);
      continue;
    }
    if (e.body != nullptr && e.activity == Activity::active && e.demote_due) {
      if (!e.wanted && calm(e)) {
        demote(e);
      } else {
        e.demote_due = false;
      }
    }
    if (e.body == nullptr || e.activity != Activity::light) continue;
    const Vec3 pelvis = e.body->body_state(physics::BodyPart::pelvis).position;
    const bool touched = std::any_of(hands.begin(), hands.end(), [&](Vec3 h) {
      return length(h - pelvis) <= settings_.hand_reach_m;
    });
    if (touched) {
      promote(e);
      continue;
    }
    if (e.promote_wait_s >= 0) {
      e.promote_wait_s += dt;
      // Handed over at one of the cycle's hand-over phases while the pose moves as it did where
      // they were tried: no offset fading, no blend of standing and walking (its feet skate),
      // turning slowly (the pose swings round its root: a foot 0.3 m out at 180°/s moves at
      // 0.9 m/s), heading along its path. One that keeps missing that is handed over anyway
      // after kMostPromoteWaitCycles, unless a part is inside something (an arm swung into a
      // platform's edge is thrown out of it); after twice as long, whatever.
      const float cycles = e.promote_wait_s / e.cycle->period_s;
      const bool blending = e.light.walk_weight > kStandingWeight && e.light.walk_weight < 1.0f;
      const bool stepping_aside = e.light.aside_velocity.x != 0 || e.light.aside_velocity.z != 0;
      const bool smooth = e.light.blend_left_s <= 0 && !blending && !stepping_aside &&
                          std::fabs(e.light.turn_rate_radps) <= kMostHandOverTurnRadps &&
                          std::fabs(e.light.heading_error_rad) <= kMostHandOverHeadingErrorRad;
      // (The overlap test, a contact test per part, last: only at a hand-over phase.)
      const bool handed_over =
          at_hand_over_phase(e) && (cycles >= 2 * kMostPromoteWaitCycles ||
                                    ((smooth || cycles >= kMostPromoteWaitCycles) &&
                                     !e.body->posed_inside_something(kMostOverlapM)));
      if (handed_over) {
        promote(e);
        continue;
      }
    }
    pose_light(e, dt);
  }
}

void ActivityLevels::after_step(float dt) {
  if (!enabled()) return;
  for (Tracked& e : enemies_) {
    if (e.body == nullptr) continue;
    e.stats.seconds[static_cast<std::size_t>(e.activity)] += static_cast<double>(dt);
    if (e.activity == Activity::active) {
      e.active_s += dt;
      if (e.before_switch) e.parts = parts_of(*e.body);  // the step after a promotion
    }
    if (e.before_switch) {
      e.stats.max_switch_jump_mps =
          std::max(e.stats.max_switch_jump_mps, largest_jump(*e.before_switch, e.parts));
      e.before_switch.reset();
    }
  }
}

}  // namespace stagger::sim
