// The game's OpenXR input (vr/src/xr_input.cpp) and VR frontend (vr/src/xr_frontend.cpp) in
// this process, against the project's simulated OpenXR runtime (simxr/) through Debian's
// loader, Vulkan on lavapipe: the bindings of each controller as the game suggests them, and what
// the game loop reads from each frame's FrameInput, with the controllers' inputs set through the
// runtime's control API between frames.

// xr_common.h (through xr_input.h) may include OpenXR's platform header first: with timespec
// conversion, as xr_test_util.h wants it.
#define XR_USE_TIMESPEC 1
#include "xr_input.h"

#include <gtest/gtest.h>
#include <time.h>

#include <memory>
#include <ostream>
#include <string>

#include "draw_list.h"
#include "frontend.h"
#include "stagger/sim/scene.h"
#include "stagger/sim/simulation.h"
#include "xr_frontend.h"
#include "xr_runtime/xr_test_util.h"

namespace stagger::vr {
namespace {

using simxr::test::Control;

constexpr const char* kSimple = "/interaction_profiles/khr/simple_controller";
constexpr const char* kTouch = "/interaction_profiles/oculus/touch_controller";
constexpr const char* kIndex = "/interaction_profiles/valve/index_controller";
constexpr const char* kVive = "/interaction_profiles/htc/vive_controller";
constexpr const char* kWmr = "/interaction_profiles/microsoft/motion_controller";

/// [frames] the session is FOCUSED well within this many frames (SimXR: the third).
constexpr int kFramesToFocus = 20;

std::string script_holding(const std::string& profile) {
  return R"({"display_hz": 0, "hand_tracking": false, "interaction_profile": ")" + profile + "\"}";
}

// The game's bindings on a headless session: every profile accepted, and a WMR controller's
// trigger, button squeeze, sticks and haptics read as the game reads them.
TEST(XrInput, AWindowsMixedRealityControllerReadsItsTriggerSqueezeSticksAndHaptics) {
  Control control;
  control.fresh(script_holding(kWmr));
  simxr::test::HeadlessSession h;
  XrInput input(h.instance);
  EXPECT_TRUE(input.refused_profiles().empty());  // (SimXR checks every path of all five)
  input.attach(h.session);
  h.run_to_focused();
  control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_RIGHT, "trigger", 0.7f, 0.0f);
  control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_RIGHT, "squeeze", 0.9f, 0.0f);
  control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_LEFT, "squeeze", 0.3f, 0.0f);
  control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_LEFT, "thumbstick", 0.0f, 1.0f);
  control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_RIGHT, "thumbstick", 1.0f, 0.0f);
  control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_RIGHT, "thumbstick_click", 1.0f, 0.0f);
  const XrSpace stage = simxr::test::reference_space(h.session, XR_REFERENCE_SPACE_TYPE_STAGE);
  const std::array<ControllerState, 2> hands = input.read(stage, simxr::test::now_xr(h.instance));
  EXPECT_EQ(input.current_profile(0), kWmr);
  EXPECT_EQ(input.current_profile(1), kWmr);
  const ControllerState& left = hands[0];
  const ControllerState& right = hands[1];
  EXPECT_TRUE(left.active && left.position_valid && left.orientation_valid);
  EXPECT_FLOAT_EQ(right.trigger, 0.7f);
  EXPECT_EQ(right.squeeze, 1.0f);  // a button: pressed is 1
  EXPECT_EQ(left.squeeze, 0.0f);   // ... and not yet pressed 0
  EXPECT_EQ(left.move.y, 1.0f);    // the left stick moves ...
  EXPECT_EQ(left.turn.x, 0.0f);
  EXPECT_EQ(right.turn.x, 1.0f);  // ... the right one turns
  EXPECT_EQ(right.move.y, 0.0f);
  EXPECT_TRUE(right.turn_click);
  EXPECT_FALSE(left.move_click);
  control.stagger_simxr_clear_haptics();
  input.haptic_pulse(1, 0.5f, 30000000);
  ASSERT_EQ(control.stagger_simxr_haptic_count(), 1u);
  StaggerSimxrHaptic pulse{};
  ASSERT_EQ(control.stagger_simxr_get_haptic(0, &pulse), 0);
  EXPECT_EQ(pulse.hand, STAGGER_SIMXR_HAND_RIGHT);
  EXPECT_FLOAT_EQ(pulse.amplitude, 0.5f);
  EXPECT_EQ(pulse.delivered, 1);
  input.detach();
}

// One game's VR frontend on the built-in scene, the runtime scripted to hold `profile`.
class XrFrontendTest : public ::testing::Test {
 protected:
  void start(const std::string& profile) {
    simxr::test::set_environment();
    control_.fresh(script_holding(profile));
    auto xr = create_xr(*geometry_, scene_, PlaySettings{});
    ASSERT_TRUE(xr.ok()) << xr.error();
    frontend_ = std::move(xr).value();
    for (int i = 0; i < kFramesToFocus && !next_frame().focused; ++i) {
    }
    ASSERT_TRUE(next_frame().focused);
  }

