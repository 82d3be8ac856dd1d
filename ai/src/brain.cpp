#include "stagger/ai/brain.h"

#include <algorithm>
#include <cmath>

#include "stagger/core/enum_table.h"

namespace stagger::ai {

std::string_view name_of(BrainState state) {
  static constexpr std::string_view kNames[] = {"guard",  "patrol",  "chase", "attack",
                                                "search", "stunned", "down",  "dead"};
  return enum_name<BrainState::dead>(kNames, state);
}

namespace {

float horizontal_distance(Vec3 a, Vec3 b) {
  return length(horizontal(a - b));
}

float yaw_toward(Vec3 from, Vec3 to) {
  return yaw_of(horizontal(to - from));
}

}  // namespace

Brain::Brain(Patrol route, std::uint64_t seed, BrainSettings settings)
    : patrol_(std::move(route)),
      rng_(seed),
      settings_(settings),
      state_(patrol_.guarding() ? BrainState::guard : BrainState::patrol) {}

float Brain::next_uniform() {
  return rng_.unit();
}

void Brain::enter(BrainState state) {
  if (state == state_) return;
  state_ = state;
  state_s_ = 0;
  punch_s_ = -1;
  calm_s_ = 0;
  if (state == BrainState::search) {
    looking_ = false;
    search_stalls_ = 0;
  }
  if (state == BrainState::chase) chase_goal_set_ = false;
}

void Brain::resume_route(Vec3 position) {
  patrol_.resume_from(position);
  leg_stalls_ = 0;
  enter(patrol_.guarding() ? BrainState::guard : BrainState::patrol);
}

void Brain::choose_after_interruption(const BrainInput& in) {
  if (in.sees_player) {
    enter(BrainState::chase);
  } else if (in.remembers_player) {
    enter(BrainState::search);
  } else {
    resume_route(in.position);
  }
}

BrainOutput Brain::update(const BrainInput& in) {
  state_s_ += in.dt;
  // The body first: what it can do decides what the brain may want.
  BrainOutput still;
  still.move = false;
  still.goal = last_goal_;
  if (in.body == BodyCondition::dead) {
    enter(BrainState::dead);
    still.goal.reset();
    return still;
  }
  if (in.body == BodyCondition::down) {
    enter(BrainState::down);
    return still;
  }
  if (in.body == BodyCondition::stumbling) {
    if (state_ != BrainState::stunned && state_ != BrainState::down) before_stun_ = state_;
    enter(BrainState::stunned);
    return still;
  }
  if (state_ == BrainState::stunned) {
    calm_s_ += in.dt;
    if (calm_s_ < settings_.calm_s) return still;
    // A stumble on the route: carry on where it was going. Anything else is thought over.
    const bool on_route = before_stun_ == BrainState::patrol || before_stun_ == BrainState::guard;
    if (on_route && !in.sees_player) {
      enter(before_stun_);
    } else {
      choose_after_interruption(in);
    }
  }
  if (state_ == BrainState::down) {
    // Up again: steady on its feet first (the get-up's help is still letting go).
    before_stun_ = BrainState::down;
    enter(BrainState::stunned);
    return still;
  }

  BrainOutput out;
  switch (state_) {
    case BrainState::guard:
    case BrainState::patrol:
      out = follow_route(in);
      break;
    case BrainState::chase:
      out = chase(in);
      break;
    case BrainState::attack:
      out = attack(in);
      break;
    case BrainState::search:
      out = search(in);
      break;
    default:
      break;
  }
  // A transition inside a state's handler hands the tick to the new state's handler once.
  if (out.goal) last_goal_ = out.goal;
  return out;
}

BrainOutput Brain::follow_route(const BrainInput& in) {
  if (in.sees_player) {
    enter(BrainState::chase);
    return chase(in);
  }
  if (patrol_.target_index() != stalled_leg_) {
    stalled_leg_ = patrol_.target_index();
    leg_stalls_ = 0;
  }
  if (in.stalled && !patrol_.guarding() && ++leg_stalls_ >= settings_.stalls_to_skip) {
    skipped_.push_back(patrol_.target_index());
    patrol_.skip();
    leg_stalls_ = 0;
  }
  BrainOutput out;
  out.goal = patrol_.update(in.position, in.dt, in.settled, in.route_point_taken);
  out.speed = settings_.patrol_speed * corner_slowdown(in.position);
  if (patrol_.guarding()) out.facing_rad = patrol_.guard_yaw();
  return out;
}

float Brain::corner_slowdown(Vec3 position) const {
  // Coming up to a point where the route turns (and does not stop): slow down, by up to half at
  // a right angle or more. A body that takes a corner at full walking speed swings wide and
  // falls over its outside foot.
  // The same just after it, while the body is still coming round.
  if (patrol_.guarding() || patrol_.waiting()) return 1.0f;
  const auto slowdown = [this](Vec3 at, Vec3 from, Vec3 corner, Vec3 to) {
    const float distance = horizontal_distance(at, corner);
    if (distance > settings_.corner_slow_m) return 1.0f;
    const Vec3 in = normalized(horizontal(corner - from));
    const Vec3 out = normalized(horizontal(to - corner));
    const float turn = std::acos(std::clamp(dot(in, out), -1.0f, 1.0f));
    return 1.0f - 0.5f * std::min(1.0f, turn / (0.5f * kPi));
  };
  float scale = 1.0f;
  if (patrol_.target_wait_s() <= 0)
    scale = slowdown(position, position, patrol_.target(), patrol_.following());
  if (patrol_.previous()) {
    const std::size_t p = *patrol_.previous();
    if (patrol_.point(p).wait_s <= 0)
      scale = std::min(scale, slowdown(position, patrol_.point(patrol_.before(p)).position,
                                       patrol_.point(p).position, patrol_.target()));
  }
  return scale;
}

BrainOutput Brain::chase(const BrainInput& in) {
  if (!in.sees_player) {
    enter(BrainState::search);
    return search(in);
  }
  if (horizontal_distance(in.position, in.player_feet) <= settings_.attack_reach_m) {
    enter(BrainState::attack);
    return attack(in);
  }
  // Re-request the target only when the player moved enough (a new path each tick is waste).
  if (!chase_goal_set_ ||
      horizontal_distance(in.player_feet, chase_goal_) > settings_.chase_repath_m) {
    chase_goal_ = in.player_feet;
    chase_goal_set_ = true;
  }
  // Aim short of the player's feet, at punching distance, not into them.
  const Vec3 away = normalized(horizontal(in.position - chase_goal_));
  BrainOutput out;
  out.goal = chase_goal_ + away * (0.5f * settings_.attack_reach_m);
  out.speed = settings_.chase_speed;
  return out;
}

BrainOutput Brain::attack(const BrainInput& in) {
  BrainOutput out;
  if (in.sees_player) out.facing_rad = yaw_toward(in.position, in.player_feet);
  if (punch_s_ < 0) {
    // Between punches: chase a player who stepped away, search for one who left.
    if (!in.sees_player) {
      enter(BrainState::search);
      return search(in);
    }
    if (horizontal_distance(in.position, in.player_feet) > settings_.attack_reach_m * 1.25f) {
      enter(BrainState::chase);
      return chase(in);
    }
    start_punch(in);
  }
  out.right_arm = punch_arm(in.dt);
  return out;
}

void Brain::start_punch(const BrainInput& in) {
  // Aim at the head, somewhere between the chin and the temple on the side the right fist
  // reaches first (the enemy's right), chosen by the seeded generator.
  const Vec3 forward = normalized(horizontal(in.player_feet - in.position));
  const Vec3 right = cross(forward, Vec3{0, 1, 0});
  const Vec3 chin = in.player_head + Vec3{0, -0.12f, 0} - forward * 0.08f;
  const Vec3 temple = in.player_head + right * 0.08f;
  aim_ = lerp(chin, temple, next_uniform());
  punch_s_ = 0;
  ++punches_;
}

physics::ArmReach Brain::punch_arm(float dt) {
  physics::ArmReach arm;
  if (punch_s_ < 0) return arm;
  punch_s_ += dt;
  const BrainSettings& s = settings_;
  if (punch_s_ >= s.windup_s + s.strike_s + s.hold_s + s.recover_s) {
    punch_s_ = -1;  // done; the next tick decides what follows
    return arm;
  }
  if (punch_s_ < s.windup_s + s.strike_s + s.hold_s) {
    arm.active = true;
    arm.target = aim_;
    arm.extension = std::clamp((punch_s_ - s.windup_s) / s.strike_s, 0.0f, 1.0f);
  }
  return arm;
}

BrainOutput Brain::search(const BrainInput& in) {
  if (in.sees_player) {
    enter(BrainState::chase);
    return chase(in);
  }
  BrainOutput out;
  if (!looking_) {
    if (in.stalled) ++search_stalls_;
    const bool there =
        horizontal_distance(in.position, in.last_seen_feet) <= settings_.search_arrived_m;
    if (!in.remembers_player || there || search_stalls_ >= settings_.stalls_to_give_up_search) {
      looking_ = true;
      look_from_yaw_ = in.yaw_rad;
      state_s_ = 0;
    } else {
      out.goal = in.last_seen_feet;
      out.speed = settings_.patrol_speed;
      return out;
    }
  }
  // Look left, then right, then ahead again; then back to the route.
  const float third = settings_.look_around_s / 3.0f;
  const float angle = deg_to_rad(settings_.look_angle_deg);
  out.facing_rad = look_from_yaw_ + (state_s_ < third       ? angle
                                     : state_s_ < 2 * third ? -angle
                                                            : 0.0f);
  if (state_s_ >= settings_.look_around_s) {
    out.forget_player = true;
    resume_route(in.position);
    BrainOutput next = follow_route(in);
    next.forget_player = true;
    return next;
  }
  return out;
}

}  // namespace stagger::ai
