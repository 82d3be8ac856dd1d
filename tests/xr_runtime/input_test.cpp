// Actions, interaction profiles, scripted poses, conversions, haptics, focus and hand tracking.
#include <chrono>
#include <cmath>
#include <ostream>
#include <thread>

#include "xr_test_util.h"

namespace stagger::simxr::test {
namespace {

using States = std::vector<XrSessionState>;

constexpr const char* kTouch = "/interaction_profiles/oculus/touch_controller";
constexpr const char* kIndex = "/interaction_profiles/valve/index_controller";
constexpr const char* kVive = "/interaction_profiles/htc/vive_controller";
constexpr const char* kSimple = "/interaction_profiles/khr/simple_controller";
constexpr const char* kWmr = "/interaction_profiles/microsoft/motion_controller";

XrAction make_action(XrActionSet set, const char* name, XrActionType type,
                     const std::vector<XrPath>& subactions) {
  XrActionCreateInfo info{XR_TYPE_ACTION_CREATE_INFO};
  std::strcpy(info.actionName, name);
  std::strcpy(info.localizedActionName, name);
  info.actionType = type;
  info.countSubactionPaths = static_cast<uint32_t>(subactions.size());
  info.subactionPaths = subactions.data();
  XrAction action = XR_NULL_HANDLE;
  EXPECT_EQ(xrCreateAction(set, &info, &action), XR_SUCCESS) << name;
  return action;
}

/// A headless session with one action set: grip pose, trigger (float), squeeze (float), haptic,
/// a stick (vector) and its press (boolean).
struct Rig : HeadlessSession {
  XrActionSet set = XR_NULL_HANDLE;
  XrAction pose = XR_NULL_HANDLE, trigger = XR_NULL_HANDLE, squeeze = XR_NULL_HANDLE,
           haptic = XR_NULL_HANDLE;
  XrAction pressed = XR_NULL_HANDLE;  ///< boolean on the trigger's value (threshold conversion)
  XrAction stick = XR_NULL_HANDLE, stick_press = XR_NULL_HANDLE;
  XrPath left = XR_NULL_PATH, right = XR_NULL_PATH;

  explicit Rig(std::vector<const char*> extra = {}) : HeadlessSession(std::move(extra)) {
    XrActionSetCreateInfo info{XR_TYPE_ACTION_SET_CREATE_INFO};
    std::strcpy(info.actionSetName, "gameplay");
    std::strcpy(info.localizedActionSetName, "Gameplay");
    EXPECT_EQ(xrCreateActionSet(instance, &info, &set), XR_SUCCESS);
    left = path(instance, "/user/hand/left");
    right = path(instance, "/user/hand/right");
    pose = make_action(set, "grip_pose", XR_ACTION_TYPE_POSE_INPUT, {left, right});
    trigger = make_action(set, "trigger", XR_ACTION_TYPE_FLOAT_INPUT, {left, right});
    squeeze = make_action(set, "squeeze", XR_ACTION_TYPE_FLOAT_INPUT, {left, right});
    haptic = make_action(set, "haptic", XR_ACTION_TYPE_VIBRATION_OUTPUT, {left, right});
    pressed = make_action(set, "pressed", XR_ACTION_TYPE_BOOLEAN_INPUT, {left, right});
    stick = make_action(set, "stick", XR_ACTION_TYPE_VECTOR2F_INPUT, {left, right});
    stick_press = make_action(set, "stick_press", XR_ACTION_TYPE_BOOLEAN_INPUT, {left, right});
  }

  XrResult suggest(const char* profile,
                   const std::vector<std::pair<XrAction, const char*>>& bindings) {
    std::vector<XrActionSuggestedBinding> list;
    for (const auto& [action, p] : bindings) list.push_back({action, path(instance, p)});
    XrInteractionProfileSuggestedBinding suggested{XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING};
    suggested.interactionProfile = path(instance, profile);
    suggested.countSuggestedBindings = static_cast<uint32_t>(list.size());
    suggested.suggestedBindings = list.data();
    return xrSuggestInteractionProfileBindings(instance, &suggested);
  }

  /// The usual bindings of `profile` for the right hand.
  void suggest_standard(const std::string& profile) {
    std::vector<std::pair<XrAction, const char*>> b{{pose, "/user/hand/right/input/grip/pose"},
                                                    {haptic, "/user/hand/right/output/haptic"}};
    if (profile == kSimple) {
      b.push_back({trigger, "/user/hand/right/input/select/click"});
    } else {
      b.push_back({trigger, "/user/hand/right/input/trigger/value"});
      b.push_back({pressed, "/user/hand/right/input/trigger/value"});
      // (Vive and WMR squeezes are buttons)
      b.push_back({squeeze, profile == kVive || profile == kWmr
                                ? "/user/hand/right/input/squeeze/click"
                                : "/user/hand/right/input/squeeze/value"});
    }
    ASSERT_EQ(suggest(profile.c_str(), b), XR_SUCCESS);
  }

