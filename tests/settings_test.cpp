// Enemy settings as data (stagger/sim/settings.h): the table, reading settings files and level
// profiles with every problem at its place, the order defaults -> profile -> spawn, the hash and
// the listing, and every setting at either end of its range simulating without a blow-up.

#include "stagger/sim/settings.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "process.h"
#include "scenario.h"
#include "stagger/levels/load.h"

namespace stagger {
namespace {

using sim::EnemySettings;
using sim::SettingRow;

std::vector<std::string> formatted(const std::vector<levels::Diagnostic>& diagnostics) {
  std::vector<std::string> out;
  for (const auto& d : diagnostics) out.push_back(levels::format(d));
  return out;
}

// Reads settings text as a `--settings` file named `f.json` holds it.
std::vector<std::string> problems_of(const std::string& text, EnemySettings* settings = nullptr) {
  const auto parsed = levels::parse_json_with_positions(text);
  EXPECT_TRUE(std::holds_alternative<levels::JsonValue>(parsed)) << text;
  std::vector<levels::Diagnostic> diagnostics;
  const auto values = sim::read_settings(std::get<levels::JsonValue>(parsed), "f.json",
                                         "the settings", diagnostics);
  if (settings) sim::apply_settings(values, *settings);
  return formatted(diagnostics);
}

const SettingRow& row(std::string_view key) {
  for (const SettingRow& r : sim::setting_rows()) {
    if (r.key == key) return r;
  }
  throw std::runtime_error("no setting " + std::string(key));
}

TEST(Settings, EveryRowIsNamedRangedAndHoldsItsDefault) {
  const EnemySettings defaults;
  std::set<std::string_view> keys;
  for (const SettingRow& r : sim::setting_rows()) {
    EXPECT_TRUE(keys.insert(r.key).second) << r.key << " twice";
    EXPECT_FALSE(r.unit.empty()) << r.key;
    EXPECT_FALSE(r.description.empty()) << r.key;
    EXPECT_LT(r.min, r.max) << r.key;
    // As the fields hold them: a float default of 1.6 is 1.6000000238 as a double.
    EXPECT_GE(static_cast<float>(r.get(defaults)), static_cast<float>(r.min)) << r.key;
    EXPECT_LE(static_cast<float>(r.get(defaults)), static_cast<float>(r.max)) << r.key;
  }
  EXPECT_EQ(keys.size(), 225u);
  // What a designer tunes: size and mass, drives per joint group, balance and stepping
  // thresholds, gait speeds, get-up, hit reaction, the brain's speeds and punch, the eyes.
  for (const char* key :
       {"ragdoll.height_m", "ragdoll.mass_kg", "ragdoll.hip_drive.max_torque_nm",
        "ragdoll.knee_drive.frequency_hz", "ragdoll.neck_drive.damping_ratio",
        "ragdoll.balance.fall_error_m", "ragdoll.step.step_error_m", "ragdoll.step.max_walk_speed",
        "ragdoll.get_up.rise_s", "ragdoll.hit.strength_floor", "brain.patrol_speed",
        "brain.chase_speed", "brain.attack_reach_m", "brain.recover_s", "perception.view_angle_deg",
        "perception.range_m", "patrol.arrival_radius_m"}) {
    EXPECT_EQ(keys.count(key), 1u) << key;
  }
}

TEST(Settings, SetAndGetReachTheField) {
  EnemySettings s;
  row("ragdoll.balance.fall_error_m").set(s, 0.4);
  row("ragdoll.get_up.max_attempts").set(s, 5);
  row("perception.range_m").set(s, 12);
  EXPECT_EQ(s.ragdoll.balance.fall_error_m, 0.4f);
  EXPECT_EQ(s.ragdoll.get_up.max_attempts, 5);
  EXPECT_EQ(s.perception.range_m, 12.0f);
  EXPECT_TRUE(row("ragdoll.get_up.max_attempts").whole);
  EXPECT_FALSE(row("ragdoll.balance.fall_error_m").whole);
}

TEST(Settings, AFileSetsNestedGroups) {
  EnemySettings s;
  EXPECT_TRUE(problems_of(R"({ "ragdoll": { "mass_kg": 90, "hip_drive": { "max_torque_nm": 350 },
      "step": { "step_error_m": 0.07 } }, "brain": { "patrol_speed": 0.8 } })",
                          &s)
                  .empty());
  EXPECT_EQ(s.ragdoll.mass_kg, 90.0f);
  EXPECT_EQ(s.ragdoll.hip_drive.max_torque_nm, 350.0f);
  EXPECT_EQ(s.ragdoll.knee_drive.max_torque_nm, 300.0f);  // untouched
  EXPECT_EQ(s.ragdoll.step.step_error_m, 0.07f);
  EXPECT_EQ(s.brain.patrol_speed, 0.8f);
}

