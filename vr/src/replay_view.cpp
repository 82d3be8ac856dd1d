#include "stagger/vr/replay_view.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <exception>
#include <ostream>
#include <sstream>
#include <thread>

#include "desktop.h"
#include "draw_list.h"
#include "frontend.h"
#include "stagger/core/limits.h"
#include "stagger/vr/play.h"

namespace stagger::vr {

namespace {

// The speeds `[` and `]` step through, as fractions of real time.
struct Speed {
  double factor;
  const char* name;
};
constexpr Speed kSpeeds[] = {{1.0 / 16, "1/16"}, {1.0 / 8, "1/8"}, {1.0 / 4, "1/4"},
                             {1.0 / 2, "1/2"},   {1.0, "1"},       {2.0, "2"},
                             {4.0, "4"}};
constexpr int kNormalSpeed = 4;  // index of 1 in kSpeeds
// [s] the shortest frame: a window that presents without waiting (a virtual display) would
// otherwise draw a paused replay as fast as the CPU allows.
constexpr std::chrono::duration<double> kMinFrameS{1.0 / 60.0};

bool known_key(std::string_view key) {
  return std::find(std::begin(kViewerKeys), std::end(kViewerKeys), key) != std::end(kViewerKeys);
}

// The replay's clock and what it shows: the steps run so far, the time shown between the last
// two (interpolated as the game draws), paused or playing at a speed.
class ReplayClock {
 public:
  ReplayClock(sim::Simulation& simulation, const SceneGeometry& geometry, std::uint64_t total_steps,
              std::ostream& log)
      : simulation_(simulation),
        geometry_(geometry),
        total_steps_(total_steps),
        dt_(static_cast<double>(simulation.scene().world().dt())),
        log_(log) {
    after_ = geometry_.poses(simulation_);
    before_ = after_;
  }

  std::uint64_t steps() const { return simulation_.scene().world().step_count(); }

  // One control key; false for `Escape` (quit).
  bool press(const std::string& key) {
    if (key == "space") {
      paused_ = !paused_;
      if (paused_) {
        log_line("paused at step " + step_text());
      } else {
        log_line("playing from step " + step_text() + " at speed " + kSpeeds[speed_].name);
      }
    } else if (key == "period" || key == "Right") {
      paused_ = true;
      if (steps() < total_steps_) run_step();
      shown_s_ = static_cast<double>(steps()) * dt_;  // the new step itself, not between two
      log_line("step " + step_text());
    } else if (key == "bracketleft" || key == "bracketright") {
      const int last = static_cast<int>(std::size(kSpeeds)) - 1;
      speed_ = std::clamp(speed_ + (key == "bracketleft" ? -1 : 1), 0, last);
      log_line(std::string("speed ") + kSpeeds[speed_].name);
    }
    return key != "Escape";
  }

  // Runs the steps `frame_s` of real time covers at the current speed.
  void advance(double frame_s) {
    if (paused_) return;
    shown_s_ += frame_s * kSpeeds[speed_].factor;
    while (steps() < total_steps_ && static_cast<double>(steps()) * dt_ < shown_s_) run_step();
    if (steps() >= total_steps_) {
      shown_s_ = static_cast<double>(steps()) * dt_;
      paused_ = true;
      log_line("the recording ends at step " + step_text() + "; paused");
    }
  }

  DrawFrame frame(bool overlay) const {
    // The time shown lies within the last step: drawn that far between the last two states.
    const double last_step_began_s = (static_cast<double>(steps()) - 1.0) * dt_;
    const auto alpha =
        static_cast<float>(std::clamp((shown_s_ - last_step_began_s) / dt_, 0.0, 1.0));
    return geometry_.frame(simulation_, before_, after_, alpha, overlay);
  }

  std::string status() const {
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(2);
    out << "t = " << static_cast<double>(steps()) * dt_ << " / "
        << static_cast<double>(total_steps_) * dt_ << " s, step " << steps() << " / "
        << total_steps_ << ", " << (paused_ ? "paused" : "playing") << " at speed "
        << kSpeeds[speed_].name;
    return out.str();
  }

 private:
  void run_step() {
    simulation_.step();
    before_ = std::move(after_);
    after_ = geometry_.poses(simulation_);
  }

