// The runtime's input script: display/view settings, the head, and timed or frame-counted events
// (hand paths, inputs, tracking states, session events, profile changes). Format: docs/simxr.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "xr.h"

namespace stagger::simxr {

enum class Tracking { Tracked, Untracked, Lost };

struct PathPoint {
  double t = 0.0;         ///< [s] script time
  XrVector3f position{};  ///< [m] STAGE
  XrQuaternionf orientation{0.0f, 0.0f, 0.0f, 1.0f};
};

/// A hand path sampled at a time: pose and its derivative.
struct PathSample {
  XrPosef pose{};
  XrVector3f linear_velocity{};   ///< [m/s]
  XrVector3f angular_velocity{};  ///< [rad/s]
};

enum class EventType { Hand, Input, Tracking, FocusLoss, FocusGain, LossPending, Exit, Profile };

struct ScriptEvent {
  EventType type = EventType::Input;
  std::optional<double> t;             ///< [s] script time, or
  std::optional<std::uint64_t> frame;  ///< global xrEndFrame count
  int hand = 1;                        ///< 0 left, 1 right
  std::string input;                   ///< input identifier ("trigger", ...)
  XrVector2f value{};                  ///< input value (x, y)
  double ramp_s = 0.0;  ///< [s] an input moves to `value` linearly over this long (0: at once)
  Tracking tracking = Tracking::Tracked;
  std::string profile;
  std::vector<PathPoint> path;
};

struct Script {
  double display_hz = 90.0;         ///< [Hz] xrWaitFrame pacing; 0 = as fast as possible
  std::uint32_t view_width = 640;   ///< [px] recommended per eye
  std::uint32_t view_height = 480;  ///< [px]
  std::string interaction_profile = "/interaction_profiles/oculus/touch_controller";
  std::uint32_t form_factor_unavailable_calls = 0;
  bool hand_tracking = true;
  XrVector3f head_position{0.0f, 1.6f, 0.0f};  ///< [m] STAGE
  float head_yaw_rad = 0.0f;                   ///< [rad] about +Y
  std::vector<ScriptEvent> events;
};

/// Parses and validates a script; on failure returns nullopt and a message in `error`.
std::optional<Script> parse_script(const std::string& text, std::string& error);

/// Pose at script time t [s]; holds the first/last point outside the path's time span.
PathSample sample_path(const std::vector<PathPoint>& path, double t);

}  // namespace stagger::simxr