  void attach() {
    XrSessionActionSetsAttachInfo info{XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO};
    info.countActionSets = 1;
    info.actionSets = &set;
    ASSERT_EQ(xrAttachSessionActionSets(session, &info), XR_SUCCESS);
  }

  XrResult sync() {
    XrActiveActionSet active{set, XR_NULL_PATH};
    XrActionsSyncInfo info{XR_TYPE_ACTIONS_SYNC_INFO};
    info.countActiveActionSets = 1;
    info.activeActionSets = &active;
    return xrSyncActions(session, &info);
  }

  // The state of `action` for `sub` (XR_NULL_PATH: all of them), a `State` of structure `type`
  // read by `get` (xrGetActionStateFloat, ...).
  template <typename State>
  State action_state(XrAction action, XrPath sub, XrStructureType type,
                     XrResult (*get)(XrSession, const XrActionStateGetInfo*, State*)) {
    XrActionStateGetInfo info{XR_TYPE_ACTION_STATE_GET_INFO};
    info.action = action;
    info.subactionPath = sub;
    State state{type};
    EXPECT_EQ(get(session, &info, &state), XR_SUCCESS);
    return state;
  }

  XrActionStateFloat float_state(XrAction action, XrPath sub = XR_NULL_PATH) {
    return action_state(action, sub, XR_TYPE_ACTION_STATE_FLOAT, xrGetActionStateFloat);
  }

  XrActionStateBoolean bool_state(XrAction action, XrPath sub = XR_NULL_PATH) {
    return action_state(action, sub, XR_TYPE_ACTION_STATE_BOOLEAN, xrGetActionStateBoolean);
  }

  XrActionStateVector2f vector_state(XrAction action, XrPath sub = XR_NULL_PATH) {
    return action_state(action, sub, XR_TYPE_ACTION_STATE_VECTOR2F, xrGetActionStateVector2f);
  }

  XrResult vibrate(float amplitude) {
    XrHapticActionInfo info{XR_TYPE_HAPTIC_ACTION_INFO};
    info.action = haptic;
    XrHapticVibration v{XR_TYPE_HAPTIC_VIBRATION};
    v.amplitude = amplitude;
    v.duration = 20000000;
    v.frequency = XR_FREQUENCY_UNSPECIFIED;
    return xrApplyHapticFeedback(session, &info, reinterpret_cast<XrHapticBaseHeader*>(&v));
  }

  XrSpace space(XrReferenceSpaceType type) { return reference_space(session, type); }

  XrSpace grip_space(XrPath sub) {
    XrActionSpaceCreateInfo info{XR_TYPE_ACTION_SPACE_CREATE_INFO};
    info.action = pose;
    info.subactionPath = sub;
    info.poseInActionSpace.orientation.w = 1.0f;
    XrSpace s = XR_NULL_HANDLE;
    EXPECT_EQ(xrCreateActionSpace(session, &info, &s), XR_SUCCESS);
    return s;
  }

  /// Attach, begin, reach FOCUSED; returns the number of INTERACTION_PROFILE_CHANGED events.
  int start() {
    attach();
    poll_states(instance);
    begin_session(session);
    int changes = 0;
    const States states = poll_states(instance, &changes);
    EXPECT_EQ(states.back(), XR_SESSION_STATE_FOCUSED);
    poll_states(instance, &changes);
    return changes;
  }
};

class XrRuntimeProfiles : public ::testing::TestWithParam<const char*> {};

TEST_P(XrRuntimeProfiles, BindsPoseTriggerSqueezeAndHaptics) {
  const std::string profile = GetParam();
  Control control;
  control.fresh(std::string(R"({"display_hz": 0, "interaction_profile": ")") + profile + "\"}");
  Rig rig;
  rig.suggest_standard(profile);
  EXPECT_EQ(rig.start(), 1);
  XrInteractionProfileState current{XR_TYPE_INTERACTION_PROFILE_STATE};
  ASSERT_EQ(xrGetCurrentInteractionProfile(rig.session, rig.right, &current), XR_SUCCESS);
  EXPECT_EQ(current.interactionProfile, path(rig.instance, profile.c_str()));

  const float position[3] = {0.1f, 1.2f, -0.4f};
  const float orientation[4] = {0.0f, 0.38268343f, 0.0f, 0.92387953f};  // 45 deg about +Y
  const float linear[3] = {0.5f, 0.0f, -1.0f};
  const float angular[3] = {0.0f, 2.0f, 0.0f};
  ASSERT_EQ(control.stagger_simxr_set_hand_pose(STAGGER_SIMXR_HAND_RIGHT, position, orientation),
            0);
  ASSERT_EQ(control.stagger_simxr_set_hand_velocity(STAGGER_SIMXR_HAND_RIGHT, linear, angular), 0);
  ASSERT_EQ(control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_RIGHT,
                                            profile == kSimple ? "select" : "trigger", 0.8f, 0.0f),
            0);
  ASSERT_EQ(control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_RIGHT, "squeeze", 1.0f, 0.0f), 0);
  ASSERT_EQ(rig.sync(), XR_SUCCESS);

