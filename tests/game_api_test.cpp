// The game-facing API: enemies added, removed and teleported at run time, the events a game
// hears, the AI rate, clear errors for bad calls, and drawing between fixed steps.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "stagger/core/step_clock.h"
#include "stagger/levels/load.h"
#include "stagger/physics/interpolation.h"
#include "stagger/physics/ragdoll.h"
#include "stagger/physics/world.h"
#include "stagger/sim/scene.h"
#include "stagger/sim/simulation.h"

namespace stagger {
namespace {

using sim::EnemyEvent;
using sim::EnemyId;
using sim::EventKind;

// An open floor with a three-point patrol loop and one guard at the origin.
constexpr const char* kYard = R"({
  "format": "stagger-level", "version": 1, "name": "yard",
  "geometry": [ { "type": "box", "name": "floor", "center": [0, -0.5, 0], "size": [30, 1, 30] } ],
  "player": { "position": [0, 0, 12] },
  "routes": [
    { "name": "post", "points": [ { "position": [0, 0, 0] } ] },
    { "name": "loop", "mode": "loop", "points": [ { "position": [-4, 0, -4] },
      { "position": [-4, 0, -8] }, { "position": [-8, 0, -6] } ] } ],
  "enemies": [ { "name": "guard", "position": [0, 0, 0], "yaw_deg": 0, "route": "post" } ],
  "navigation": {}
})";

sim::SceneDescription yard(int max_enemies = 0) {
  const levels::LoadResult level = levels::parse_level(kYard, "yard.json", ".");
  EXPECT_TRUE(level.ok());
  sim::SceneDescription scene = sim::scene_from_level(level.level, level.mesh_triangles);
  scene.max_enemies = max_enemies;
  return scene;
}

levels::EnemySpawn spawn(const std::string& name, Vec3 at, const std::string& route = "") {
  levels::EnemySpawn e;
  e.name = name;
  e.position = at;
  e.route = route;
  return e;
}

void run_until(sim::Simulation& s, double t) {
  while (s.scene().world().time() < t) s.step();
}

TEST(GameApi, EventsTellAShoveTheFallAndItsCauseTheGetUpAndTheDeath) {
  sim::Simulation s(sim::builtin_scene(1));
  std::vector<EnemyEvent> heard;
  s.on_event([&](const EnemyEvent& e) { heard.push_back(e); });
  const EnemyId dummy = *s.find_enemy("dummy");
  run_until(s, 0.5);
  ASSERT_TRUE(s.push_enemy(dummy, physics::BodyPart::chest, {0, 0, -150}).ok());
  s.step();
  ASSERT_FALSE(s.events().empty()) << "the push is heard with the next step";
  EXPECT_EQ(s.events().front().kind, EventKind::shoved);
  run_until(s, 9.0);
  ASSERT_GE(heard.size(), 3u);
  EXPECT_EQ(heard[0].kind, EventKind::shoved);
  EXPECT_EQ(heard[0].part, physics::BodyPart::chest);
  EXPECT_NEAR(length(heard[0].impulse), 150.0f, 1e-3f);
  EXPECT_EQ(heard[0].enemy, dummy);
  EXPECT_EQ(heard[1].kind, EventKind::fell);
  EXPECT_EQ(heard[1].cause, physics::FallCause::pushed);
  EXPECT_GT(heard[1].time_s, heard[0].time_s);
  EXPECT_EQ(heard.back().kind, EventKind::got_up) << "stood again within 8.5 s of the push";
  const std::size_t before = heard.size();
  ASSERT_TRUE(s.kill_enemy(dummy).ok());
  s.step();
  ASSERT_EQ(heard.size(), before + 1);
  EXPECT_EQ(heard.back().kind, EventKind::died);
  run_until(s, 12.0);
  EXPECT_EQ(heard.size(), before + 1) << "a corpse tells nothing more";
}

