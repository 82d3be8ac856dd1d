#include "stagger/sim/simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "stagger/sim/scene.h"

#include "stagger/sim/step_clock.h"

namespace stagger::sim {

StepClock::StepClock(double step_s, double max_catch_up_s)
    : step_s_(step_s), max_catch_up_s_(max_catch_up_s) {}

int StepClock::advance(double frame_s) {
  accumulator_ += frame_s;
  if (accumulator_ > max_catch_up_s_) {
    dropped_s_ += accumulator_ - max_catch_up_s_;
    accumulator_ = max_catch_up_s_;
  }
  // A tolerance of a millionth of a step keeps 240 Hz physics under a 90 Hz display at exactly
  // 8 steps per 3 frames despite rounding.
  const int steps = static_cast<int>(std::floor(accumulator_ / step_s_ + 1e-6));
  accumulator_ = std::max(0.0, accumulator_ - steps * step_s_);
  return steps;
}

Simulation::Simulation(const SceneDescription& scene, InputScript script)
    : scene_(scene), script_(std::move(script)) {
  for (const auto& e : scene_.enemies()) {
    EnemyStats s;
    s.name = e.name;
    stats_.push_back(s);
  }
  was_fallen_.assign(stats_.size(), false);
  for (const auto& e : scene_.enemies()) last_com_.push_back(e.ragdoll->balance().com);
  start_patrols();
  record_stats();
}

namespace {

constexpr float kPatrolSpeed = 1.2f;  // [m/s] walking pace of a patrol
constexpr float kLeashSlack = 0.4f;   // [m] the agent walks at full speed this far ahead of the body ...
constexpr float kLeashHard = 1.2f;    // [m] ... and stops when this far ahead
constexpr float kLookAhead = 0.3f;    // [s] the body aims where the agent will be
constexpr float kArrived = 0.25f;     // [m] the body stands when this close to its aim

}  // namespace

void Simulation::start_patrols() {
  const SceneDescription& scene = scene_.description();
  if (!scene.navigation) return;
  const bool any_route = std::any_of(scene.enemies.begin(), scene.enemies.end(), [](const EnemySpawn& e) { return !e.route.empty(); });
  if (!any_route) return;
  auto built = build_navmesh(scene);
  if (!built) return;  // `stagger check` reports why; without a navmesh nobody patrols
  navmesh_ = built.value();
  crowd_ = std::make_unique<ai::Crowd>(navmesh_, static_cast<int>(scene.enemies.size()), scene.navigation->agent_radius);
  for (std::size_t i = 0; i < scene.enemies.size(); ++i) {
    const EnemySpawn& e = scene.enemies[i];
    if (e.route.empty()) continue;
    const ai::Navmesh::Nearest at = navmesh_->nearest(e.position, kOnNavmesh);
    if (!at.found) continue;
    const int agent = crowd_->add_agent(at.point, scene.navigation->agent_radius, scene.navigation->agent_height, kPatrolSpeed);
    if (agent < 0) continue;
    patrollers_.push_back({i, agent, ai::Patrol(e.route, e.route_mode, e.yaw_rad), false, {}, 0});
    patrollers_.back().patrol.resume_from(e.position);  // start at the nearest point of the route
  }
}

void Simulation::update_patrols(float dt) {
  for (Patroller& p : patrollers_) {
    physics::Ragdoll& body = *scene_.enemies()[p.enemy].ragdoll;
    const Vec3 com = body.balance().com;
    const ai::Navmesh::Nearest on = navmesh_->nearest(com, {1.0f, 2.0f, 1.0f});
    const Vec3 feet = on.found ? on.point : com;
    if (!physics::is_upright(body.state())) {
      // Down or getting up: the agent waits where the body is, and the patrol resumes from
      // there once the body stands again.
      if (!p.held) crowd_->set_target(p.agent, feet);
      p.held = true;
      crowd_->set_max_speed(p.agent, 0.0f);
      continue;
    }
    if (p.held) {
      p.held = false;
      p.patrol.resume_from(feet);
    }
    const Vec3 target = p.patrol.update(feet, dt);
    if (length(target - p.target) > 1e-3f) {
      p.target = target;
      crowd_->set_target(p.agent, target);
    }
    // Leash: the agent slows as its lead over the body grows (the real distance, not squared).
    p.lead_m = length(horizontal(crowd_->position(p.agent) - feet));
    stats_[p.enemy].max_leash_lead_m = std::max(stats_[p.enemy].max_leash_lead_m, p.lead_m);
    const float slack = std::clamp(1.0f - (p.lead_m - kLeashSlack) / (kLeashHard - kLeashSlack), 0.0f, 1.0f);
    crowd_->set_max_speed(p.agent, kPatrolSpeed * slack);
  }
  crowd_->update(dt);
  for (Patroller& p : patrollers_) {
    physics::Ragdoll& body = *scene_.enemies()[p.enemy].ragdoll;
    if (p.held) continue;
    const Vec3 aim = crowd_->position(p.agent) + crowd_->velocity(p.agent) * kLookAhead;
    const Vec3 to_aim = horizontal(aim - body.balance().com);
    physics::LocomotionIntent intent;
    if (length(to_aim) > kArrived) {
      intent.gait = physics::Gait::walk;
      intent.velocity = normalized(to_aim) * std::min(kPatrolSpeed, 2.0f * length(to_aim));
    } else if (p.patrol.guarding()) {
      intent.gait = physics::Gait::walk;  // turn on the spot to face the guarded way
      intent.has_facing = true;
      intent.facing_rad = p.patrol.guard_yaw();
    }
    body.set_intent(intent);
  }
}

void Simulation::apply_due_events() {
  // An event at time t applies at the start of the first step that begins at or after t.
  const double now = scene_.world().time();
  const double half_step = 0.5 * static_cast<double>(scene_.world().dt());
  while (next_kill_ < script_.kills.size() && script_.kills[next_kill_].t <= now + half_step) {
    const KillEvent& kill = script_.kills[next_kill_++];
    if (Enemy* enemy = scene_.find_enemy(kill.enemy)) enemy->ragdoll->kill();
  }
  while (next_walk_ < script_.walks.size() && script_.walks[next_walk_].t <= now + half_step) {
    const WalkEvent& walk = script_.walks[next_walk_++];
    if (Enemy* enemy = scene_.find_enemy(walk.enemy)) enemy->ragdoll->set_intent(walk.intent);
  }
  while (next_push_ < script_.pushes.size() && script_.pushes[next_push_].t <= now + half_step) {
    const PushEvent& push = script_.pushes[next_push_++];
    for (std::size_t i = 0; i < scene_.enemies().size(); ++i) {
      Enemy& enemy = scene_.enemies()[i];
      if (enemy.name != push.enemy) continue;
      enemy.ragdoll->apply_impulse(push.body, push.impulse);
      ++stats_[i].pushes;
    }
  }
}

void Simulation::step() {
  const auto start = std::chrono::steady_clock::now();
  apply_due_events();
  if (crowd_) update_patrols(scene_.world().dt());
  scene_.world().step();
  record_stats();
  wall_ms_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void Simulation::run(double seconds, double display_hz, const std::function<void(double)>& progress) {
  physics::World& world = scene_.world();
  const auto target_steps =
      static_cast<std::uint64_t>(std::llround(seconds * static_cast<double>(world.settings().physics_hz)));
  StepClock clock(world.dt(), /*max_catch_up_s=*/1.0);
  const double frame_s = 1.0 / display_hz;
  while (world.step_count() < target_steps) {
    const int steps = clock.advance(frame_s);
    for (int i = 0; i < steps && world.step_count() < target_steps; ++i) step();
    if (progress) progress(world.time());
  }
}

void Simulation::record_stats() {
  const float dt = scene_.world().dt();
  for (std::size_t i = 0; i < scene_.enemies().size(); ++i) {
    const physics::Ragdoll& r = *scene_.enemies()[i].ragdoll;
    EnemyStats& s = stats_[i];
    const auto& balance = r.balance();
    const physics::LocomotionState state = r.state();
    const bool falling = state == physics::LocomotionState::falling;
    if (falling && !was_fallen_[i]) ++s.falls;
    was_fallen_[i] = falling;
    const bool down = !physics::is_upright(state) && state != physics::LocomotionState::dead;
    if (down && scene_.world().step_count() > 0) s.time_down_s += static_cast<double>(dt);
    s.get_ups = r.get_ups();
    s.recovery_steps = r.recovery_steps();
    s.steps = r.steps_taken();
    s.stays_down = r.stays_down();
    s.max_balance_error_m = std::max(s.max_balance_error_m, balance.error_m);
    s.min_pelvis_height_m = std::min(s.min_pelvis_height_m, r.pelvis_height());
    s.max_joint_separation_m = std::max(s.max_joint_separation_m, r.max_joint_separation());
    s.balance_state = std::string(physics::name_of(balance.state));
    if (physics::is_upright(state)) s.distance_walked_m += static_cast<double>(length(horizontal(balance.com - last_com_[i])));
    last_com_[i] = balance.com;
    s.final_state = std::string(physics::name_of(state));
  }
}

SimulationResult Simulation::result() const {
  const physics::World& world = scene_.world();
  SimulationResult r;
  r.level = scene_.description().name;
  r.seconds = world.time();
  r.physics_hz = world.settings().physics_hz;
  r.steps = world.step_count();
  r.state_hash = world.state_hash();
  r.wall_ms = wall_ms_;
  r.ms_per_step = r.steps > 0 ? wall_ms_ / static_cast<double>(r.steps) : 0.0;
  r.finite = world.all_finite();
  r.enemies = stats_;
  for (const Patroller& p : patrollers_) r.enemies[p.enemy].route_points_reached = p.patrol.reached();
  return r;
}

}  // namespace stagger::sim
