// Enemies with minds in levels: patrol order and waits, the leash under shoves, seeing,
// chasing, attacking and searching, and a shove in the middle of a patrol.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "scenario.h"
#include "stagger/levels/load.h"
#include "stagger/sim/simulation.h"

namespace stagger {
namespace {

using test::level_scene;

ai::BrainState brain_state(const sim::Simulation& s, int enemy) {
  return s.squad()->brain(enemy).state();
}

// Two enemies sharing a route in a passage too narrow to pass in: one waits at the far point,
// the other walks up to it and is held off by the first one's agent. Counted as arrived there
// (the point is taken), the second waits its turn and leads the way back; counted only at the
// point itself, each would stand in the other's way until both skipped their points as stalled.
TEST(EnemyAi, TwoEnemiesSharingANarrowRouteTakeTurnsAtItsEnd) {
  const std::string level = R"({
    "format": "stagger-level", "version": 1, "name": "Dead end",
    "geometry": [
      { "type": "box", "name": "floor", "center": [0, -0.5, 0], "size": [1.6, 1, 16] },
      { "type": "box", "name": "left", "center": [1.05, 1.5, 0], "size": [0.5, 3, 16] },
      { "type": "box", "name": "right", "center": [-1.05, 1.5, 0], "size": [0.5, 3, 16] },
      { "type": "box", "name": "end", "center": [0, 1.5, 7.25], "size": [1.6, 3, 0.5] }
    ],
    "player": { "position": [0, 0, -7.5], "yaw_deg": 180 },
    "routes": [ { "name": "hall", "mode": "ping-pong",
                  "points": [ { "position": [0, 0, -6], "wait_s": 1.0 },
                              { "position": [0, 0, 6], "wait_s": 2.0 } ] } ],
    "enemies": [ { "name": "first", "position": [0, 0, 5.8], "yaw_deg": 0, "route": "hall" },
                 { "name": "second", "position": [0, 0, 3.0], "yaw_deg": 0, "route": "hall" } ],
    "navigation": { "agent_radius": 0.3, "agent_height": 1.8, "max_climb": 0.2,
                    "max_slope_deg": 45, "cell_size": 0.1, "cell_height": 0.1 }
  })";
  const levels::LoadResult loaded = levels::parse_level(level, "dead_end.json", ".");
  ASSERT_TRUE(loaded.ok());
  sim::Simulation s(sim::scene_from_level(loaded.level, loaded.mesh_triangles), {});
  while (s.scene().world().time() < 90.0) s.step();
  const sim::SimulationResult r = s.result();
  for (const std::string& w : r.warnings) ADD_FAILURE() << w;
  for (int enemy = 0; enemy < 2; ++enemy) {
    const auto& reached = s.squad()->brain(enemy).patrol().reached();
    EXPECT_GE(reached.size(), 4u) << "enemy " << enemy;
    for (std::size_t k = 1; k < reached.size(); ++k)
      EXPECT_NE(reached[k], reached[k - 1]) << "enemy " << enemy << " arrival " << k;
  }
}

