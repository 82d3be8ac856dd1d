#include "stagger/sim/simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "stagger/core/cpu_clock.h"
#include "stagger/core/enum_table.h"
#include "stagger/core/random.h"
#include "stagger/core/step_clock.h"
#include "stagger/sim/scene.h"

namespace stagger::sim {

namespace {
// The punching arm's forearm, whose far end is the fist (the brain punches with the right).
constexpr physics::BodyPart kFist = physics::BodyPart::lower_arm_r;
constexpr float kSlowGaitShare = 0.6f;  // [-] of the patrol speed: the slowest gait recorded
constexpr float kDefaultAiHz = 90.0f;
constexpr float kBlastCentreM = 0.01f;  // [m] nearer the centre: thrown straight ahead
constexpr float kBlastEdgeLoss = 0.5f;  // [-] the share of the impulse lost at the edge
const float kBlastLiftRad =
    deg_to_rad(60.0f);  // [rad] a full ragdoll's shove, up from level  // [Hz] how often the minds
                        // think unless told otherwise
}  // namespace

Simulation::Simulation(const SceneDescription& scene, InputScript script)
    : scene_(scene),
      script_(std::move(script)),
      max_present_(std::max<std::ptrdiff_t>(scene.max_enemies,
                                            static_cast<std::ptrdiff_t>(scene.enemies.size()))),
      activity_(scene.activity, scene.world) {
  for (std::size_t i = 0; i < scene_.enemies().size(); ++i) start_enemy_stats(i);
  start_minds();
  start_hands();
  record_stats();
}

void Simulation::start_enemy_stats(std::size_t index) {
  const Enemy& enemy = scene_.enemies()[index];
  EnemyStats s;
  s.name = enemy.name;
  s.profile = scene_.description().enemies[index].profile;
  stats_.push_back(s);
  was_fallen_.push_back(false);
  fall_began_s_.push_back(0.0);
  last_com_.push_back(enemy.ragdoll->balance().com);
  scripted_pushes_.emplace_back();
  squad_index_.push_back(-1);
  punches_seen_.push_back(0);
  punch_ended_.push_back(0);
  const EnemySettings tuned =
      settings_of(scene_.description(), scene_.description().enemies[index]);
  // The gaits a light walker plays: slowed (turning, arriving), patrolling, between, chasing.
  const float patrol = tuned.brain.patrol_speed;
  const float chase = tuned.brain.chase_speed;
  activity_.add_enemy(index, *enemy.ragdoll,
                      {kSlowGaitShare * patrol, patrol, 0.5f * (patrol + chase), chase},
                      settings_hash(tuned));
}

ai::SquadMember Simulation::member_for(std::size_t index) {
  const levels::EnemySpawn& e = scene_.description().enemies[index];
  SpawnRoute route = route_of(scene_.description(), e);
  const EnemySettings tuned = settings_of(scene_.description(), e);
  return {scene_.enemies()[index].ragdoll,
          e.position,
          deg_to_rad(e.yaw_deg),
          std::move(route.points),
          route.mode,
          tuned.brain,
          tuned.perception,
          tuned.patrol};
}

void Simulation::start_minds() {
  // The minds think at about 90 Hz (every third step at 240 Hz): the legs, not the plans, need
  // the physics rate.
  const Result<float> rate = set_ai_rate_hz(kDefaultAiHz);
  STAGGER_ASSERT(rate.ok());
  if (!scene_.description().enemies.empty()) ensure_squad();
}

void Simulation::ensure_squad() {
  const SceneDescription& scene = scene_.description();
  if (squad_ || !scene.navigation) return;
  auto built = build_navmesh(scene);
  if (!built) return;  // `stagger check` reports why; without a navmesh the enemies just stand
  std::vector<ai::SquadMember> members;
  for (std::size_t i = 0; i < scene_.enemies().size(); ++i) {
    if (scene_.enemies()[i].removed()) continue;
    squad_index_[i] = static_cast<int>(members.size());
    members.push_back(member_for(i));
  }
  squad_ = std::make_unique<ai::Squad>(built.value(), *scene.navigation, scene_.world(), members,
                                       ai::SquadSettings{}, scene.max_enemies);
  if (activity_.enabled()) activity_.set_navmesh(built.value(), scene.vary_seed.value_or(0));
}

void Simulation::guard_finite() {
  // A non-finite transform or velocity (a solver blow-up), or a runaway body, is named, and that
  // enemy starts again at its spawn, before anything reads it: nothing downstream ever sees a NaN.
  for (std::size_t i = 0; i < scene_.enemies().size(); ++i) {
    if (scene_.enemies()[i].removed()) continue;
    physics::Ragdoll& body = *scene_.enemies()[i].ragdoll;
    if (body.suspended()) continue;  // posed by the activity levels, from finite numbers
    const auto warn = [&](physics::BodyPart part, const std::string& what) {
      guard_warnings_.push_back(scene_.enemies()[i].name + ": body " +
                                std::string(physics::name_of(part)) + " " + what + " after step " +
                                std::to_string(scene_.world().step_count()) +
                                "; the enemy was reset to its spawn");
    };
    if (const std::optional<physics::BodyPart> part = body.first_non_finite_part()) {
      warn(*part, "not finite");
    } else if (const std::optional<physics::Runaway> runaway = body.first_runaway_part()) {
      // Finite but absurd (a huge impulse): beyond the world or faster than anything real.
      warn(runaway->part, "ran away (" + runaway->what + ")");
      ++stats_[i].runaways;
    } else {
      continue;
    }
    ++stats_[i].resets;
    make_active(i);
    body.reset();
    last_com_[i] = body.balance().com;
  }
}

void Simulation::start_hands() {
  for (const HandEvent& e : script_.hands) {
    physics::Hand*& hand = hands_[static_cast<std::size_t>(e.hand)];
    if (hand == nullptr)
      hand = &scene_.world().add_hand(scene_.description().hands, e.path.front().position, Quat{});
  }
}

void Simulation::add_live_hands(const physics::HandSettings& settings, Vec3 left, Vec3 right) {
  for (int side = 0; side < 2; ++side) {
    physics::Hand*& hand = hands_[static_cast<std::size_t>(side)];
    if (hand == nullptr)
      hand = &scene_.world().add_hand(settings, side == 0 ? left : right, Quat{});
  }
}

namespace {
const Vec3 kParked{0, -50, 0};  // [m] where unused joint spheres wait, below everything
}  // namespace

void Simulation::add_hand_joint_spheres(int count, float radius_m) {
  joint_radius_m_ = radius_m;
  for (auto& spheres : joint_spheres_) {
    for (int i = 0; i < count; ++i)
      spheres.push_back(scene_.world().add_kinematic_sphere(radius_m, kParked));
  }
  // A hand's body sits among its own fingers: they must not push it (or each other's hand).
  for (const auto& spheres : joint_spheres_) {
    for (physics::BodyId sphere : spheres) {
      for (physics::Hand* hand : hands_) {
        if (hand != nullptr) scene_.world().ignore_collisions(sphere, hand->body());
      }
    }
  }
}

void Simulation::set_hand_joints(int side, const std::vector<std::optional<Vec3>>& centres) {
  const auto s = static_cast<std::size_t>(side);
  const std::vector<physics::BodyId>& spheres = joint_spheres_[s];
  std::vector<bool>& live = joint_live_[s];
  live.resize(spheres.size(), false);
  physics::World& world = scene_.world();
  for (std::size_t i = 0; i < spheres.size(); ++i) {
    const bool now = i < centres.size() && centres[i].has_value();
    if (now && live[i]) {
      world.move_kinematic(spheres[i], *centres[i]);
    } else if (now != live[i]) {
      world.teleport_kinematic(spheres[i], now ? *centres[i] : kParked);
      world.set_collisions(spheres[i], now);
      live[i] = now;
    }
  }
}

void Simulation::set_player(Vec3 feet, Vec3 head, Vec3 gaze) {
  player_.present = true;
  player_.feet = feet;
  player_.head = head;
  player_gaze_ = gaze;
}

void Simulation::set_spectator(Vec3 feet, Vec3 head, Vec3 gaze) {
  spectator_ = ActivityViewer{true, feet, head, gaze};
}

void Simulation::activity_before_step() {
  if (!activity_.enabled()) return;
  ActivityViewer viewer;
  viewer.present = player_.present;
  viewer.feet = player_.feet;
  viewer.head = player_.head;
  viewer.gaze = player_gaze_;
  if (spectator_) viewer = *spectator_;
  hand_points_.clear();  // (a member: no allocation per step)
  for (const physics::Hand* hand : hands_) {
    if (hand != nullptr && !hand->ghost()) hand_points_.push_back(hand->state().position);
  }
  const bool decide =
      scene_.world().step_count() % static_cast<std::uint64_t>(ai_every_steps_) == 0;
  const double start = thread_cpu_ms();
  activity_.before_step(viewer, hand_points_, scene_.world().dt(), decide);
  activity_cpu_ms_ += thread_cpu_ms() - start;
}

namespace {

// Where a path puts the hand at `t`, and how fast it moves there.
std::pair<Vec3, Vec3> sample_path(const std::vector<HandEvent::Point>& path, double t) {
  if (t <= path.front().t) return {path.front().position, {}};
  for (std::size_t i = 1; i < path.size(); ++i) {
    const HandEvent::Point& a = path[i - 1];
    const HandEvent::Point& b = path[i];
    if (t > b.t) continue;
    const double span = b.t - a.t;
    if (span <= 0) return {b.position, {}};
    const auto u = static_cast<float>((t - a.t) / span);
    return {lerp(a.position, b.position, u), (b.position - a.position) / static_cast<float>(span)};
  }
  return {path.back().position, {}};
}

}  // namespace

void Simulation::move_hands() {
  // Each hand follows the path of its latest event that has begun (or waits at its first path's
  // start), sampled at the middle of the coming step.
  const double now = scene_.world().time() + 0.5 * static_cast<double>(scene_.world().dt());
  for (int side = 0; side < 2; ++side) {
    physics::Hand* hand = hands_[static_cast<std::size_t>(side)];
    if (hand == nullptr) continue;
    const HandEvent* current = nullptr;
    for (const HandEvent& e : script_.hands) {
      if (e.hand != side) continue;
      if (current == nullptr || e.t <= now) current = &e;
      if (e.t > now) break;
    }
    if (current == nullptr) continue;  // (a hand exists only for a side with events)
    const auto [position, velocity] = sample_path(current->path, now);
    hand->set_target(position, Quat{}, velocity);
  }
}

void Simulation::move_player(const PlayerEvent& event) {
  player_.present = event.present;
  if (!event.present) return;
  player_.feet = event.position;
  player_.head = event.position + Vec3{0, event.head_height_m, 0};
}

void Simulation::apply_due_events() {
  // An event at time t applies at the start of the first step that begins at or after t.
  const double now = scene_.world().time();
  const double half_step = 0.5 * static_cast<double>(scene_.world().dt());
  while (next_kill_ < script_.kills.size() && script_.kills[next_kill_].t <= now + half_step) {
    const KillEvent& kill = script_.kills[next_kill_++];
    if (const std::optional<EnemyId> id = find_enemy(kill.enemy)) (void)kill_enemy(*id, kill.hit);
  }
  while (next_blast_ < script_.blasts.size() && script_.blasts[next_blast_].t <= now + half_step) {
    const BlastEvent& b = script_.blasts[next_blast_++];
    (void)blast(b.position, b.radius_m, b.impulse_ns);
  }
  while (next_walk_ < script_.walks.size() && script_.walks[next_walk_].t <= now + half_step) {
    const WalkEvent& walk = script_.walks[next_walk_++];
    for (std::size_t i = 0; i < scene_.enemies().size(); ++i) {
      if (scene_.enemies()[i].name != walk.enemy || scene_.enemies()[i].removed()) continue;
      // The script drives its legs from now on.
      if (squad_ && squad_index_[i] >= 0) squad_->release(squad_index_[i]);
      scene_.enemies()[i].ragdoll->set_intent(walk.intent);
    }
  }
  while (next_player_ < script_.players.size() &&
         script_.players[next_player_].t <= now + half_step) {
    move_player(script_.players[next_player_++]);
  }
  while (next_push_ < script_.pushes.size() && script_.pushes[next_push_].t <= now + half_step) {
    const PushEvent& push = script_.pushes[next_push_++];
    for (std::size_t i = 0; i < scene_.enemies().size(); ++i) {
      Enemy& enemy = scene_.enemies()[i];
      if (enemy.name != push.enemy || enemy.removed()) continue;
      make_active(i);
      enemy.ragdoll->apply_impulse(push.body, push.impulse);
      scripted_pushes_[i].emplace_back(now, length(push.impulse));
    }
  }
}

void Simulation::step() {
  const auto start = std::chrono::steady_clock::now();
  events_.clear();
  apply_due_events();
  if (squad_ && scene_.world().step_count() % static_cast<std::uint64_t>(ai_every_steps_) == 0) {
    const double ai_start = thread_cpu_ms();
    squad_->set_player(player_);
    squad_->tick(scene_.world().dt() * static_cast<float>(ai_every_steps_));
    ai_cpu_ms_ += thread_cpu_ms() - ai_start;
    navigation_tick_ms_.push_back(squad_->last_navigation_ms());
  }
  move_hands();
  activity_before_step();
  scene_.world().step();
  activity_.after_step(scene_.world().dt());
  guard_finite();
  record_stats();
  collect_events();
  wall_ms_ +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  for (const auto& observer : on_step_) observer(*this);
}

void Simulation::run(double seconds, double display_hz, const std::function<void(double)>& progress,
                     const std::function<bool()>& stop) {
  physics::World& world = scene_.world();
  const auto target_steps = static_cast<std::uint64_t>(
      std::llround(seconds * static_cast<double>(world.settings().physics_hz)));
  StepClock clock(world.dt(), /*max_catch_up_s=*/1.0);
  const double frame_s = 1.0 / display_hz;
  while (world.step_count() < target_steps) {
    const int steps = clock.advance(frame_s);
    for (int i = 0; i < steps && world.step_count() < target_steps; ++i) {
      if (stop && stop()) {
        interrupted_ = true;
        return;
      }
      step();
    }
    if (progress) progress(world.time());
  }
}

void Simulation::record_stats() {
  const float dt = scene_.world().dt();
  for (std::size_t i = 0; i < scene_.enemies().size(); ++i) {
    if (scene_.enemies()[i].removed()) continue;
    const physics::Ragdoll& r = *scene_.enemies()[i].ragdoll;
    EnemyStats& s = stats_[i];
    const auto& balance = r.balance();
    if (r.suspended()) {
      // Posed by the activity levels: it walks (or flies, or plays a clip), and nothing of its
      // balance, pelvis or joints is the solver's to measure.
      if (activity_.activity(i) == Activity::light)
        s.distance_walked_m += static_cast<double>(length(horizontal(balance.com - last_com_[i])));
      last_com_[i] = balance.com;
      continue;
    }
    const physics::LocomotionState state = r.state();
    const bool falling = state == physics::LocomotionState::falling;
    if (falling && !was_fallen_[i]) {
      ++s.falls;
      const physics::FallCause cause = r.last_fall_cause();
      s.fall_causes.emplace_back(physics::name_of(cause));
      if (physics::is_self_fall(cause)) ++s.self_falls;
      s.fall_to_down_s.push_back(-1.0);
      fall_began_s_[i] = scene_.world().time();
    }
    if (state == physics::LocomotionState::down && !s.fall_to_down_s.empty() &&
        s.fall_to_down_s.back() < 0) {
      s.fall_to_down_s.back() = scene_.world().time() - fall_began_s_[i];
    }
    s.max_foot_slip_m = r.max_foot_slip_m();
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
    if (physics::is_upright(state))
      s.distance_walked_m += static_cast<double>(length(horizontal(balance.com - last_com_[i])));
    last_com_[i] = balance.com;
  }
}

namespace {

constexpr std::string_view kEventNames[] = {
    "shoved", "fell", "got_up", "punch_thrown", "punch_blocked", "punch_landed", "died"};
constexpr std::string_view kPlayerPartNames[] = {"head", "torso"};

EventKind event_kind(physics::RagdollEventKind kind) {
  switch (kind) {
    case physics::RagdollEventKind::shoved:
      return EventKind::shoved;
    case physics::RagdollEventKind::fell:
      return EventKind::fell;
    case physics::RagdollEventKind::got_up:
      return EventKind::got_up;
    case physics::RagdollEventKind::died:
      return EventKind::died;
  }
  return EventKind::shoved;
}

bool finite(Vec3 v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// The end of a capsule body farther from `from` [m] (a forearm's fist, away from the elbow).
Vec3 far_end(const physics::BodyState& body, const physics::BodyBlueprint& shape, Vec3 from) {
  const Vec3 axis = shape.shape == physics::ShapeKind::capsule_x ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  const Vec3 half = body.rotation.rotate(axis * shape.half_length);
  const Vec3 a = body.position + half;
  const Vec3 b = body.position - half;
  return length(a - from) > length(b - from) ? a : b;
}

}  // namespace

std::string_view name_of(EventKind kind) {
  return enum_name<EventKind::died>(kEventNames, kind);
}

std::string_view name_of(PlayerPart part) {
  return enum_name<PlayerPart::torso>(kPlayerPartNames, part);
}

Result<std::size_t> Simulation::present_index(EnemyId enemy) const {
  const auto i = static_cast<std::size_t>(enemy);
  if (i >= scene_.enemies().size()) {
    return Error{"no enemy has id " + std::to_string(i) + " (this run has " +
                 std::to_string(scene_.enemies().size()) + ")"};
  }
  if (scene_.enemies()[i].removed()) {
    return Error{"enemy " + std::to_string(i) + " (" + scene_.enemies()[i].name + ") was removed"};
  }
  return i;
}

bool Simulation::has_enemy(EnemyId enemy) const {
  return present_index(enemy).ok();
}

const physics::Ragdoll* Simulation::enemy_body(EnemyId enemy) const {
  const Result<std::size_t> i = present_index(enemy);
  return i ? scene_.enemies()[i.value()].ragdoll : nullptr;
}

std::optional<EnemyId> Simulation::find_enemy(const std::string& name) const {
  for (std::size_t i = 0; i < scene_.enemies().size(); ++i) {
    const Enemy& e = scene_.enemies()[i];
    if (e.name == name && !e.removed()) return static_cast<EnemyId>(i);
  }
  return std::nullopt;
}

Result<EnemyId> Simulation::add_enemy(const levels::EnemySpawn& spawn) {
  if (spawn.name.empty()) return Error{"an enemy needs a name"};
  if (find_enemy(spawn.name)) return Error{"an enemy named '" + spawn.name + "' is already here"};
  if (!finite(spawn.position) || !std::isfinite(spawn.yaw_deg)) {
    return Error{"enemy '" + spawn.name + "': its position and yaw must be finite numbers"};
  }
  const auto in = [](const std::optional<float>& v, float low, float high) {
    return !v || (*v >= low && *v <= high);  // (false for NaN)
  };
  if (!in(spawn.height_m, levels::kMinEnemyHeightM, levels::kMaxEnemyHeightM) ||
      !in(spawn.mass_kg, levels::kMinEnemyMassKg, levels::kMaxEnemyMassKg)) {
    return Error{"enemy '" + spawn.name + "': height_m must be within [" +
                 std::to_string(levels::kMinEnemyHeightM) + ", " +
                 std::to_string(levels::kMaxEnemyHeightM) + "] and mass_kg within [" +
                 std::to_string(levels::kMinEnemyMassKg) + ", " +
                 std::to_string(levels::kMaxEnemyMassKg) + "]"};
  }
  const auto& profiles = scene_.description().profiles;
  if (!spawn.profile.empty() &&
      std::none_of(profiles.begin(), profiles.end(),
                   [&](const SettingsProfile& p) { return p.name == spawn.profile; })) {
    return Error{"enemy '" + spawn.name + "': no profile is named '" + spawn.profile + "'"};
  }
  const auto& routes = scene_.description().routes;
  if (!spawn.route.empty() &&
      std::none_of(routes.begin(), routes.end(),
                   [&](const levels::Route& r) { return r.name == spawn.route; })) {
    return Error{"enemy '" + spawn.name + "': no route is named '" + spawn.route + "'"};
  }
  const auto present = std::count_if(scene_.enemies().begin(), scene_.enemies().end(),
                                     [](const Enemy& e) { return !e.removed(); });
  if (present >= max_present_) {
    return Error{"enemy '" + spawn.name + "': the scene holds at most " +
                 std::to_string(max_present_) +
                 " enemies at once (SceneDescription::max_enemies sizes the crowd for more)"};
  }
  const std::size_t index = scene_.add_enemy(spawn);
  start_enemy_stats(index);
  if (squad_) {
    squad_index_[index] = squad_->add(member_for(index));
  } else {
    ensure_squad();
  }
  return static_cast<EnemyId>(index);
}

Result<void> Simulation::remove_enemy(EnemyId enemy) {
  const Result<std::size_t> i = present_index(enemy);
  if (!i) return Error{i.error()};
  if (squad_ && squad_index_[i.value()] >= 0) squad_->remove(squad_index_[i.value()]);
  make_active(i.value());  // its bodies back in the world, to be taken out with it
  activity_.remove_enemy(i.value());
  scene_.remove_enemy(i.value());
  stats_[i.value()].removed = true;
  return {};
}

Result<void> Simulation::teleport_enemy(EnemyId enemy, Vec3 feet, float yaw_rad) {
  const Result<std::size_t> i = present_index(enemy);
  if (!i) return Error{i.error()};
  if (!finite(feet) || !std::isfinite(yaw_rad)) {
    return Error{"teleport of enemy " + std::to_string(i.value()) +
                 ": the position and yaw must be finite numbers"};
  }
  if (!activity_.promote_now(i.value())) {
    return Error{"enemy " + std::to_string(i.value()) +
                 " is posed by its activity level (in flight as a fake ragdoll, playing its death "
                 "clip or a corpse at rest) and cannot be teleported"};
  }
  physics::Ragdoll& body = *scene_.enemies()[i.value()].ragdoll;
  body.teleport(feet + Vec3{0, scene_.description().spawn_height_m, 0}, yaw_rad);
  last_com_[i.value()] = body.balance().com;
  if (squad_ && squad_index_[i.value()] >= 0) squad_->teleport(squad_index_[i.value()], feet);
  return {};
}

Result<void> Simulation::push_enemy(EnemyId enemy, physics::BodyPart part, Vec3 impulse) {
  const Result<std::size_t> i = present_index(enemy);
  if (!i) return Error{i.error()};
  if (static_cast<int>(part) >= physics::kBodyPartCount) return Error{"no such body part"};
  if (!finite(impulse)) return Error{"a push's impulse must be finite"};
  make_active(i.value());
  scene_.enemies()[i.value()].ragdoll->apply_impulse(part, impulse);
  scripted_pushes_[i.value()].emplace_back(scene_.world().time(), length(impulse));
  return {};
}

Result<void> Simulation::kill_enemy(EnemyId enemy, std::optional<Vec3> hit) {
  const Result<std::size_t> i = present_index(enemy);
  if (!i) return Error{i.error()};
  if (hit && !finite(*hit)) return Error{"a kill's hit must be finite"};
  if (hit && activity_.play_death_clip(i.value(), *hit)) return {};
  physics::Ragdoll& body = *scene_.enemies()[i.value()].ragdoll;
  if (!activity_.promote_now(i.value())) {
    body.kill();  // in flight, in its clip or at rest: it lands (or lies) a corpse
    return {};
  }
  if (hit) body.apply_impulse(physics::BodyPart::chest, *hit);
  body.kill();
  return {};
}

Result<int> Simulation::blast(Vec3 centre, float radius_m, float impulse_ns) {
  if (!finite(centre) || !std::isfinite(radius_m) || !std::isfinite(impulse_ns) || radius_m <= 0 ||
      impulse_ns <= 0) {
    return Error{"a blast needs a finite centre and a positive radius and impulse"};
  }
  std::vector<bool> immune;
  for (const levels::EnemySpawn& e : scene_.description().enemies) immune.push_back(e.blast_immune);
  int reached = 0;
  if (activity_.can_throw()) {
    for (std::size_t i : activity_.blast({centre, radius_m, impulse_ns}, immune)) {
      scripted_pushes_[i].emplace_back(scene_.world().time(), impulse_ns);
      ++reached;
    }
  }
  // The full ragdolls (and any enemy that could not be thrown) take a real shove: away from the
  // centre and up at the fake ragdolls' launch angle, halved at the edge.
  for (std::size_t i = 0; i < scene_.enemies().size(); ++i) {
    if (scene_.enemies()[i].removed() || (i < immune.size() && immune[i])) continue;
    const Activity level = activity_.enabled() ? activity_.activity(i) : Activity::active;
    if (level != Activity::active && level != Activity::light) continue;
    physics::Ragdoll& body = *scene_.enemies()[i].ragdoll;
    const Vec3 com = body.balance().com;
    const Vec3 away = horizontal(com - centre);
    const float distance = length(away);
    if (distance > radius_m) continue;
    if (!activity_.promote_now(i)) continue;
    const Vec3 out = distance > kBlastCentreM ? away / distance : Vec3{0, 0, 1};
    const float share = 1.0f - kBlastEdgeLoss * distance / radius_m;
    const Vec3 direction = out * std::cos(kBlastLiftRad) + Vec3{0, std::sin(kBlastLiftRad), 0};
    body.apply_impulse(physics::BodyPart::chest, direction * (impulse_ns * share));
    scripted_pushes_[i].emplace_back(scene_.world().time(), impulse_ns * share);
    ++reached;
  }
  return reached;
}

void Simulation::set_death_clips(std::shared_ptr<const DeathClipLibrary> clips) {
  activity_.set_death_clips(std::move(clips));
}

Result<float> Simulation::set_ai_rate_hz(float hz) {
  if (!std::isfinite(hz) || hz <= 0) return Error{"the AI rate must be a positive number of Hz"};
  ai_every_steps_ =
      std::max(1, static_cast<int>(std::lround(scene_.description().world.physics_hz / hz)));
  return ai_rate_hz();
}

float Simulation::ai_rate_hz() const {
  return scene_.description().world.physics_hz / static_cast<float>(ai_every_steps_);
}

void Simulation::post(const EnemyEvent& event) {
  events_.push_back(event);
  for (const auto& listener : on_event_) listener(event);
}

void Simulation::collect_events() {
  for (std::size_t i = 0; i < scene_.enemies().size(); ++i) {
    physics::Ragdoll* body = scene_.enemies()[i].ragdoll;
    if (body == nullptr) continue;
    body->take_events(ragdoll_events_);
    for (const physics::RagdollEvent& e : ragdoll_events_) {
      EnemyEvent event;
      event.enemy = static_cast<EnemyId>(i);
      event.kind = event_kind(e.kind);
      event.time_s = e.time_s;
      event.part = e.part;
      event.impulse = e.impulse;
      event.cause = e.cause;
      post(event);
    }
  }
  watch_punches();
}

void Simulation::watch_punches() {
  if (!squad_) return;
  for (std::size_t i = 0; i < scene_.enemies().size(); ++i) {
    const int member = squad_index_[i];
    if (member < 0 || !squad_->present(member) || !squad_->active(member)) continue;
    const ai::Brain& brain = squad_->brain(member);
    EnemyEvent event;
    event.enemy = static_cast<EnemyId>(i);
    event.time_s = scene_.world().time();
    if (brain.punches() > punches_seen_[i]) {
      punches_seen_[i] = brain.punches();
      event.kind = EventKind::punch_thrown;
      post(event);
    }
    // Each punch ends at most once: blocked by a hand it met first, or landed on the player.
    if (!brain.punching() || brain.punches() == 0 || punch_ended_[i] == brain.punches()) continue;
    const physics::Ragdoll& body = *scene_.enemies()[i].ragdoll;
    if (const std::optional<Vec3> blow = arm_blocked(body)) {
      event.kind = EventKind::punch_blocked;
      event.impulse = *blow;
      ++stats_[i].punches_blocked;
    } else if (const std::optional<PlayerPart> part = fist_on_player(body)) {
      event.kind = EventKind::punch_landed;
      event.player_part = *part;
      const physics::BodyState arm = body.body_state(physics::BodyPart::lower_arm_r);
      event.impulse = arm.linear_velocity * body.blueprint().bodies[physics::slot(kFist)].mass;
      ++stats_[i].punches_landed;
    } else {
      continue;
    }
    punch_ended_[i] = brain.punches();
    post(event);
  }
}

std::optional<Vec3> Simulation::arm_blocked(const physics::Ragdoll& body) {
  // A solid physics hand raised to guard (as high as the torso: a hand hanging at the player's
  // side that the arm brushes on its way up blocks nothing) in contact with the punching forearm.
  if (!player_.present) return std::nullopt;
  const float guard_y = player_.feet.y + player_volumes_.torso_bottom_above_feet_m;
  for (const physics::Hand* hand : hands_) {
    if (hand == nullptr || hand->ghost() || hand->state().position.y < guard_y) continue;
    scene_.world().contact_impulses(hand->body(), contacts_);
    for (const physics::ContactImpulse& c : contacts_) {
      if (c.other == body.body(kFist)) return c.impulse;
    }
  }
  return std::nullopt;
}

std::optional<PlayerPart> Simulation::fist_on_player(const physics::Ragdoll& body) const {
  if (!player_.present) return std::nullopt;
  const physics::BodyState arm = body.body_state(kFist);
  const physics::BodyBlueprint& shape = body.blueprint().bodies[physics::slot(kFist)];
  const Vec3 fist = far_end(arm, shape, body.body_state(physics::BodyPart::upper_arm_r).position);
  const PlayerVolumes& v = player_volumes_;
  if (length(fist - player_.head) <= v.head_radius_m + shape.radius) return PlayerPart::head;
  const Vec3 torso_top = player_.head - Vec3{0, v.torso_top_below_head_m, 0};
  const Vec3 torso_bottom = player_.feet + Vec3{0, v.torso_bottom_above_feet_m, 0};
  if (distance_to_segment(fist, torso_top, torso_bottom) <= v.torso_radius_m + shape.radius)
    return PlayerPart::torso;
  return std::nullopt;
}

SimulationResult Simulation::result() const {
  const physics::World& world = scene_.world();
  SimulationResult r;
  r.level = scene_.description().name;
  r.vary_seed = scene_.description().vary_seed;
  r.settings_file = scene_.description().settings_file;
  r.settings_hash = settings_hash(scene_.description().enemy_settings);
  r.seconds = world.time();
  r.physics_hz = world.settings().physics_hz;
  r.steps = world.step_count();
  r.state_hash = world.state_hash();
  r.wall_ms = wall_ms_;
  r.ms_per_step = r.steps > 0 ? wall_ms_ / static_cast<double>(r.steps) : 0.0;
  r.finite = world.all_finite();
  r.interrupted = interrupted_;
  r.enemies = stats_;
  for (const EnemyStats& e : stats_) r.runaways += e.runaways;
  // The states at the end (named here, not after every step: two strings per enemy per step).
  for (std::size_t i = 0; i < r.enemies.size(); ++i) {
    if (scene_.enemies()[i].removed()) continue;
    const physics::Ragdoll& ragdoll = *scene_.enemies()[i].ragdoll;
    r.enemies[i].balance_state = std::string(physics::name_of(ragdoll.balance().state));
    r.enemies[i].final_state = std::string(physics::name_of(ragdoll.state()));
    if (activity_.enabled()) {
      r.enemies[i].activity = activity_.stats(i);
      r.enemies[i].final_activity = std::string(name_of(activity_.activity(i)));
    }
  }
  // Pushes: the script's, then the hands' shoves, in the order they began.
  for (std::size_t i = 0; i < r.enemies.size(); ++i) {
    std::vector<std::pair<double, float>> pushes = scripted_pushes_[i];
    for (const physics::Hand* hand : hands_) {
      if (hand == nullptr) continue;
      for (const physics::HandShove& shove : hand->shoves()) {
        if (shove.ragdoll == scene_.enemies()[i].world_index)
          pushes.emplace_back(shove.start_s, length(shove.impulse));
      }
    }
    std::stable_sort(pushes.begin(), pushes.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    r.enemies[i].pushes = static_cast<int>(pushes.size());
    for (const auto& p : pushes) r.enemies[i].push_impulses_ns.push_back(p.second);
  }
  r.warnings = guard_warnings_;
  r.navigation_tick_ms = navigation_tick_ms_;
  if (!squad_) return r;
  for (std::size_t e = 0; e < r.enemies.size(); ++e) {
    const int i = squad_index_[e];
    EnemyStats& s = r.enemies[e];
    if (i < 0 || !squad_->present(i)) continue;
    if (!squad_->active(i)) {
      r.warnings.push_back(s.name + ": its spawn is off the navmesh; it stands where it is");
      continue;
    }
    const ai::Brain& brain = squad_->brain(i);
    const ai::Navigator::Follow& follow = squad_->follow(i);
    s.route_points_reached = brain.patrol().reached();
    s.max_leash_lead_m = follow.max_lead_m;
    s.leash_reseats = follow.reseats;
    s.invalid_agent_ticks = follow.invalid_ticks;
    s.saw_player = squad_->perception(i).saw_ever();
    s.punches = brain.punches();
    s.brain_state = std::string(ai::name_of(brain.state()));
    for (std::size_t point : brain.skipped_points()) {
      r.warnings.push_back(s.name + ": skipped point " + std::to_string(point) +
                           " of its route after 3 stalls on the way to it");
    }
  }
  return r;
}

}  // namespace stagger::sim
