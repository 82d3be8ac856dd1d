// Activity levels in a running scene: the cap on full ragdolls, switches without pops, routes
// kept through switches, blasts throwing light enemies as fake ragdolls, and death clips played on
// far enemies.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "scenario.h"
#include "stagger/sim/death_clips.h"
#include "stagger/sim/simulation.h"

namespace stagger {
namespace {

constexpr int kMaxActive = 3;

sim::SceneDescription arena_with_levels(int max_active) {
  sim::SceneDescription scene = test::level_scene("arena.json");
  scene.activity.max_active = max_active;
  return scene;
}

sim::PlayerEvent player_at(double t, Vec3 feet) {
  sim::PlayerEvent e;
  e.t = t;
  e.present = true;
  e.position = feet;
  return e;
}

// The player walks across the arena and back in jumps: enemies come near and go far.
sim::InputScript wandering_player() {
  sim::InputScript script;
  const Vec3 spots[] = {{0, 0, 16}, {-12, 0, 6}, {12, 0, -6}, {-8, 0, -14}, {0, 0, 16}};
  for (int i = 0; i < 5; ++i) script.players.push_back(player_at(8.0 * i, spots[i]));
  return script;
}

// Whether `reached` visits the points of a loop of `n` points in order, wherever it starts.
// The full ragdolls on their feet: those that may go light. (One that has fallen stays a full
// ragdoll until it stands, over the cap if need be.)
int upright_active(const sim::Simulation& s) {
  int count = 0;
  const auto& enemies = s.scene().enemies();
  for (std::size_t i = 0; i < enemies.size(); ++i) {
    const physics::LocomotionState state = enemies[i].ragdoll->state();
    count +=
        s.activity().activity(i) == sim::Activity::active &&
        (state == physics::LocomotionState::standing || state == physics::LocomotionState::walking);
  }
  return count;
}

// Samples of a 40 s run, every 0.1 s: how many, and how many with more than kMaxActive
// upright full ragdolls.
struct CapSamples {
  int samples = 0;
  int over_cap = 0;
};

CapSamples run_wander(sim::Simulation& s) {
  CapSamples c;
  while (s.scene().world().time() < 40.0) {
    s.step();
    if (s.scene().world().step_count() % 24 != 0) continue;
    ++c.samples;
    if (upright_active(s) > kMaxActive) ++c.over_cap;
  }
  return c;
}

TEST(Activity, TheNearestUpToTheCapAreFullRagdollsAndSwitchesDoNotPop) {
  sim::Simulation s(arena_with_levels(kMaxActive), wandering_player());
  const auto [samples, over_cap] = run_wander(s);
  const sim::SimulationResult r = s.result();
  int promotions = 0, demotions = 0;
  float worst = 0;
  for (const sim::EnemyStats& e : r.enemies) {
    promotions += e.activity.promotions;
    demotions += e.activity.demotions;
    worst = std::max(worst, e.activity.max_switch_jump_mps);
    std::printf("%-10s active %5.1f s light %5.1f s  promotions %d demotions %d  jump %.3f m/s\n",
                e.name.c_str(), e.activity.seconds[0], e.activity.seconds[1], e.activity.promotions,
                e.activity.demotions, static_cast<double>(e.activity.max_switch_jump_mps));
  }
  EXPECT_GE(promotions, 4);
  EXPECT_GE(demotions, 4);
  EXPECT_LT(worst, 0.5f);
  // Over the cap only while a calm body waits for the moment in its stride to go light.
  EXPECT_LE(over_cap * 10, samples) << over_cap << " of " << samples << " samples over the cap";
  EXPECT_TRUE(r.finite);
}

// The same wander with the spawns nudged: walkers on the stairs and the ramps, whose motion is
// never quite the flat cycle's, go light when far too (the velocity they have beyond the
// cycle's is carried and dies away), so the cap holds whatever the spawns.
TEST(Activity, FarWalkersOnStairsAndRampsGoLightWhateverTheSpawns) {
  int samples = 0, over_cap = 0;
  float worst = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    sim::Simulation s(sim::vary_spawns(arena_with_levels(kMaxActive), seed), wandering_player());
    const CapSamples c = run_wander(s);
    samples += c.samples;
    over_cap += c.over_cap;
    for (const sim::EnemyStats& e : s.result().enemies)
      worst = std::max(worst, e.activity.max_switch_jump_mps);
  }
  std::printf("%d of %d samples over the cap, largest switch jump %.3f m/s\n", over_cap, samples,
              static_cast<double>(worst));
  EXPECT_LE(over_cap * 50, samples);  // 2 %
  EXPECT_LT(worst, 0.5f);
}

// No player: every enemy walks its route light; shoves make some full ragdolls mid-walk, and
// they go light again once calm, still walking their routes in order.
TEST(Activity, EnemiesPromotedMidWalkKeepTheirRouteOrder) {
  sim::InputScript script;
  for (const char* ring : {"ring-1", "ring-2", "ring-3"}) {
    for (double t : {10.0, 30.0}) {
      sim::InputScript one = test::push_script(ring, physics::BodyPart::chest, {0, 0, 25}, t);
      script.pushes.insert(script.pushes.end(), one.pushes.begin(), one.pushes.end());
    }
  }
  std::stable_sort(script.pushes.begin(), script.pushes.end(),
                   [](const auto& a, const auto& b) { return a.t < b.t; });
  sim::Simulation s(arena_with_levels(kMaxActive), script);
  s.run(60.0, 90.0);
  const sim::SimulationResult r = s.result();
  for (const sim::EnemyStats& e : r.enemies) {
    if (e.name.rfind("ring", 0) != 0) continue;  // the loop of four
    std::printf("%s: promotions %d demotions %d, reached", e.name.c_str(), e.activity.promotions,
                e.activity.demotions);
    for (std::size_t p : e.route_points_reached) std::printf(" %zu", p);
    std::printf("\n");
    EXPECT_GE(e.activity.promotions, 2) << e.name;
    EXPECT_GE(e.activity.demotions, 2) << e.name;
    EXPECT_TRUE(test::in_loop_order(e.route_points_reached, 4)) << e.name;
    // The ring's points are 24 m apart: two or three in a minute, as without activity levels.
    EXPECT_GE(e.route_points_reached.size(), 2u) << e.name;
    EXPECT_GT(e.distance_walked_m, 30.0) << e.name;             // 56 m unshoved, without levels
    EXPECT_LT(e.activity.max_switch_jump_mps, 0.5f) << e.name;  // the demotions (a shove's
                                                                // promotion is the shove's)
  }
  for (const std::string& w : r.warnings) EXPECT_EQ(w.find("skipped"), std::string::npos) << w;
}

// A spectator (a camera, a bench) picks the active enemies as a player would, unseen: nobody
// notices them, and the nearest to them are the full ragdolls.
TEST(Activity, ASpectatorPicksTheActiveEnemiesWithoutBeingSeen) {
  sim::Simulation s(arena_with_levels(kMaxActive), {});
  const Vec3 spectator{10, 0, -6};  // by the stairs walkers
  s.set_spectator(spectator, spectator + Vec3{0, 1.7f, 0});
  s.run(6.0, 90.0);
  const auto& enemies = s.scene().enemies();
  std::vector<std::pair<float, std::size_t>> by_distance;
  for (std::size_t i = 0; i < enemies.size(); ++i) {
    const Vec3 com = enemies[i].ragdoll->balance().com;
    by_distance.emplace_back(length(horizontal(com - spectator)), i);
  }
  std::sort(by_distance.begin(), by_distance.end());
  EXPECT_EQ(s.activity().active_count(), kMaxActive);
  // The nearest two are active (the third may be between two who walk at the same distance).
  for (std::size_t k = 0; k < 2; ++k)
    EXPECT_EQ(s.activity().activity(by_distance[k].second), sim::Activity::active)
        << enemies[by_distance[k].second].name;
  for (const sim::EnemyStats& e : s.result().enemies) EXPECT_FALSE(e.saw_player) << e.name;
}

TEST(Activity, OffUnlessCappedEveryEnemyIsAFullRagdoll) {
  sim::Simulation s(arena_with_levels(0), wandering_player());
  s.run(2.0, 90.0);
  EXPECT_FALSE(s.activity().enabled());
  EXPECT_EQ(s.activity().active_count(), 9);
  for (const sim::EnemyStats& e : s.result().enemies) EXPECT_TRUE(e.final_activity.empty());
}

// A blast among light enemies throws them as fake ragdolls; they land, lie, get up.
TEST(Activity, ABlastThrowsLightEnemiesThatLandAndGetUpTheSameEveryRun) {
  const auto run = [] {
    sim::InputScript script;
    script.players.push_back(player_at(0, {-18, 0, 18}));
    sim::BlastEvent b;
    b.t = 2.0;
    b.position = {0, 0, 0};
    b.radius_m = 15.0f;
    b.impulse_ns = 300.0f;
    script.blasts.push_back(b);
    sim::Simulation s(arena_with_levels(1), script);
    int most_flying = 0;
    while (s.scene().world().time() < 16.0) {
      s.step();
      if (const auto* fakes = s.activity().fake_ragdolls())
        most_flying = std::max(most_flying, static_cast<int>(fakes->flying()));
    }
    return std::pair{s.result(), most_flying};
  };
  const auto [first, flying] = run();
  const auto [second, again] = run();
  EXPECT_GE(flying, 4);
  EXPECT_EQ(flying, again);
  EXPECT_EQ(first.state_hash, second.state_hash);
  int thrown = 0;
  for (const sim::EnemyStats& e : first.enemies) {
    if (e.activity.seconds[static_cast<std::size_t>(sim::Activity::fake)] <= 0) continue;
    ++thrown;
    EXPECT_EQ(e.self_falls, 0) << e.name;  // a throw is no fault of its legs
    EXPECT_TRUE(e.final_state == "standing" || e.final_state == "walking")
        << e.name << " ends " << e.final_state;
    EXPECT_LT(e.max_joint_separation_m, 0.02f) << e.name;
  }
  EXPECT_EQ(thrown, flying);
}

const sim::DeathClipLibrary& small_library() {
  static const sim::DeathClipLibrary library = [] {
    sim::DeathClipBuildSettings settings;
    settings.deaths = 8;
    settings.max_duration_s = 2.0;
    return sim::build_death_clips(test::level_scene("arena.json"), settings);
  }();
  return library;
}

TEST(Activity, AKillFromEachSideOnAFarEnemyPlaysTheNearestClipTurnedToTheBlow) {
  auto clips = std::make_shared<const sim::DeathClipLibrary>(small_library());
  const Vec3 blows[] = {{-120, 0, 0}, {120, 0, 0}, {0, 0, 120}, {0, 0, -120}};
  for (const Vec3 hit : blows) {
    sim::InputScript script;
    script.players.push_back(player_at(0, {18, 0, 18}));  // far from `idle` at (-15, 0, 15)
    sim::Simulation s(arena_with_levels(1), script);
    s.set_death_clips(clips);
    s.run(1.0, 90.0);
    const sim::EnemyId idle = *s.find_enemy("idle");
    const auto i = static_cast<std::size_t>(idle);
    ASSERT_EQ(s.activity().activity(i), sim::Activity::light);
    const float yaw = yaw_of(s.enemy_body(idle)->balance().forward);
    ASSERT_TRUE(s.kill_enemy(idle, hit).ok());
    EXPECT_EQ(s.activity().activity(i), sim::Activity::clip);
    const auto choice = s.activity().death_clip(i);
    ASSERT_TRUE(choice.has_value());
    const sim::DeathClipLibrary::Choice expected = clips->nearest(sim::to_enemy_frame(hit, yaw));
    EXPECT_EQ(choice->clip, expected.clip);
    // The clip's blow turned by the extra yaw points the way of the kill's, in the enemy's frame.
    const Vec3 played = Quat::from_yaw(choice->extra_yaw_rad)
                            .rotate(horizontal(clips->clips()[choice->clip].hit_direction));
    const Vec3 wanted = horizontal(sim::to_enemy_frame(hit, yaw));
    EXPECT_NEAR(dot(normalized(played), normalized(wanted)), 1.0f, 1e-4f);
    EXPECT_LE(std::fabs(choice->extra_yaw_rad), kPi / 8.0f + 1e-4f);  // 8 clips: 45° apart
    // It falls the way it was hit: the chest moves along the blow in the first half second.
    const Vec3 chest_before = s.enemy_body(idle)->body_state(physics::BodyPart::chest).position;
    s.run(1.5, 90.0);
    const Vec3 moved = horizontal(
        s.enemy_body(idle)->body_state(physics::BodyPart::chest).position - chest_before);
    EXPECT_GT(dot(moved, normalized(horizontal(hit))), 0.2f);
    EXPECT_EQ(s.enemy_body(idle)->state(), physics::LocomotionState::dead);
  }
}

}  // namespace
}  // namespace stagger