TEST(EnemyAi, CorridorSentryPingPongsInOrderAndHoldsItsWaits) {
  sim::Simulation s(level_scene("corridor.json"), {});
  // Waits are measured on the body: from the moment it stands still at the point (slower than
  // 0.15 m/s after arriving) to the moment it moves on: turns by 15° or walks 15 cm.
  const std::vector<float> wait_of = {2.0f, 0.0f, 1.0f};
  std::size_t seen = 0;
  bool arrived = false;
  double stood_at = -1;
  Vec3 stood;
  float stood_yaw = 0;
  std::vector<std::pair<std::size_t, double>> waits;
  const physics::Ragdoll& body = *s.scene().enemies()[0].ragdoll;
  const auto heading = [&body] {
    return yaw_of(body.body_state(physics::BodyPart::chest).rotation.rotate({0, 0, 1}));
  };
  while (s.scene().world().time() < 120.0) {
    s.step();
    const auto& reached = s.squad()->brain(0).patrol().reached();
    const double now = s.scene().world().time();
    const float speed = length(horizontal(body.balance().com_velocity));
    if (reached.size() > seen) {
      seen = reached.size();
      arrived = wait_of[reached.back()] > 0;
      stood_at = -1;
    }
    if (arrived && stood_at < 0 && speed < 0.15f) {
      stood_at = now;
      stood = body.balance().com;
      stood_yaw = heading();
    }
    const bool turned =
        std::fabs(std::remainder(heading() - stood_yaw, 2.0f * kPi)) > deg_to_rad(15.0f);
    if (arrived && stood_at >= 0 &&
        (turned || length(horizontal(body.balance().com - stood)) > 0.15f)) {
      waits.emplace_back(reached.back(), now - stood_at);
      arrived = false;
    }
  }
  const sim::SimulationResult r = s.result();
  const auto& reached = r.enemies[0].route_points_reached;
  ASSERT_GE(reached.size(), 8u);
  const std::vector<std::size_t> order = {0, 1, 2, 1};  // then 0 again
  const std::size_t phase =
      static_cast<std::size_t>(std::find(order.begin(), order.end(), reached[0]) - order.begin());
  for (std::size_t i = 0; i < reached.size(); ++i) {
    EXPECT_EQ(reached[i], order[(phase + i) % order.size()]) << "arrival " << i;
  }
  ASSERT_GE(waits.size(), 4u);
  for (const auto& [point, seconds] : waits)
    EXPECT_NEAR(seconds, wait_of[point], 0.2) << "at point " << point;
  EXPECT_EQ(r.enemies[0].falls, 0);
}

// Shoves every 5 s, in seeded random directions, to every enemy of a level.
sim::InputScript shoves(const sim::SceneDescription& scene, double seconds, unsigned seed) {
  std::mt19937 random(seed);
  const auto uniform = [&random] { return static_cast<float>(random()) / 4294967296.0f; };
  sim::InputScript script;
  for (double t = 5.0; t < seconds; t += 5.0) {
    for (const levels::EnemySpawn& e : scene.enemies) {
      const float angle = uniform() * 2.0f * kPi;
      const float impulse = 20.0f + 30.0f * uniform();  // [N·s]: some stumble, some fall
      script.pushes.push_back({t, e.name, physics::BodyPart::chest,
                               Vec3{std::sin(angle), 0, std::cos(angle)} * impulse, 0});
    }
  }
  return script;
}

class Leash : public testing::TestWithParam<const char*> {};

TEST_P(Leash, HoldsUnderShovesAndRarelyReseatsWithout) {
  constexpr double kSeconds = 60.0;
  const sim::SceneDescription scene = level_scene(GetParam());
  const float hard = ai::LeashSettings{}.hard_m;
  sim::Simulation shoved(scene, shoves(scene, kSeconds, 1234));
  shoved.run(kSeconds, 90.0);
  for (const sim::EnemyStats& e : shoved.result().enemies) {
    EXPECT_LE(e.max_leash_lead_m, hard + 0.1f) << e.name;
    EXPECT_EQ(e.invalid_agent_ticks, 0) << e.name;
    EXPECT_EQ(e.pushes, 11) << e.name;
  }
  sim::Simulation calm(scene, {});
  calm.run(kSeconds, 90.0);
  for (const sim::EnemyStats& e : calm.result().enemies) {
    EXPECT_LE(e.leash_reseats, 1) << e.name << ": at most one re-seat a minute";
    EXPECT_EQ(e.invalid_agent_ticks, 0) << e.name;
  }
}

INSTANTIATE_TEST_SUITE_P(SampleLevels, Leash,
                         testing::Values("courtyard.json", "corridor.json", "arena.json",
                                         "gltf_yard.gltf"));

// A guard on an open floor, a wall to the east, and the player appearing 8 m in front of it.
constexpr const char* kYard = R"({
  "format": "stagger-level", "version": 1, "name": "yard",
  "geometry": [
    { "type": "box", "name": "floor", "center": [0, -0.5, 0], "size": [30, 1, 30] },
    { "type": "box", "name": "wall", "center": [6, 1.5, 6], "size": [0.4, 3, 8] }
  ],
  "player": { "position": [0, 0, 12] },
  "routes": [ { "name": "post", "points": [ { "position": [0, 0, 0] } ] },
              { "name": "post-2", "points": [ { "position": [3, 0, 6] } ] } ],
  "enemies": [ { "name": "guard", "position": [0, 0, 0], "yaw_deg": 0, "route": "post" },
               { "name": "blind", "position": [3, 0, 6], "yaw_deg": 90, "route": "post-2" } ],
  "navigation": {}
})";