TEST(GameApi, AnEnemyAddedAtRunTimePatrolsItsRouteInOrder) {
  sim::Simulation s(yard(/*max_enemies=*/2));
  run_until(s, 1.0);
  const Result<EnemyId> added = s.add_enemy(spawn("runner", {-4, 0, -2}, "loop"));
  ASSERT_TRUE(added.ok()) << added.error();
  EXPECT_EQ(static_cast<int>(added.value()), 1);
  run_until(s, 40.0);
  const sim::SimulationResult r = s.result();
  ASSERT_EQ(r.enemies.size(), 2u);
  const std::vector<std::size_t>& reached = r.enemies[1].route_points_reached;
  ASSERT_GE(reached.size(), 4u) << "a full loop and more";
  for (std::size_t i = 1; i < reached.size(); ++i)
    EXPECT_EQ(reached[i], (reached[i - 1] + 1) % 3) << "in order";
  EXPECT_EQ(r.enemies[1].falls, 0);
}

TEST(GameApi, ARemovedEnemyLeavesTheWorldAndTheOthersCarryOn) {
  sim::Simulation s(yard(/*max_enemies=*/2));
  ASSERT_TRUE(s.add_enemy(spawn("runner", {-4, 0, -2}, "loop")).ok());
  const std::size_t bodies = s.scene().world().body_count();
  const physics::BodyId guard_pelvis =
      s.scene().enemies()[0].ragdoll->body(physics::BodyPart::pelvis);
  run_until(s, 2.0);
  ASSERT_TRUE(s.remove_enemy(EnemyId{0}).ok());
  EXPECT_FALSE(s.has_enemy(EnemyId{0}));
  EXPECT_EQ(s.enemy_body(EnemyId{0}), nullptr);
  EXPECT_FALSE(s.scene().world().has_ragdoll(0));
  EXPECT_FALSE(s.scene().world().has_body(guard_pelvis));
  EXPECT_EQ(s.scene().world().body_count(), bodies) << "ids are never reused";
  EXPECT_FALSE(s.find_enemy("guard").has_value());
  run_until(s, 30.0);
  const sim::SimulationResult r = s.result();
  EXPECT_TRUE(r.finite);
  EXPECT_TRUE(r.enemies[0].removed);
  EXPECT_FALSE(r.enemies[1].removed);
  EXPECT_GE(r.enemies[1].route_points_reached.size(), 3u);
  // Its place can be taken by a new enemy with its name.
  const Result<EnemyId> again = s.add_enemy(spawn("guard", {2, 0, 2}, "post"));
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(static_cast<int>(again.value()), 2);
  run_until(s, 33.0);
  EXPECT_TRUE(physics::is_upright(s.enemy_body(again.value())->state())) << "walking to its post";
}

TEST(GameApi, ATeleportedEnemyStandsWhereAndHowItWasPut) {
  sim::Simulation s(sim::builtin_scene(1));
  const EnemyId dummy{0};
  run_until(s, 0.5);
  ASSERT_TRUE(s.push_enemy(dummy, physics::BodyPart::chest, {150, 0, 0}).ok());
  run_until(s, 1.2);  // mid-fall
  const Vec3 target{4, 0, -2};
  const float yaw = deg_to_rad(90.0f);
  ASSERT_TRUE(s.teleport_enemy(dummy, target, yaw).ok());
  run_until(s, 3.2);
  const physics::Ragdoll& body = *s.enemy_body(dummy);
  EXPECT_EQ(body.state(), physics::LocomotionState::standing);
  EXPECT_LT(length(horizontal(body.center_of_mass().position - target)), 0.1f);
  const Vec3 forward = body.body_state(physics::BodyPart::pelvis).rotation.rotate({0, 0, 1});
  EXPECT_NEAR(rad_to_deg(yaw_of(forward)), 90.0f, 5.0f);
  EXPECT_GT(body.pelvis_height(), 0.9f);
}

TEST(GameApi, TheAiRateIsSettableAndTheEnemiesStillPatrol) {
  sim::Simulation s(yard(2));
  EXPECT_FLOAT_EQ(s.ai_rate_hz(), 80.0f) << "every third 240 Hz step";
  const Result<float> set = s.set_ai_rate_hz(30.0f);
  ASSERT_TRUE(set.ok());
  EXPECT_FLOAT_EQ(set.value(), 30.0f);
  EXPECT_FLOAT_EQ(s.set_ai_rate_hz(45.0f).value(), 48.0f) << "a whole number of steps";
  EXPECT_FLOAT_EQ(s.set_ai_rate_hz(1000.0f).value(), 240.0f) << "at most every step";
  ASSERT_TRUE(s.set_ai_rate_hz(30.0f).ok());
  ASSERT_TRUE(s.add_enemy(spawn("runner", {-4, 0, -2}, "loop")).ok());
  run_until(s, 30.0);
  EXPECT_GE(s.result().enemies[1].route_points_reached.size(), 3u);
}