  const XrActionStateFloat trigger = rig.float_state(rig.trigger);
  EXPECT_TRUE(trigger.isActive);
  EXPECT_FLOAT_EQ(trigger.currentState, profile == kSimple ? 1.0f : 0.8f);  // select/click -> 0/1
  const XrActionStateFloat squeeze = rig.float_state(rig.squeeze);
  EXPECT_EQ(squeeze.isActive, profile == kSimple ? XR_FALSE : XR_TRUE);
  if (profile != kSimple) {
    EXPECT_FLOAT_EQ(squeeze.currentState, 1.0f);
  }
  EXPECT_FALSE(rig.float_state(rig.trigger, rig.left).isActive);  // only the right hand is bound

  XrSpace stage = rig.space(XR_REFERENCE_SPACE_TYPE_STAGE);
  XrSpace grip = rig.grip_space(rig.right);
  XrSpaceVelocity velocity{XR_TYPE_SPACE_VELOCITY};
  XrSpaceLocation location{XR_TYPE_SPACE_LOCATION, &velocity};
  ASSERT_EQ(xrLocateSpace(grip, stage, now_xr(rig.instance), &location), XR_SUCCESS);
  EXPECT_EQ(location.locationFlags & XR_SPACE_LOCATION_POSITION_TRACKED_BIT,
            XR_SPACE_LOCATION_POSITION_TRACKED_BIT);
  EXPECT_NEAR(location.pose.position.x, 0.1f, 1e-5f);
  EXPECT_NEAR(location.pose.position.y, 1.2f, 1e-5f);
  EXPECT_NEAR(location.pose.position.z, -0.4f, 1e-5f);
  EXPECT_NEAR(location.pose.orientation.y, 0.38268343f, 1e-5f);
  EXPECT_EQ(velocity.velocityFlags,
            XR_SPACE_VELOCITY_LINEAR_VALID_BIT | XR_SPACE_VELOCITY_ANGULAR_VALID_BIT);
  EXPECT_NEAR(velocity.linearVelocity.x, 0.5f, 1e-5f);
  EXPECT_NEAR(velocity.linearVelocity.z, -1.0f, 1e-5f);
  EXPECT_NEAR(velocity.angularVelocity.y, 2.0f, 1e-5f);

  control.stagger_simxr_clear_haptics();
  ASSERT_EQ(rig.vibrate(0.7f), XR_SUCCESS);
  ASSERT_EQ(control.stagger_simxr_haptic_count(), 1u);
  StaggerSimxrHaptic h{};
  ASSERT_EQ(control.stagger_simxr_get_haptic(0, &h), 0);
  EXPECT_EQ(h.hand, STAGGER_SIMXR_HAND_RIGHT);
  EXPECT_FLOAT_EQ(h.amplitude, 0.7f);
  EXPECT_EQ(h.duration_ns, 20000000);
  EXPECT_EQ(h.delivered, 1);

  XrBoundSourcesForActionEnumerateInfo bound{XR_TYPE_BOUND_SOURCES_FOR_ACTION_ENUMERATE_INFO};
  bound.action = rig.trigger;
  uint32_t count = 0;
  ASSERT_EQ(xrEnumerateBoundSourcesForAction(rig.session, &bound, 0, &count, nullptr), XR_SUCCESS);
  ASSERT_EQ(count, 1u);
  XrPath source = XR_NULL_PATH;
  ASSERT_EQ(xrEnumerateBoundSourcesForAction(rig.session, &bound, 1, &count, &source), XR_SUCCESS);
  XrInputSourceLocalizedNameGetInfo name_info{XR_TYPE_INPUT_SOURCE_LOCALIZED_NAME_GET_INFO};
  name_info.sourcePath = source;
  name_info.whichComponents =
      XR_INPUT_SOURCE_LOCALIZED_NAME_USER_PATH_BIT | XR_INPUT_SOURCE_LOCALIZED_NAME_COMPONENT_BIT;
  char name[256];
  ASSERT_EQ(xrGetInputSourceLocalizedName(rig.session, &name_info, sizeof name, &count, name),
            XR_SUCCESS);
  EXPECT_EQ(std::string(name).rfind("Right Hand", 0), 0u) << name;
}

