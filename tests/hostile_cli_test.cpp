// Hostile input on the command line: every bad invocation gives one clear first line of reasonable
// length and the documented exit code (2 usage, 1 wrong input), before any long work; no input
// crashes or hangs a command; an interrupted run keeps what it has.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "process.h"

namespace stagger {
namespace {

/// [bytes] no line a user reads should be longer (a quoted value is cut well before).
constexpr std::size_t kMaxLineBytes = 400;

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = test::temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

std::size_t longest_line(const std::string& text) {
  std::size_t longest = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    longest = std::max(longest, end - start);
    start = end + 1;
  }
  return longest;
}

const std::string kLevel = "\"" STAGGER_SOURCE_DIR "/levels/data/courtyard.json\"";

// A level whose only problem is a route point off the navmesh: it loads, but `stagger check`
// rejects it.
const char* kOffNavmeshLevel = R"({
  "format": "stagger-level", "version": 1,
  "geometry": [ { "type": "box", "name": "floor", "center": [0, -0.5, 0], "size": [20, 1, 20] } ],
  "player": { "position": [0, 0, 5], "yaw_deg": 180 },
  "navigation": {},
  "routes": [ { "name": "yard", "mode": "loop", "points": [ { "position": [1, 0, 1] }, { "position": [40, 0, 1] } ] } ],
  "enemies": [ { "name": "guard", "position": [0, 0, 0], "route": "yard" } ]
})";

struct BadCall {
  const char* name;
  std::string args;  ///< after `stagger`; {FILE} is replaced by the case's file
  std::string file;  ///< contents of {FILE}, if any
  int exit_code;
  std::string expected;  ///< in the first line of stderr
};

std::string push_script(const std::string& impulse) {
  return R"({"events":[{"t":1,"type":"push","enemy":"dummy","body":"chest","impulse":)" + impulse +
         "}]}";
}

// A level with `enemies` enemies, each named by `name` and its number, walking `route`.
std::string crowded_level(int enemies, const std::string& name, const std::string& route) {
  std::string list;
  for (int i = 0; i < enemies; ++i) {
    list += std::string(i ? "," : "") + R"({"name":")" + name + std::to_string(i) +
            R"(","position":[0,0,0],"route":")" + route + R"("})";
  }
  return R"({"format":"stagger-level","version":1,"geometry":[{"type":"box","center":[0,-0.5,0],"size":[20,1,20]}],)"
         R"("player":{"position":[0,0,5]},"routes":[{"name":")" +
         std::string(100000, 'r') + R"(","points":[{"position":[1,0,1]}]}],"enemies":[)" + list +
         "]}";
}

