#include "xr_input.h"

#include <cstring>
#include <iostream>

namespace stagger::vr {

namespace {

XrAction create_action(XrActionSet set, const char* name, const char* localized, XrActionType type,
                       const std::array<XrPath, 2>& hands) {
  XrActionCreateInfo info{XR_TYPE_ACTION_CREATE_INFO};
  std::strncpy(info.actionName, name, XR_MAX_ACTION_NAME_SIZE - 1);
  std::strncpy(info.localizedActionName, localized, XR_MAX_LOCALIZED_ACTION_NAME_SIZE - 1);
  info.actionType = type;
  info.countSubactionPaths = static_cast<std::uint32_t>(hands.size());
  info.subactionPaths = hands.data();
  XrAction action = XR_NULL_HANDLE;
  xr_check(xrCreateAction(set, &info, &action), "xrCreateAction");
  return action;
}

}  // namespace

XrInput::XrInput(XrInstance instance) : instance_(instance) {
  hands_ = {path("/user/hand/left"), path("/user/hand/right")};
  XrActionSetCreateInfo info{XR_TYPE_ACTION_SET_CREATE_INFO};
  std::strcpy(info.actionSetName, "gameplay");
  std::strcpy(info.localizedActionSetName, "Gameplay");
  xr_check(xrCreateActionSet(instance_, &info, &set_), "xrCreateActionSet");
  create_actions();
}

XrInput::~XrInput() {
  detach();
  if (set_ != XR_NULL_HANDLE) xrDestroyActionSet(set_);  // (destroys its actions)
}

XrPath XrInput::path(const std::string& text) const {
  XrPath p = XR_NULL_PATH;
  xr_check(xrStringToPath(instance_, text.c_str(), &p), "xrStringToPath");
  return p;
}

void XrInput::create_actions() {
  grip_ = create_action(set_, "grip_pose", "Hand grip", XR_ACTION_TYPE_POSE_INPUT, hands_);
  aim_ = create_action(set_, "aim_pose", "Hand aim", XR_ACTION_TYPE_POSE_INPUT, hands_);
  trigger_ = create_action(set_, "trigger", "Trigger", XR_ACTION_TYPE_FLOAT_INPUT, hands_);
  squeeze_ = create_action(set_, "squeeze", "Squeeze", XR_ACTION_TYPE_FLOAT_INPUT, hands_);
  // Move and turn are actions of their own, not "the left stick": a runtime's rebinding screen
  // can then put them on either hand (a left-handed player), and the game reads them the same.
  move_ = create_action(set_, "move", "Move", XR_ACTION_TYPE_VECTOR2F_INPUT, hands_);
  turn_ = create_action(set_, "turn", "Turn", XR_ACTION_TYPE_VECTOR2F_INPUT, hands_);
  move_click_ =
      create_action(set_, "move_click", "Move stick press", XR_ACTION_TYPE_BOOLEAN_INPUT, hands_);
  turn_click_ =
      create_action(set_, "turn_click", "Turn stick press", XR_ACTION_TYPE_BOOLEAN_INPUT, hands_);
  haptic_ = create_action(set_, "haptic", "Hit feedback", XR_ACTION_TYPE_VIBRATION_OUTPUT, hands_);
  suggest_profiles();
}

namespace {

// The input paths of one profile the actions bind to (below /user/hand/<side>/); null: the
// controller has no such input.
struct ProfilePaths {
  const char* profile;
  const char* trigger;
  const char* squeeze;
  const char* stick;  ///< the vector (parent) path: thumbstick, or trackpad where there is none
  const char* stick_click;
};

// The paths of each profile (docs/vr.md, OpenXR). Simple controllers have no squeeze and no
// stick; Vive controllers have a trackpad instead of a stick; WMR controllers have both (the
// stick is used); Vive and WMR squeezes are buttons.
constexpr ProfilePaths kProfiles[] = {
    {"/interaction_profiles/khr/simple_controller", "input/select/click", nullptr, nullptr,
     nullptr},
    {"/interaction_profiles/oculus/touch_controller", "input/trigger/value", "input/squeeze/value",
     "input/thumbstick", "input/thumbstick/click"},
    {"/interaction_profiles/valve/index_controller", "input/trigger/value", "input/squeeze/value",
     "input/thumbstick", "input/thumbstick/click"},
    {"/interaction_profiles/htc/vive_controller", "input/trigger/value", "input/squeeze/click",
     "input/trackpad", "input/trackpad/click"},
    {"/interaction_profiles/microsoft/motion_controller", "input/trigger/value",
     "input/squeeze/click", "input/thumbstick", "input/thumbstick/click"},
};

}  // namespace

void XrInput::suggest_profiles() {
  using Bindings = std::vector<std::pair<XrAction, std::string>>;
  for (const ProfilePaths& p : kProfiles) {
    Bindings all;
    auto both = [&](XrAction a, const char* leaf) {
      if (leaf == nullptr) return;
      all.emplace_back(a, std::string("/user/hand/left/") + leaf);
      all.emplace_back(a, std::string("/user/hand/right/") + leaf);
    };
    auto one = [&](XrAction a, const char* side, const char* leaf) {
      if (leaf != nullptr) all.emplace_back(a, std::string("/user/hand/") + side + "/" + leaf);
    };
    both(grip_, "input/grip/pose");
    both(aim_, "input/aim/pose");
    both(trigger_, p.trigger);
    both(squeeze_, p.squeeze);
    both(haptic_, "output/haptic");
    one(move_, "left", p.stick);
    one(move_click_, "left", p.stick_click);
    one(turn_, "right", p.stick);
    one(turn_click_, "right", p.stick_click);
    suggest(p.profile, all);
  }
}

void XrInput::suggest(const char* profile,
                      const std::vector<std::pair<XrAction, std::string>>& bindings) {
  std::vector<XrActionSuggestedBinding> suggested;
  for (const auto& [action, binding] : bindings) suggested.push_back({action, path(binding)});
  XrInteractionProfileSuggestedBinding info{XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING};
  info.interactionProfile = path(profile);
  info.countSuggestedBindings = static_cast<std::uint32_t>(suggested.size());
  info.suggestedBindings = suggested.data();
  const XrResult r = xrSuggestInteractionProfileBindings(instance_, &info);
  // One refused profile (a runtime that lacks it, a path it does not know) costs that profile only.
  if (XR_FAILED(r)) {
    refused_.push_back(std::string(profile) + " (" + result_name(r) + ")");
    std::cerr << "stagger play: the OpenXR runtime refused the bindings for " << profile << ": "
              << result_name(r) << "\n";
  }
}

void XrInput::attach(XrSession session) {
  session_ = session;
  XrSessionActionSetsAttachInfo attach{XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO};
  attach.countActionSets = 1;
  attach.actionSets = &set_;
  xr_check(xrAttachSessionActionSets(session_, &attach), "xrAttachSessionActionSets");
  for (std::size_t side = 0; side < 2; ++side) {
    XrActionSpaceCreateInfo info{XR_TYPE_ACTION_SPACE_CREATE_INFO};
    info.action = grip_;
    info.subactionPath = hands_[side];
    info.poseInActionSpace.orientation.w = 1.0f;
    xr_check(xrCreateActionSpace(session_, &info, &grip_spaces_[side]), "xrCreateActionSpace");
  }
}

void XrInput::detach() {
  for (XrSpace& space : grip_spaces_) {
    if (space != XR_NULL_HANDLE) xrDestroySpace(space);
    space = XR_NULL_HANDLE;
  }
  session_ = XR_NULL_HANDLE;
}

std::array<ControllerState, 2> XrInput::read(XrSpace base, XrTime time) {
  std::array<ControllerState, 2> hands{};
  XrActiveActionSet active{set_, XR_NULL_PATH};
  XrActionsSyncInfo sync{XR_TYPE_ACTIONS_SYNC_INFO};
  sync.countActiveActionSets = 1;
  sync.activeActionSets = &active;
  // XR_SESSION_NOT_FOCUSED is a success code: every action then reads inactive.
  xr_check(xrSyncActions(session_, &sync), "xrSyncActions");
  for (std::size_t side = 0; side < 2; ++side) {
    ControllerState& c = hands[side];
    XrActionStateGetInfo get{XR_TYPE_ACTION_STATE_GET_INFO};
    get.subactionPath = hands_[side];
    get.action = grip_;
    XrActionStatePose pose{XR_TYPE_ACTION_STATE_POSE};
    xr_check(xrGetActionStatePose(session_, &get, &pose), "xrGetActionStatePose");
    c.active = pose.isActive == XR_TRUE;
    read_buttons(side, c);
    if (c.active) read_pose(side, base, time, c);
  }
  return hands;
}

// Trigger, squeeze, the sticks and their clicks; an inactive action (unbound, unfocused) reads 0.
void XrInput::read_buttons(std::size_t side, ControllerState& c) const {
  XrActionStateGetInfo get{XR_TYPE_ACTION_STATE_GET_INFO};
  get.subactionPath = hands_[side];
  for (auto [action, value] :
       {std::pair<XrAction, float*>{trigger_, &c.trigger}, {squeeze_, &c.squeeze}}) {
    get.action = action;
    XrActionStateFloat state{XR_TYPE_ACTION_STATE_FLOAT};
    xr_check(xrGetActionStateFloat(session_, &get, &state), "xrGetActionStateFloat");
    *value = state.isActive ? state.currentState : 0.0f;
  }
  for (auto [action, value] :
       {std::pair<XrAction, XrVector2f*>{move_, &c.move}, {turn_, &c.turn}}) {
    get.action = action;
    XrActionStateVector2f state{XR_TYPE_ACTION_STATE_VECTOR2F};
    xr_check(xrGetActionStateVector2f(session_, &get, &state), "xrGetActionStateVector2f");
    *value = state.isActive ? state.currentState : XrVector2f{0.0f, 0.0f};
  }
  for (auto [action, value] :
       {std::pair<XrAction, bool*>{move_click_, &c.move_click}, {turn_click_, &c.turn_click}}) {
    get.action = action;
    XrActionStateBoolean state{XR_TYPE_ACTION_STATE_BOOLEAN};
    xr_check(xrGetActionStateBoolean(session_, &get, &state), "xrGetActionStateBoolean");
    *value = state.isActive && state.currentState;
  }
}

void XrInput::read_pose(std::size_t side, XrSpace base, XrTime time, ControllerState& c) const {
  XrSpaceVelocity velocity{XR_TYPE_SPACE_VELOCITY};
  XrSpaceLocation location{XR_TYPE_SPACE_LOCATION, &velocity};
  xr_check(xrLocateSpace(grip_spaces_[side], base, time, &location), "xrLocateSpace");
  c.position_valid = (location.locationFlags & XR_SPACE_LOCATION_POSITION_VALID_BIT) != 0;
  c.orientation_valid = (location.locationFlags & XR_SPACE_LOCATION_ORIENTATION_VALID_BIT) != 0;
  c.tracked = (location.locationFlags & XR_SPACE_LOCATION_POSITION_TRACKED_BIT) != 0;
  c.grip = location.pose;
  c.velocity_valid = (velocity.velocityFlags & XR_SPACE_VELOCITY_LINEAR_VALID_BIT) != 0;
  if (c.velocity_valid) c.velocity = velocity.linearVelocity;
}

void XrInput::haptic_pulse(int side, float amplitude, XrDuration duration) {
  XrHapticActionInfo info{XR_TYPE_HAPTIC_ACTION_INFO};
  info.action = haptic_;
  info.subactionPath = hands_[static_cast<std::size_t>(side)];
  XrHapticVibration vibration{XR_TYPE_HAPTIC_VIBRATION};
  vibration.amplitude = amplitude;
  vibration.duration = duration;
  vibration.frequency = XR_FREQUENCY_UNSPECIFIED;
  xr_check(xrApplyHapticFeedback(session_, &info,
                                 reinterpret_cast<const XrHapticBaseHeader*>(&vibration)),
           "xrApplyHapticFeedback");
}

std::string XrInput::current_profile(int side) const {
  XrInteractionProfileState state{XR_TYPE_INTERACTION_PROFILE_STATE};
  if (XR_FAILED(xrGetCurrentInteractionProfile(session_, hands_[static_cast<std::size_t>(side)],
                                               &state)) ||
      state.interactionProfile == XR_NULL_PATH) {
    return {};
  }
  char text[XR_MAX_PATH_LENGTH] = {};
  std::uint32_t length = 0;
  if (XR_FAILED(xrPathToString(instance_, state.interactionProfile, sizeof(text), &length, text)))
    return {};
  return text;
}

}  // namespace stagger::vr
