// Watching a run: `stagger play --input` in each mode (headless, a window under a private Xvfb,
// XR through SimXR), the replay viewer (`replay --view`) driven by a key list and by xdotool, and
// videos (`replay --video`, `render --video`) read back with ffprobe and ffmpeg. Vulkan runs on
// lavapipe.

#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "png_image.h"
#include "process.h"
#include "xvfb.h"

namespace stagger {
namespace {

const std::string kLavapipe = "VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
const std::string kNoRuntime = "XR_RUNTIME_JSON=/nonexistent/openxr_runtime.json";

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = test::temp_path(name);
  std::ofstream(path) << text;
  return path.string();
}

nlohmann::json enemy(const nlohmann::json& report, const std::string& name) {
  for (const auto& e : report["enemies"]) {
    if (e["name"] == name) return e;
  }
  ADD_FAILURE() << "no enemy " << name << " in the report";
  return {};
}

// Runs a shell command; its standard output (stderr is left alone).
std::string output_of(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

bool red(const std::uint8_t* p) {
  return p[0] > p[1] + 30 && p[0] > p[2] + 30;
}
bool sky(const std::uint8_t* p) {
  return p[2] > p[0] + 30 && p[2] > 150;
}
// The floor's checker: grey, neither dark nor bright.
bool floor_grey(const std::uint8_t* p) {
  return std::abs(p[0] - p[1]) < 14 && std::abs(p[1] - p[2]) < 14 && p[1] > 40 && p[1] < 170;
}

struct Pixels {
  int red = 0, sky = 0, floor = 0;
};

// Red anywhere, sky in the top quarter, floor in the bottom half.
Pixels count(const test::PngImage& image) {
  Pixels c;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const std::uint8_t* p = image.at(x, y);
      if (red(p)) ++c.red;
      if (y < image.height / 4 && sky(p)) ++c.sky;
      if (y >= image.height / 2 && floor_grey(p)) ++c.floor;
    }
  }
  return c;
}

// --- stagger play --input ---------------------------------------------------------------------

TEST(PlayInput, HeadlessAppliesPushesHandsWalksPlayersAndKills) {
  // In the arena: ring-3 is shoved down, `idle` killed, the `guard` (who otherwise keeps its post)
  // walks 2.5 m, the right hand moves 1.2 m in the open, and the player appears at 0.5 s.
  const std::string script = write_file("play_input.json", R"({ "events": [
    { "t": 0.5, "type": "player", "position": [0, 0, -1] },
    { "t": 1.0, "type": "push", "enemy": "ring-3", "body": "chest", "impulse": [0, 0, 150] },
    { "t": 0.2, "type": "walk", "enemy": "guard", "velocity": [1.0, 0, 0] },
    { "t": 2.7, "type": "walk", "enemy": "guard", "gait": "idle" },
    { "t": 0.0, "type": "hand", "hand": "right",
      "path": [ { "t": 0.0, "position": [3, 1.3, 12] }, { "t": 1.5, "position": [3, 1.3, 12] },
                { "t": 2.0, "position": [3, 1.3, 13.2] } ] },
    { "t": 2.0, "type": "kill", "enemy": "idle" } ] })");
  const auto report_path = test::temp_path("play_input_report.json");
  const auto r = test::run_stagger("play arena --mode headless --seconds 4 --input \"" + script +
                                   "\" --report \"" + report_path.string() + "\"");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto report = nlohmann::json::parse(test::read_file(report_path));
  const auto ring3 = enemy(report, "ring-3");
  EXPECT_EQ(ring3["falls"], 1);
  EXPECT_EQ(ring3["push_impulses_ns"], nlohmann::json::array({150.0}));
  EXPECT_EQ(enemy(report, "idle")["final_state"], "dead");
  EXPECT_GT(enemy(report, "guard")["distance_walked_m"].get<double>(), 1.5);
  // The script's hand travelled its path; the live left hand (no player to move it) stayed put.
  const auto& hands = report["play"]["hands"];
  EXPECT_GT(hands["right"]["travel_m"].get<double>(), 1.1);
  EXPECT_LT(hands["right"]["travel_m"].get<double>(), 1.6);
  EXPECT_EQ(hands["right"]["tracked_frames"], 0) << "a scripted hand is not a tracked one";
  EXPECT_LT(hands["left"]["travel_m"].get<double>(), 0.01);
  // A headless game has a player only from the script's player event on: ring-2 and stairs-2
  // chase them, as they do in `stagger sim` with this script.
  EXPECT_TRUE(enemy(report, "ring-2")["saw_player"].get<bool>());
  std::filesystem::remove(script);
  std::filesystem::remove(report_path);
}

