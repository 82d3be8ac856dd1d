#pragma once
// The session's state machine: the runtime's events (xrPollEvent) and what each session state
// asks of the game. READY begins the session and STOPPING ends it, here, as the events come;
// everything else only changes the status, which the frontend reads between frames (EXITING and
// instance loss end the game, LOSS_PENDING replaces the session, FOCUSED lets input through).
// Frames are not run here: xr_frame_loop.h.

#include <functional>
#include <optional>
#include <string>

#include "xr_common.h"

namespace stagger::vr {

/// Where the session stands, as its events said.
struct XrSessionStatus {
  XrSessionState state = XR_SESSION_STATE_UNKNOWN;
  bool running = false;       ///< between xrBeginSession and xrEndSession: frames run
  bool ever_ran = false;      ///< begun once: IDLE after that is a headset taken off, not a failure
  bool began = false;         ///< begun since the frontend last looked: the frame clock restarts
  bool exiting = false;       ///< EXITING: the runtime wants the game to end
  bool loss_pending = false;  ///< LOSS_PENDING or XR_ERROR_SESSION_LOST: a new session is needed
  bool instance_lost = false;  ///< instance loss (event or XR_ERROR_INSTANCE_LOST)

  bool focused() const { return state == XR_SESSION_STATE_FOCUSED; }
  /// Why the game must end now, if it must.
  std::optional<std::string> end_reason() const;
};

/// Reads every queued event of `instance` and applies those about `session` to `status`.
/// `profile_changed` runs at each interaction-profile change, where the event comes (it asks the
/// runtime for the new profile).
void poll_session_events(XrInstance instance, XrSession session, XrSessionStatus& status,
                         const std::function<void()>& profile_changed);

}  // namespace stagger::vr