std::vector<BadCall> bad_calls() {
  const std::string deep(100000, '[');
  return {
      {"deep_level", "check {FILE}", deep, 1,
       ":1:257: error: not valid JSON: arrays and objects nested more than 256 deep"},
      {"deep_level_sim", "sim {FILE}", deep, 1,
       ":1:257: error: not valid JSON: arrays and objects nested more than 256 deep"},
      // The root object and 255 arrays make 256; the 256th bracket, at column 10 + 256, is one too
      // many.
      {"deep_script", "sim --input {FILE}", "{\"events\":" + deep, 1,
       ":1:266: error: not valid JSON: arrays and objects nested more than 256 deep"},
      {"huge_box", "check {FILE}",
       R"({"format":"stagger-level","version":1,"geometry":[{"type":"box","name":"f","center":[0,0,0],"size":[1e12,1,1e12]}],"player":{"position":[0,0,0]}})",
       1, ":1:101: error: `size` must have every side at most 2000 m, got 1e12"},
      {"seconds_nan_sim", "sim --seconds nan", "", 2,
       "stagger sim: --seconds must be a finite number of seconds, 0 < s <= 86400, got nan"},
      {"seconds_nan_play", "play courtyard --mode headless --seconds nan", "", 2,
       "stagger play: --seconds must be a finite number of seconds, 0 <= s <= 86400, got nan"},
      {"seconds_nan_render", "render courtyard -o x.png --seconds nan", "", 2,
       "stagger render: --seconds must be a finite number"},
      {"seconds_huge", "sim --seconds 1e9", "", 2, "0 < s <= 86400, got 1e9"},
      {"seconds_negative", "sim --seconds -1", "", 2, "0 < s <= 86400, got -1"},
      {"bench_seconds_huge", "bench --counts 1 --seconds 1e9", "", 2,
       "stagger bench: --seconds must be a finite number of seconds"},
      {"bench_count_huge", "bench --counts 1,100000", "", 2,
       "--counts must be a whole number of ragdolls, 1 <= n <= 4096, got 100000"},
      {"terrain_crossings_zero", "bench --terrain --crossings 0", "", 2,
       "stagger bench: --crossings must be a whole number of crossings, 1 <= n <= 100000, got 0"},
      {"terrain_seed_negative", "bench --terrain --seed -1", "", 2,
       "stagger bench: --seed must be a whole number, 0 <= n <= 4294967295, got -1"},
      {"terrain_with_patrol", "bench --terrain --patrol courtyard", "", 2,
       "stagger bench: --patrol excludes --terrain"},
      {"crossings_without_terrain", "bench --crossings 5", "", 2,
       "stagger bench: --crossings, --approach and --feature apply to --terrain only; --seed and "
       "--report to --terrain and --knock-downs"},
      {"approach_without_terrain", "bench --approach 6", "", 2,
       "stagger bench: --crossings, --approach and --feature apply to --terrain only"},
      {"terrain_approach_short", "bench --terrain --approach 0.1", "", 2,
       "stagger bench: --approach must be a finite number of metres, 0.5 <= m <= 50, got 0.1"},
      {"terrain_approach_nan", "bench --terrain --approach nan", "", 2,
       "stagger bench: --approach must be a finite number of metres"},
      {"approach_with_knock_downs", "bench --knock-downs 1 --approach 6", "", 2,
       "stagger bench: --approach does not apply to --knock-downs"},
      {"feature_without_terrain", "bench --feature \"kerb 0.15 up\"", "", 2,
       "stagger bench: --crossings, --approach and --feature apply to --terrain only"},
      {"unknown_terrain_feature", "bench --terrain --feature \"stairs 9/9 up\"", "", 2,
       "stagger bench: --feature: no feature is named \"stairs 9/9 up\""},
      {"ground_without_knock_downs", "bench --ground slope", "", 2,
       "stagger bench: --ground applies to --knock-downs only"},
      {"knock_downs_unknown_part", "bench --knock-downs 1 --part tail", "", 2,
       "stagger bench: --part tail is no body part"},
      {"knock_downs_unknown_ground", "bench --knock-downs 1 --ground ice", "", 2,
       "stagger bench: ice not in {flat,slope,stairs}"},
      {"knock_downs_impulse_nan", "bench --knock-downs 1 --impulse nan", "", 2,
       "stagger bench: --impulse must be a finite number of newton-seconds"},
      {"push_thresholds_with_seed", "bench --push-thresholds --seed 3", "", 2,
       "stagger bench: --seed does not apply to --push-thresholds"},
      {"push_thresholds_with_knock_downs", "bench --push-thresholds --knock-downs 2", "", 2,
       "stagger bench: --knock-downs excludes --push-thresholds"},
      {"walks_with_ground", "bench --walks --ground flat", "", 2,
       "stagger bench: --ground does not apply to --walks"},
      {"walks_with_terrain", "bench --walks --terrain", "", 2,
       "stagger bench: --terrain excludes --walks"},
      {"part_alone", "bench --part head", "", 2,
       "stagger bench: --part applies to --knock-downs and --push-thresholds only"},
      {"knock_downs_with_terrain", "bench --knock-downs 5 --terrain", "", 2,
       "stagger bench: --terrain excludes --knock-downs"},
      {"terrain_with_counts", "bench --terrain --counts 8", "", 2,
       "stagger bench: --counts does not apply to --terrain"},
      {"blast_zero", "bench --blast 0", "", 2,
       "stagger bench: --blast must be a whole number of fake ragdolls, 1 <= n <= 100000, got 0"},
      {"blast_with_counts", "bench --blast 10 --counts 8", "", 2,
       "stagger bench: --counts does not apply to --blast"},
      {"blast_with_patrol", "bench --blast 10 --patrol courtyard", "", 2,
       "stagger bench: --patrol excludes --blast"},
      {"level_without_blast", "bench --level arena", "", 2,
       "stagger bench: --level applies to --blast only"},
      {"blast_unknown_level", "bench --blast 10 --level nowhere", "", 2,
       "stagger bench: no level file or sample level named nowhere"},
      {"blast_report_unwritable", "bench --blast 10 --report /nonexistent/dir/b.json", "", 1,
       "stagger bench: cannot write the report to /nonexistent/dir/b.json"},
      {"terrain_report_unwritable", "bench --terrain --report /nonexistent/dir/t.json", "", 1,
       "stagger bench: cannot write the report to /nonexistent/dir/t.json"},
      {"enemies_float", "sim --enemies 2.5", "", 2,
       "--enemies must be a whole number of enemies, 1 <= n <= 1024, got 2.5"},
      {"vary_negative", "sim --vary -1", "", 2,
       "stagger sim: --vary must be a whole number, 0 <= n <= 9223372036854775807, got -1"},
      {"physics_hz_inf", "sim --physics-hz inf", "", 2,
       "--physics-hz must be a finite number of hertz, 30 <= hz <= 2000"},
      {"eye_nan", "render courtyard -o x.png --eye 0 nan 0", "", 2,
       "--eye must be a finite number of metres"},
      {"push_1e30", "sim --input {FILE}", push_script("[1e30,0,0]"), 1,
       ":1:74: error: events[0] (push at t=1): `impulse` must be at most 1000 N·s long"},
      {"report_unwritable", "sim " + kLevel + " --seconds 300 --report /nonexistent/dir/r.json", "",
       1, "stagger sim: cannot write the report to /nonexistent/dir/r.json"},
      {"plot_unwritable", "sim --seconds 300 --plot /nonexistent/dir/p.png", "", 1,
       "cannot write the plot to /nonexistent/dir/p.png"},
      {"record_unwritable", "sim --seconds 300 --record /nonexistent/dir/r.rec", "", 1,
       "cannot write the recording to"},
      {"trace_is_a_folder", "sim --seconds 300 --trace /tmp", "", 1,
       "cannot write the trace to /tmp"},
      {"preview_unwritable", "preview courtyard -o /nonexistent/dir/p.png", "", 1,
       "cannot write the picture to"},
      {"headless_screenshot", "play courtyard --mode headless --seconds 1 --screenshot s.png", "",
       2, "stagger play: --mode headless draws nothing, so --screenshot cannot be saved"},
      {"headless_forever", "play courtyard --mode headless", "", 2,
       "--mode headless needs --seconds"},
      {"missing_level_sim", "sim /nonexistent/level.json", "", 2,
       "no level file or sample level named /nonexistent/level.json"},
      {"missing_level_check", "check /nonexistent/level.json", "", 2,
       "no level file or sample level named"},
      {"missing_level_preview", "preview /nonexistent/level.json -o p.png", "", 2,
       "no level file or sample level named"},
      {"missing_level_play", "play nowhere", "", 2,
       "stagger play: no level file or sample level named nowhere"},
      {"missing_level_render", "render nowhere -o p.png", "", 2,
       "stagger render: no level file or sample level named nowhere"},
      {"missing_recording", "replay /nonexistent/run.rec", "", 2,
       "no recording file /nonexistent/run.rec"},
      {"missing_script", "sim --input /nonexistent/s.json", "", 2,
       "no input script file /nonexistent/s.json"},
      {"walk_too_fast", "sim --input {FILE}",
       R"({"events":[{"t":1,"type":"walk","enemy":"dummy","velocity":[10,0,0]}]})", 1,
       ":1:60: error: events[0] (walk at t=1): `velocity` must be at most 1.6 m/s walking"},
      {"walk_vertical", "sim --input {FILE}",
       R"({"events":[{"t":1,"type":"walk","enemy":"dummy","velocity":[0,1e38,1.2]}]})", 1,
       "`velocity` is horizontal [m/s]: its y must be 0"},
      {"player_far", "sim --input {FILE}",
       R"({"events":[{"t":1,"type":"player","position":[1e29,0,0]}]})", 1,
       "`position` must lie inside the world"},
      {"event_late", "sim --input {FILE}",
       R"({"events":[{"t":1e308,"type":"kill","enemy":"dummy"}]})", 1,
       ":1:17: error: events[0] (kill at t=1e+308): `t` must be at most 86400 s"},
      {"duplicate_key", "sim --input {FILE}",
       R"({"events":[{"t":1,"type":"kill","enemy":"dummy","enemy":"dummy"}]})", 1,
       ":1:49: error: events[0] (kill at t=1): duplicate key `enemy` in a kill event"},
      {"off_navmesh_sim", "sim {FILE}", kOffNavmeshLevel, 1, "is not on the navmesh"},
      {"off_navmesh_preview", "preview {FILE} -o p.png", kOffNavmeshLevel, 1,
       "is not on the navmesh"},
      {"off_navmesh_bench", "bench --patrol {FILE}", kOffNavmeshLevel, 1, "is not on the navmesh"},
      {"many_enemies", "check {FILE}", crowded_level(2000, "e", "x"), 1,
       "`enemies` holds 2000 items; at most 1024 are allowed"},
      // Megabyte-long names against each other: no suggestion is searched for, no line is long.
      {"long_route_names", "check {FILE}",
       crowded_level(8, std::string(100000, 'e'), std::string(100000, 's')), 1,
       "error: route `ssss"},
      {"long_body", "sim --input {FILE}",
       R"({"events":[{"t":1,"type":"push","enemy":"dummy","body":")" +
           std::string(5 * 1024 * 1024, 'b') + R"(","impulse":[1,0,0]}]})",
       1, ":1:56: error: events[0] (push at t=1): unknown body \"bbbb"},
      {"long_name", "sim --input {FILE}",
       R"({"events":[{"t":1,"type":"push","enemy":")" + std::string(5 * 1024 * 1024, 'x') +
           R"(","body":"chest","impulse":[1,0,0]}]})",
       1, "unknown enemy `xxxx"},
      // Bytes that are not UTF-8, raw or escaped control characters: refused at their place, and a
      // message never echoes them raw.
      {"level_not_utf8", "check {FILE}",
       "{\"format\":\"stagger-level\",\"version\":1,\"name\":\"caf\xE9\",\"geometry\":[]}", 1,
       ":1:50: error: not valid JSON: a string that is not valid UTF-8"},
      {"level_control_name", "check {FILE}",
       R"({"format":"stagger-level","version":1,"name":"a\u0007\u001b[2Jb","geometry":[{"type":"box","center":[0,-0.5,0],"size":[20,1,20]}],"player":{"position":[0,0,0]}})",
       1, ":1:46: error: `name` must not hold control characters, got `a\\x07\\x1b[2Jb`"},
      {"script_control_enemy", "sim --input {FILE}",
       R"({"events":[{"t":1,"type":"kill","enemy":"d\u001b[31mummy"}]})", 1,
       "unknown enemy `d\\x1b[31mummy`"},
      {"gltf_not_gltf", "check {FILE}",
       "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":10,\"uri\":\"data:,x\"}]}", 1,
       "not a readable glTF file"},
  };
}