INSTANTIATE_TEST_SUITE_P(AllFive, XrRuntimeProfiles,
                         ::testing::Values(kTouch, kIndex, kVive, kSimple, kWmr),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                           const std::string p = param.param;
                           return p.substr(p.find_last_of('/') + 1);
                         });

struct StickCase {
  const char* profile;
  const char* stick;  ///< thumbstick or trackpad
};

// (names the case in test listings instead of its bytes)
void PrintTo(const StickCase& c, std::ostream* out) {
  *out << c.profile << " " << c.stick;
}

class XrRuntimeSticks : public ::testing::TestWithParam<StickCase> {};

TEST_P(XrRuntimeSticks, PositionAndPressAreReadApart) {
  const StickCase c = GetParam();
  Control control;
  control.fresh(std::string(R"({"display_hz": 0, "interaction_profile": ")") + c.profile + "\"}");
  Rig rig;
  const std::string stick = std::string("/user/hand/left/input/") + c.stick;
  const std::string click = stick + "/click";
  ASSERT_EQ(rig.suggest(c.profile, {{rig.pose, "/user/hand/left/input/grip/pose"},
                                    {rig.stick, stick.c_str()},
                                    {rig.stick_press, click.c_str()}}),
            XR_SUCCESS);
  EXPECT_EQ(rig.start(), 1);
  const std::string press_input = std::string(c.stick) + "_click";
  // Pushed right and back: read as the vector, and not a press.
  ASSERT_EQ(control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_LEFT, c.stick, 0.75f, -0.5f), 0);
  ASSERT_EQ(rig.sync(), XR_SUCCESS);
  XrActionStateVector2f v = rig.vector_state(rig.stick, rig.left);
  EXPECT_TRUE(v.isActive);
  EXPECT_FLOAT_EQ(v.currentState.x, 0.75f);
  EXPECT_FLOAT_EQ(v.currentState.y, -0.5f);
  EXPECT_FALSE(rig.bool_state(rig.stick_press, rig.left).currentState);
  EXPECT_FALSE(rig.vector_state(rig.stick, rig.right).isActive);  // only the left hand is bound
  // Pressed down where it is.
  ASSERT_EQ(
      control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_LEFT, press_input.c_str(), 1.0f, 0.0f), 0);
  ASSERT_EQ(rig.sync(), XR_SUCCESS);
  EXPECT_TRUE(rig.bool_state(rig.stick_press, rig.left).currentState);
  v = rig.vector_state(rig.stick, rig.left);
  EXPECT_FLOAT_EQ(v.currentState.x, 0.75f);
  EXPECT_FLOAT_EQ(v.currentState.y, -0.5f);
  // Let go: centred, not pressed.
  ASSERT_EQ(control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_LEFT, c.stick, 0.0f, 0.0f), 0);
  ASSERT_EQ(
      control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_LEFT, press_input.c_str(), 0.0f, 0.0f), 0);
  ASSERT_EQ(rig.sync(), XR_SUCCESS);
  v = rig.vector_state(rig.stick, rig.left);
  EXPECT_EQ(v.currentState.x, 0.0f);
  EXPECT_EQ(v.currentState.y, 0.0f);
  EXPECT_FALSE(rig.bool_state(rig.stick_press, rig.left).currentState);
}

INSTANTIATE_TEST_SUITE_P(EveryStick, XrRuntimeSticks,
                         ::testing::Values(StickCase{kTouch, "thumbstick"},
                                           StickCase{kIndex, "thumbstick"},
                                           StickCase{kVive, "trackpad"},
                                           StickCase{kWmr, "thumbstick"},
                                           StickCase{kWmr, "trackpad"}),
                         [](const ::testing::TestParamInfo<StickCase>& param) {
                           const std::string p = param.param.profile;
                           return p.substr(p.find_last_of('/') + 1) + "_" + param.param.stick;
                         });