TEST(GameApi, BadCallsGiveClearErrors) {
  sim::Simulation s(yard(2));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto message = [](const auto& result) { return result.ok() ? "" : result.error(); };
  EXPECT_NE(message(s.remove_enemy(EnemyId{7})).find("no enemy has id 7"), std::string::npos);
  EXPECT_NE(message(s.teleport_enemy(EnemyId{0}, {nan, 0, 0}, 0)).find("finite"),
            std::string::npos);
  EXPECT_NE(message(s.teleport_enemy(EnemyId{0}, {0, 0, 0}, nan)).find("finite"),
            std::string::npos);
  EXPECT_NE(message(s.push_enemy(EnemyId{0}, physics::BodyPart::head, {0, nan, 0})).find("finite"),
            std::string::npos);
  EXPECT_NE(message(s.push_enemy(EnemyId{0}, static_cast<physics::BodyPart>(200), {1, 0, 0}))
                .find("body part"),
            std::string::npos);
  EXPECT_NE(message(s.add_enemy(spawn("guard", {1, 0, 1}))).find("already"), std::string::npos);
  EXPECT_NE(message(s.add_enemy(spawn("", {1, 0, 1}))).find("name"), std::string::npos);
  EXPECT_NE(message(s.add_enemy(spawn("x", {1, 0, nan}))).find("finite"), std::string::npos);
  EXPECT_NE(message(s.add_enemy(spawn("x", {1, 0, 1}, "nowhere"))).find("no route is named"),
            std::string::npos);
  levels::EnemySpawn giant = spawn("giant", {1, 0, 1});
  giant.height_m = 9.0f;
  EXPECT_NE(message(s.add_enemy(giant)).find("height_m"), std::string::npos);
  EXPECT_NE(message(s.set_ai_rate_hz(0.0f)).find("positive"), std::string::npos);
  EXPECT_NE(message(s.set_ai_rate_hz(nan)).find("positive"), std::string::npos);
  ASSERT_TRUE(s.add_enemy(spawn("second", {2, 0, 2})).ok());
  EXPECT_NE(message(s.add_enemy(spawn("third", {3, 0, 3}))).find("at most 2"), std::string::npos);
  ASSERT_TRUE(s.remove_enemy(EnemyId{1}).ok());
  EXPECT_NE(message(s.kill_enemy(EnemyId{1})).find("was removed"), std::string::npos);
  EXPECT_NE(message(s.remove_enemy(EnemyId{1})).find("was removed"), std::string::npos);
  EXPECT_TRUE(s.add_enemy(spawn("third", {3, 0, 3})).ok()) << "a removed enemy frees its place";
  for (int i = 0; i < 240; ++i) s.step();
  EXPECT_TRUE(s.result().finite);
}

// From 0.5 s the player stands 1.2 m in front of the yard's guard.
sim::InputScript player_before_the_guard() {
  sim::InputScript script;
  sim::PlayerEvent player;
  player.t = 0.5;
  player.position = {0, 0, 1.2f};
  script.players = {player};
  return script;
}

TEST(GameApi, APunchThrownAtThePlayerAndLandingIsHeard) {
  // The player stands 1.2 m in front of the guard: it sees, closes in and punches.
  sim::InputScript script = player_before_the_guard();
  sim::Simulation s(yard(), script);
  int thrown = 0, landed = 0;
  s.on_event([&](const EnemyEvent& e) {
    thrown += e.kind == EventKind::punch_thrown;
    if (e.kind == EventKind::punch_landed) {
      ++landed;
      EXPECT_GT(length(e.impulse), 0.0f);
    }
  });
  run_until(s, 12.0);
  const sim::SimulationResult result = s.result();
  const sim::EnemyStats& guard = result.enemies[0];
  EXPECT_GE(thrown, 3);
  EXPECT_EQ(thrown, guard.punches);
  EXPECT_GE(landed, 1);
  EXPECT_LE(landed, thrown) << "one landing per punch at most";
  std::printf("punches thrown %d, landed %d\n", thrown, landed);
  EXPECT_EQ(landed, guard.punches_landed);
}

