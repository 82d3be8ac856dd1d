// `stagger settings` and `--settings FILE` on the command line, as a user runs them.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "process.h"

namespace stagger {
namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = test::temp_path(name);
  std::ofstream(path) << text;
  return path.string();
}

TEST(SettingsCli, ListsEverySettingAsJson) {
  const auto r = test::run_stagger("settings");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto listing = nlohmann::json::parse(r.out);
  const auto& rows = listing.at("settings");
  EXPECT_EQ(rows.size(), 225u);
  bool found = false;
  for (const auto& row : rows) {
    EXPECT_FALSE(row.at("unit").get<std::string>().empty()) << row.dump();
    if (row.at("key") != "ragdoll.balance.fall_error_m") continue;
    found = true;
    EXPECT_EQ(row.at("default"), 0.32);
    EXPECT_EQ(row.at("unit"), "m");
    EXPECT_EQ(row.at("min"), 0.05);
    EXPECT_EQ(row.at("max"), 1.0);
  }
  EXPECT_TRUE(found);
  // With a file, its values are the defaults shown.
  const std::string file = write_file("list.json", R"({ "ragdoll": { "mass_kg": 90 } })");
  const auto tuned = test::run_stagger("settings --settings \"" + file + "\"");
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  EXPECT_EQ(nlohmann::json::parse(tuned.out).at("settings")[1].at("default"), 90.0);
  std::filesystem::remove(file);
}

TEST(SettingsCli, AMisspeltKeyIsAnErrorAtItsPlaceWithASuggestion) {
  const std::string file = write_file(
      "misspelt.json", "{\n  \"ragdoll\": {\n    \"step\": { \"stepp_error_m\": 0.07 }\n  }\n}\n");
  const auto report = test::temp_path("misspelt_report.json");
  const auto r = test::run_stagger("sim --seconds 1 --settings \"" + file + "\" --report \"" +
                                   report.string() + "\"");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(file + ":3:15: error: unknown key `stepp_error_m` in `ragdoll.step` (did "
                              "you mean `step_error_m`?)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("stagger sim: the settings file has errors; nothing was simulated"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(report));
  std::filesystem::remove(file);
}

TEST(SettingsCli, AValueOutOfRangeNamesTheRange) {
  const std::string file = write_file("out_of_range.json", R"({ "ragdoll": { "mass_kg": 20 } })");
  for (const std::string command :
       {"sim --seconds 1", "bench --knock-downs 1", "play courtyard --mode headless --seconds 1"}) {
    const auto r = test::run_stagger(command + " --settings \"" + file + "\"");
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_NE(r.err.find(
                  file +
                  ":1:27: error: `ragdoll.mass_kg` must be a number between 30 and 200 kg, got 20"),
              std::string::npos)
        << command << ": " << r.err;
  }
  std::filesystem::remove(file);
}

TEST(SettingsCli, TheReportNamesTheFileTheHashAndEachEnemysProfile) {
  const std::string file = write_file("tuned.json", R"({ "brain": { "patrol_speed": 0.8 } })");
  const auto tuned =
      test::run_stagger("sim profiles --seconds 1 --report - --settings \"" + file + "\"");
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  const auto report = nlohmann::json::parse(tuned.out);
  EXPECT_EQ(report.at("settings").at("file"), file);
  EXPECT_EQ(report.at("enemies")[0].at("profile"), "brute");
  EXPECT_EQ(report.at("enemies")[1].at("profile"), "runner");
  const auto plain = nlohmann::json::parse(test::run_stagger("sim --seconds 1 --report -").out);
  EXPECT_TRUE(plain.at("settings").at("file").is_null());
  EXPECT_TRUE(plain.at("enemies")[0].at("profile").is_null());
  EXPECT_NE(plain.at("settings").at("hash"), report.at("settings").at("hash"));
  EXPECT_EQ(plain.at("settings").at("hash").get<std::string>().size(), 16u);
  // A recording names the file and its hash: the replay runs with it, and refuses a changed one.
  const std::string recording = test::temp_path("tuned.rec").string();
  ASSERT_EQ(test::run_stagger("sim profiles --seconds 1 --quiet --settings \"" + file +
                              "\" --record \"" + recording + "\"")
                .exit_code,
            0);
  const auto replayed = test::run_stagger("replay --quiet \"" + recording + "\"");
  EXPECT_EQ(replayed.exit_code, 0) << replayed.err;
  std::ofstream(file, std::ios::app) << "\n";
  const auto changed = test::run_stagger("replay --quiet \"" + recording + "\"");
  EXPECT_EQ(changed.exit_code, 1);
  EXPECT_NE(changed.err.find("the settings file " + std::filesystem::absolute(file).string() +
                             " changed since the recording"),
            std::string::npos)
      << changed.err;
  EXPECT_EQ(test::run_stagger("sim --settings /nonexistent/settings.json").exit_code, 2);
  std::filesystem::remove(file);
}

TEST(SettingsCli, CheckReportsProfileProblemsInTheLevel) {
  const std::string level =
      write_file("bad_profile.json", R"({ "format": "stagger-level", "version": 1,
  "geometry": [ { "type": "box", "center": [0, -0.5, 0], "size": [10, 1, 10] } ],
  "player": { "position": [0, 0, 3] },
  "profiles": [ { "name": "brute", "brain": { "patrol_speed": 3 } } ] })");
  const auto r = test::run_stagger("check \"" + level + "\"");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(level + ":4:63: error: `brain.patrol_speed` must be a number between 0.1 "
                               "and 1.6 m/s, got 3"),
            std::string::npos)
      << r.err;
  const auto good = test::run_stagger("check profiles");
  EXPECT_EQ(good.exit_code, 0) << good.err;
  std::filesystem::remove(level);
}

}  // namespace
}  // namespace stagger
