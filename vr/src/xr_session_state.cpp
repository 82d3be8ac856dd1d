#include "xr_session_state.h"

namespace stagger::vr {

namespace {

void begin_session(XrSession session, XrSessionStatus& status) {
  XrSessionBeginInfo begin{XR_TYPE_SESSION_BEGIN_INFO};
  begin.primaryViewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
  xr_check(xrBeginSession(session, &begin), "xrBeginSession");
  status.running = true;
  status.ever_ran = true;
  status.began = true;  // (the first frame after a pause or a new session is one period long)
}

void end_session(XrSession session, XrSessionStatus& status) {
  xr_check(xrEndSession(session), "xrEndSession");
  status.running = false;
}

void on_state(XrSession session, XrSessionState state, XrSessionStatus& status) {
  status.state = state;
  switch (state) {
    case XR_SESSION_STATE_READY:
      begin_session(session, status);
      break;
    case XR_SESSION_STATE_STOPPING:
      end_session(session, status);
      break;
    case XR_SESSION_STATE_EXITING:
      status.exiting = true;
      break;
    case XR_SESSION_STATE_LOSS_PENDING:
      status.loss_pending = true;
      break;
    default:
      break;  // (IDLE, SYNCHRONIZED, VISIBLE, FOCUSED: only the state; focus is read each frame)
  }
}

}  // namespace

std::optional<std::string> XrSessionStatus::end_reason() const {
  if (exiting) return "session exited";
  if (instance_lost) return "OpenXR instance lost";
  return std::nullopt;
}

void poll_session_events(XrInstance instance, XrSession session, XrSessionStatus& status,
                         const std::function<void()>& profile_changed) {
  XrEventDataBuffer event{XR_TYPE_EVENT_DATA_BUFFER};
  for (;;) {
    const XrResult polled = xrPollEvent(instance, &event);
    if (polled == XR_ERROR_INSTANCE_LOST) {
      status.instance_lost = true;
      return;
    }
    if (xr_check(polled, "xrPollEvent") != XR_SUCCESS) return;  // XR_EVENT_UNAVAILABLE
    switch (event.type) {
      case XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED: {
        const auto& changed = *reinterpret_cast<const XrEventDataSessionStateChanged*>(&event);
        if (changed.session == session) on_state(session, changed.state, status);
        break;
      }
      case XR_TYPE_EVENT_DATA_INSTANCE_LOSS_PENDING:
        status.instance_lost = true;
        break;
      case XR_TYPE_EVENT_DATA_INTERACTION_PROFILE_CHANGED:
        profile_changed();
        break;
      default:
        break;  // (EVENTS_LOST, REFERENCE_SPACE_CHANGE_PENDING: the poses read next frame are
                // already right)
    }
    event = {XR_TYPE_EVENT_DATA_BUFFER};
  }
}

}  // namespace stagger::vr