TEST(GameApi, AHandHeldInFrontOfTheFaceBlocksPunches) {
  // The same guard and player; a scripted hand held still 35 cm in front of the player's face,
  // between it and the guard.
  sim::InputScript script = player_before_the_guard();
  sim::HandEvent guard_hand;
  guard_hand.hand = 1;
  guard_hand.t = 0.0;
  guard_hand.path = {{0.0, {0, 1.55f, 0.85f}}, {30.0, {0, 1.55f, 0.85f}}};
  script.hands = {guard_hand};
  sim::Simulation s(yard(), script);
  int blocked = 0, landed = 0;
  s.on_event([&](const EnemyEvent& e) {
    blocked += e.kind == EventKind::punch_blocked;
    landed += e.kind == EventKind::punch_landed;
  });
  run_until(s, 12.0);
  const sim::SimulationResult result = s.result();
  const sim::EnemyStats& guard = result.enemies[0];
  std::printf("punches thrown %d, blocked %d, landed %d\n", guard.punches, blocked, landed);
  EXPECT_GE(blocked, 1);
  EXPECT_EQ(blocked, guard.punches_blocked);
  EXPECT_LE(blocked + landed, guard.punches);
}

TEST(World, ARemovedRagdollLeavesNothingBehindAndTheRunStaysDeterministic) {
  const auto run = [] {
    physics::World world;
    world.add_static_box({{0, -0.5f, 0}, {20, 0.5f, 20}, {}, 0.9f});
    world.add_ragdoll({}, {0, 0.01f, 0}, 0);
    physics::Ragdoll& other = world.add_ragdoll({}, {1.5f, 0.01f, 0}, 0);
    for (int i = 0; i < 120; ++i) world.step();
    other.apply_impulse(physics::BodyPart::chest, {0, 0, 150});
    world.step();
    world.remove_ragdoll(1);  // mid-fall, with its shove under way
    for (int i = 0; i < 480; ++i) world.step();
    EXPECT_FALSE(world.has_ragdoll(1));
    EXPECT_TRUE(world.has_ragdoll(0));
    EXPECT_EQ(world.ragdoll(0).state(), physics::LocomotionState::standing);
    EXPECT_TRUE(world.all_finite());
    return world.state_hash();
  };
  EXPECT_EQ(run(), run());
}

TEST(PoseHistory, DrawsBodiesBetweenTheLastTwoSteps) {
  physics::World world;
  physics::BodySettings ball;
  ball.shape = physics::BodySettings::Shape::sphere;
  ball.position = {0, 5, 0};
  const physics::BodyId id = world.add_body(ball);
  physics::PoseHistory poses;
  poses.reset(world);
  EXPECT_EQ(poses.pose(id, 0.7f).position, Vec3(0, 5, 0));
  StepClock clock(world.dt());
  const int steps = clock.advance(2.5 * static_cast<double>(world.dt()));
  ASSERT_EQ(steps, 2);
  for (int i = 0; i < steps; ++i) {
    world.step();
    poses.capture(world);
  }
  EXPECT_NEAR(clock.alpha(), 0.5, 1e-6);
  const auto alpha = static_cast<float>(clock.alpha());
  const float older = poses.pose(id, 0).position.y;
  const float newer = poses.pose(id, 1).position.y;
  EXPECT_LT(newer, older) << "falling";
  EXPECT_FLOAT_EQ(newer, world.body_state(id).position.y);
  EXPECT_NEAR(poses.pose(id, alpha).position.y, 0.5f * (older + newer), 1e-5f);
  ball.position = {3, 5, 0};
  const physics::BodyId late = world.add_body(ball);
  world.step();
  poses.capture(world);
  EXPECT_EQ(poses.pose(late, 0).position, poses.pose(late, 1).position)
      << "a new body is drawn where it is";
}

}  // namespace
}  // namespace stagger
