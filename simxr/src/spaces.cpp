// Reference and action spaces. All poses are computed in STAGE (origin on the floor at the play
// area centre, +Y up); LOCAL's origin is the head position at session creation, yaw only; VIEW is
// the scripted head.
#include <algorithm>
#include <cmath>

#include "api.h"
#include "input.h"
#include "math.h"
#include "state.h"

namespace stagger::simxr {
namespace {

constexpr XrSpaceLocationFlags kAllLocationFlags =
    XR_SPACE_LOCATION_ORIENTATION_VALID_BIT | XR_SPACE_LOCATION_POSITION_VALID_BIT |
    XR_SPACE_LOCATION_ORIENTATION_TRACKED_BIT | XR_SPACE_LOCATION_POSITION_TRACKED_BIT;
constexpr XrSpaceLocationFlags kValidFlags =
    XR_SPACE_LOCATION_ORIENTATION_VALID_BIT | XR_SPACE_LOCATION_POSITION_VALID_BIT;
constexpr XrSpaceVelocityFlags kVelocityFlags =
    XR_SPACE_VELOCITY_LINEAR_VALID_BIT | XR_SPACE_VELOCITY_ANGULAR_VALID_BIT;

bool valid_pose(const XrPosef& p) {
  const XrQuaternionf& q = p.orientation;
  const float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return std::fabs(n - 1.0f) < 1e-3f && std::isfinite(p.position.x) &&
         std::isfinite(p.position.y) && std::isfinite(p.position.z);
}

SpaceState fixed_state(const XrPosef& pose) {
  return {pose, kAllLocationFlags, {}, {}, kVelocityFlags};
}

}  // namespace

XrPosef head_pose() {
  const Runtime& rt = runtime();
  return {axis_angle({0.0f, 1.0f, 0.0f}, rt.head_yaw_rad), rt.head_position};
}

HandPose hand_pose_at(int hand, XrTime time) {
  const HandState& h = runtime().hands[static_cast<std::size_t>(hand)];
  HandPose out;
  out.tracking = h.tracking;
  if (!h.path.empty()) {
    const PathSample s = sample_path(h.path, script_time(time).value_or(-1e30));
    out.pose = s.pose;
    out.linear_velocity = s.linear_velocity;
    out.angular_velocity = s.angular_velocity;
  } else {
    out.pose = h.pose;
    out.linear_velocity = h.linear_velocity;
    out.angular_velocity = h.angular_velocity;
  }
  return out;
}

XrVector2f input_value(int hand, const std::string& identifier, XrTime time) {
  const HandState& h = runtime().hands[static_cast<std::size_t>(hand)];
  const auto value = h.inputs.find(identifier);
  if (value == h.inputs.end()) return {0.0f, 0.0f};
  const auto ramp = h.ramps.find(identifier);
  if (ramp == h.ramps.end()) return value->second;
  const InputRamp& r = ramp->second;
  if (time >= r.start + r.duration) return value->second;
  if (time <= r.start) return r.from;
  const auto u =
      static_cast<float>(static_cast<double>(time - r.start) / static_cast<double>(r.duration));
  return {r.from.x + (value->second.x - r.from.x) * u, r.from.y + (value->second.y - r.from.y) * u};
}

void set_input(int hand, const std::string& identifier, XrVector2f value, XrTime start,
               XrDuration ramp_ns) {
  HandState& h = runtime().hands[static_cast<std::size_t>(hand)];
  if (ramp_ns > 0) {
    h.ramps[identifier] = {input_value(hand, identifier, start), start, ramp_ns};
  } else {
    h.ramps.erase(identifier);
  }
  h.inputs[identifier] = value;
}

SpaceState locate_in_stage(const Space& space, XrTime time) {
  const Session* session = find_object<Session>(space.session);
  switch (space.reference) {
    case XR_REFERENCE_SPACE_TYPE_STAGE:
      return fixed_state(space.offset);
    case XR_REFERENCE_SPACE_TYPE_LOCAL:
      return fixed_state(compose(session->local_origin, space.offset));
    case XR_REFERENCE_SPACE_TYPE_VIEW:
      return fixed_state(compose(head_pose(), space.offset));
    default:
      break;
  }
  const Action* action = find_object<Action>(space.action);
  if (action == nullptr || session == nullptr) return {};
  const auto hand = action_pose(*session, *action, space.subaction, time);
  if (!hand || hand->tracking == Tracking::Lost) return {};
  SpaceState s;
  s.pose = compose(hand->pose, space.offset);
  s.flags = hand->tracking == Tracking::Tracked ? kAllLocationFlags : kValidFlags;
  const XrVector3f lever = rotate(hand->pose.orientation, space.offset.position);
  s.linear_velocity = hand->linear_velocity + cross(hand->angular_velocity, lever);
  s.angular_velocity = hand->angular_velocity;
  s.velocity_flags = hand->tracking == Tracking::Tracked ? kVelocityFlags : 0;
  return s;
}

namespace api {

XrResult xrEnumerateReferenceSpaces(XrSession session, uint32_t capacity, uint32_t* count,
                                    XrReferenceSpaceType* spaces) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (XrResult r = session_status(*s); r < 0) return r;
  static constexpr XrReferenceSpaceType kTypes[] = {
      XR_REFERENCE_SPACE_TYPE_VIEW, XR_REFERENCE_SPACE_TYPE_LOCAL, XR_REFERENCE_SPACE_TYPE_STAGE};
  const XrResult r = two_call(capacity, count, spaces, 3,
                              [](XrReferenceSpaceType& t, std::size_t i) { t = kTypes[i]; });
  return r == XR_SUCCESS ? success_of(*s) : r;
}

XrResult xrCreateReferenceSpace(XrSession session, const XrReferenceSpaceCreateInfo* info,
                                XrSpace* space) {
  Session* s = find<Session>(session);
  if (XrResult r = check_args(s, info, XR_TYPE_REFERENCE_SPACE_CREATE_INFO, space); r < 0) return r;
  if (XrResult r = session_status(*s); r < 0) return r;
  const XrReferenceSpaceType t = info->referenceSpaceType;
  if (t != XR_REFERENCE_SPACE_TYPE_VIEW && t != XR_REFERENCE_SPACE_TYPE_LOCAL &&
      t != XR_REFERENCE_SPACE_TYPE_STAGE) {
    return XR_ERROR_REFERENCE_SPACE_UNSUPPORTED;
  }
  if (!valid_pose(info->poseInReferenceSpace)) return XR_ERROR_POSE_INVALID;
  Space& sp = add_object<Space>(s->id);
  sp.session = s->id;
  sp.reference = t;
  sp.offset = info->poseInReferenceSpace;
  sp.offset.orientation = normalized(sp.offset.orientation);
  *space = to_handle<XrSpace>(sp.id);
  return success_of(*s);
}

XrResult xrGetReferenceSpaceBoundsRect(XrSession session, XrReferenceSpaceType type,
                                       XrExtent2Df* bounds) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (bounds == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  if (XrResult r = session_status(*s); r < 0) return r;
  if (type != XR_REFERENCE_SPACE_TYPE_VIEW && type != XR_REFERENCE_SPACE_TYPE_LOCAL &&
      type != XR_REFERENCE_SPACE_TYPE_STAGE) {
    return XR_ERROR_REFERENCE_SPACE_UNSUPPORTED;
  }
  if (type == XR_REFERENCE_SPACE_TYPE_STAGE) {
    *bounds = {4.0f, 4.0f};  // [m] a 4 x 4 m play area centred on the STAGE origin
    return success_of(*s);
  }
  *bounds = {0.0f, 0.0f};
  return XR_SPACE_BOUNDS_UNAVAILABLE;
}

XrResult xrCreateActionSpace(XrSession session, const XrActionSpaceCreateInfo* info,
                             XrSpace* space) {
  Session* s = find<Session>(session);
  if (XrResult r = check_args(s, info, XR_TYPE_ACTION_SPACE_CREATE_INFO, space); r < 0) return r;
  const Action* action = find<Action>(info->action);
  if (action == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (XrResult r = session_status(*s); r < 0) return r;
  if (action->type != XR_ACTION_TYPE_POSE_INPUT) return XR_ERROR_ACTION_TYPE_MISMATCH;
  if (info->subactionPath != XR_NULL_PATH) {
    if (path_string(info->subactionPath) == nullptr) return XR_ERROR_PATH_INVALID;
    if (std::find(action->subactions.begin(), action->subactions.end(), info->subactionPath) ==
        action->subactions.end()) {
      return XR_ERROR_PATH_UNSUPPORTED;
    }
  }
  if (!valid_pose(info->poseInActionSpace)) return XR_ERROR_POSE_INVALID;
  Space& sp = add_object<Space>(s->id);
  sp.session = s->id;
  sp.action = action->id;
  sp.subaction = info->subactionPath;
  sp.offset = info->poseInActionSpace;
  *space = to_handle<XrSpace>(sp.id);
  return success_of(*s);
}

XrResult xrLocateSpace(XrSpace space, XrSpace base, XrTime time, XrSpaceLocation* location) {
  const Space* sp = find<Space>(space);
  const Space* bs = find<Space>(base);
  if (sp == nullptr || bs == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (location == nullptr || location->type != XR_TYPE_SPACE_LOCATION)
    return XR_ERROR_VALIDATION_FAILURE;
  if (time <= 0) return XR_ERROR_TIME_INVALID;
  const Session* session = find_object<Session>(sp->session);
  if (XrResult r = session_status(*session); r < 0) return r;
  pump();
  const SpaceState a = locate_in_stage(*sp, time);
  const SpaceState b = locate_in_stage(*bs, time);
  XrSpaceVelocity* velocity = nullptr;
  for (auto* next = static_cast<XrBaseOutStructure*>(location->next); next != nullptr;
       next = next->next) {
    if (next->type == XR_TYPE_SPACE_VELOCITY) velocity = reinterpret_cast<XrSpaceVelocity*>(next);
  }
  const bool valid =
      (a.flags & kValidFlags) == kValidFlags && (b.flags & kValidFlags) == kValidFlags;
  if (!valid) {
    location->locationFlags = 0;
    location->pose = identity_pose();
    if (velocity != nullptr) velocity->velocityFlags = 0;
    return success_of(*session);
  }
  const XrPosef to_base = inverse(b.pose);
  location->pose = compose(to_base, a.pose);
  location->locationFlags = a.flags & b.flags;
  if (velocity != nullptr) {
    // Velocity of a's origin relative to b, expressed in b's axes.
    const XrVector3f relative_linear = a.linear_velocity - b.linear_velocity -
                                       cross(b.angular_velocity, a.pose.position - b.pose.position);
    velocity->linearVelocity = rotate(to_base.orientation, relative_linear);
    velocity->angularVelocity =
        rotate(to_base.orientation, a.angular_velocity - b.angular_velocity);
    velocity->velocityFlags = a.velocity_flags & b.velocity_flags;
  }
  return success_of(*session);
}

XrResult xrDestroySpace(XrSpace space) {
  return destroy_handle<Space>(space);
}

}  // namespace api
}  // namespace stagger::simxr