TEST(XrRuntimeInput, ScriptedInputsRampToTheirValue) {
  Control control;
  // The left stick takes 1000 s to reach the corner; the right trackpad 1 ms.
  control.fresh(R"({"display_hz": 0, "interaction_profile": ")" + std::string(kWmr) +
                R"(", "events": [
      {"t": 0, "type": "input", "hand": "left", "input": "thumbstick", "value": [1, -1],
       "ramp_s": 1000},
      {"t": 0, "type": "input", "hand": "right", "input": "trackpad", "value": [0.5, 0.25],
       "ramp_s": 0.001}]})");
  Rig rig;
  ASSERT_EQ(rig.suggest(kWmr, {{rig.stick, "/user/hand/left/input/thumbstick"},
                               {rig.stick, "/user/hand/right/input/trackpad"}}),
            XR_SUCCESS);
  rig.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(rig.sync(), XR_SUCCESS);
  // Under a second into the ramp: barely off centre, on its way to (1, -1).
  const XrVector2f left = rig.vector_state(rig.stick, rig.left).currentState;
  EXPECT_GT(left.x, 0.0f);
  EXPECT_LT(left.x, 1e-3f);
  EXPECT_FLOAT_EQ(left.y, -left.x);
  const XrVector2f right = rig.vector_state(rig.stick, rig.right).currentState;
  EXPECT_FLOAT_EQ(right.x, 0.5f);
  EXPECT_FLOAT_EQ(right.y, 0.25f);
  // A value set at once ends a ramp.
  ASSERT_EQ(control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_LEFT, "thumbstick", 0.1f, 0.2f), 0);
  ASSERT_EQ(rig.sync(), XR_SUCCESS);
  EXPECT_FLOAT_EQ(rig.vector_state(rig.stick, rig.left).currentState.x, 0.1f);
  EXPECT_FLOAT_EQ(rig.vector_state(rig.stick, rig.left).currentState.y, 0.2f);
  // Only inputs ramp, and not backwards in time.
  char error[512] = {};
  EXPECT_NE(control.stagger_simxr_load_script(
                R"({"events": [{"t": 0, "type": "exit", "ramp_s": 1}]})", error, sizeof error),
            0);
  EXPECT_NE(std::string(error).find("events[0].ramp_s"), std::string::npos) << error;
  EXPECT_NE(control.stagger_simxr_load_script(R"({"events": [{"t": 0, "type": "input",
                "hand": "left", "input": "trigger", "value": 1, "ramp_s": -1}]})",
                                              error, sizeof error),
            0);
  EXPECT_NE(std::string(error).find("events[0].ramp_s"), std::string::npos) << error;
}

TEST(XrRuntimeInput, BadPathFailsTheWholeSuggestCall) {
  Control control;
  control.fresh();
  Rig rig;
  // Touch controllers have no trackpad: one bad path rejects every binding of the call.
  EXPECT_EQ(rig.suggest(kTouch, {{rig.pose, "/user/hand/right/input/grip/pose"},
                                 {rig.trigger, "/user/hand/right/input/trackpad/x"}}),
            XR_ERROR_PATH_UNSUPPORTED);
  EXPECT_EQ(rig.suggest("/interaction_profiles/acme/laser_glove",
                        {{rig.pose, "/user/hand/right/input/grip/pose"}}),
            XR_ERROR_PATH_UNSUPPORTED);
  // Core profiles the runtime does not simulate are still accepted (hello_xr suggests them).
  EXPECT_EQ(rig.suggest("/interaction_profiles/oculus/go_controller",
                        {{rig.pose, "/user/hand/right/input/grip/pose"}}),
            XR_SUCCESS);
  rig.start();
  ASSERT_EQ(rig.sync(), XR_SUCCESS);
  EXPECT_FALSE(rig.float_state(rig.trigger).isActive);  // nothing of the failed call was bound
  XrInteractionProfileState current{XR_TYPE_INTERACTION_PROFILE_STATE};
  ASSERT_EQ(xrGetCurrentInteractionProfile(rig.session, rig.right, &current), XR_SUCCESS);
  EXPECT_EQ(current.interactionProfile, XR_NULL_PATH);
  // After attaching, suggestions and new actions are refused.
  EXPECT_EQ(rig.suggest(kTouch, {{rig.pose, "/user/hand/right/input/grip/pose"}}),
            XR_ERROR_ACTIONSETS_ALREADY_ATTACHED);
  XrActionCreateInfo info{XR_TYPE_ACTION_CREATE_INFO};
  std::strcpy(info.actionName, "late");
  std::strcpy(info.localizedActionName, "Late");
  info.actionType = XR_ACTION_TYPE_BOOLEAN_INPUT;
  XrAction late = XR_NULL_HANDLE;
  EXPECT_EQ(xrCreateAction(rig.set, &info, &late), XR_ERROR_ACTIONSETS_ALREADY_ATTACHED);
  XrSessionActionSetsAttachInfo attach{XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO};
  attach.countActionSets = 1;
  attach.actionSets = &rig.set;
  EXPECT_EQ(xrAttachSessionActionSets(rig.session, &attach), XR_ERROR_ACTIONSETS_ALREADY_ATTACHED);
}

