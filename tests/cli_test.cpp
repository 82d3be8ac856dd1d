// The `stagger` command line end to end: help, version, usage errors (2), bad input (1).

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
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
  EXPECT_EQ(test::run_stagger("sim --help").exit_code, 0);
}

// The rest of the line of `text` that starts with `label`; empty when no line does.
std::string line_after(const std::string& text, const std::string& label) {
  const std::size_t at = text.find("\n" + label);
  if (at == std::string::npos) return {};
  const std::size_t from = at + 1 + label.size();
  return text.substr(from, text.find('\n', from) - from);
}

// A version such as 3.24 or 1.5.1+git20210215: it starts with a digit and has `dots` dots before
// anything that is not a digit or a dot.
bool looks_like_version(const std::string& text, int dots) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0])) == 0) return false;
  const std::string number = text.substr(0, text.find_first_not_of("0123456789."));
  return std::count(number.begin(), number.end(), '.') == dots;
}

TEST(Cli, VersionNamesStaggerAndTheLibrariesItWasBuiltWith) {
  const auto version = test::run_stagger("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("stagger 0.2.0\nbuilt with:\n", 0), 0u) << version.out;
  // Bullet: the one version the physics module is written against
  // (cmake/StaggerDependencies.cmake).
  EXPECT_EQ(line_after(version.out, "  Bullet "), "3.24") << version.out;
  // Recast/Detour from the package that installed it (Debian 12: 1.5.1+git20210215.e75adf8-1+b1),
  // not "unknown".
  const std::string recast = line_after(version.out, "  Recast/Detour ");
  EXPECT_TRUE(looks_like_version(recast, 2)) << version.out;
  // OpenXR: MAJOR.MINOR.PATCH of the SDK's openxr.h, 1.0.20 on Debian 12.
  const std::string openxr = line_after(version.out, "  OpenXR loader ");
  EXPECT_TRUE(looks_like_version(openxr, 2)) << version.out;
  EXPECT_EQ(openxr.rfind("1.", 0), 0u) << version.out;
}

TEST(Cli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(test::run_stagger("").exit_code, 2);
  EXPECT_EQ(test::run_stagger("fly").exit_code, 2);
  EXPECT_EQ(test::run_stagger("sim --seconds abc").exit_code, 2);
  EXPECT_EQ(test::run_stagger("sim --seconds -1").exit_code, 2);
  EXPECT_EQ(test::run_stagger("sim --frobnicate").exit_code, 2);
  EXPECT_EQ(test::run_stagger("sim --input /nonexistent/script.json").exit_code, 2);
}

TEST(Cli, CheckValidatesLevels) {
  const std::string samples = STAGGER_SOURCE_DIR "/levels/data/";
  const auto good =
      test::run_stagger("check \"" + samples + "courtyard.json\" \"" + samples + "corridor.json\"");
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_NE(good.out.find("courtyard.json: ok (7 geometry, 1 routes, 2 enemies, navmesh of "),
            std::string::npos)
      << good.out;
  EXPECT_NE(good.out.find("polygons; every point reachable)"), std::string::npos) << good.out;
  const std::string broken = STAGGER_TEST_DATA "/levels/three_problems.json";
  const auto bad = test::run_stagger("check \"" + samples + "courtyard.json\" \"" + broken + "\"");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find(broken + ":7:67: error: route `hall` does not exist"), std::string::npos)
      << bad.err;
  EXPECT_NE(bad.err.find("1 of 2 levels have errors"), std::string::npos) << bad.err;
  EXPECT_EQ(test::run_stagger("check").exit_code, 2);
  EXPECT_EQ(test::run_stagger("check /nonexistent/level.json").exit_code, 2);
}

TEST(Cli, PreviewWritesAPicture) {
  const std::string level = STAGGER_SOURCE_DIR "/levels/data/arena.json";
  const auto png = test::temp_path("arena.png");
  const auto r =
      test::run_stagger("preview \"" + level + "\" -o \"" + png.string() + "\" --size 640");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(std::filesystem::file_size(png), 1000u);
  EXPECT_EQ(test::run_stagger("preview \"" + level + "\"").exit_code, 2);  // no -o
  EXPECT_EQ(test::run_stagger("preview \"" STAGGER_TEST_DATA "/levels/bad_mode.json\" -o \"" +
                              png.string() + "\"")
                .exit_code,
            1);
}

TEST(Cli, SimRunsALevel) {
  const std::string level = STAGGER_SOURCE_DIR "/levels/data/courtyard.json";
  const auto r = test::run_stagger("sim \"" + level + "\" --seconds 1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Courtyard, 2 enemies"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("guard-2"), std::string::npos) << r.out;
  EXPECT_EQ(test::run_stagger("sim \"" + level + "\" --enemies 3").exit_code, 2);
  const auto broken =
      test::run_stagger("sim \"" STAGGER_TEST_DATA "/levels/zero_size_box.json\" --seconds 1");
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_NE(broken.err.find("zero_size_box.json:4:83: error:"), std::string::npos) << broken.err;
}

