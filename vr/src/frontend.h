#pragma once
// What the play loop needs from a way of playing (OpenXR, a desktop window, or none): the frame's
// duration and the player's tracked pose, and somewhere to draw.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "draw_list.h"
#include "stagger/core/math.h"

namespace stagger::vr {

/// A tracked hand, in world space. Untracked hands turn ghost and hold where they were.
struct TrackedHand {
  bool tracked = false;
  /// Untracked, but the ghost should follow this pose (the desktop's resting hands by the camera).
  bool ghost_follows = false;
  Vec3 position;  ///< [m]
  Quat rotation;
  Vec3 velocity;  ///< [m/s]
  /// [m] finger joints from hand tracking, in a fixed order (an untracked joint has none); they
  /// collide as spheres.
  std::vector<std::optional<Vec3>> finger_joints;
};

struct FrameInput {
  double frame_s = 0;  ///< [s] game time this frame advances (the display period in VR)
  bool player_present = false;
  Vec3 player_feet;                  ///< [m]
  Vec3 player_head;                  ///< [m]
  Quat head_rotation;                ///< the head's orientation (world); it looks along its -Z
  std::array<TrackedHand, 2> hands;  ///< left, right
  bool focused = true;               ///< input reaches the game (XR: session FOCUSED)
  bool toggle_overlay = false;
  /// Keys pressed (or repeated while held) since the last frame that the window's camera does
  /// not use, by their X keysym names (`space`, `period`, `Right`, `bracketleft`,
  /// `bracketright`), in order: the replay viewer's controls.
  std::vector<std::string> keys;
  /// Locomotion sticks, each axis -1..1: x to the right, y forward (pushed away from the
  /// player). In VR `move_stick` is the left thumbstick and `turn_stick` the right one (Vive:
  /// the trackpads; the runtime may bind them elsewhere); both zero when the controller has no
  /// stick (simple controller), when nothing is bound and when unfocused; in the desktop window
  /// W A S D are the move stick and Q and E flick the turn stick. Raw: no dead zone applied.
  std::array<float, 2> move_stick{};
  std::array<float, 2> turn_stick{};
  bool move_click = false;  ///< the move stick (or trackpad) pressed down
  bool turn_click = false;  ///< the turn stick (or trackpad) pressed down
};

class Frontend {
 public:
  virtual ~Frontend() = default;
  /// Waits for the next frame and reads input; false when the game should end (`end_reason`).
  virtual bool begin_frame(FrameInput& input) = 0;
  /// Draws the frame (or, when the display does not want it, only ends it). With `keep_pixels`,
  /// also copies what was drawn back to memory for `save_screenshot`.
  virtual void draw(const DrawFrame& frame, bool keep_pixels) = 0;
  /// Writes the last frame drawn with `keep_pixels` as a PNG (VR: the left eye); false if none.
  virtual bool save_screenshot(const std::string& /*path*/) { return false; }
  /// Moves the tracking space in the world for the frames to come: turned by `yaw_rad` [rad]
  /// about the player's head, then moved by `translation` [m] (locomotion). A frontend without a
  /// tracked player (headless) ignores it.
  virtual void move_rig(Vec3 /*translation*/, float /*yaw_rad*/) {}
  /// A haptic pulse on a hand (0 left, 1 right): `amplitude` 0..1 for `seconds`.
  virtual void haptic_pulse(int /*side*/, float /*amplitude*/, double /*seconds*/) {}
  virtual std::string end_reason() const = 0;
  virtual std::string device() const = 0;
  virtual int session_restarts() const { return 0; }
  /// A line about what is shown (the desktop puts it in the window's title).
  virtual void set_status(const std::string& /*status*/) {}
  /// How many frames' GPU work may still be running while the game prepares the next frame:
  /// 0 when each frame waits for the GPU, 1 when a frame waits for the one before it (the
  /// desktop window), 2 in VR.
  virtual int frames_in_flight() const { return 1; }
};

}  // namespace stagger::vr