TEST(XrRuntimeInput, ConversionsAndParentPaths) {
  Control control;
  control.fresh();
  Rig rig;
  // Float action on a click path, boolean action on a value path, float action on a parent path.
  ASSERT_EQ(rig.suggest(kTouch, {{rig.squeeze, "/user/hand/right/input/a/click"},
                                 {rig.pressed, "/user/hand/right/input/trigger/value"},
                                 {rig.trigger, "/user/hand/right/input/trigger"}}),
            XR_SUCCESS);
  rig.start();
  ASSERT_EQ(rig.sync(), XR_SUCCESS);
  // A change is reported between two syncs of an active action (not on becoming active).
  EXPECT_FALSE(rig.bool_state(rig.pressed).changedSinceLastSync);
  control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_RIGHT, "a", 1.0f, 0.0f);
  control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_RIGHT, "trigger", 0.6f, 0.0f);
  ASSERT_EQ(rig.sync(), XR_SUCCESS);
  EXPECT_FLOAT_EQ(rig.float_state(rig.squeeze).currentState, 1.0f);
  EXPECT_FLOAT_EQ(rig.float_state(rig.trigger).currentState, 0.6f);
  EXPECT_TRUE(rig.bool_state(rig.pressed).currentState);
  EXPECT_TRUE(rig.bool_state(rig.pressed).changedSinceLastSync);
  control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_RIGHT, "trigger", 0.45f,
                                  0.0f);  // inside the hysteresis
  ASSERT_EQ(rig.sync(), XR_SUCCESS);
  EXPECT_TRUE(rig.bool_state(rig.pressed).currentState);
  EXPECT_FALSE(rig.bool_state(rig.pressed).changedSinceLastSync);
  control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_RIGHT, "trigger", 0.3f, 0.0f);
  ASSERT_EQ(rig.sync(), XR_SUCCESS);
  EXPECT_FALSE(rig.bool_state(rig.pressed).currentState);
  XrActionStateGetInfo wrong{XR_TYPE_ACTION_STATE_GET_INFO};
  wrong.action = rig.trigger;
  XrActionStateBoolean b{XR_TYPE_ACTION_STATE_BOOLEAN};
  EXPECT_EQ(xrGetActionStateBoolean(rig.session, &wrong, &b), XR_ERROR_ACTION_TYPE_MISMATCH);
}

TEST(XrRuntimeInput, FocusLossMakesActionsInactiveAndHapticsUndelivered) {
  Control control;
  control.fresh();
  Rig rig;
  rig.suggest_standard(kTouch);
  rig.start();
  control.stagger_simxr_set_input(STAGGER_SIMXR_HAND_RIGHT, "trigger", 1.0f, 0.0f);
  ASSERT_EQ(rig.sync(), XR_SUCCESS);
  EXPECT_TRUE(rig.float_state(rig.trigger).isActive);
  ASSERT_EQ(control.stagger_simxr_queue_event(STAGGER_SIMXR_EVENT_FOCUS_LOSS, 0), 0);
  EXPECT_EQ(poll_states(rig.instance), (States{XR_SESSION_STATE_VISIBLE}));
  EXPECT_EQ(rig.sync(), XR_SESSION_NOT_FOCUSED);
  EXPECT_FALSE(rig.float_state(rig.trigger).isActive);
  EXPECT_FLOAT_EQ(rig.float_state(rig.trigger).currentState, 0.0f);
  XrActionStateGetInfo info{XR_TYPE_ACTION_STATE_GET_INFO};
  info.action = rig.pose;
  XrActionStatePose pose{XR_TYPE_ACTION_STATE_POSE};
  ASSERT_EQ(xrGetActionStatePose(rig.session, &info, &pose), XR_SUCCESS);
  EXPECT_FALSE(pose.isActive);
  control.stagger_simxr_clear_haptics();
  EXPECT_EQ(rig.vibrate(1.0f), XR_SESSION_NOT_FOCUSED);
  StaggerSimxrHaptic h{};
  ASSERT_EQ(control.stagger_simxr_get_haptic(0, &h), 0);
  EXPECT_EQ(h.delivered, 0);
  ASSERT_EQ(control.stagger_simxr_queue_event(STAGGER_SIMXR_EVENT_FOCUS_GAIN, 0), 0);
  EXPECT_EQ(poll_states(rig.instance), (States{XR_SESSION_STATE_FOCUSED}));
  EXPECT_EQ(rig.sync(), XR_SUCCESS);
  EXPECT_TRUE(rig.float_state(rig.trigger).isActive);
  EXPECT_EQ(rig.vibrate(1.0f), XR_SUCCESS);
  ASSERT_EQ(control.stagger_simxr_get_haptic(1, &h), 0);
  EXPECT_EQ(h.delivered, 1);
}