TEST(Settings, EveryProblemIsReportedAtItsPlace) {
  EXPECT_EQ(problems_of("{ \"ragdoll\": {\n  \"step\": { \"stepp_error_m\": 0.07 } } }"),
            std::vector<std::string>{"f.json:2:13: error: unknown key `stepp_error_m` in "
                                     "`ragdoll.step` (did you mean `step_error_m`?)"});
  EXPECT_EQ(
      problems_of(R"({ "ragdol": {} })"),
      std::vector<std::string>{
          "f.json:1:3: error: unknown key `ragdol` in the settings (did you mean `ragdoll`?)"});
  EXPECT_EQ(problems_of(R"({ "ragdoll": { "balance": { "fall_error_m": 3 } } })"),
            std::vector<std::string>{"f.json:1:45: error: `ragdoll.balance.fall_error_m` must be a "
                                     "number between 0.05 and 1 m, got 3"});
  EXPECT_EQ(problems_of(R"({ "ragdoll": { "get_up": { "max_attempts": 2.5 } } })"),
            std::vector<std::string>{"f.json:1:44: error: `ragdoll.get_up.max_attempts` must be a "
                                     "whole number between 1 and 100, got 2.5"});
  EXPECT_EQ(problems_of(R"({ "brain": { "patrol_speed": "fast" } })"),
            std::vector<std::string>{"f.json:1:30: error: `brain.patrol_speed` must be a number "
                                     "between 0.1 and 1.6 m/s, got \"fast\""});
  EXPECT_EQ(
      problems_of(R"({ "brain": 1 })"),
      std::vector<std::string>{"f.json:1:12: error: `brain` must be a JSON object of settings"});
  EXPECT_EQ(problems_of(R"({ "brain": { "calm_s": 1, "calm_s": 2 } })"),
            std::vector<std::string>{"f.json:1:27: error: duplicate key `calm_s` in `brain`"});
  EXPECT_EQ(problems_of("[1]"), std::vector<std::string>{"f.json:1:1: error: the settings must be "
                                                         "a JSON object of settings groups"});
}

TEST(Settings, AFileOnDiskGivesItsSettingsOrEveryProblem) {
  const auto good = test::temp_path("good_settings.json");
  std::ofstream(good) << R"({ "perception": { "range_m": 9 } })";
  const auto loaded = sim::load_settings_file(good.string());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded.value().settings.perception.range_m, 9.0f);
  EXPECT_EQ(loaded.value().path, good.string());

  const auto bad = test::temp_path("bad_settings.json");
  std::ofstream(bad) << "{ \"perception\": { \"range\": 9,\n  \"notice_s\": -1 } }";
  const auto broken = sim::load_settings_file(bad.string());
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error(),
            bad.string() +
                ":1:19: error: unknown key `range` in `perception` (did you mean `range_m`?)\n" +
                bad.string() +
                ":2:15: error: `perception.notice_s` must be a number between 0 and 5 s, got -1");
  const auto missing = sim::load_settings_file("/nonexistent/settings.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(),
            "/nonexistent/settings.json:1:1: error: cannot open the settings file");
  std::filesystem::remove(good);
  std::filesystem::remove(bad);
}

TEST(Settings, TheHashFollowsEverySetting) {
  const EnemySettings defaults;
  EXPECT_EQ(sim::settings_hash(defaults), sim::settings_hash(EnemySettings{}));
  for (const SettingRow& r : sim::setting_rows()) {
    EnemySettings changed;
    const bool at_max = static_cast<float>(r.get(changed)) == static_cast<float>(r.max);
    r.set(changed, at_max ? r.min : r.max);
    EXPECT_NE(sim::settings_hash(changed), sim::settings_hash(defaults)) << r.key;
  }
}

TEST(Settings, TheListingIsJsonWithEveryRow) {
  const auto listing = nlohmann::json::parse(sim::settings_json(EnemySettings{}));
  const auto& rows = listing.at("settings");
  ASSERT_EQ(rows.size(), sim::setting_rows().size());
  for (const auto& r : rows) {
    for (const char* field : {"key", "default", "unit", "min", "max", "description"})
      EXPECT_TRUE(r.contains(field)) << r.dump();
  }
  EXPECT_EQ(rows[0].at("key"), "ragdoll.height_m");
  EXPECT_EQ(rows[0].at("unit"), "m");
  EXPECT_EQ(rows[0].at("default"), 1.8);  // the float's shortest decimal, not 1.7999999523
  EXPECT_EQ(rows[0].at("min"), 1.0);
  EXPECT_EQ(rows[0].at("max"), 2.5);
}