class HostileCli : public ::testing::TestWithParam<BadCall> {};

TEST_P(HostileCli, RefusedWithOneClearLineAndTheDocumentedCode) {
  const BadCall& bad = GetParam();
  std::string args = bad.args;
  std::string file;
  if (!bad.file.empty()) {
    const std::string extension = std::string(bad.name).rfind("gltf_", 0) == 0 ? ".gltf" : ".json";
    file = write_file(std::string(bad.name) + extension, bad.file);
    args.replace(args.find("{FILE}"), 6, "\"" + file + "\"");
  }
  const auto r = test::run_stagger(args + " < /dev/null", "");
  EXPECT_EQ(r.exit_code, bad.exit_code) << args.substr(0, 200) << "\n" << r.err.substr(0, 1000);
  EXPECT_NE(first_line(r.err).find(bad.expected), std::string::npos)
      << first_line(r.err).substr(0, 1000);
  EXPECT_LE(longest_line(r.err), kMaxLineBytes) << r.err.substr(0, 1000);
  if (!file.empty()) std::filesystem::remove(file);
}

INSTANTIATE_TEST_SUITE_P(Calls, HostileCli, ::testing::ValuesIn(bad_calls()),
                         [](const auto& call) { return std::string(call.param.name); });

TEST(HostileCli, EveryLevelCommandTakesASampleName) {
  EXPECT_EQ(test::run_stagger("sim courtyard --seconds 0.1 --quiet").exit_code, 0);
  EXPECT_EQ(test::run_stagger("check gltf_yard").exit_code, 0);
  const auto png = test::temp_path("sample.png");
  EXPECT_EQ(test::run_stagger("preview corridor -o \"" + png.string() + "\"").exit_code, 0);
  EXPECT_TRUE(std::filesystem::exists(png));
  std::filesystem::remove(png);
}