TEST(Cli, SimWritesAReport) {
  const auto report = test::temp_path("report.json");
  const auto r =
      test::run_stagger("sim --seconds 1 --enemies 2 --report \"" + report.string() + "\"");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("dummy-2"), std::string::npos) << r.out;
  const std::string json = test::read_file(report);
  EXPECT_EQ(json.rfind("{\n  \"format_version\": 1,\n  \"level\": ", 0), 0u)
      << "the format version first:\n"
      << json.substr(0, 80);
  for (const char* field :
       {"\"level\"", "\"seconds\"", "\"physics_hz\"", "\"steps\": 240", "\"state_hash\"",
        "\"wall_ms\"", "\"ms_per_step\"", "\"falls\"", "\"pushes\"", "\"balance_state\"",
        "\"max_balance_error_m\"", "\"min_pelvis_height_m\"", "\"time_down_s\""}) {
    EXPECT_NE(json.find(field), std::string::npos) << field;
  }
  std::filesystem::remove(report);
}

// The options of `play --input`, `replay --view`/`--video` and `render --video` are checked before
// any work (no window opens, no ffmpeg starts): usage errors exit 2, a bad script 1.
TEST(Cli, WatchingOptionsAreCheckedBeforeAnythingRuns) {
  // (Any existing file does as the recording: these are refused before it is read.)
  const std::string file = "\"" STAGGER_SOURCE_DIR "/levels/data/arena.json\"";
  const auto usage = [](const std::string& args, const std::string& message) {
    const auto r = test::run_stagger(args, "-u DISPLAY");
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
  };
  usage("render arena", "stagger render: give -o OUT.png, --video OUT.mp4, or both");
  usage("render arena --video /tmp/odd.mp4 --size 321 180",
        "stagger render: --size must be even for a video (its colour is stored at half size), "
        "got 321 180");
  usage("render arena --video /tmp/short.mp4 --seconds 0.01 --fps 10",
        "--video needs --seconds of at least one frame");
  usage("render arena -o /tmp/x.png --fps 10", "--fps requires --video");
  usage("replay " + file + " --fps 10", "--fps requires --video");
  usage("replay " + file + " --screenshot /tmp/x.png", "--screenshot requires --view");
  usage("replay " + file + " --view --video /tmp/x.mp4", "--view excludes --video");
  usage("replay " + file + " --size 320 180", "--size applies to --view and --video");
  usage("replay " + file + " --video /tmp/x.mp4 --fps 0", "--fps must be a whole number");
  usage("replay " + file + " --view --view-keys 3:q",
        "stagger replay: --view-keys: the key q is not a viewer key");
  usage("replay " + file + " --view --view-keys 5:space,2:period",
        "the entry 2:period comes before the frame of the key ahead of it");
  usage("play courtyard --mode headless --seconds 1 --input /nonexistent/script.json",
        "no input script file");
  const std::string script =
      write_script("play_ghost.json", R"({"events":[{"t":1,"type":"kill","enemy":"ghost"}]})");
  const auto bad =
      test::run_stagger("play courtyard --mode headless --seconds 1 --input \"" + script + "\"");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("events[0] (kill at t=1): unknown enemy `ghost`"), std::string::npos)
      << bad.err;
  EXPECT_NE(bad.err.find("stagger play: the input script has errors; nothing was simulated"),
            std::string::npos)
      << bad.err;
  std::filesystem::remove(script);
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
  const auto r = test::run_stagger("sim --seconds 1 --input \"" + script + "\" --report \"" +
                                   report.string() + "\"");
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
        BadScript{
            "unknown_body",
            R"({"events":[{"t":1,"type":"push","enemy":"dummy","body":"wing","impulse":[1,0,0]}]})",
            "events[0] (push at t=1): unknown body \"wing\""},
        BadScript{
            "unknown_enemy",
            R"({"events":[{"t":1,"type":"push","enemy":"ghost","body":"chest","impulse":[1,0,0]}]})",
            "events[0] (push at t=1): unknown enemy `ghost`"},
        BadScript{
            "non_finite",
            R"({"events":[{"t":1,"type":"push","enemy":"dummy","body":"chest","impulse":[0,-1e400,0]}]})",
            "events[0] (push at t=1): `impulse` must be finite"},
        BadScript{
            "negative_time",
            R"({"events":[{"t":-2,"type":"push","enemy":"dummy","body":"chest","impulse":[1,0,0]}]})",
            "events[0] (push at t=-2): `t` must not be negative"}),
    [](const auto& test_param) { return std::string(test_param.param.name); });

// `stagger bench --blast`: 1500 fake ragdolls over the arena, measured at 1000 and 1500, all
// landed within the 3 s it steps, none with nowhere to go, each tick far inside its 0.6 ms.
TEST(Cli, BlastBenchReportsARowPerThousand) {
  const auto run = test::run_stagger("bench --blast 1500 --seconds 3 --report -");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\"level\": \"Arena\""), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\"count\": 1000,"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\"count\": 1500,"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("\"count\": 2000,"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("\"hops\": 1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\"interrupted\": false"), std::string::npos) << run.out;
  const auto number_after = [&run](const std::string& key, std::size_t from) {
    const std::size_t at = run.out.find("\"" + key + "\": ", from);
    return at == std::string::npos ? -1.0 : std::stod(run.out.substr(at + key.size() + 4));
  };
  for (const char* count : {"\"count\": 1000,", "\"count\": 1500,"}) {
    const std::size_t row = run.out.find(count);
    EXPECT_GT(number_after("ticks_all_flying", row), 100.0) << run.out;
    EXPECT_LT(number_after("tick_p50_ms", row), 0.6) << run.out;
    EXPECT_GT(number_after("last_landing_s", row), 0.5) << run.out;
    EXPECT_LT(number_after("last_landing_s", row), 3.0) << run.out;
  }
}

}  // namespace
}  // namespace stagger
