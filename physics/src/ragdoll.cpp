// The ragdoll's state machine: which controllers run in which state, and the transitions.
//
//   standing / stepping / walking (upright): the drives hold the pose; the stance, stepping and
//     arm-reach controllers set the targets; after each step the fall thresholds are checked.
//   falling: drives released to joint friction until every body lies still -> down.
//   down: a pause, then a get-up (unless it failed too often) -> getting_up.
//   getting_up: tuck, rise, stand -> standing; a timeout or a strong blow -> falling.
//   dead: limp for good.

#include "stagger/physics/ragdoll.h"

#include "control/arm_reach_controller.h"
#include "control/body_sense.h"
#include "control/fall_witness.h"
#include "control/get_up_controller.h"
#include "control/hit_reaction_controller.h"
#include "control/stance_controller.h"
#include "control/step_controller.h"
#include "stagger/core/assert.h"
#include "stagger/core/enum_table.h"

namespace stagger::physics {

std::string_view name_of(LocomotionState state) {
  static constexpr std::string_view kNames[] = {"standing", "stepping",   "walking", "falling",
                                                "down",     "getting_up", "dead"};
  return enum_name<LocomotionState::dead>(kNames, state);
}

std::string_view name_of(RagdollEventKind kind) {
  static constexpr std::string_view kNames[] = {"shoved", "fell", "got_up", "died"};
  return enum_name<RagdollEventKind::died>(kNames, kind);
}

Ragdoll::Ragdoll(World& world, const RagdollSettings& settings, Vec3 feet_position, float yaw_rad)
    : rig_(world, settings, feet_position, yaw_rad),
      sense_(std::make_unique<BodySense>()),
      hits_(std::make_unique<HitReactionController>(settings.hit)),
      arms_(std::make_unique<ArmReachController>(settings.arm)),
      stance_(std::make_unique<StanceController>()),
      steps_(std::make_unique<StepController>(rig_, *sense_, *stance_)),
      get_up_(std::make_unique<GetUpController>(rig_, *sense_)),
      witness_(std::make_unique<FallWitness>(settings.fall_cause)) {
  sense_->yaw = yaw_rad;
  pose_.set(standing_pose());
  rig_.set_joint_targets(pose_.target, false);
  measure(0.0f);
}

Ragdoll::~Ragdoll() = default;

std::string_view name_of(FallCause cause) {
  static constexpr std::string_view kNames[] = {"pushed",           "hit",     "tripped",
                                                "stepped_off_edge", "slipped", "lost_balance"};
  return enum_name<FallCause::lost_balance>(kNames, cause);
}

void Ragdoll::apply_impulse(BodyPart part, Vec3 impulse) {
  // The struck part takes what it can, up to max_blow_speed_change; the rest moves the whole
  // body, as the blow would through the joints had they been rigid.
  const float own_ns = blueprint().bodies[slot(part)].mass * settings().max_blow_speed_change;
  const float size = length(impulse);
  const Vec3 own = size > own_ns ? impulse * (own_ns / size) : impulse;
  rig_.apply_impulse(part, own);
  if (size > own_ns) rig_.apply_impulse_to_all(impulse - own);
  witness_->note_push();
  react(part, impulse);
}

void Ragdoll::react_to_hit(BodyPart part, Vec3 impulse) {
  witness_->note_hit();
  react(part, impulse);
}

void Ragdoll::react(BodyPart part, Vec3 impulse) {
  RagdollEvent shove;
  shove.kind = RagdollEventKind::shoved;
  shove.part = part;
  shove.impulse = impulse;
  post(shove);
  hits_->react(part, impulse, sense_->yaw);
  if (state_ == LocomotionState::getting_up && length(impulse) >= settings().get_up.knockdown_ns) {
    finish_get_up(false);
  }
}

float Ragdoll::recent_hit_ns(float window_s) const {
  return hits_->recent_hit_ns(window_s);
}

void Ragdoll::set_intent(const LocomotionIntent& intent) {
  steps_->set_intent(intent);
}
const LocomotionIntent& Ragdoll::intent() const {
  return steps_->intent();
}
void Ragdoll::set_arm_reach(int arm, const ArmReach& reach) {
  arms_->set(arm, reach);
}
const ArmReach& Ragdoll::arm_reach(int arm) const {
  return arms_->get(arm);
}
int Ragdoll::recovery_steps() const {
  return steps_->counts().recovery_steps;
}
int Ragdoll::steps_taken() const {
  return steps_->counts().steps_taken;
}
Vec3 Ragdoll::commanded_velocity() const {
  return is_upright(state_) ? steps_->commanded() : Vec3{};
}
const BalanceReadout& Ragdoll::balance() const {
  return sense_->balance;
}
int Ragdoll::get_ups() const {
  return get_up_->get_ups();
}
bool Ragdoll::stays_down() const {
  return get_up_->stays_down();
}
bool Ragdoll::got_up_from_prone() const {
  return get_up_->prone();
}
float Ragdoll::strength(BodyPart part) const {
  return hits_->strength(part);
}

float Ragdoll::max_foot_slip_m() const {
  return witness_->max_foot_slip_m();
}

FootStance Ragdoll::foot_stance(int leg) const {
  STAGGER_ASSERT(leg == 0 || leg == 1);
  return {witness_->planted(leg), witness_->stance_slip_m(leg)};
}

float Ragdoll::pelvis_height() const {
  // Above the lowest point of the body: the soles when standing, the ground when lying.
  const BalanceReadout& balance = sense_->balance;
  return body_state(BodyPart::pelvis).position.y -
         rig_.lowest_point(balance.com.y - balance.com_height_m);
}

void Ragdoll::update_joint_iterations() {
  // Extra joint iterations keep joints together when a limp body hits the ground, but while
  // standing they would outrun the contacts and make the feet creep. Getting up, and until its
  // extra resistance runs out, every joint has the world's full count (with fewer in mid-range,
  // 18 of 20 knock-downs stood and stayed up, against 19; with the limp count, on stairs more
  // stood but on flat ground fewer); otherwise a driven joint far from its limits has
  // WorldSettings::free_joint_iterations.
  int iterations = 0;
  if (!rig_.drives_active()) {
    iterations = settings().limp_solver_iterations;
  } else if (state_ == LocomotionState::getting_up || get_up_->resisting()) {
    iterations = rig_.world_solver_iterations();
  }
  rig_.set_joint_iterations(iterations);
}

void Ragdoll::set_drives_active(bool active) {
  rig_.set_drives_active(active);
  update_joint_iterations();
}

void Ragdoll::clamp_velocities() {
  rig_.clamp_velocities(settings().max_linear_speed, settings().max_angular_speed);
}

void Ragdoll::fall() {
  if (state_ == LocomotionState::falling || state_ == LocomotionState::down ||
      state_ == LocomotionState::dead) {
    return;
  }
  // Judged before the step is cancelled: the witness reads the swing under way.
  last_fall_cause_ = witness_->judge(rig_, *sense_);
  steps_->cancel();
  get_up_->on_fall();
  state_ = LocomotionState::falling;
  state_time_s_ = 0;
  set_drives_active(false);
  clamp_velocities();
  post_state_change();
}

void Ragdoll::kill() {
  if (state_ == LocomotionState::dead) return;
  if (is_upright(state_) || state_ == LocomotionState::getting_up) clamp_velocities();
  steps_->cancel();
  state_ = LocomotionState::dead;
  state_time_s_ = 0;
  get_up_->on_fall();
  set_drives_active(false);
  post_state_change();
}

void Ragdoll::reset() {
  rig_.reset_to_spawn();
  restart_controllers(rig_.spawn_yaw());
}

void Ragdoll::restart_controllers(float yaw_rad) {
  // The controllers, as the constructor leaves them (counts kept).
  *sense_ = {};
  sense_->yaw = yaw_rad;
  hits_->reset();
  arms_->reset();
  stance_->reset();
  get_up_->reset();
  witness_->reset();
  state_ = LocomotionState::standing;
  state_time_s_ = 0;
  set_drives_active(true);
  steps_->reset();
  pose_.set(standing_pose());
  rig_.set_joint_targets(pose_.target, true);
  measure(0.0f);
  posted_state_ = state_;  // a reset is no get-up
}

void Ragdoll::suspend() {
  if (!rig_.simulated()) return;
  rig_.set_simulated(false);
  measure_suspended();
}

void Ragdoll::pose_suspended(const std::array<BodyState, kBodyPartCount>& parts) {
  STAGGER_ASSERT(!rig_.simulated());
  rig_.place_parts(parts);
  measure_suspended();
}

void Ragdoll::measure_suspended() {
  // What the minds read (the centre of mass, its velocity, the heading), from the placed parts:
  // a posed body is upright and in balance as far as they are concerned.
  const MassCenter center = rig_.mass_center(-1);
  BalanceReadout& b = sense_->balance;
  const float sole =
      std::min(body_state(BodyPart::foot_l).position.y, body_state(BodyPart::foot_r).position.y) -
      blueprint().bodies[slot(BodyPart::foot_l)].half_extents.y;
  b = {};
  b.com = center.position;
  b.com_velocity = center.velocity;
  b.extrapolated_com = {center.position.x, sole, center.position.z};
  b.support_mid = b.extrapolated_com;
  b.com_height_m = center.position.y - sole;
  const Vec3 forward = horizontal(body_state(BodyPart::pelvis).rotation.rotate({0, 0, 1}));
  if (length(forward) > 1e-3f) b.forward = normalized(forward);
  sense_->yaw = yaw_of(b.forward);
}

void Ragdoll::resume(bool upright) {
  if (rig_.simulated()) return;
  rig_.set_simulated(true);
  // Nothing held from before it left: the feet's grips and the pelvis pull start free.
  rig_.grip_foot(0, false);
  rig_.grip_foot(1, false);
  rig_.release_pelvis();
  const LocomotionIntent intent = steps_->intent();
  restart_controllers(rig_.pelvis_yaw());
  steps_->set_intent(intent);
  if (upright) steps_->carry_on();
  if (!upright) {
    witness_->note_push();  // it was thrown down: its fall is no fault of its legs
    fall();
  }
}

void Ragdoll::teleport(Vec3 feet_position, float yaw_rad) {
  rig_.move_spawn(feet_position, yaw_rad);
  reset();
}

void Ragdoll::post(RagdollEvent event) {
  event.time_s = rig_.world_time();
  if (events_.size() >= kMaxPendingEvents) events_.erase(events_.begin());
  events_.push_back(event);
}

void Ragdoll::post_state_change() {
  const LocomotionState was = posted_state_;
  posted_state_ = state_;
  if (state_ == was) return;
  RagdollEvent event;
  if (state_ == LocomotionState::falling) {
    event.kind = RagdollEventKind::fell;
    event.cause = last_fall_cause_;
  } else if (state_ == LocomotionState::dead) {
    event.kind = RagdollEventKind::died;
  } else if (was == LocomotionState::getting_up && is_upright(state_)) {
    event.kind = RagdollEventKind::got_up;
  } else {
    return;
  }
  post(event);
}

void Ragdoll::take_events(std::vector<RagdollEvent>& out) {
  out.clear();
  out.swap(events_);
}

void Ragdoll::before_step(float dt) {
  if (!rig_.simulated()) return;  // posed by its owner
  sense_->age_s += dt;
  hits_->advance(dt);
  state_time_s_ += dt;
  if (get_up_->resistance_ran_out(dt)) update_joint_iterations();  // the full count ends
  update_foot_grips();
  if (state_ == LocomotionState::getting_up) get_up_->update(state_time_s_, pose_);
  if (get_up_->assist_fading() && is_upright(state_)) get_up_->fade_assistance(dt);
  if (get_up_->lying()) get_up_->lie();
  if (!is_upright(state_) && state_ != LocomotionState::getting_up && !get_up_->lying()) return;
  update_targets(dt);
  update_upright();
}

void Ragdoll::after_step(float dt) {
  if (!rig_.simulated()) return;
  rig_.close_joint_gaps(settings().max_joint_gap_m);
  measure(dt);
  // The feet are watched once the body stands on them: not while it drops from its spawn height.
  witness_->observe(dt, is_upright(state_) && steps_->settled(), rig_, *sense_, steps_->swing());
  switch (state_) {
    case LocomotionState::standing:
    case LocomotionState::stepping:
    case LocomotionState::walking: {
      // A blow is judged at once; otherwise the error must stay past the threshold a moment
      // (its measure jumps when a step begins or lands: standing bodies that had recovered from
      // a shove fell on the measure of their second or third step).
      const bool hit_recently = hits_->since_hit_s() <= settings().balance.walk_fall_hit_window_s;
      if (get_up_->gives_up(get_up_->fall_thresholds(commanded_velocity()), hit_recently, dt))
        fall();
      break;
    }
    case LocomotionState::getting_up:
      if (get_up_->stood(state_time_s_)) {
        finish_get_up(true);
      } else if (get_up_->timed_out(state_time_s_) || get_up_->failing()) {
        finish_get_up(false);
      }
      break;
    case LocomotionState::falling:
    case LocomotionState::down:
      update_fallen(dt);
      break;
    case LocomotionState::dead:
      get_up_->settle_on_impact();
      break;
  }
  post_state_change();
}

void Ragdoll::update_fallen(float dt) {
  get_up_->settle_on_impact();
  const bool still = get_up_->lain_still(dt);
  if (state_ == LocomotionState::falling && still) {
    state_ = LocomotionState::down;
    state_time_s_ = 0;
    if (get_up_->lies_down()) {
      set_drives_active(true);
      get_up_->lie_down(pose_);
    }
  }
  if (state_ == LocomotionState::down && !get_up_->stays_down() &&
      get_up_->ready_to_rise(state_time_s_)) {
    start_get_up();
  }
}

void Ragdoll::start_get_up() {
  state_ = LocomotionState::getting_up;
  state_time_s_ = 0;
  set_drives_active(true);
  get_up_->start(pose_);
}

void Ragdoll::finish_get_up(bool stood) {
  get_up_->finish(stood);
  if (!stood) {
    fall();
    return;
  }
  state_ = LocomotionState::standing;
  state_time_s_ = 0;
  update_joint_iterations();
  stance_->forget_integrals();
  steps_->cancel();
  sense_->yaw = get_up_->facing_yaw();
  pose_.start(standing_pose(), settings().get_up.stand_blend_s);
}

void Ragdoll::update_targets(float dt) {
  pose_.advance(dt);
  Pose pose = pose_.target;
  hits_->add_twists(pose);
  if (is_upright(state_)) {
    state_ = steps_->update(dt, get_up_->assist_fading(), pose);
    arms_->apply(rig_, pose);
  }
  for (int j = 0; j < kJointCount; ++j) {
    const auto name = joint_at(j);
    rig_.drive_joint(name, pose.rotations[static_cast<std::size_t>(j)],
                     std::min(strength(child_of(name)), strength(joint_parent(name))));
  }
}

void Ragdoll::update_upright() {
  // The drive's world frame turns with the body, so only tilt is corrected. While stepping or
  // walking it also holds the heading (a stance foot alone does not stop the body spinning: each
  // swing turned it by up to 40°).
  float yaw = rig_.upright_body_yaw();
  // Getting up, the frame is the pelvis's own twist about the vertical, so the drive's error is
  // the tilt alone and it turns the body up the shortest way. (In the frame of the heading the
  // body stands up to, a body lying on its side 45° or more off that heading read as pitched
  // and rolled at once: the drive rolled it over instead of sitting it up, once in a somersault
  // with the feet 1.4 m up, and 6 of 200 flat get-ups failed.)
  if (state_ == LocomotionState::getting_up) {
    yaw = twist_yaw(rig_.body_state(BodyPart::pelvis).rotation);
  }
  if (steps_->holding_heading()) yaw = steps_->heading();
  rig_.aim_upright(yaw);
}

void Ragdoll::update_foot_grips() {
  // The swing foot is let go; the stance foot is held (the "rough" foot).
  const bool upright = is_upright(state_);
  for (int leg = 0; leg < 2; ++leg) {
    const BodyPart foot = leg == 0 ? BodyPart::foot_l : BodyPart::foot_r;
    rig_.grip_foot(leg, upright && steps_->swing_leg() != leg && rig_.touching(foot));
  }
}

void Ragdoll::measure(float dt) {
  // Mid-step the swing leg is left out: its momentum is on loan (it stops when the foot lands),
  // and counted in it would push the capture point, and so the foot's own target, ahead of itself.
  const MassCenter center = rig_.mass_center(steps_->swing_leg());
  BodySense& sense = *sense_;
  const bool left_down = rig_.touching(BodyPart::foot_l);
  const bool right_down = rig_.touching(BodyPart::foot_r);
  sense.off_ground_s[0] = left_down ? 0.0f : sense.off_ground_s[0] + dt;
  sense.off_ground_s[1] = right_down ? 0.0f : sense.off_ground_s[1] + dt;
  sense.airtime_s = left_down || right_down ? 0.0f : sense.airtime_s + dt;

  const float half_height = blueprint().bodies[slot(BodyPart::foot_l)].half_extents.y;
  BalanceInputs in;
  in.com = center.position;
  in.com_velocity = center.velocity;
  in.commanded_velocity = commanded_velocity();
  // During a balance step the support is judged against where the swing foot will land: the step
  // is placed to catch the capture point, and the lean it is catching is not yet a fall.
  // While walking, the swing foot counts where it will land, less the ground the commanded
  // velocity covers until then (the body keeps walking meanwhile).
  steps_->feet_for_balance(in.commanded_velocity, in.left_foot, in.right_foot);
  in.sole_height =
      std::min(body_state(BodyPart::foot_l).position.y, body_state(BodyPart::foot_r).position.y) -
      half_height;
  in.pelvis_rotation = body_state(BodyPart::pelvis).rotation;
  in.rest_com_height = blueprint().rest_com_height;
  in.airtime_s = sense.airtime_s;
  sense.balance = measure_balance(in, settings().balance);
  sense.yaw = yaw_of(sense.balance.forward);
}

}  // namespace stagger::physics