// Ctrl-C (SIGINT) stops `sim` at its next step: the report says so, the trace holds the steps
// run, and the recording is marked incomplete, which `replay` reproduces and names.
TEST(HostileCli, AnInterruptedSimKeepsItsReportTraceAndRecording) {
  const auto report = test::temp_path("interrupted.json");
  const auto trace = test::temp_path("interrupted.csv");
  const auto record = test::temp_path("interrupted.rec");
  const std::string sim = std::string("\"") + STAGGER_EXE +
                          "\" sim --seconds 3000 --quiet --report \"" + report.string() +
                          "\" --trace \"" + trace.string() + "\" --record \"" + record.string() +
                          "\"";
  const std::string command =
      "sh -c '" + sim + " & pid=$!; sleep 2; kill -INT $pid; wait $pid; echo $?'";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char code[16] = {};
  ASSERT_NE(std::fgets(code, sizeof(code), pipe), nullptr);
  ::pclose(pipe);
  EXPECT_EQ(std::string(code), "130\n");
  const auto json = nlohmann::json::parse(test::read_file(report));
  EXPECT_TRUE(json["interrupted"].get<bool>());
  const double seconds = json["seconds"].get<double>();
  EXPECT_GT(seconds, 0.0);
  EXPECT_LT(seconds, 3000.0);
  std::ifstream in(trace);
  int rows = 0;
  for (std::string line; std::getline(in, line);) ++rows;
  EXPECT_EQ(rows, 2 + json["steps"].get<int>())
      << "the version line, the header and a row per step run (one enemy)";
  const auto replay = test::run_stagger("replay \"" + record.string() + "\" --quiet");
  EXPECT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_NE(replay.out.find(std::to_string(json["steps"].get<int>()) + " steps reproduced"),
            std::string::npos)
      << replay.out;
  EXPECT_NE(replay.out.find("the recording is incomplete"), std::string::npos) << replay.out;
  for (const auto& p : {report, trace, record}) std::filesystem::remove(p);
}

