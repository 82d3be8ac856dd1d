// Level profiles make enemies measurably different: levels/data/profiles.json's strong, slow
// `brute` takes a harder shove to fell and walks its route slower than the weak, quick `runner`.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "scenario.h"
#include "stagger/sim/settings.h"

namespace stagger {
namespace {

constexpr double kPushAtS = 1.0;      // [s] the enemy has stood still for a second
constexpr double kWatchS = 4.0;       // [s] a shove that fells does so within 3 s of the blow
constexpr float kLowestNs = 10.0f;    // [N·s] every profile stands this
constexpr float kHighestNs = 400.0f;  // [N·s] every profile falls to this
constexpr int kHalvings = 7;          // the threshold to within (400 - 10) / 2^7 = 3 N·s

// One enemy standing on flat ground, tuned by `profile` of the sample level (none: defaults).
sim::SceneDescription standing_enemy(const std::string& profile) {
  sim::SceneDescription scene = sim::builtin_scene(1);
  scene.profiles = test::level_scene("profiles.json").profiles;
  scene.enemies[0].profile = profile;
  return scene;
}

bool falls(const sim::SceneDescription& scene, Vec3 blow) {
  sim::Simulation s(scene, test::push_script("dummy", physics::BodyPart::chest, blow, kPushAtS));
  s.run(kWatchS, 90.0);
  return s.result().enemies[0].falls > 0;
}

// The smallest chest blow along `direction` that fells the enemy [N·s], by bisection.
float felling_impulse(const sim::SceneDescription& scene, Vec3 direction) {
  float stands = kLowestNs;
  float fells = kHighestNs;
  EXPECT_FALSE(falls(scene, direction * stands));
  EXPECT_TRUE(falls(scene, direction * fells));
  for (int i = 0; i < kHalvings; ++i) {
    const float middle = 0.5f * (stands + fells);
    (falls(scene, direction * middle) ? fells : stands) = middle;
  }
  return fells;
}

// Front, right side, back and left side of an enemy facing +Z.
std::vector<float> felling_impulses(const std::string& profile) {
  const sim::SceneDescription scene = standing_enemy(profile);
  std::vector<float> impulses;
  for (int direction : {0, 2, 4, 6})
    impulses.push_back(felling_impulse(scene, test::horizontal_direction(direction)));
  std::printf("%-8s felled by [N*s]: %.0f %.0f %.0f %.0f\n",
              profile.empty() ? "defaults" : profile.c_str(), static_cast<double>(impulses[0]),
              static_cast<double>(impulses[1]), static_cast<double>(impulses[2]),
              static_cast<double>(impulses[3]));
  return impulses;
}

TEST(Profiles, TheBruteTakesAHarderShoveToFellThanTheRunner) {
  const std::vector<float> brute = felling_impulses("brute");
  const std::vector<float> runner = felling_impulses("runner");
  const std::vector<float> defaults = felling_impulses("");
  for (std::size_t i = 0; i < brute.size(); ++i) {
    EXPECT_GT(brute[i], 1.8f * runner[i]) << "direction " << i;
    EXPECT_GT(brute[i], defaults[i]) << "direction " << i;
    EXPECT_LT(runner[i], defaults[i]) << "direction " << i;
  }
}

TEST(Profiles, TheRunnerPatrolsFasterThanTheBrute) {
  sim::Simulation s(test::level_scene("profiles.json"), {});
  constexpr double kSeconds = 30.0;
  s.run(kSeconds, 90.0);
  const sim::SimulationResult r = s.result();
  ASSERT_EQ(r.enemies.size(), 2u);
  EXPECT_EQ(r.enemies[0].profile, "brute");
  EXPECT_EQ(r.enemies[1].profile, "runner");
  const double brute = r.enemies[0].distance_walked_m / kSeconds;
  const double runner = r.enemies[1].distance_walked_m / kSeconds;
  std::printf("mean speed over %.0f s [m/s]: brute %.2f, runner %.2f\n", kSeconds, brute, runner);
  EXPECT_GT(runner, 1.6 * brute);
  EXPECT_GT(runner, 0.9);
  EXPECT_LT(brute, 0.65);
  EXPECT_EQ(r.enemies[0].falls + r.enemies[1].falls, 0);
}

}  // namespace
}  // namespace stagger