TEST(PlayInput, InTheWindowTheScriptsPlayerWinsOverTheCamera) {
  // The window's camera stands where guard-2 sees it within 5 s; a script that takes the player
  // away at t = 0 leaves nobody to see, and its push still knocks guard-1 down.
  const test::Xvfb xvfb;
  ASSERT_FALSE(xvfb.display().empty());
  const std::string env = "DISPLAY=" + xvfb.display() + " " + kLavapipe + " " + kNoRuntime;
  const auto report_path = test::temp_path("play_window_report.json");
  const std::string play = "play courtyard --mode desktop --seconds 5 --size 320 180 --report \"" +
                           report_path.string() + "\"";
  const auto live = test::run_stagger(play, env);
  ASSERT_EQ(live.exit_code, 0) << live.err;
  EXPECT_TRUE(enemy(nlohmann::json::parse(test::read_file(report_path)), "guard-2")["saw_player"]
                  .get<bool>());
  const std::string script = write_file("play_window.json", R"({ "events": [
    { "t": 0, "type": "player", "present": false },
    { "t": 1.0, "type": "push", "enemy": "guard-1", "body": "chest", "impulse": [0, 0, 150] } ] })");
  const auto scripted = test::run_stagger(play + " --input \"" + script + "\"", env);
  ASSERT_EQ(scripted.exit_code, 0) << scripted.err;
  const auto report = nlohmann::json::parse(test::read_file(report_path));
  EXPECT_FALSE(enemy(report, "guard-2")["saw_player"].get<bool>());
  EXPECT_FALSE(enemy(report, "guard-1")["saw_player"].get<bool>());
  EXPECT_EQ(enemy(report, "guard-1")["falls"], 1);
  std::filesystem::remove(script);
  std::filesystem::remove(report_path);
}

TEST(PlayInput, InXrTheScriptsHandTakesThePlaceOfTheController) {
  // SimXR punches the right controller through the guard's chest at 2 s (which knocks it down
  // without a script: XrPlay tests); the script holds its own right hand 3 m away, so the punch
  // lands nowhere, and it kills the guard at 4 s.
  const std::string simxr = write_file("watch_simxr.json", R"({ "display_hz": 90, "events": [
    { "t": 0, "type": "hand", "hand": "right", "path": [
      { "t": 0, "position": [0.12, 1.25, -0.2] }, { "t": 2.0, "position": [0.12, 1.25, -0.2] },
      { "t": 2.12, "position": [0.12, 1.25, -1.05] } ] },
    { "t": 5.0, "type": "exit" } ] })");
  const std::string script = write_file("watch_xr_input.json", R"({ "events": [
    { "t": 0, "type": "hand", "hand": "right", "path": [ { "t": 0, "position": [3, 1.2, 3] } ] },
    { "t": 4.0, "type": "kill", "enemy": "guard" } ] })");
  const auto report_path = test::temp_path("watch_xr_report.json");
  const auto summary_path = test::temp_path("watch_xr_summary.json");
  const auto r = test::run_stagger(
      "play \"" STAGGER_TEST_DATA "/xr/shove.json\" --mode xr --input \"" + script +
          "\" --report \"" + report_path.string() + "\"",
      "XR_RUNTIME_JSON=" STAGGER_SIMXR_MANIFEST " " + kLavapipe + " STAGGER_SIMXR_SCRIPT=" + simxr +
          " STAGGER_SIMXR_SUMMARY=" + summary_path.string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto report = nlohmann::json::parse(test::read_file(report_path));
  const auto& guard = report["enemies"][0];
  EXPECT_EQ(guard["falls"], 0) << "the controller's punch must not land";
  EXPECT_EQ(guard["final_state"], "dead");
  EXPECT_EQ(report["play"]["hands"]["right"]["tracked_frames"], 0);
  EXPECT_EQ(report["play"]["haptic_pulses"]["right"], 0);
  for (const auto& p : {simxr, script}) std::filesystem::remove(p);
  std::filesystem::remove(report_path);
  std::filesystem::remove(summary_path);
}