// Everything `stagger ARGS` prints (stdout and stderr) when `signal` reaches it after 2 s, then
// `rc=` and its exit code.
std::string output_when_signalled(const std::string& args, const char* signal) {
  const std::string run = std::string("\"") + STAGGER_EXE + "\" " + args + " 2>&1";
  const std::string command =
      "sh -c '" + run + " & pid=$!; sleep 2; kill -" + signal + " $pid; wait $pid; echo rc=$?'";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "cannot start: " << command;
    return {};
  }
  std::string out;
  char buffer[256];
  while (std::fgets(buffer, sizeof(buffer), pipe) != nullptr) out += buffer;
  ::pclose(pipe);
  return out;
}

TEST(HostileCli, AnInterruptedBenchPrintsWhatItMeasured) {
  const std::string out = output_when_signalled("bench --counts 1 --seconds 3000", "TERM");
  EXPECT_NE(out.find("interrupted; 0 of 1 counts were measured"), std::string::npos) << out;
  EXPECT_NE(out.find("rc=130"), std::string::npos) << out;
}

TEST(HostileCli, AnInterruptedTerrainCoursePrintsTheWorldsThatFinished) {
  const std::string out = output_when_signalled("bench --terrain --crossings 100000", "INT");
  EXPECT_NE(out.find("interrupted, not counted"), std::string::npos) << out;
  EXPECT_NE(out.find("interrupted: the figures are of the worlds that finished"), std::string::npos)
      << out;
  EXPECT_NE(out.find("rc=130"), std::string::npos) << out;
}

}  // namespace
}  // namespace stagger
