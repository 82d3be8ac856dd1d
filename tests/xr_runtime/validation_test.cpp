// The runtime under Khronos' core validation layer, and script error reporting.
#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

#include "xr_test_util.h"

namespace stagger::simxr::test {
namespace {

// A full headless run (session states, frames, actions, haptics, exit) under the layer: it must
// report nothing. First prove that the layer is active and reports to the file.
TEST(XrRuntimeValidation, CoreValidationLayerReportsNothing) {
  Control control;
  control.fresh();
  const std::string bad_file = ::testing::TempDir() + "simxr_core_validation_bad.txt";
  {
    CoreValidation layer(bad_file);
    XrInstance instance = create_instance({XR_MND_HEADLESS_EXTENSION_NAME});
    XrEventDataBuffer wrong{XR_TYPE_SPACE_LOCATION};  // an application bug the layer must catch
    EXPECT_EQ(xrPollEvent(instance, &wrong), XR_ERROR_VALIDATION_FAILURE);
    xrDestroyInstance(instance);
  }
  EXPECT_NE(read_file(bad_file).find("VUID-"), std::string::npos)
      << "the layer did not report to " << bad_file;

  const std::string file = ::testing::TempDir() + "simxr_core_validation.txt";
  {
    CoreValidation layer(file);
    HeadlessSession h({XR_EXT_HAND_TRACKING_EXTENSION_NAME});
    XrActionSet set = XR_NULL_HANDLE;
    XrActionSetCreateInfo set_info{XR_TYPE_ACTION_SET_CREATE_INFO};
    std::strcpy(set_info.actionSetName, "gameplay");
    std::strcpy(set_info.localizedActionSetName, "Gameplay");
    ASSERT_EQ(xrCreateActionSet(h.instance, &set_info, &set), XR_SUCCESS);
    const XrPath hands[2] = {path(h.instance, "/user/hand/left"),
                             path(h.instance, "/user/hand/right")};
    XrActionCreateInfo action_info{XR_TYPE_ACTION_CREATE_INFO};
    std::strcpy(action_info.actionName, "grip");
    std::strcpy(action_info.localizedActionName, "Grip");
    action_info.actionType = XR_ACTION_TYPE_POSE_INPUT;
    action_info.countSubactionPaths = 2;
    action_info.subactionPaths = hands;
    XrAction grip = XR_NULL_HANDLE;
    ASSERT_EQ(xrCreateAction(set, &action_info, &grip), XR_SUCCESS);
    std::strcpy(action_info.actionName, "buzz");
    std::strcpy(action_info.localizedActionName, "Buzz");
    action_info.actionType = XR_ACTION_TYPE_VIBRATION_OUTPUT;
    XrAction buzz = XR_NULL_HANDLE;
    ASSERT_EQ(xrCreateAction(set, &action_info, &buzz), XR_SUCCESS);
    const XrActionSuggestedBinding bindings[] = {
        {grip, path(h.instance, "/user/hand/left/input/grip/pose")},
        {grip, path(h.instance, "/user/hand/right/input/grip/pose")},
        {buzz, path(h.instance, "/user/hand/right/output/haptic")}};
    XrInteractionProfileSuggestedBinding suggested{XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING};
    suggested.interactionProfile =
        path(h.instance, "/interaction_profiles/oculus/touch_controller");
    suggested.countSuggestedBindings = 3;
    suggested.suggestedBindings = bindings;
    ASSERT_EQ(xrSuggestInteractionProfileBindings(h.instance, &suggested), XR_SUCCESS);
    XrSessionActionSetsAttachInfo attach{XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO};
    attach.countActionSets = 1;
    attach.actionSets = &set;
    ASSERT_EQ(xrAttachSessionActionSets(h.session, &attach), XR_SUCCESS);
    h.run_to_focused();
    const XrSpace stage = reference_space(h.session, XR_REFERENCE_SPACE_TYPE_STAGE);
    ASSERT_NE(stage, XR_NULL_HANDLE);
    XrActionSpaceCreateInfo space_info{XR_TYPE_ACTION_SPACE_CREATE_INFO};
    space_info.action = grip;
    space_info.subactionPath = hands[1];
    space_info.poseInActionSpace.orientation.w = 1.0f;
    XrSpace grip_space = XR_NULL_HANDLE;
    ASSERT_EQ(xrCreateActionSpace(h.session, &space_info, &grip_space), XR_SUCCESS);
    for (int frame = 0; frame < 10; ++frame) {
      XrFrameState state{XR_TYPE_FRAME_STATE};
      ASSERT_EQ(empty_frame(h.session, &state), XR_SUCCESS);
      const XrActiveActionSet active{set, XR_NULL_PATH};
      XrActionsSyncInfo sync{XR_TYPE_ACTIONS_SYNC_INFO};
      sync.countActiveActionSets = 1;
      sync.activeActionSets = &active;
      ASSERT_EQ(xrSyncActions(h.session, &sync), XR_SUCCESS);
      XrSpaceVelocity velocity{XR_TYPE_SPACE_VELOCITY};
      XrSpaceLocation location{XR_TYPE_SPACE_LOCATION, &velocity};
      ASSERT_EQ(xrLocateSpace(grip_space, stage, state.predictedDisplayTime, &location),
                XR_SUCCESS);
      XrHapticActionInfo haptic{XR_TYPE_HAPTIC_ACTION_INFO};
      haptic.action = buzz;
      XrHapticVibration vibration{XR_TYPE_HAPTIC_VIBRATION};
      vibration.amplitude = 0.5f;
      vibration.duration = XR_MIN_HAPTIC_DURATION;
      ASSERT_EQ(xrApplyHapticFeedback(h.session, &haptic,
                                      reinterpret_cast<XrHapticBaseHeader*>(&vibration)),
                XR_SUCCESS);
    }
    ASSERT_EQ(xrRequestExitSession(h.session), XR_SUCCESS);
    poll_states(h.instance);
    ASSERT_EQ(xrEndSession(h.session), XR_SUCCESS);
    EXPECT_EQ(poll_states(h.instance).back(), XR_SESSION_STATE_EXITING);
  }
  EXPECT_EQ(read_file(file), "");
}

// A malformed STAGGER_SIMXR_SCRIPT makes xrCreateInstance fail with a message naming the file.
TEST(XrRuntimeValidation, MalformedScriptIsRejectedAtCreateInstance) {
  const std::string script = ::testing::TempDir() + "simxr_bad_script.json";
  {
    std::ofstream out(script);
    out << R"({"display_hz": 90, "events": [{"t": 1.0, "type": "hand", "hand": "middle", "path": []}]})";
  }
  set_environment();
  const std::string command = std::string(STAGGER_HELLO_XR_RUNNER) + " " + STAGGER_HELLO_XR + " " +
                              script + " -g Vulkan2 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  ASSERT_NE(pipe, nullptr);
  std::string output;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe.get()) != nullptr) output += buffer.data();
  EXPECT_NE(
      output.find("stagger_simxr: error: STAGGER_SIMXR_SCRIPT " + script + ": events[0].hand"),
      std::string::npos)
      << output;
  EXPECT_NE(output.find("XR_ERROR_RUNTIME_FAILURE"), std::string::npos) << output;
  EXPECT_EQ(output.find("hello_xr exit code: 0"), std::string::npos) << output;
}

}  // namespace
}  // namespace stagger::simxr::test
