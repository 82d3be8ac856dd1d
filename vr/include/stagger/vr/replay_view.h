#pragma once
// The replay viewer (`stagger replay FILE --view`): a simulation drawn in the desktop window while
// it runs, at a speed the viewer chooses, with pause, single steps, the window's free camera and
// the debug overlay. The caller builds the simulation (a recording re-simulated, its hashes
// checked by its own step observers); the viewer only decides when each step runs.

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "stagger/core/result.h"
#include "stagger/sim/simulation.h"

namespace stagger::vr {

/// A key "pressed" at a given frame of the window, as if typed: for tests and demonstrations.
struct ScriptedKey {
  long frame = 0;   ///< the frame it is pressed at (the first frame drawn is 0)
  std::string key;  ///< one of kViewerKeys
};

/// The keys the viewer answers to, by their X keysym names: `space` pause and play, `period`
/// and `Right` one step (pausing first), `bracketleft` and `bracketright` slower and faster,
/// `F1` the overlay, `Escape` quit.
inline constexpr std::string_view kViewerKeys[] = {"space",        "period", "Right", "bracketleft",
                                                   "bracketright", "F1",     "Escape"};

/// Reads `FRAME:KEY,FRAME:KEY,...` (frames not decreasing, keys from kViewerKeys); the error is
/// one sentence that names the bad entry.
Result<std::vector<ScriptedKey>> parse_scripted_keys(std::string_view text);

struct ReplayViewSettings {
  int width = 1280;        ///< [px] the window
  int height = 720;        ///< [px]
  bool overlay = false;    ///< start with the debug overlay shown
  std::string screenshot;  ///< PNG of the last frame drawn; empty: none
  std::vector<ScriptedKey> keys;
  std::function<bool()> stop;  ///< asked every frame: true ends the viewer (`interrupted`)
};

struct ReplayViewReport {
  std::string device;       ///< the Vulkan device drawn with
  long frames = 0;          ///< frames drawn
  std::uint64_t steps = 0;  ///< physics steps run when the viewer ended
  std::string end_reason;   ///< `window closed`, `Escape` (from the key list), `interrupted`
};

/// Opens the window and runs `simulation` up to `total_steps` steps as the viewer asks, drawing
/// every frame; returns when the window is closed (at the end of the recording it stays open,
/// paused on the last step). Each control's effect is logged as a line (`stagger replay: paused
/// at step N (t = T s)`). Fails with one sentence when no window can be opened.
Result<ReplayViewReport> view_replay(sim::Simulation& simulation, std::uint64_t total_steps,
                                     const ReplayViewSettings& settings, std::ostream& log);

}  // namespace stagger::vr
