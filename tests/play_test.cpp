// `stagger play`: a desktop window under a private Xvfb on lavapipe, the clear failure
// without an OpenXR runtime, `auto` falling back and saying so; `stagger render`.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "png_image.h"
#include "process.h"
#include "stagger/sim/report.h"
#include "xvfb.h"

namespace stagger {
namespace {

// Mesa's CPU Vulkan driver, so a machine with a GPU runs the same pixels as CI.
const std::string kLavapipe = "VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
const std::string kNoRuntime = "XR_RUNTIME_JSON=/nonexistent/openxr_runtime.json";

bool enemy_red(const std::uint8_t* p) {
  return p[0] > p[1] + 30 && p[0] > p[2] + 30;
}
bool sky_blue(const std::uint8_t* p) {
  return p[2] > p[0] + 30 && p[2] > 150;
}

struct PixelCounts {
  int enemy = 0, sky = 0;
};

PixelCounts count_pixels(const test::PngImage& image, int y0, int y1) {
  PixelCounts c;
  for (int y = y0; y < y1; ++y) {
    for (int x = 0; x < image.width; ++x) {
      if (enemy_red(image.at(x, y))) ++c.enemy;
      if (sky_blue(image.at(x, y))) ++c.sky;
    }
  }
  return c;
}

TEST(Play, DesktopModeUnderXvfbDrawsTheLevelAndItsEnemies) {
  const test::Xvfb xvfb;
  ASSERT_FALSE(xvfb.display().empty()) << "Xvfb did not start (is the xvfb package installed?)";
  const auto png = test::temp_path("desktop.png");
  const auto report = test::temp_path("desktop.json");
  // With Vulkan's validation layer: the window's swapchain, the renderer and the readback.
  const auto r =
      test::run_stagger("play courtyard --mode desktop --seconds 5 --screenshot \"" + png.string() +
                            "\" --report \"" + report.string() + "\"",
                        "DISPLAY=" + xvfb.display() + " " + kLavapipe + " " + kNoRuntime +
                            " VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("Validation Error"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("Validation Error"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.rfind("stagger play: mode desktop on ", 0), 0u)
      << r.out;  // the first line says the mode
  const test::PngImage image = test::read_png(png.string());
  ASSERT_EQ(image.width, 1280);
  ASSERT_EQ(image.height, 720);
  // Sky above the courtyard's walls, floor below, and the two guards in red between.
  const PixelCounts top = count_pixels(image, 0, 100);
  EXPECT_GT(top.sky, 1280 * 90);
  const PixelCounts bottom = count_pixels(image, 620, 720);
  EXPECT_LT(bottom.sky, 1280 * 100 / 10);  // (the resting ghost hands are pale blue too)
  const PixelCounts all = count_pixels(image, 0, 720);
  EXPECT_GT(all.enemy, 300) << "the guards should be in view";
  const auto json = nlohmann::json::parse(test::read_file(report));
  EXPECT_EQ(json["format_version"], sim::kReportFormatVersion) << "the simulation report's";
  EXPECT_EQ(json["play"]["mode"], "desktop");
  EXPECT_GE(json["play"]["frames"].get<int>(), 20);
  EXPECT_NEAR(json["play"]["game_seconds"].get<double>(), 5.0, 0.1);
  EXPECT_GT(json["play"]["cpu_ms_per_frame"]["render"]["p50"].get<double>(), 0.0);
  EXPECT_EQ(json["enemies"].size(), 2u);
  std::filesystem::remove(png);
  std::filesystem::remove(report);
}

TEST(Play, InTheWindowTheLeftMouseButtonDrivesTheRightHand) {
  // xdotool plays the user: after 2.5 s, hold the left button and drag for 1.2 s.
  const test::Xvfb xvfb;
  ASSERT_FALSE(xvfb.display().empty());
  const auto report = test::temp_path("mouse.json");
  std::thread user([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    const std::string drag = "DISPLAY=" + xvfb.display() +
                             " xdotool mousemove 640 400 mousedown 1 sleep 0.4 mousemove 700 380 "
                             "sleep 0.4 mousemove 760 360"
                             " sleep 0.4 mouseup 1";
    EXPECT_EQ(std::system(drag.c_str()), 0) << "is xdotool installed?";
  });
  const auto r = test::run_stagger(
      "play courtyard --mode desktop --seconds 5 --report \"" + report.string() + "\"",
      "DISPLAY=" + xvfb.display() + " " + kLavapipe + " " + kNoRuntime);
  user.join();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto json = nlohmann::json::parse(test::read_file(report));
  // Tracked while the button was held (about 1.2 s of frames), never otherwise; the left hand
  // never.
  EXPECT_GT(json["play"]["hands"]["right"]["tracked_frames"].get<int>(), 5);
  EXPECT_EQ(json["play"]["hands"]["left"]["tracked_frames"], 0);
  std::filesystem::remove(report);
}

TEST(Play, InTheWindowWWalksTheBodyUpTheCorridorsRampAndNotThroughItsWalls) {
  // The corridor: the player starts at z = -13 facing +Z down a 4 m wide corridor whose 10° ramp
  // rises from z = 3 to a 1 m landing at z = 8.8 that ends at z = 15.2. xdotool holds W for
  // 9.5 s (at 2.5 m/s about 23 m: up the ramp and onto the landing).
  const test::Xvfb xvfb;
  ASSERT_FALSE(xvfb.display().empty());
  const auto png = test::temp_path("corridor.png");
  const auto report = test::temp_path("walk.json");
  std::thread user([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    const std::string walk =
        "DISPLAY=" + xvfb.display() + " xdotool mousemove 640 400 keydown w sleep 9.5 keyup w";
    EXPECT_EQ(std::system(walk.c_str()), 0) << "is xdotool installed?";
  });
  const auto r =
      test::run_stagger("play corridor --mode desktop --seconds 14 --screenshot \"" + png.string() +
                            "\" --report \"" + report.string() + "\"",
                        "DISPLAY=" + xvfb.display() + " " + kLavapipe + " " + kNoRuntime);
  user.join();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto json = nlohmann::json::parse(test::read_file(report));
  const auto& feet = json["play"]["player"]["feet"];
  std::printf("player feet (%.2f, %.2f, %.2f), walked %.1f m\n", feet[0].get<double>(),
              feet[1].get<double>(), feet[2].get<double>(),
              json["play"]["player"]["walked_m"].get<double>());
  EXPECT_NEAR(feet[1].get<double>(), 1.0, 0.05) << "on the landing";
  EXPECT_GT(feet[2].get<double>(), 9.0);
  EXPECT_LT(feet[2].get<double>(), 14.0);
  EXPECT_LE(std::fabs(feet[0].get<double>()), 2.0 - 0.25 + 1e-3) << "between the walls";
  // Looking along the landing from its floor: sky above, the landing and the walls' ends below.
  const test::PngImage image = test::read_png(png.string());
  ASSERT_EQ(image.width, 1280);
  EXPECT_GT(count_pixels(image, 0, 100).sky, 1280 * 90);
  EXPECT_LT(count_pixels(image, 620, 720).sky, 1280 * 100 / 2);
  std::filesystem::remove(png);
  std::filesystem::remove(report);
}

TEST(Play, XrWithoutARuntimeFailsWithOneSentence) {
  const auto r = test::run_stagger("play courtyard --mode xr --seconds 1", kNoRuntime);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "stagger play: no OpenXR runtime is available (XR_ERROR_RUNTIME_UNAVAILABLE): start "
            "one (SteamVR, Monado) "
            "or play with --mode desktop\n");
}

TEST(Play, AutoFallsBackToHeadlessAndSaysWhy) {
  const auto r = test::run_stagger("play courtyard --mode auto --seconds 1",
                                   "-u DISPLAY -u WAYLAND_DISPLAY " + kNoRuntime);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("stagger play: mode headless (no XR: no OpenXR runtime is available", 0),
            0u)
      << r.out;
  EXPECT_NE(r.out.find("; no desktop window: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ended by time"), std::string::npos) << r.out;
}

// Both are usage errors (exit 2), found before anything starts, as for every subcommand.
TEST(Play, HeadlessNeedsAnEndAndUnknownLevelsAreNamed) {
  EXPECT_EQ(test::run_stagger("play courtyard --mode headless").exit_code, 2);
  const auto r = test::run_stagger("play nowhere --mode headless --seconds 1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "stagger play: no level file or sample level named nowhere (the samples: courtyard, "
            "corridor, arena, gltf_yard)");
  EXPECT_EQ(test::run_stagger("play courtyard --mode vr").exit_code, 2);
}

TEST(Play, RenderWritesALevelPictureOffscreen) {
  const auto png = test::temp_path("render.png");
  const auto r = test::run_stagger(
      "render arena -o \"" + png.string() + "\" --size 320 200 --seconds 0.5", kLavapipe);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const test::PngImage image = test::read_png(png.string());
  EXPECT_EQ(image.width, 320);
  EXPECT_EQ(image.height, 200);
  EXPECT_GT(count_pixels(image, 0, 200).enemy, 20);
  std::filesystem::remove(png);
}

}  // namespace
}  // namespace stagger