TEST(XrRuntimeInput, TrackingStatesSetLocationFlags) {
  Control control;
  control.fresh();
  Rig rig;
  rig.suggest_standard(kTouch);
  rig.start();
  ASSERT_EQ(rig.sync(), XR_SUCCESS);
  XrSpace stage = rig.space(XR_REFERENCE_SPACE_TYPE_STAGE);
  XrSpace grip = rig.grip_space(rig.right);
  auto flags = [&] {
    XrSpaceLocation location{XR_TYPE_SPACE_LOCATION};
    EXPECT_EQ(xrLocateSpace(grip, stage, now_xr(rig.instance), &location), XR_SUCCESS);
    return location.locationFlags;
  };
  EXPECT_EQ(flags(),
            XR_SPACE_LOCATION_ORIENTATION_VALID_BIT | XR_SPACE_LOCATION_POSITION_VALID_BIT |
                XR_SPACE_LOCATION_ORIENTATION_TRACKED_BIT | XR_SPACE_LOCATION_POSITION_TRACKED_BIT);
  control.stagger_simxr_set_hand_tracking(STAGGER_SIMXR_HAND_RIGHT, STAGGER_SIMXR_UNTRACKED);
  EXPECT_EQ(flags(),
            XR_SPACE_LOCATION_ORIENTATION_VALID_BIT | XR_SPACE_LOCATION_POSITION_VALID_BIT);
  control.stagger_simxr_set_hand_tracking(STAGGER_SIMXR_HAND_RIGHT, STAGGER_SIMXR_LOST);
  EXPECT_EQ(flags(), 0u);
  // The default right-hand pose, in STAGE.
  control.stagger_simxr_set_hand_tracking(STAGGER_SIMXR_HAND_RIGHT, STAGGER_SIMXR_TRACKED);
  XrSpaceLocation location{XR_TYPE_SPACE_LOCATION};
  ASSERT_EQ(xrLocateSpace(grip, stage, now_xr(rig.instance), &location), XR_SUCCESS);
  EXPECT_NEAR(location.pose.position.x, 0.25f, 1e-5f);
  EXPECT_NEAR(location.pose.position.y, 1.1f, 1e-5f);
  EXPECT_NEAR(location.pose.position.z, -0.3f, 1e-5f);
}

TEST(XrRuntimeInput, ScriptedHandPathIsInterpolatedWithVelocity) {
  Control control;
  control.fresh(R"({"display_hz": 0, "events": [
      {"t": 0, "type": "hand", "hand": "left", "path": [
        {"t": 0, "position": [0, 1.0, 0]},
        {"t": 100, "position": [10, 1.0, -20], "orientation": [0, 0, 0, 1]}]},
      {"t": 0, "type": "tracking", "hand": "left", "state": "untracked"},
      {"t": 0, "type": "input", "hand": "left", "input": "trigger", "value": 0.25}]})");
  const XrTime loaded = monotonic_ns();
  Rig rig;
  ASSERT_EQ(rig.suggest(kTouch, {{rig.pose, "/user/hand/left/input/grip/pose"},
                                 {rig.trigger, "/user/hand/left/input/trigger/value"}}),
            XR_SUCCESS);
  rig.start();
  ASSERT_EQ(rig.sync(), XR_SUCCESS);
  EXPECT_FLOAT_EQ(rig.float_state(rig.trigger).currentState, 0.25f);
  XrSpace stage = rig.space(XR_REFERENCE_SPACE_TYPE_STAGE);
  XrSpace grip = rig.grip_space(rig.left);
  XrSpaceVelocity velocity{XR_TYPE_SPACE_VELOCITY};
  XrSpaceLocation location{XR_TYPE_SPACE_LOCATION, &velocity};
  // 50 s into the path (the script clock starts when the script is loaded, just before `loaded`).
  ASSERT_EQ(xrLocateSpace(grip, stage, loaded + 50000000000, &location), XR_SUCCESS);
  EXPECT_NEAR(location.pose.position.x, 5.0f, 1e-3f);
  EXPECT_NEAR(location.pose.position.z, -10.0f, 1e-3f);
  EXPECT_EQ(location.locationFlags,
            XR_SPACE_LOCATION_ORIENTATION_VALID_BIT | XR_SPACE_LOCATION_POSITION_VALID_BIT);
  // Untracked hands report no velocity; tracked ones report the path's derivative.
  EXPECT_EQ(velocity.velocityFlags, 0u);
  control.stagger_simxr_set_hand_tracking(STAGGER_SIMXR_HAND_LEFT, STAGGER_SIMXR_TRACKED);
  ASSERT_EQ(xrLocateSpace(grip, stage, loaded + 50000000000, &location), XR_SUCCESS);
  EXPECT_NEAR(velocity.linearVelocity.x, 0.1f, 1e-5f);
  EXPECT_NEAR(velocity.linearVelocity.z, -0.2f, 1e-5f);
  // After the last point the hand holds.
  ASSERT_EQ(xrLocateSpace(grip, stage, loaded + 500000000000, &location), XR_SUCCESS);
  EXPECT_NEAR(location.pose.position.x, 10.0f, 1e-4f);
}

