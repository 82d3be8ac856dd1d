#pragma once
// OpenXR input: one action set with grip and aim poses for both hands, trigger, squeeze, the
// move and turn sticks with their clicks, and haptics; suggested bindings for the simple, Touch,
// Index, Vive and Windows Mixed Reality controllers (one failing profile is logged, never
// fatal); per frame, the grip poses with their velocities and validity, and the buttons.

#include <array>
#include <string>
#include <vector>

#include "frontend.h"
#include "xr_common.h"

namespace stagger::vr {

/// A hand's controller this frame, in the base space given to `XrInput::read`.
struct ControllerState {
  bool active = false;          ///< the pose action is bound and the session focused
  bool position_valid = false;  ///< (VALID bits; TRACKED only lowers confidence)
  bool orientation_valid = false;
  bool tracked = false;  ///< position TRACKED as well as valid
  XrPosef grip{};
  XrVector3f velocity{};  ///< [m/s]; zero when not valid
  bool velocity_valid = false;
  float trigger = 0;  ///< 0..1
  float squeeze = 0;  ///< 0..1 (0 or 1 on controllers whose squeeze is a button: Vive, WMR)
  /// The `move` and `turn` actions as bound on this hand (x right, y forward, each -1..1): by
  /// default the left thumbstick (Vive: trackpad) moves and the right one turns. Zero unbound.
  XrVector2f move{};
  XrVector2f turn{};
  bool move_click = false;  ///< the move stick (or trackpad) pressed down
  bool turn_click = false;  ///< the turn stick (or trackpad) pressed down
};

class XrInput {
 public:
  /// Creates the action set, its actions and the suggested bindings on `instance`; the
  /// profiles the runtime refused are listed in `refused_profiles()`.
  explicit XrInput(XrInstance instance);
  ~XrInput();
  XrInput(const XrInput&) = delete;
  XrInput& operator=(const XrInput&) = delete;

  /// Attaches the action set to a new session and makes the grip spaces there.
  void attach(XrSession session);
  /// Forgets the session's spaces (before the session is destroyed).
  void detach();

  /// Syncs the actions and reads both hands at `time` in `base`. Unfocused sessions read inactive.
  std::array<ControllerState, 2> read(XrSpace base, XrTime time);
  /// A pulse on a hand (0 left, 1 right).
  void haptic_pulse(int side, float amplitude, XrDuration duration);
  /// The interaction profile the runtime bound for a hand (`/interaction_profiles/...`), or empty.
  std::string current_profile(int side) const;
  const std::vector<std::string>& refused_profiles() const { return refused_; }

 private:
  void create_actions();
  void suggest_profiles();
  void suggest(const char* profile, const std::vector<std::pair<XrAction, std::string>>& bindings);
  void read_buttons(std::size_t side, ControllerState& c) const;
  void read_pose(std::size_t side, XrSpace base, XrTime time, ControllerState& c) const;
  XrPath path(const std::string& text) const;

  XrInstance instance_;
  XrSession session_ = XR_NULL_HANDLE;
  XrActionSet set_ = XR_NULL_HANDLE;
  XrAction grip_ = XR_NULL_HANDLE;
  XrAction aim_ = XR_NULL_HANDLE;
  XrAction trigger_ = XR_NULL_HANDLE;
  XrAction squeeze_ = XR_NULL_HANDLE;
  XrAction move_ = XR_NULL_HANDLE;
  XrAction turn_ = XR_NULL_HANDLE;
  XrAction move_click_ = XR_NULL_HANDLE;
  XrAction turn_click_ = XR_NULL_HANDLE;
  XrAction haptic_ = XR_NULL_HANDLE;
  std::array<XrPath, 2> hands_{};
  std::array<XrSpace, 2> grip_spaces_{XR_NULL_HANDLE, XR_NULL_HANDLE};
  std::vector<std::string> refused_;
};

}  // namespace stagger::vr