// --- recordings watched -----------------------------------------------------------------------

// One 10 s recording of the arena (nine enemies patrolling, one shoved down at 2 s), shared by the
// viewer and video tests.
class Watch : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string script = write_file("watch_push.json", R"({ "events": [
      { "t": 2.0, "type": "push", "enemy": "ring-3", "body": "chest", "impulse": [0, 0, 150] } ] })");
    recording_ = test::temp_path("arena.rec").string();
    const auto r = test::run_stagger("sim arena --seconds 10 --quiet --input \"" + script +
                                     "\" --record \"" + recording_ + "\"");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::filesystem::remove(script);
  }
  static void TearDownTestSuite() { std::filesystem::remove(recording_); }
  static std::string recording_;
};
std::string Watch::recording_;

// The number in `stagger replay: LABEL N (t = ...)` lines, in order.
// (Read by hand: GCC 12's <regex> does not compile warning-free under the sanitizers.)
std::vector<long> steps_after(const std::string& out, const std::string& label) {
  std::vector<long> steps;
  const std::string prefix = "stagger replay: " + label + " ";
  for (std::size_t at = out.find(prefix); at != std::string::npos; at = out.find(prefix, at + 1)) {
    const std::size_t digits = at + prefix.size();
    std::size_t end = digits;
    while (end < out.size() && std::isdigit(static_cast<unsigned char>(out[end]))) ++end;
    if (end > digits && out.compare(end, 6, " (t = ") == 0)
      steps.push_back(std::stol(out.substr(digits, end - digits)));
  }
  return steps;
}

TEST_F(Watch, TheViewerPausesStepsOnceAndChangesSpeedFromAKeyList) {
  const test::Xvfb xvfb;
  ASSERT_FALSE(xvfb.display().empty());
  const auto png = test::temp_path("viewer.png");
  // Pause at frame 10, hold 30 frames, step twice, slow to 1/4, play 20 frames, pause, quit.
  const auto r = test::run_stagger(
      "replay \"" + recording_ + "\" --view --size 480 270 --screenshot \"" + png.string() +
          "\" --view-keys 10:space,40:period,41:Right,42:bracketleft,42:bracketleft,43:space,"
          "63:space,70:Escape",
      "DISPLAY=" + xvfb.display() + " " + kLavapipe);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto paused = steps_after(r.out, "paused at step");
  const auto stepped = steps_after(r.out, "step");
  ASSERT_EQ(paused.size(), 2u) << r.out;
  ASSERT_EQ(stepped.size(), 2u) << r.out;
  EXPECT_GT(paused[0], 0) << "it played before the pause";
  // 30 frames paused moved nothing; each step key ran exactly one step.
  EXPECT_EQ(stepped[0], paused[0] + 1) << r.out;
  EXPECT_EQ(stepped[1], paused[0] + 2) << r.out;
  EXPECT_NE(r.out.find("stagger replay: speed 1/4\n"), std::string::npos) << r.out;
  const auto playing = steps_after(r.out, "playing from step");
  ASSERT_EQ(playing.size(), 1u) << r.out;
  EXPECT_EQ(playing[0], stepped[1]);
  // 20 frames at 1/4 speed (each at most 0.1 s of the window's clock) run at most 120 steps.
  EXPECT_GT(paused[1], stepped[1]);
  EXPECT_LE(paused[1], stepped[1] + 120);
  EXPECT_NE(r.out.find("steps viewed and reproduced (ended by Escape)"), std::string::npos)
      << r.out;
  const test::PngImage image = test::read_png(png.string());
  ASSERT_EQ(image.width, 480);
  ASSERT_EQ(image.height, 270);
  const Pixels pixels = count(image);
  EXPECT_GT(pixels.sky, 480 * 67 / 2) << "sky above the arena's walls";
  EXPECT_GT(pixels.floor, 480 * 135 / 2) << "the floor's checker below";
  EXPECT_GT(pixels.red, 30) << "the enemies in view";
  std::filesystem::remove(png);
}

