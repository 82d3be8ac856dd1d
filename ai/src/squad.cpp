#include "stagger/ai/squad.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "stagger/core/assert.h"
#include "stagger/core/cpu_clock.h"

namespace stagger::ai {

namespace {

// [m] where back_onto_navmesh looks for the navmesh round a body's feet: a body off it by up to
// this much across, and within this much of its height (the navmesh over a flight lies up to a
// riser above the treads; a floor below a platform's edge is farther down)
constexpr Vec3 kNavmeshSearchBox{1.0f, 0.6f, 1.0f};

// [deg] a member's way leads toward another within this of the direction to it
constexpr float kStandoffConeDeg = 60.0f;

// The first of `corners` farther than `min_m` across from `from` [m], if any: the next turn of
// a path, not one already under the walker.
std::optional<Vec3> first_corner_beyond(const std::vector<Vec3>& corners, Vec3 from, float min_m) {
  for (const Vec3& corner : corners) {
    if (length(horizontal(corner - from)) > min_m) return corner;
  }
  return std::nullopt;
}

BodyCondition condition_of(const physics::Ragdoll& body, const SquadSettings& s) {
  using physics::LocomotionState;
  switch (body.state()) {
    case LocomotionState::dead:
      return BodyCondition::dead;
    case LocomotionState::falling:
    case LocomotionState::down:
    case LocomotionState::getting_up:
      return BodyCondition::down;
    default:
      break;
  }
  // A strong hit stuns; so do the balance steps that catch it (a walking body catches a shove
  // with its gait, and a balance step after stopping is no stumble).
  const bool hit = body.recent_hit_ns(s.stumble_window_s) >= s.stumble_hit_ns;
  const bool catching = body.state() == LocomotionState::stepping &&
                        body.recent_hit_ns(s.catch_window_s) >= s.stumble_hit_ns;
  return hit || catching ? BodyCondition::stumbling : BodyCondition::upright;
}

float heading_of(const physics::Ragdoll& body) {
  return yaw_of(body.body_state(physics::BodyPart::chest).rotation.rotate({0, 0, 1}));
}

}  // namespace

Squad::Squad(std::shared_ptr<const Navmesh> navmesh, const NavigationSettings& navmesh_settings,
             const physics::World& world, const std::vector<SquadMember>& members,
             SquadSettings settings, int capacity)
    : world_(world),
      navmesh_(navmesh),
      settings_(settings),
      navigator_(navmesh, std::max(capacity, static_cast<int>(members.size())),
                 navmesh_settings.agent_radius, navmesh_settings.agent_height, settings.leash),
      stream_(settings.seed) {
  for (const SquadMember& sm : members) add(sm);
}

int Squad::add(const SquadMember& sm) {
  STAGGER_ASSERT(sm.body != nullptr);
  Member m;
  m.body = sm.body;
  m.eyes = Perception(sm.perception.value_or(settings_.perception));
  stream_ = stream_ * 6364136223846793005ull + 1442695040888963407ull;
  m.handle = navigator_.add(sm.spawn);
  if (m.handle >= 0) {
    std::vector<PatrolPoint> route = sm.route;
    if (route.empty()) route.push_back({sm.spawn, 0.0f});
    Patrol patrol(std::move(route), sm.mode, sm.yaw_rad, sm.patrol.value_or(settings_.patrol));
    patrol.resume_from(sm.spawn);  // start at the nearest point of the route
    m.brain.emplace(std::move(patrol), stream_, sm.brain.value_or(settings_.brain));
  }
  members_.push_back(std::move(m));
  return static_cast<int>(members_.size()) - 1;
}

void Squad::remove(int member) {
  Member& m = members_[static_cast<std::size_t>(member)];
  if (m.handle >= 0) navigator_.remove(m.handle);
  m.handle = -1;
  m.body = nullptr;
}

bool Squad::teleport(int member, Vec3 feet) {
  Member& m = members_[static_cast<std::size_t>(member)];
  m.walking = false;
  return m.handle >= 0 && navigator_.teleport(m.handle, feet);
}

const Navigator::Follow& Squad::follow(int member) const {
  return navigator_.follow(members_[static_cast<std::size_t>(member)].handle);
}

std::vector<Vec3> Squad::path_corners(int member) const {
  return navigator_.path_corners(members_[static_cast<std::size_t>(member)].handle);
}

bool Squad::route_point_taken(const Member& m) const {
  // Only a point with a wait (or a guarded one) has an arrival radius that a taken point widens.
  if (!m.brain || m.brain->state() != BrainState::patrol) return false;
  const Patrol& patrol = m.brain->patrol();
  if (patrol.target_wait_s() <= 0 && !patrol.guarding()) return false;
  // Another upright body within the radius a taken point is arrived at, nearer to it or not: two
  // bodies walking up to one point side by side were held off it by each other's agents, 0.5 and
  // 0.7 m away, neither within the arrival radius; and where the point lies in a passage that
  // others walk through, one stood 0.57 m short of it, nearer than a passer-by 0.66 m off it,
  // while the crowd held the passer-by's agent behind its body, which walked on past the agent
  // and, turning back to it, arced over a drop.
  const Vec3 point = patrol.target();
  for (const Member& other : members_) {
    if (&other == &m || other.handle < 0 || other.released ||
        other.condition != BodyCondition::upright)
      continue;
    const Vec3 feet = navigator_.follow(other.handle).feet;
    if (length(horizontal(feet - point)) <= settings_.patrol.taken_radius_m &&
        patrol.on_floor_of(point, feet))
      return true;
  }
  return false;
}

BrainInput Squad::sense(Member& m, Vec3 player_on_navmesh, float dt) {
  const physics::BodyState head = m.body->body_state(physics::BodyPart::head);
  m.eyes.update(world_, head.position, horizontal(head.rotation.rotate({0, 0, 1})), player_, dt);
  BrainInput in;
  in.body = m.condition;
  in.position = navigator_.follow(m.handle).feet;
  in.yaw_rad = heading_of(*m.body);
  in.sees_player = m.eyes.sees();
  if (in.sees_player) {
    in.player_feet = player_on_navmesh;
    in.player_head = player_.head;
  }
  in.remembers_player = m.eyes.remembers();
  in.last_seen_feet = m.eyes.last_seen_feet();
  // Stepping aside for another, it is not held up on its way.
  in.stalled = navigator_.follow(m.handle).stalled && m.giving_way_to < 0;
  in.settled = length(horizontal(m.body->balance().com_velocity)) < settings_.settled_speed;
  in.route_point_taken = route_point_taken(m);
  in.dt = dt;
  return in;
}

void Squad::command(Member& m, const BrainOutput& out, float dt) {
  physics::Ragdoll& body = *m.body;
  body.set_arm_reach(1, out.right_arm);
  const bool was_walking = m.walking;
  m.walking = false;
  if (!out.move) {
    body.set_intent({});  // stunned, down or dead: the balance controller has the legs
    return;
  }
  const Vec3 com = body.balance().com;
  const Vec3 to_aim = horizontal(navigator_.follow(m.handle).aim - com);
  const Vec3 to_goal = out.goal ? horizontal(*out.goal - com) : Vec3{};
  // Setting off, the agent is still by the body and the way to the goal says more.
  const bool setting_off = !was_walking && length(to_goal) > settings_.braking_m;
  if (out.goal && (length(to_aim) > settings_.arrived_m || setting_off)) {
    const float wanted = yaw_of(
        length(to_aim) > settings_.braking_m || !setting_off ? to_aim : way_out(m, com, to_goal));
    // Facing away, it turns first, then walks; walking, it stops and turns round when its way
    // lies behind it (a body that walked on past its agent), rather than walking a loop back.
    const float off_heading = std::fabs(std::remainder(wanted - heading_of(body), 2.0f * kPi));
    if (off_heading >
        deg_to_rad(was_walking ? settings_.turn_back_deg : settings_.turn_first_deg)) {
      body.set_intent(turn_on_the_spot(wanted));
      return;
    }
    if (!was_walking) m.walk_yaw = heading_of(body);
    physics::LocomotionIntent intent =
        walk(m, wanted, out.speed, length(to_goal), length(to_aim), dt);
    intent.velocity = back_onto_navmesh(body, intent.velocity);
    body.set_intent(intent);
    m.walking = true;
  } else if (out.facing_rad) {
    body.set_intent(turn_on_the_spot(*out.facing_rad));
  } else {
    body.set_intent({});
  }
}

Vec3 Squad::way_out(const Member& m, Vec3 com, Vec3 to_goal) const {
  // Along the agent's path: straight to the goal can cross a wall (the far end of a switchback,
  // a storey up, lies beside its bottom across the flights' divider).
  const std::optional<Vec3> corner =
      first_corner_beyond(navigator_.path_corners(m.handle), com, settings_.arrived_m);
  return corner ? horizontal(*corner - com) : to_goal;
}

physics::LocomotionIntent Squad::turn_on_the_spot(float yaw_rad) {
  physics::LocomotionIntent intent;
  intent.gait = physics::Gait::walk;
  intent.has_facing = true;
  intent.facing_rad = yaw_rad;
  return intent;
}

Vec3 Squad::back_onto_navmesh(const physics::Ragdoll& body, Vec3 velocity) const {
  // A body walks behind its agent's trail and may cut a corner or run past its agent beyond the
  // navmesh's edge, toward a drop or a wall the agent keeps clear of (the open steps' loopers,
  // passing their agent held back by the crowd, walked off the platform's side). Off the
  // navmesh it walks no farther off, and comes back.
  const physics::BalanceReadout& b = body.balance();
  const Vec3 feet{b.com.x, b.support_mid.y, b.com.z};
  const Navmesh::Nearest on = navmesh_->nearest(feet, kNavmeshSearchBox);
  if (!on.found) return velocity;
  const Vec3 back = horizontal(on.point - feet);
  const float beyond = length(back) - settings_.off_navmesh_m;
  if (beyond <= 0) return velocity;
  const Vec3 inward = normalized(back);
  const float away = -dot(velocity, inward);
  return velocity +
         inward * (std::max(0.0f, away) + std::min(settings_.back_onto_navmesh_gain * beyond,
                                                   settings_.max_back_onto_navmesh_speed));
}

physics::LocomotionIntent Squad::walk(Member& m, float wanted_yaw, float speed, float to_goal_m,
                                      float to_aim_m, float dt) const {
  // The walking direction turns at a limited rate, and slows while it turns: the gait turns its
  // heading at a limited rate too, and a body told to walk at right angles to where it goes is
  // thrown sideways over its feet (falls at the courtyard's corners).
  const float most = deg_to_rad(settings_.max_walk_turn_deg_s) * dt;
  const float turn = std::remainder(wanted_yaw - m.walk_yaw, 2.0f * kPi);
  m.walk_yaw += std::clamp(turn, -most, most);
  const physics::Ragdoll& body = *m.body;
  if (length(horizontal(body.balance().com_velocity)) >= settings_.settled_speed) {
    // Moving, it turns where it walks rather than walking where it does not face (two guards
    // passing on a stairwell's landing were told to walk 60-170° off their heading). Stopped,
    // it may turn on the spot: clamped then, one that had walked into a corner stayed there.
    const float facing = heading_of(body);
    const float lead = deg_to_rad(settings_.max_walk_lead_deg);
    m.walk_yaw = facing + std::clamp(std::remainder(m.walk_yaw - facing, 2.0f * kPi), -lead, lead);
  }
  const float turning_speed =
      speed * std::clamp(std::cos(turn), settings_.min_turn_speed_scale, 1.0f);
  // Full speed until near the goal: slowing whenever the agent's lead shrinks couples the
  // body's speed to the agent's, and the gait stumbles on that see-saw.
  physics::LocomotionIntent intent;
  intent.gait = physics::Gait::walk;
  const Vec3 direction{std::sin(m.walk_yaw), 0.0f, std::cos(m.walk_yaw)};
  intent.velocity =
      direction *
      (to_goal_m > settings_.braking_m ? turning_speed : std::min(turning_speed, 2.0f * to_aim_m));
  return intent;
}

int Squad::holding_up(std::size_t i, const std::vector<std::optional<Vec3>>& agents) const {
  const Vec3 mine = *agents[i];
  // Its way: the first corner of its agent's path that is not already under the agent, looked
  // up once, for the first other agent near enough.
  bool looked_up = false;
  std::optional<Vec3> corner;
  for (std::size_t j = 0; j < agents.size(); ++j) {
    if (j == i || !agents[j]) continue;
    const Vec3 to_other = *agents[j] - mine;
    if (length(horizontal(to_other)) > settings_.standoff_m ||
        std::fabs(to_other.y) > settings_.patrol.arrival_height_m)
      continue;
    if (!looked_up) {
      corner = first_corner_beyond(navigator_.path_corners(members_[i].handle), mine,
                                   settings_.arrived_m);
      looked_up = true;
    }
    if (corner && dot(normalized(horizontal(*corner - mine)), normalized(horizontal(to_other))) >
                      std::cos(deg_to_rad(kStandoffConeDeg)))
      return static_cast<int>(j);
  }
  return -1;
}

std::optional<Vec3> Squad::aside_for(const Member& m, const Member& other) const {
  const Vec3 mine = navigator_.follow(m.handle).agent;
  const Vec3 theirs = navigator_.follow(other.handle).agent;
  const Vec3 back = normalized(horizontal(mine - theirs));
  const Vec3 side{-back.z, 0.0f, back.x};
  const std::vector<Vec3> their_corners = navigator_.path_corners(other.handle);
  // To either side or back: wherever ends farthest from the other's way, and not where there
  // is no room to step (a wall, a drop, the navmesh's edge).
  std::optional<Vec3> best;
  float clearest = 0;
  for (const Vec3 direction : {side, side * -1.0f, back}) {
    const Navmesh::Nearest to =
        navmesh_->slide(mine, mine + direction * settings_.give_way_aside_m);
    if (!to.found || length(horizontal(to.point - mine)) < 0.5f * settings_.give_way_aside_m)
      continue;
    float clearance = length(horizontal(to.point - theirs));
    Vec3 from = theirs;
    for (const Vec3& corner : their_corners) {
      clearance = std::min(clearance, distance_to_segment(horizontal(to.point), horizontal(from),
                                                          horizontal(corner)));
      from = corner;
    }
    if (clearance > clearest) {
      clearest = clearance;
      best = to.point;
    }
  }
  return best;
}

void Squad::settle_standoffs(float dt) {
  // Where each upright member has its agent, packed: every patrolling member is paired with
  // every other (a crowd of 128 makes 16 256 pairs a tick), and most pairs are far apart.
  std::vector<std::optional<Vec3>>& agents = upright_agents_;
  agents.assign(members_.size(), std::nullopt);
  for (std::size_t j = 0; j < members_.size(); ++j) {
    const Member& other = members_[j];
    if (other.handle >= 0 && !other.released && other.condition == BodyCondition::upright)
      agents[j] = navigator_.follow(other.handle).agent;
  }
  // Who stands face to face with whom, and for how long.
  for (std::size_t i = 0; i < members_.size(); ++i) {
    Member& m = members_[i];
    if (m.handle < 0 || m.released) continue;
    if (m.giving_way_to >= 0) {
      const Member& other = members_[static_cast<std::size_t>(m.giving_way_to)];
      m.giving_way_s += dt;
      const bool passed =
          other.handle < 0 || other.released || other.condition != BodyCondition::upright ||
          length(horizontal(navigator_.follow(other.handle).agent -
                            navigator_.follow(m.handle).agent)) > settings_.give_way_clear_m;
      if (passed || m.giving_way_s > settings_.give_way_most_s ||
          m.brain->state() != BrainState::patrol)
        m.giving_way_to = -1;
      continue;
    }
    const bool patrolling =
        m.brain && m.brain->state() == BrainState::patrol && m.condition == BodyCondition::upright;
    const int facing = patrolling ? holding_up(i, agents) : -1;
    // Held up while its agent stays put (it creeps a few centimetres a second as the two are
    // pushed about; the bodies shuffle against each other).
    const Vec3 agent = navigator_.follow(m.handle).agent;
    const bool crept =
        length(horizontal(agent - m.facing_from)) > settings_.settled_speed * settings_.standoff_s;
    if (facing < 0 || facing != m.facing || crept) {
      m.facing_from = agent;
      m.facing_s = 0;
    } else {
      m.facing_s += dt;
    }
    m.facing = facing;
  }
  // Held up long enough by each other: the later member steps aside (the earlier one where the
  // later has no room).
  for (std::size_t i = 0; i < members_.size(); ++i) {
    Member& m = members_[i];
    if (m.facing < 0 || m.facing_s < settings_.standoff_s) continue;
    Member& other = members_[static_cast<std::size_t>(m.facing)];
    if (other.facing != static_cast<int>(i) || other.facing_s < settings_.standoff_s) continue;
    Member* yielder = &m;
    Member* passer = &other;
    std::optional<Vec3> aside = aside_for(m, other);
    if (!aside) {
      std::swap(yielder, passer);
      aside = aside_for(other, m);
    }
    m.facing = other.facing = -1;
    m.facing_s = other.facing_s = 0;
    if (!aside) continue;
    yielder->giving_way_to = static_cast<int>(passer - members_.data());
    yielder->aside = *aside;
    yielder->giving_way_s = 0;
  }
}

void Squad::tick(float dt) {
  // The player's feet as they stand on the navmesh (the crowd plans on it), once for everyone.
  Vec3 player_on_navmesh = player_.feet;
  if (player_.present) {
    const Navmesh::Nearest feet = navmesh_->nearest(player_.feet, {0.5f, 1.0f, 0.5f});
    if (feet.found) player_on_navmesh = feet.point;
  }
  settle_standoffs(dt);
  outputs_.assign(members_.size(), BrainOutput{});
  for (std::size_t i = 0; i < members_.size(); ++i) {
    Member& m = members_[i];
    if (m.handle < 0) continue;
    if (m.released) {
      navigator_.set_goal(m.handle, std::nullopt, 0.0f);
      continue;
    }
    m.condition = condition_of(*m.body, settings_);
    outputs_[i] = m.brain->update(sense(m, player_on_navmesh, dt));
    if (outputs_[i].forget_player) m.eyes.forget();
    if (m.giving_way_to >= 0 && outputs_[i].move && outputs_[i].goal) outputs_[i].goal = m.aside;
    navigator_.set_goal(m.handle, outputs_[i].goal, outputs_[i].move ? outputs_[i].speed : 0.0f);
  }
  // The thread's CPU time, as the frame cost is measured: a preempted thread is no slower tick.
  const double start = thread_cpu_ms();
  for (Member& m : members_) {
    if (m.handle < 0) continue;
    if (m.released) m.condition = condition_of(*m.body, settings_);
    const bool up =
        m.condition == BodyCondition::upright || m.condition == BodyCondition::stumbling;
    navigator_.set_body(m.handle, m.body->balance().com, up);
  }
  navigator_.tick(dt);
  last_navigation_ms_ = thread_cpu_ms() - start;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i].handle >= 0 && !members_[i].released) command(members_[i], outputs_[i], dt);
  }
}

}  // namespace stagger::ai