sim::SceneDescription yard() {
  const levels::LoadResult level = levels::parse_level(kYard, "yard.json", ".");
  EXPECT_TRUE(level.ok());
  for (const auto& d : level.diagnostics) ADD_FAILURE() << levels::format(d);
  return sim::scene_from_level(level.level, level.mesh_triangles);
}

sim::PlayerEvent player_event(double t, Vec3 feet, bool present = true) {
  sim::PlayerEvent e;
  e.t = t;
  e.position = feet;
  e.present = present;
  return e;
}

TEST(EnemyAi, SeesChasesAndReachesAPlayerThenSearchesAndGoesBack) {
  // The player stands 8 m in front of `guard` at 1 s; `blind` faces the wall with the player
  // behind it. At 15 s the player steps behind the wall (out of everyone's sight).
  sim::InputScript script;
  script.players = {player_event(1.0, {0, 0, 8}), player_event(15.0, {9, 0, 6})};
  sim::Simulation s(yard(), script);
  double seen_at = -1, reached_at = -1, search_at = -1, back_at = -1;
  while (s.scene().world().time() < 45.0) {
    s.step();
    const double now = s.scene().world().time();
    if (seen_at < 0 && s.squad()->perception(0).sees()) seen_at = now;
    if (reached_at < 0 && brain_state(s, 0) == ai::BrainState::attack) reached_at = now;
    if (search_at < 0 && now > 15.0 && brain_state(s, 0) == ai::BrainState::search) search_at = now;
    if (search_at > 0 && back_at < 0 && brain_state(s, 0) == ai::BrainState::guard) back_at = now;
  }
  EXPECT_GT(seen_at, 1.0);
  EXPECT_LE(seen_at, 1.5) << "seen within 0.5 s";
  EXPECT_GT(reached_at, 0.0);
  EXPECT_LE(reached_at, 11.0) << "reached within 10 s";
  EXPECT_GT(search_at, 15.0) << "searched after the player left";
  EXPECT_GT(back_at, search_at) << "went back to its post";
  const sim::SimulationResult r = s.result();
  EXPECT_GE(r.enemies[0].punches, 2);
  EXPECT_TRUE(r.enemies[0].saw_player);
  EXPECT_FALSE(r.enemies[1].saw_player) << "the player was behind the wall";
  EXPECT_EQ(r.enemies[0].falls, 0);
  const Vec3 com = s.scene().enemies()[0].ragdoll->balance().com;
  EXPECT_LT(length(horizontal(com)), 1.0f) << "back at its post";
}

TEST(EnemyAi, AShovenGuardStumblesOrFallsGetsUpAndResumesItsRoute) {
  const sim::SceneDescription scene = level_scene("courtyard.json");
  sim::InputScript script;
  // guard-1 walks from point 0 (-8, -8) to point 1 (8, -8) around t = 5..19 s: shove it toward
  // the yard's middle at 10 s.
  script.pushes.push_back({10.0, "guard-1", physics::BodyPart::chest, {0, 0, 60}, 0});
  sim::Simulation s(scene, script);
  bool interrupted = false;
  std::size_t target_before = 99;
  while (s.scene().world().time() < 60.0) {
    if (s.scene().world().time() < 10.0)
      target_before = s.squad()->brain(0).patrol().target_index();
    s.step();
    const ai::BrainState b = brain_state(s, 0);
    interrupted = interrupted || b == ai::BrainState::stunned || b == ai::BrainState::down;
  }
  EXPECT_TRUE(interrupted);
  const sim::EnemyStats e = s.result().enemies[0];
  EXPECT_FALSE(e.stays_down);
  EXPECT_EQ(e.get_ups, e.falls);
  // The arrivals go on in loop order through the shove, starting with the point it was walking to.
  const auto& reached = e.route_points_reached;
  ASSERT_GE(reached.size(), 4u);
  const auto next = std::find(reached.begin(), reached.end(), target_before);
  ASSERT_NE(next, reached.end());
  for (std::size_t i = 1; i < reached.size(); ++i)
    EXPECT_EQ(reached[i], (reached[i - 1] + 1) % 4) << "arrival " << i;
}

}  // namespace
}  // namespace stagger