TEST_F(Watch, TheViewerAnswersKeysTypedIntoItsWindow) {
  // xdotool types into the window (the X server gives the keyboard to the window under the
  // pointer): pause, one step, then Escape closes it.
  const test::Xvfb xvfb;
  ASSERT_FALSE(xvfb.display().empty());
  std::thread user([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    const std::string keys = "DISPLAY=" + xvfb.display() +
                             " xdotool mousemove 200 150 key space sleep 0.5 key period sleep 0.5"
                             " key Escape";
    EXPECT_EQ(std::system(keys.c_str()), 0) << "is xdotool installed?";
  });
  const auto r = test::run_stagger("replay \"" + recording_ + "\" --view --size 480 270",
                                   "DISPLAY=" + xvfb.display() + " " + kLavapipe);
  user.join();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto paused = steps_after(r.out, "paused at step");
  const auto stepped = steps_after(r.out, "step");
  ASSERT_EQ(paused.size(), 1u) << r.out;
  ASSERT_EQ(stepped.size(), 1u) << r.out;
  EXPECT_EQ(stepped[0], paused[0] + 1) << r.out;
  EXPECT_NE(r.out.find("(ended by window closed)"), std::string::npos) << r.out;
}

TEST_F(Watch, AVideoOfTheRecordingHasEveryFrameAndShowsTheArena) {
  const auto video = test::temp_path("arena.mp4");
  const auto frame = test::temp_path("arena_frame.png");
  const auto r = test::run_stagger(
      "replay \"" + recording_ + "\" --video \"" + video.string() + "\" --size 320 180 --fps 10",
      "-u DISPLAY " + kLavapipe);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(": 100 frames, 320x180 at 10 fps ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("of 2400 steps reproduced"), std::string::npos) << r.out;
  // ffprobe counts the frames by decoding them all.
  const std::string probe = output_of(
      "ffprobe -v error -select_streams v:0 -count_frames -show_entries "
      "stream=width,height,nb_read_frames -of csv=p=0 \"" +
      video.string() + "\"");
  EXPECT_EQ(probe, "320,180,100\n");
  // The frame at 5 s: the arena's floor, its sky, its enemies.
  ASSERT_EQ(std::system(("ffmpeg -v error -y -ss 5 -i \"" + video.string() + "\" -frames:v 1 \"" +
                         frame.string() + "\"")
                            .c_str()),
            0);
  const test::PngImage image = test::read_png(frame.string());
  ASSERT_EQ(image.width, 320);
  const Pixels pixels = count(image);
  EXPECT_GT(pixels.floor, 320 * 90 / 2);
  EXPECT_GT(pixels.sky, 320 * 45 / 2);
  EXPECT_GT(pixels.red, 20);
  std::filesystem::remove(video);
  std::filesystem::remove(frame);
}

TEST_F(Watch, WithoutFfmpegAVideoIsRefusedInOneSentence) {
  const auto video = test::temp_path("none.mp4");
  // A PATH with no ffmpeg on it.
  const auto r = test::run_stagger(
      "replay \"" + recording_ + "\" --video \"" + video.string() + "\" --size 320 180",
      "PATH=/nonexistent " + kLavapipe);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "stagger replay: making a video needs ffmpeg, which was not found on PATH (Debian: "
            "apt-get install ffmpeg)\n");
  EXPECT_FALSE(std::filesystem::exists(video));
}

TEST(RenderVideo, FilmsALevelFromTheStartWithItsScript) {
  const auto video = test::temp_path("render.mp4");
  const auto png = test::temp_path("render_last.png");
  const std::string script = write_file("render_push.json", R"({ "events": [
    { "t": 0.5, "type": "push", "enemy": "guard-1", "body": "chest", "impulse": [0, 0, 150] } ] })");
  const auto r = test::run_stagger("render courtyard --seconds 2 --video \"" + video.string() +
                                       "\" --fps 15 --size 320 180 -o \"" + png.string() +
                                       "\" --input \"" + script + "\"",
                                   "-u DISPLAY " + kLavapipe);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(": 30 frames, 320x180 at 15 fps ("), std::string::npos) << r.out;
  EXPECT_EQ(output_of("ffprobe -v error -select_streams v:0 -count_frames -show_entries "
                      "stream=width,height,nb_read_frames,r_frame_rate -of csv=p=0 \"" +
                      video.string() + "\""),
            "320,180,15/1,30\n");
  EXPECT_EQ(test::read_png(png.string()).width, 320) << "-o still writes the last frame";
  for (const auto& p : {video, png}) std::filesystem::remove(p);
  std::filesystem::remove(script);
}

}  // namespace
}  // namespace stagger