constexpr const char* kProfileLevel = R"({ "format": "stagger-level", "version": 1,
  "geometry": [ { "type": "box", "center": [0, -0.5, 0], "size": [10, 1, 10] } ],
  "player": { "position": [0, 0, 3] },
  "profiles": [
    { "name": "heavy", "ragdoll": { "mass_kg": 120, "height_m": 2.1 }, "brain": { "chase_speed": 1.1 } },
    { "name": "odd", "ragdoll": { "balance": { "fal_error_m": 0.3 } }, "eyes": {} }
  ],
  "enemies": [
    { "name": "a", "position": [0, 0, 0], "profile": "heavy" },
    { "name": "b", "position": [2, 0, 0], "profile": "heavy", "height_m": 1.9 },
    { "name": "c", "position": [-2, 0, 0] },
    { "name": "d", "position": [-2, 0, 2], "profile": "hevy" }
  ] })";

TEST(Settings, LevelProfilesAreCheckedAtTheirPlacesInTheLevel) {
  levels::LoadResult loaded = levels::parse_level(kProfileLevel, "p.json", "");
  sim::check_profiles(loaded, "p.json");
  EXPECT_EQ(formatted(loaded.diagnostics),
            (std::vector<std::string>{
                "p.json:6:48: error: unknown key `fal_error_m` in `ragdoll.balance` of profile "
                "`odd` (did you mean `fall_error_m`?)",
                "p.json:6:72: error: unknown key `eyes` in profile `odd`",
                "p.json:12:55: error: profile `hevy` does not exist (did you mean `heavy`?)"}));
}

TEST(Settings, DefaultsThenProfileThenTheSpawnsOwnHeightAndMass) {
  const levels::LoadResult loaded = levels::parse_level(kProfileLevel, "p.json", "");
  sim::SceneDescription scene = sim::scene_from_level(loaded.level, loaded.mesh_triangles);
  scene.enemy_settings.ragdoll.mass_kg = 80;  // as a --settings file would
  scene.enemy_settings.brain.patrol_speed = 0.7f;
  const EnemySettings a = sim::settings_of(scene, scene.enemies[0]);
  const EnemySettings b = sim::settings_of(scene, scene.enemies[1]);
  const EnemySettings c = sim::settings_of(scene, scene.enemies[2]);
  EXPECT_EQ(a.ragdoll.mass_kg, 120.0f);  // the profile over the file
  EXPECT_EQ(a.ragdoll.height_m, 2.1f);
  EXPECT_EQ(a.brain.chase_speed, 1.1f);
  EXPECT_EQ(a.brain.patrol_speed, 0.7f);  // the file where the profile says nothing
  EXPECT_EQ(b.ragdoll.height_m, 1.9f);    // the spawn over the profile
  EXPECT_EQ(b.ragdoll.mass_kg, 120.0f);
  EXPECT_EQ(c.ragdoll.mass_kg, 80.0f);  // no profile: the file
  EXPECT_EQ(c.ragdoll.height_m, 1.8f);
  // The body is built from them.
  sim::Scene running(scene);
  EXPECT_NEAR(running.enemies()[0].ragdoll->rig().blueprint().total_mass, 120.0f, 0.01f);
  EXPECT_NEAR(running.enemies()[2].ragdoll->rig().blueprint().total_mass, 80.0f, 0.01f);
}

TEST(Settings, ALevelWithProfilesSavesAndLoadsEqual) {
  const levels::LoadResult first =
      levels::load_level(STAGGER_SOURCE_DIR "/levels/data/profiles.json");
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(first.level.profiles.size(), 2u);
  const std::string saved = levels::save_level(first.level);
  const levels::LoadResult second = levels::parse_level(saved, "saved.json", "");
  ASSERT_TRUE(second.ok()) << saved;
  EXPECT_EQ(second.level, first.level);
  EXPECT_EQ(sim::scene_from_level(second.level, second.mesh_triangles).profiles,
            sim::scene_from_level(first.level, first.mesh_triangles).profiles);
}

// Every setting at either end of its range, in a level with minds, the player in sight and a
// blow that knocks one enemy down: the run, through the fall and the get-up, stays finite and
// nothing is reset (the ranges are safe, if not all sensible).
TEST(Settings, EverySettingAtEitherEndOfItsRangeSimulates) {
  sim::SceneDescription scene = test::level_scene("profiles.json");
  scene.profiles.clear();
  sim::InputScript script = test::push_script("runner", physics::BodyPart::chest, {150, 0, 0}, 0.8);
  sim::PlayerEvent player;
  player.position = {-6, 0, 4.5f};  // ahead of the runner, in its view
  script.players.push_back(player);
  for (const SettingRow& r : sim::setting_rows()) {
    for (const double value : {r.min, r.max}) {
      sim::SceneDescription tuned = scene;
      r.set(tuned.enemy_settings, value);
      sim::Simulation s(tuned, script);
      s.run(4.5, 90.0);
      const sim::SimulationResult result = s.result();
      EXPECT_TRUE(result.finite) << r.key << " = " << value;
      for (const auto& e : result.enemies)
        EXPECT_EQ(e.resets, 0) << r.key << " = " << value << ": " << e.name;
    }
  }
}

}  // namespace
}  // namespace stagger
