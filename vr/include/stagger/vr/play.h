#pragma once
// `stagger play LEVEL`: the game. One loop for every mode: the frontend (an OpenXR session, a
// desktop window, or nothing) says how much time the frame covers and where the player's head
// and hands are; the simulation runs its fixed physics step up to that time (docs/design.md,
// Conventions); the frontend draws the bodies interpolated between their last two physics states.

#include <array>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stagger/core/result.h"
#include "stagger/sim/scene.h"
#include "stagger/sim/simulation.h"

namespace stagger::vr {

enum class PlayMode { automatic, xr, desktop, headless };
std::optional<PlayMode> parse_play_mode(std::string_view text);
std::string_view name_of(PlayMode mode);

struct PlaySettings {
  PlayMode mode = PlayMode::automatic;
  /// [s] game time after which the game ends by itself; 0: until the window is closed or the
  /// XR session ends (headless needs a time).
  double seconds = 0;
  int width = 1280;      ///< [px] desktop window
  int height = 720;      ///< [px]
  bool overlay = false;  ///< start with the debug overlay shown (F1 toggles it on the desktop)
  std::string
      screenshot;  ///< PNG of the last frame drawn (desktop: the window's image; XR: the left eye)
  double headless_display_hz = 90.0;  ///< [Hz] the frame clock of a headless game
  std::function<bool()> stop;  ///< asked every frame: true ends the game (end reason `interrupted`)
  /// Turning with the turn stick: by `snap_turn_deg` per flick (0: smooth turning instead).
  float snap_turn_deg = 30.0f;
  /// Thumbstick movement along where the left hand points instead of where the head looks.
  bool move_along_hand = false;
  /// The desktop window starts with the fly camera at the overview instead of in the player's
  /// body (F toggles between them).
  bool start_flying = false;
  /// Darkens the edges of the view while the move stick walks the player (comfort).
  bool comfort_vignette = false;
  /// Timed events, as `stagger sim --input` applies them (docs/design.md, Input scripts). A side
  /// the script has `hand` events for is the script's hand instead of the live one; from the
  /// first `player` event on, the script places the player and the live head no longer does.
  sim::InputScript script;
};

/// CPU time per frame [ms], one entry per frame.
struct FrameCosts {
  std::vector<double> physics_ms;  ///< physics steps, balance, gait and hands (AI excluded)
  std::vector<double> ai_ms;       ///< the enemies' eyes, brains and navigation
  std::vector<double> render_ms;   ///< building the frame, recording and submitting it
};

struct PlayReport {
  PlayMode mode = PlayMode::headless;
  std::string mode_note;    ///< why `auto` chose the mode (or empty)
  std::string device;       ///< the Vulkan device drawn with (empty headless)
  long frames = 0;          ///< frames drawn (XR: frames submitted)
  double game_seconds = 0;  ///< [s] simulated
  FrameCosts costs;
  std::array<int, 2> haptic_pulses{};         ///< pulses requested per hand (left, right)
  std::array<long, 2> hand_tracked_frames{};  ///< frames each hand followed its tracked pose
  std::array<double, 2> hand_travel_m{};      ///< [m] path of each hand's body, all frames
  std::array<double, 2>
      hand_travel_unfocused_m{};  ///< [m] of which while the input was not focused
  long unfocused_frames = 0;      ///< frames without input focus (XR: session not FOCUSED)
  Vec3 player_feet;               ///< [m] where the player's body stood at the end
  double player_walked_m = 0;     ///< [m] horizontal path of the player's body
  int snap_turns = 0;             ///< turns by the turn stick's flicks
  int hits_taken = 0;             ///< enemies' punches that reached the player's head or torso
  int blocks = 0;                 ///< punches whose arm met a solid physics hand first
  int hit_points_left = 0;        ///< at the end (0 in a level without hit points)
  int restarts = 0;               ///< times the level started again, out of hit points
  long vignette_frames = 0;       ///< frames drawn with a hit's flash or the comfort vignette
  int session_restarts = 0;       ///< XR sessions created again after a loss
  /// Frames whose GPU work may still run while the next is prepared (0 headless, 1 desktop, 2 VR)
  int frames_in_flight = 0;
  std::string end_reason;  ///< `time`, `window closed`, `session exited`, ...
  sim::SimulationResult simulation;
};

/// Plays `scene` until the time is up or the player leaves. Progress lines and the chosen mode
/// go to `log`. Fails with one sentence when the asked-for mode cannot start (no OpenXR runtime,
/// no display).
Result<PlayReport> play(const sim::SceneDescription& scene, const PlaySettings& settings,
                        std::ostream& log);

/// The report as JSON: the simulation report (docs/design.md, Simulation report) with a `play`
/// object added.
std::string play_report_json(const PlayReport& report);
/// A few lines for a terminal: mode, frames, CPU per frame (median and 99th percentile).
std::string play_summary_text(const PlayReport& report);

}  // namespace stagger::vr