  std::string step_text() const {
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(4);
    out << steps() << " (t = " << static_cast<double>(steps()) * dt_ << " s)";
    return out.str();
  }

  void log_line(const std::string& line) {
    log_ << "stagger replay: " << line << "\n" << std::flush;
  }

  sim::Simulation& simulation_;
  const SceneGeometry& geometry_;
  std::uint64_t total_steps_;
  double dt_;  // [s]
  std::ostream& log_;
  BodyPoses before_, after_;
  double shown_s_ = 0;  // [s] the simulation time drawn
  bool paused_ = false;
  int speed_ = kNormalSpeed;
};

}  // namespace

Result<std::vector<ScriptedKey>> parse_scripted_keys(std::string_view text) {
  std::vector<ScriptedKey> keys;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view entry = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const std::size_t colon = entry.find(':');
    ScriptedKey key;
    const char* end = entry.data() + (colon == std::string_view::npos ? 0 : colon);
    const auto [at, problem] = std::from_chars(entry.data(), end, key.frame);
    if (colon == std::string_view::npos || problem != std::errc() || at != end || key.frame < 0) {
      return Error{"the entry " + limits::quoted(entry) +
                   " is not FRAME:KEY (a frame number from 0)"};
    }
    key.key = std::string(entry.substr(colon + 1));
    if (!known_key(key.key)) {
      return Error{"the key " + limits::quoted(key.key) +
                   " is not a viewer key (space, period, Right, bracketleft, bracketright, F1, "
                   "Escape)"};
    }
    if (!keys.empty() && key.frame < keys.back().frame)
      return Error{"the entry " + limits::quoted(entry) +
                   " comes before the frame of the key ahead of it"};
    keys.push_back(std::move(key));
  }
  return keys;
}

Result<ReplayViewReport> view_replay(sim::Simulation& simulation, std::uint64_t total_steps,
                                     const ReplayViewSettings& settings, std::ostream& log) {
  const SceneGeometry geometry(simulation);
  PlaySettings window;
  window.width = settings.width;
  window.height = settings.height;
  window.start_flying = true;  // a recording has no player's body to be in
  auto desktop = create_desktop(geometry, simulation.scene().description(), window);
  if (!desktop) return Error{desktop.error()};
  Frontend& frontend = *desktop.value();
  ReplayViewReport report;
  report.device = frontend.device();
  ReplayClock clock(simulation, geometry, total_steps, log);
  bool overlay = settings.overlay;
  std::size_t next_key = 0;
  std::string status;
  FrameInput input;
  try {
    report.end_reason = "window closed";
    while (frontend.begin_frame(input)) {
      const auto frame_began = std::chrono::steady_clock::now();
      if (settings.stop && settings.stop()) {
        report.end_reason = "interrupted";
        break;
      }
      for (; next_key < settings.keys.size() && settings.keys[next_key].frame <= report.frames;
           ++next_key) {
        const std::string& key = settings.keys[next_key].key;
        if (key == "F1") input.toggle_overlay = !input.toggle_overlay;
        input.keys.push_back(key);
      }
      if (input.toggle_overlay) overlay = !overlay;
      const bool quit = !std::all_of(input.keys.begin(), input.keys.end(),
                                     [&](const std::string& key) { return clock.press(key); });
      if (quit) {
        report.end_reason = "Escape";
        break;
      }
      clock.advance(input.frame_s);
      if (clock.status() != status) {
        status = clock.status();
        frontend.set_status(status);
      }
      frontend.draw(clock.frame(overlay), !settings.screenshot.empty());
      ++report.frames;
      input = FrameInput{};
      std::this_thread::sleep_until(frame_began + kMinFrameS);
    }
    if (!settings.screenshot.empty() && !frontend.save_screenshot(settings.screenshot)) {
      return Error{"cannot write the screenshot " + settings.screenshot +
                   " (no frame was drawn, or the file cannot be written)"};
    }
  } catch (const std::exception& e) {
    return Error{std::string("the viewer stopped with an error: ") + e.what()};
  }
  report.steps = clock.steps();
  return report;
}

}  // namespace stagger::vr