  // One frame: its input, then an empty picture drawn.
  FrameInput next_frame() {
    FrameInput input;
    EXPECT_TRUE(frontend_->begin_frame(input));
    frontend_->draw(DrawFrame{}, false);
    return input;
  }

  void set(int hand, const char* input, float x, float y) {
    ASSERT_EQ(control_.stagger_simxr_set_input(hand, input, x, y), 0) << input;
  }

  Control control_;
  sim::SceneDescription scene_ = sim::builtin_scene(1);
  sim::Simulation simulation_{scene_};
  std::unique_ptr<SceneGeometry> geometry_ = std::make_unique<SceneGeometry>(simulation_);
  std::unique_ptr<Frontend> frontend_;
};

struct StickProfile {
  const char* profile;
  const char* stick;  ///< the input the runtime moves: thumbstick, or trackpad on a Vive
};

void PrintTo(const StickProfile& p, std::ostream* out) {
  *out << p.profile;
}

class XrFrontendSticks : public XrFrontendTest,
                         public ::testing::WithParamInterface<StickProfile> {};

TEST_P(XrFrontendSticks, LeftMovesRightTurnsAndAPressOfEitherIsSeen) {
  const StickProfile p = GetParam();
  start(p.profile);
  const std::string click = std::string(p.stick) + "_click";
  set(STAGGER_SIMXR_HAND_LEFT, p.stick, 0.25f, 0.75f);  // right a little, mostly forward
  set(STAGGER_SIMXR_HAND_RIGHT, p.stick, -0.5f, 0.0f);  // turning left
  set(STAGGER_SIMXR_HAND_RIGHT, click.c_str(), 1.0f, 0.0f);
  FrameInput in = next_frame();
  EXPECT_FLOAT_EQ(in.move_stick[0], 0.25f);
  EXPECT_FLOAT_EQ(in.move_stick[1], 0.75f);
  EXPECT_FLOAT_EQ(in.turn_stick[0], -0.5f);
  EXPECT_FLOAT_EQ(in.turn_stick[1], 0.0f);
  EXPECT_FALSE(in.move_click);
  EXPECT_TRUE(in.turn_click);
  // A runtime's value past the end of the axis is held to -1..1.
  set(STAGGER_SIMXR_HAND_LEFT, p.stick, 2.0f, -3.0f);
  set(STAGGER_SIMXR_HAND_LEFT, click.c_str(), 1.0f, 0.0f);
  set(STAGGER_SIMXR_HAND_RIGHT, click.c_str(), 0.0f, 0.0f);
  in = next_frame();
  EXPECT_EQ(in.move_stick, (std::array<float, 2>{1.0f, -1.0f}));
  EXPECT_TRUE(in.move_click);
  EXPECT_FALSE(in.turn_click);
  // Unfocused, the sticks read zero (the runtime still holds them pushed).
  ASSERT_EQ(control_.stagger_simxr_queue_event(STAGGER_SIMXR_EVENT_FOCUS_LOSS, 0), 0);
  for (int i = 0; i < kFramesToFocus && in.focused; ++i) in = next_frame();
  ASSERT_FALSE(in.focused);
  EXPECT_EQ(in.move_stick, (std::array<float, 2>{0.0f, 0.0f}));
  EXPECT_EQ(in.turn_stick, (std::array<float, 2>{0.0f, 0.0f}));
  EXPECT_FALSE(in.move_click);
}

INSTANTIATE_TEST_SUITE_P(EveryControllerWithAStick, XrFrontendSticks,
                         ::testing::Values(StickProfile{kTouch, "thumbstick"},
                                           StickProfile{kIndex, "thumbstick"},
                                           StickProfile{kVive, "trackpad"},
                                           StickProfile{kWmr, "thumbstick"}),
                         [](const ::testing::TestParamInfo<StickProfile>& param) {
                           const std::string p = param.param.profile;
                           return p.substr(p.find_last_of('/') + 1);
                         });

TEST_F(XrFrontendTest, TheSimpleControllerHasNoStickAndReadsZero) {
  start(kSimple);
  set(STAGGER_SIMXR_HAND_LEFT, "thumbstick", 0.5f, 0.5f);  // (no such input on this controller)
  set(STAGGER_SIMXR_HAND_RIGHT, "trackpad", 0.5f, 0.5f);
  const FrameInput in = next_frame();
  EXPECT_TRUE(in.hands[1].tracked);  // the controller is there and bound
  EXPECT_EQ(in.move_stick, (std::array<float, 2>{0.0f, 0.0f}));
  EXPECT_EQ(in.turn_stick, (std::array<float, 2>{0.0f, 0.0f}));
}

TEST_F(XrFrontendTest, AWindowsMixedRealityTrackpadIsNotTheStick) {
  start(kWmr);
  set(STAGGER_SIMXR_HAND_LEFT, "trackpad", 0.0f, 1.0f);  // (the stick moves; the trackpad is free)
  const FrameInput in = next_frame();
  EXPECT_TRUE(in.hands[0].tracked);
  EXPECT_EQ(in.move_stick, (std::array<float, 2>{0.0f, 0.0f}));
  EXPECT_EQ(frontend_->frames_in_flight(), 2);
}

}  // namespace
}  // namespace stagger::vr
