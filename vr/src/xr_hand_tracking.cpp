#include "xr_hand_tracking.h"

#include "xr_extension.h"

namespace stagger::vr {

bool XrHandTracking::supported(XrInstance instance, XrSystemId system) {
  XrSystemHandTrackingPropertiesEXT hand{XR_TYPE_SYSTEM_HAND_TRACKING_PROPERTIES_EXT};
  XrSystemProperties properties{XR_TYPE_SYSTEM_PROPERTIES, &hand};
  return XR_SUCCEEDED(xrGetSystemProperties(instance, system, &properties)) &&
         hand.supportsHandTracking == XR_TRUE;
}

XrHandTracking::XrHandTracking(XrInstance instance, XrSession session) {
  create_ = xr_function<PFN_xrCreateHandTrackerEXT>(instance, "xrCreateHandTrackerEXT");
  destroy_ = xr_function<PFN_xrDestroyHandTrackerEXT>(instance, "xrDestroyHandTrackerEXT");
  locate_ = xr_function<PFN_xrLocateHandJointsEXT>(instance, "xrLocateHandJointsEXT");
  for (std::size_t side = 0; side < 2; ++side) {
    XrHandTrackerCreateInfoEXT info{XR_TYPE_HAND_TRACKER_CREATE_INFO_EXT};
    info.hand = side == 0 ? XR_HAND_LEFT_EXT : XR_HAND_RIGHT_EXT;
    info.handJointSet = XR_HAND_JOINT_SET_DEFAULT_EXT;
    xr_check(create_(session, &info, &trackers_[side]), "xrCreateHandTrackerEXT");
  }
}

XrHandTracking::~XrHandTracking() {
  for (XrHandTrackerEXT tracker : trackers_) {
    if (tracker != XR_NULL_HANDLE) destroy_(tracker);
  }
}

std::optional<TrackedPalm> XrHandTracking::palm(int side, XrSpace base, XrTime time) const {
  std::array<XrHandJointLocationEXT, XR_HAND_JOINT_COUNT_EXT> joints{};
  std::array<XrHandJointVelocityEXT, XR_HAND_JOINT_COUNT_EXT> joint_velocities{};
  XrHandJointVelocitiesEXT velocities{XR_TYPE_HAND_JOINT_VELOCITIES_EXT};
  velocities.jointCount = XR_HAND_JOINT_COUNT_EXT;
  velocities.jointVelocities = joint_velocities.data();
  XrHandJointLocationsEXT locations{XR_TYPE_HAND_JOINT_LOCATIONS_EXT, &velocities};
  locations.jointCount = XR_HAND_JOINT_COUNT_EXT;
  locations.jointLocations = joints.data();
  XrHandJointsLocateInfoEXT info{XR_TYPE_HAND_JOINTS_LOCATE_INFO_EXT};
  info.baseSpace = base;
  info.time = time;
  if (XR_FAILED(locate_(trackers_[static_cast<std::size_t>(side)], &info, &locations)) ||
      !locations.isActive)
    return std::nullopt;
  const XrHandJointLocationEXT& palm = joints[XR_HAND_JOINT_PALM_EXT];
  const XrSpaceLocationFlags valid =
      XR_SPACE_LOCATION_POSITION_VALID_BIT | XR_SPACE_LOCATION_ORIENTATION_VALID_BIT;
  if ((palm.locationFlags & valid) != valid) return std::nullopt;
  TrackedPalm p{palm.pose, {}, palm.radius, {}};
  for (int j = XR_HAND_JOINT_THUMB_METACARPAL_EXT; j < XR_HAND_JOINT_COUNT_EXT; ++j) {
    const XrHandJointLocationEXT& joint = joints[static_cast<std::size_t>(j)];
    p.fingers.push_back(joint.locationFlags & XR_SPACE_LOCATION_POSITION_VALID_BIT
                            ? std::optional(joint.pose.position)
                            : std::nullopt);
  }
  const XrHandJointVelocityEXT& v = joint_velocities[XR_HAND_JOINT_PALM_EXT];
  if (v.velocityFlags & XR_SPACE_VELOCITY_LINEAR_VALID_BIT) p.velocity = v.linearVelocity;
  return p;
}

extern const XrExtension kXrExtHandTracking;  // (listed in xr_extension.cpp)

namespace {

bool tracks_hands(XrExtensionState&, const XrSystemContext& xr) {
  return XrHandTracking::supported(xr.instance, xr.system);
}

void session_created(XrExtensionState& state, const XrSessionContext& xr) {
  state.emplace<XrHandTracking>(xr.instance, xr.session);
}

void session_destroyed(XrExtensionState& state) {
  state.reset();
}

// Unfocused, the hands freeze as ghosts (FrameInput::focused): no tracked hands then.
void frame_input(XrExtensionState& state, const XrFrameContext& frame, FrameInput& input) {
  const auto* trackers = state.get<XrHandTracking>();
  if (trackers == nullptr || !input.focused) return;
  for (std::size_t side = 0; side < 2; ++side) {
    if (frame.controller_drives[side]) continue;
    const auto palm = trackers->palm(static_cast<int>(side), frame.base_space, frame.time);
    if (!palm) continue;
    TrackedHand& hand = input.hands[side];
    hand = frame.rig.hand(palm->pose, palm->velocity);
    for (const auto& joint : palm->fingers) {
      hand.finger_joints.push_back(joint ? std::optional(frame.rig.to_world(*joint))
                                         : std::nullopt);
    }
  }
}

}  // namespace

const XrExtension kXrExtHandTracking{
    .name = XrHandTracking::kExtension,
    .system = tracks_hands,
    .session_created = session_created,
    .session_destroyed = session_destroyed,
    .frame_input = frame_input,
};

}  // namespace stagger::vr