TEST(XrRuntimeInput, HandJointsAroundTheGripPose) {
  Control control;
  control.fresh();
  Rig rig({XR_EXT_HAND_TRACKING_EXTENSION_NAME});
  rig.suggest_standard(kTouch);
  rig.start();
  auto create = proc<PFN_xrCreateHandTrackerEXT>(rig.instance, "xrCreateHandTrackerEXT");
  auto locate = proc<PFN_xrLocateHandJointsEXT>(rig.instance, "xrLocateHandJointsEXT");
  auto destroy = proc<PFN_xrDestroyHandTrackerEXT>(rig.instance, "xrDestroyHandTrackerEXT");
  XrHandTrackerCreateInfoEXT info{XR_TYPE_HAND_TRACKER_CREATE_INFO_EXT};
  info.hand = XR_HAND_RIGHT_EXT;
  info.handJointSet = XR_HAND_JOINT_SET_DEFAULT_EXT;
  XrHandTrackerEXT tracker = XR_NULL_HANDLE;
  ASSERT_EQ(create(rig.session, &info, &tracker), XR_SUCCESS);
  const float position[3] = {0.2f, 1.3f, -0.5f};
  control.stagger_simxr_set_hand_pose(STAGGER_SIMXR_HAND_RIGHT, position, nullptr);
  XrSpace stage = rig.space(XR_REFERENCE_SPACE_TYPE_STAGE);
  XrHandJointsLocateInfoEXT locate_info{XR_TYPE_HAND_JOINTS_LOCATE_INFO_EXT};
  locate_info.baseSpace = stage;
  locate_info.time = now_xr(rig.instance);
  std::vector<XrHandJointLocationEXT> joints(XR_HAND_JOINT_COUNT_EXT);
  std::vector<XrHandJointVelocityEXT> joint_velocities(XR_HAND_JOINT_COUNT_EXT);
  XrHandJointVelocitiesEXT velocities{XR_TYPE_HAND_JOINT_VELOCITIES_EXT};
  velocities.jointCount = XR_HAND_JOINT_COUNT_EXT;
  velocities.jointVelocities = joint_velocities.data();
  XrHandJointLocationsEXT locations{XR_TYPE_HAND_JOINT_LOCATIONS_EXT, &velocities};
  locations.jointCount = XR_HAND_JOINT_COUNT_EXT;
  locations.jointLocations = joints.data();
  ASSERT_EQ(locate(tracker, &locate_info, &locations), XR_SUCCESS);
  EXPECT_TRUE(locations.isActive);
  EXPECT_NEAR(joints[XR_HAND_JOINT_PALM_EXT].pose.position.x, 0.2f, 1e-5f);
  EXPECT_NEAR(joints[XR_HAND_JOINT_PALM_EXT].pose.position.y, 1.3f, 1e-5f);
  EXPECT_LT(joints[XR_HAND_JOINT_MIDDLE_TIP_EXT].pose.position.z,
            -0.6f);  // fingers point forward (-Z)
  EXPECT_GT(joints[XR_HAND_JOINT_WRIST_EXT].pose.position.z, -0.5f);
  for (const auto& j : joints) {
    EXPECT_GT(j.radius, 0.0f);
    EXPECT_NE(j.locationFlags & XR_SPACE_LOCATION_POSITION_TRACKED_BIT, 0u);
  }
  locations.jointCount = 10;
  EXPECT_EQ(locate(tracker, &locate_info, &locations), XR_ERROR_VALIDATION_FAILURE);
  EXPECT_EQ(destroy(tracker), XR_SUCCESS);
}

}  // namespace
}  // namespace stagger::simxr::test
