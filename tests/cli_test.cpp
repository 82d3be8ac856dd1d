// The `stagger` command line end to end: help, version, usage errors (2), bad input (1).

#include <gtest/gtest.h>

#include <filesystem>

#include "process.h"

namespace stagger {
namespace {

std::string write_script(const std::string& name, const std::string& json) {
  const auto path = test::temp_path(name);
  std::ofstream(path) << json;
  return path.string();
}

TEST(Cli, HelpAndVersion) {
  const auto help = test::run_stagger("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("sim"), std::string::npos);
  EXPECT_NE(help.out.find("bench"), std::string::npos);
  const auto version = test::run_stagger("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_NE(version.out.find("stagger 0."), std::string::npos);
  EXPECT_EQ(test::run_stagger("sim --help").exit_code, 0);
}

TEST(Cli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(test::run_stagger("").exit_code, 2);
  EXPECT_EQ(test::run_stagger("fly").exit_code, 2);
  EXPECT_EQ(test::run_stagger("sim --seconds abc").exit_code, 2);
  EXPECT_EQ(test::run_stagger("sim --seconds -1").exit_code, 2);
  EXPECT_EQ(test::run_stagger("sim --frobnicate").exit_code, 2);
  EXPECT_EQ(test::run_stagger("sim --input /nonexistent/script.json").exit_code, 2);
}

TEST(Cli, SimWritesAReport) {
  const auto report = test::temp_path("report.json");
  const auto r = test::run_stagger("sim --seconds 1 --enemies 2 --report \"" + report.string() + "\"");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("dummy-2"), std::string::npos) << r.out;
  const std::string json = test::read_file(report);
  for (const char* field : {"\"level\"", "\"seconds\"", "\"physics_hz\"", "\"steps\": 240", "\"state_hash\"",
                            "\"wall_ms\"", "\"ms_per_step\"", "\"falls\"", "\"pushes\"", "\"balance_state\"",
                            "\"max_balance_error_m\"", "\"min_pelvis_height_m\"", "\"time_down_s\""}) {
    EXPECT_NE(json.find(field), std::string::npos) << field;
  }
  std::filesystem::remove(report);
}

struct BadScript {
  const char* name;
  const char* json;
  const char* expected;
};

class CliBadInput : public ::testing::TestWithParam<BadScript> {};

TEST_P(CliBadInput, ExitsWithOneNamesTheEventAndSimulatesNothing) {
  const BadScript& bad = GetParam();
  const std::string script = write_script(std::string(bad.name) + ".json", bad.json);
  const auto report = test::temp_path(std::string(bad.name) + "_report.json");
  const auto r = test::run_stagger("sim --seconds 1 --input \"" + script + "\" --report \"" + report.string() + "\"");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(bad.expected), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nothing was simulated"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(report));
  EXPECT_EQ(r.out, "");
  std::filesystem::remove(script);
}

INSTANTIATE_TEST_SUITE_P(
    Scripts, CliBadInput,
    ::testing::Values(
        BadScript{"unknown_body",
                  R"({"events":[{"t":1,"type":"push","enemy":"dummy","body":"wing","impulse":[1,0,0]}]})",
                  "events[0] (push at t=1): unknown body \"wing\""},
        BadScript{"unknown_enemy",
                  R"({"events":[{"t":1,"type":"push","enemy":"ghost","body":"chest","impulse":[1,0,0]}]})",
                  "events[0] (push at t=1): unknown enemy `ghost`"},
        BadScript{"non_finite",
                  R"({"events":[{"t":1,"type":"push","enemy":"dummy","body":"chest","impulse":[0,-1e400,0]}]})",
                  "events[0] (push at t=1): `impulse` must be finite"},
        BadScript{"negative_time",
                  R"({"events":[{"t":-2,"type":"push","enemy":"dummy","body":"chest","impulse":[1,0,0]}]})",
                  "events[0] (push at t=-2): `t` must not be negative"}),
    [](const auto& test_param) { return std::string(test_param.param.name); });

}  // namespace
}  // namespace stagger
