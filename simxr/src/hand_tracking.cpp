// XR_EXT_hand_tracking: 26 joints of an open hand laid out around the scripted grip pose (the palm
// joint is the grip pose; fingers extend along the grip's -Z, palm facing -Y).
#include <array>

#include "api.h"
#include "math.h"
#include "state.h"

namespace stagger::simxr {
namespace {

constexpr float kJointRadius = 0.010f;  ///< [m]
constexpr float kTipRadius = 0.008f;    ///< [m]

// Joint positions in the palm frame of a right hand [m]; x is mirrored for the left hand.
std::array<XrVector3f, XR_HAND_JOINT_COUNT_EXT> right_hand_layout() {
  std::array<XrVector3f, XR_HAND_JOINT_COUNT_EXT> j{};
  j[XR_HAND_JOINT_PALM_EXT] = {0.0f, 0.0f, 0.0f};
  j[XR_HAND_JOINT_WRIST_EXT] = {0.0f, 0.0f, 0.08f};
  j[XR_HAND_JOINT_THUMB_METACARPAL_EXT] = {-0.020f, -0.01f, 0.05f};
  j[XR_HAND_JOINT_THUMB_PROXIMAL_EXT] = {-0.045f, -0.01f, 0.02f};
  j[XR_HAND_JOINT_THUMB_DISTAL_EXT] = {-0.060f, -0.01f, -0.01f};
  j[XR_HAND_JOINT_THUMB_TIP_EXT] = {-0.070f, -0.01f, -0.035f};
  // index, middle, ring, little: lateral offset and segment lengths (proximal, intermediate,
  // distal)
  const float lateral[4] = {-0.025f, -0.007f, 0.011f, 0.028f};
  const float knuckle_z[4] = {-0.040f, -0.042f, -0.038f, -0.030f};
  const float segments[4][3] = {{0.040f, 0.025f, 0.020f},
                                {0.045f, 0.028f, 0.022f},
                                {0.042f, 0.026f, 0.020f},
                                {0.032f, 0.020f, 0.018f}};
  const int first[4] = {XR_HAND_JOINT_INDEX_METACARPAL_EXT, XR_HAND_JOINT_MIDDLE_METACARPAL_EXT,
                        XR_HAND_JOINT_RING_METACARPAL_EXT, XR_HAND_JOINT_LITTLE_METACARPAL_EXT};
  for (int f = 0; f < 4; ++f) {
    const auto base = static_cast<std::size_t>(first[f]);
    j[base] = {lateral[f] * 0.6f, 0.0f, 0.06f};  // metacarpal, near the wrist
    float z = knuckle_z[f];
    j[base + 1] = {lateral[f], 0.0f, z};  // proximal (knuckle)
    for (std::size_t s = 0; s < 3; ++s) {
      z -= segments[f][s];
      j[base + 2 + s] = {lateral[f], 0.0f, z};  // intermediate, distal, tip
    }
  }
  return j;
}

bool is_tip(std::size_t joint) {
  return joint == XR_HAND_JOINT_THUMB_TIP_EXT || joint == XR_HAND_JOINT_INDEX_TIP_EXT ||
         joint == XR_HAND_JOINT_MIDDLE_TIP_EXT || joint == XR_HAND_JOINT_RING_TIP_EXT ||
         joint == XR_HAND_JOINT_LITTLE_TIP_EXT;
}

}  // namespace

namespace api {

XrResult xrCreateHandTrackerEXT(XrSession session, const XrHandTrackerCreateInfoEXT* info,
                                XrHandTrackerEXT* tracker) {
  Session* s = find<Session>(session);
  if (XrResult r = check_args(s, info, XR_TYPE_HAND_TRACKER_CREATE_INFO_EXT, tracker); r < 0)
    return r;
  if (info->hand != XR_HAND_LEFT_EXT && info->hand != XR_HAND_RIGHT_EXT)
    return XR_ERROR_VALIDATION_FAILURE;
  if (info->handJointSet != XR_HAND_JOINT_SET_DEFAULT_EXT) return XR_ERROR_VALIDATION_FAILURE;
  if (XrResult r = session_status(*s); r < 0) return r;
  if (!runtime().script.hand_tracking) return XR_ERROR_FEATURE_UNSUPPORTED;
  HandTracker& t = add_object<HandTracker>(s->id);
  t.session = s->id;
  t.hand = info->hand == XR_HAND_LEFT_EXT ? 0 : 1;
  *tracker = to_handle<XrHandTrackerEXT>(t.id);
  return success_of(*s);
}

XrResult xrDestroyHandTrackerEXT(XrHandTrackerEXT tracker) {
  return destroy_handle<HandTracker>(tracker);
}

XrResult xrLocateHandJointsEXT(XrHandTrackerEXT tracker, const XrHandJointsLocateInfoEXT* info,
                               XrHandJointLocationsEXT* locations) {
  const HandTracker* t = find<HandTracker>(tracker);
  if (t == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || locations == nullptr ||
      info->type != XR_TYPE_HAND_JOINTS_LOCATE_INFO_EXT ||
      locations->type != XR_TYPE_HAND_JOINT_LOCATIONS_EXT || locations->jointLocations == nullptr ||
      locations->jointCount != XR_HAND_JOINT_COUNT_EXT) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  const Space* base = find<Space>(info->baseSpace);
  if (base == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info->time <= 0) return XR_ERROR_TIME_INVALID;
  const Session& session = *find_object<Session>(t->session);
  if (XrResult r = session_status(session); r < 0) return r;
  pump();
  XrHandJointVelocitiesEXT* velocities = nullptr;
  for (auto* next = static_cast<XrBaseOutStructure*>(locations->next); next != nullptr;
       next = next->next) {
    if (next->type == XR_TYPE_HAND_JOINT_VELOCITIES_EXT)
      velocities = reinterpret_cast<XrHandJointVelocitiesEXT*>(next);
  }
  if (velocities != nullptr && (velocities->jointCount != XR_HAND_JOINT_COUNT_EXT ||
                                velocities->jointVelocities == nullptr)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  const HandPose hand = hand_pose_at(t->hand, info->time);
  const SpaceState base_state = locate_in_stage(*base, info->time);
  const bool base_valid = (base_state.flags & XR_SPACE_LOCATION_POSITION_VALID_BIT) != 0;
  const bool active =
      session.state == XR_SESSION_STATE_FOCUSED && hand.tracking != Tracking::Lost && base_valid;
  locations->isActive = active ? XR_TRUE : XR_FALSE;
  const XrSpaceLocationFlags flags =
      !active ? 0
      : hand.tracking == Tracking::Tracked
          ? (XR_SPACE_LOCATION_ORIENTATION_VALID_BIT | XR_SPACE_LOCATION_POSITION_VALID_BIT |
             XR_SPACE_LOCATION_ORIENTATION_TRACKED_BIT | XR_SPACE_LOCATION_POSITION_TRACKED_BIT)
          : (XR_SPACE_LOCATION_ORIENTATION_VALID_BIT | XR_SPACE_LOCATION_POSITION_VALID_BIT);
  const auto layout = right_hand_layout();
  const XrPosef to_base = inverse(base_state.pose);
  const float mirror = t->hand == 0 ? -1.0f : 1.0f;
  for (std::size_t i = 0; i < XR_HAND_JOINT_COUNT_EXT; ++i) {
    XrHandJointLocationEXT& out = locations->jointLocations[i];
    const XrPosef local{identity_quat(), {layout[i].x * mirror, layout[i].y, layout[i].z}};
    out.pose = active ? compose(to_base, compose(hand.pose, local)) : identity_pose();
    out.radius = is_tip(i) ? kTipRadius : kJointRadius;
    out.locationFlags = flags;
    if (velocities != nullptr) {
      XrHandJointVelocityEXT& v = velocities->jointVelocities[i];
      const XrVector3f lever = rotate(hand.pose.orientation, local.position);
      v.linearVelocity =
          rotate(to_base.orientation, hand.linear_velocity + cross(hand.angular_velocity, lever));
      v.angularVelocity = rotate(to_base.orientation, hand.angular_velocity);
      v.velocityFlags =
          active && hand.tracking == Tracking::Tracked
              ? (XR_SPACE_VELOCITY_LINEAR_VALID_BIT | XR_SPACE_VELOCITY_ANGULAR_VALID_BIT)
              : 0;
    }
  }
  return success_of(session);
}

}  // namespace api
}  // namespace stagger::simxr
