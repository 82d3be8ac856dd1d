#include "stagger/vr/play.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "desktop.h"
#include "draw_list.h"
#include "frontend.h"
#include "stagger/core/cpu_clock.h"
#include "stagger/core/step_clock.h"
#include "stagger/sim/report.h"
#include "xr_frontend.h"

namespace stagger::vr {

std::optional<PlayMode> parse_play_mode(std::string_view text) {
  for (PlayMode m : {PlayMode::automatic, PlayMode::xr, PlayMode::desktop, PlayMode::headless}) {
    if (name_of(m) == text) return m;
  }
  return std::nullopt;
}

std::string_view name_of(PlayMode mode) {
  switch (mode) {
    case PlayMode::automatic:
      return "auto";
    case PlayMode::xr:
      return "xr";
    case PlayMode::desktop:
      return "desktop";
    case PlayMode::headless:
      return "headless";
  }
  return "auto";
}

namespace {

// Haptics: a pulse per contact, scaled by the impulse the hand gave,
// at most one per hand per kHapticGapS (a new pulse would cut the last one short).
constexpr float kHapticDeadZoneNs = 0.3f;     // [N·s] below this a touch is not felt
constexpr float kHapticFullNs = 30.0f;        // [N·s] this impulse gives full amplitude
constexpr double kHapticGapS = 0.1;           // [s]
constexpr double kHapticPulseS = 0.03;        // [s]
constexpr int kFingerJointSpheres = 24;       // XR_HAND_JOINT_COUNT_EXT less palm and wrist
constexpr float kFingerJointRadiusM = 0.01f;  // [m]

// A frontend for `headless`: no display, no input, a fixed frame clock.
class Headless final : public Frontend {
 public:
  explicit Headless(double display_hz) : frame_s_(1.0 / display_hz) {}
  bool begin_frame(FrameInput& input) override {
    input.frame_s = frame_s_;
    return true;
  }
  void draw(const DrawFrame&, bool) override {}
  std::string end_reason() const override { return "time"; }
  std::string device() const override { return ""; }
  int frames_in_flight() const override { return 0; }

 private:
  double frame_s_;
};

struct Started {
  std::unique_ptr<Frontend> frontend;
  PlayMode mode = PlayMode::headless;
  std::string note;
};

// `auto` tries XR, then a desktop window, then headless, and says why it passed each by.
Result<Started> start_frontend(const SceneGeometry& geometry, const sim::SceneDescription& scene,
                               const PlaySettings& settings) {
  Started s;
  if (settings.mode == PlayMode::xr || settings.mode == PlayMode::automatic) {
    auto xr = create_xr(geometry, scene, settings);
    if (xr.ok()) {
      s.frontend = std::move(xr).value();
      s.mode = PlayMode::xr;
      return s;
    }
    if (settings.mode == PlayMode::xr) return Error{xr.error()};
    s.note = "no XR: " + xr.error();
  }
  if (settings.mode == PlayMode::desktop || settings.mode == PlayMode::automatic) {
    auto desktop = create_desktop(geometry, scene, settings);
    if (desktop.ok()) {
      s.frontend = std::move(desktop).value();
      s.mode = PlayMode::desktop;
      return s;
    }
    if (settings.mode == PlayMode::desktop) return Error{desktop.error()};
    s.note += "; no desktop window: " + desktop.error();
  }
  s.frontend = std::make_unique<Headless>(settings.headless_display_hz);
  s.mode = PlayMode::headless;
  return s;
}

// The game loop's state: the simulation, what it looks like, the bodies' last two poses.
class Game {
 public:
  explicit Game(const sim::SceneDescription& scene) : simulation_(scene, {}) {
    physics::HandSettings hands = scene.hands;
    hands.ghost_separation_m = 0.3f;  // tracked hands turn ghost when held away
    const Vec3 start = scene.player_position + Vec3{0, 1.0f, 0};
    simulation_.add_live_hands(hands, start + Vec3{-0.3f, 0, 0}, start + Vec3{0.3f, 0, 0});
    for (int side = 0; side < 2; ++side) simulation_.hand(side)->set_tracked(false);
    // Finger joints collide when a runtime tracks hands (XR_EXT_hand_tracking): spheres of a
    // typical finger joint's radius, parked until then.
    simulation_.add_hand_joint_spheres(kFingerJointSpheres, kFingerJointRadiusM);
    geometry_ = std::make_unique<SceneGeometry>(simulation_);
    before_ = geometry_->poses(simulation_);
    after_ = before_;
  }

  sim::Simulation& simulation() { return simulation_; }
  const SceneGeometry& geometry() const { return *geometry_; }

  // Runs the steps this frame's time allows, with the hands following the input, and returns
  // the impulse each hand gave enemies during them [N·s].
  std::array<float, 2> advance(StepClock& clock, const FrameInput& input) {
    if (input.player_present) simulation_.set_player(input.player_feet, input.player_head);
    std::array<float, 2> impulse{};
    const int steps = clock.advance(input.frame_s);
    const float dt = simulation_.scene().world().dt();
    const auto alpha = static_cast<float>(clock.alpha());
    for (int i = 0; i < steps; ++i) {
      // The frame's pose is for the display time; the simulation stops alpha steps short of it,
      // and each step before the last one step earlier: targets go back along the velocity.
      const float ahead = (static_cast<float>(steps - 1 - i) + alpha) * dt;
      for (int side = 0; side < 2; ++side) {
        const TrackedHand& h = input.hands[static_cast<std::size_t>(side)];
        physics::Hand& hand = *simulation_.hand(side);
        const bool tracked = h.tracked && input.focused;
        hand.set_tracked(tracked);
        if (tracked || h.ghost_follows)
          hand.set_target(h.position - h.velocity * ahead, h.rotation, h.velocity);
        // Fingers collide only with a solid hand: a ghost hand (held away) must fling nothing.
        finger_targets_.clear();  // (reused: no allocation per step)
        if (tracked && !hand.ghost()) {
          for (const auto& j : h.finger_joints)
            finger_targets_.push_back(j ? std::optional(*j - h.velocity * ahead) : std::nullopt);
        }
        simulation_.set_hand_joints(side, finger_targets_);
      }
      simulation_.step();
      for (int side = 0; side < 2; ++side)
        impulse[static_cast<std::size_t>(side)] += simulation_.hand(side)->last_step_impulse_ns();
      before_ = std::move(after_);
      after_ = geometry_->poses(simulation_);
    }
    alpha_ = alpha;
    return impulse;
  }

  DrawFrame frame(bool overlay) const {
    return geometry_->frame(simulation_, before_, after_, alpha_, overlay);
  }

 private:
  sim::Simulation simulation_;
  std::unique_ptr<SceneGeometry> geometry_;
  BodyPoses before_, after_;
  float alpha_ = 1.0f;
  std::vector<std::optional<Vec3>> finger_targets_;
};

}  // namespace

Result<PlayReport> play(const sim::SceneDescription& scene, const PlaySettings& settings,
                        std::ostream& log) {
  if (settings.mode == PlayMode::headless && settings.seconds <= 0) {
    return Error{"headless play needs --seconds (there is no window to close)"};
  }
  Game game(scene);
  auto started = start_frontend(game.geometry(), scene, settings);
  if (!started.ok()) return Error{started.error()};
  Frontend& frontend = *started.value().frontend;
  if (started.value().mode == PlayMode::headless && !settings.screenshot.empty()) {
    // Checked before the game starts: a headless game draws no frame to save.
    return Error{"headless play draws nothing, so there is no screenshot to save (" +
                 (settings.mode == PlayMode::automatic
                      ? "auto found no XR runtime and no display: " + started.value().note
                      : std::string("--mode headless")) +
                 ")"};
  }
  PlayReport report;
  report.mode = started.value().mode;
  report.mode_note = started.value().note;
  report.device = frontend.device();
  report.frames_in_flight = frontend.frames_in_flight();
  log << "stagger play: mode " << name_of(report.mode);
  if (!report.device.empty()) log << " on " << report.device;
  if (!report.mode_note.empty()) log << " (" << report.mode_note << ")";
  log << "\n";

  try {
    sim::Simulation& simulation = game.simulation();
    StepClock clock(simulation.scene().world().dt(), 0.25);
    bool overlay = settings.overlay;
    std::array<double, 2> last_pulse{-1e9, -1e9};
    double game_s = 0;
    FrameInput input;
    std::array<Vec3, 2> hand_was{simulation.hand(0)->state().position,
                                 simulation.hand(1)->state().position};
    bool interrupted = false;
    while (frontend.begin_frame(input)) {
      if (settings.stop && settings.stop()) {
        interrupted = true;
        break;
      }
      game_s += input.frame_s;
      const bool last = settings.seconds > 0 && game_s >= settings.seconds;
      if (input.toggle_overlay) overlay = !overlay;
      const double ai_before = simulation.ai_cpu_ms();
      const double physics_start = thread_cpu_ms();
      const std::array<float, 2> impulse = game.advance(clock, input);
      const double ai_ms = simulation.ai_cpu_ms() - ai_before;
      report.costs.physics_ms.push_back(thread_cpu_ms() - physics_start - ai_ms);
      report.costs.ai_ms.push_back(ai_ms);
      for (int side = 0; side < 2; ++side) {
        const float ns = impulse[static_cast<std::size_t>(side)];
        if (!input.focused || ns < kHapticDeadZoneNs ||
            game_s - last_pulse[static_cast<std::size_t>(side)] < kHapticGapS)
          continue;
        frontend.haptic_pulse(side, std::min(1.0f, ns / kHapticFullNs), kHapticPulseS);
        last_pulse[static_cast<std::size_t>(side)] = game_s;
        ++report.haptic_pulses[static_cast<std::size_t>(side)];
      }
      if (!input.focused) ++report.unfocused_frames;
      for (std::size_t side = 0; side < 2; ++side) {
        const Vec3 now = simulation.hand(static_cast<int>(side))->state().position;
        const double moved = length(now - hand_was[side]);
        hand_was[side] = now;
        report.hand_travel_m[side] += moved;
        if (!input.focused) report.hand_travel_unfocused_m[side] += moved;
        if (input.hands[side].tracked && input.focused) ++report.hand_tracked_frames[side];
      }
      const double render_start = thread_cpu_ms();
      if (report.mode != PlayMode::headless)
        frontend.draw(game.frame(overlay), !settings.screenshot.empty());
      report.costs.render_ms.push_back(thread_cpu_ms() - render_start);
      ++report.frames;
      input = FrameInput{};
      if (last) break;
    }
    report.end_reason = interrupted ? "interrupted"
                        : settings.seconds > 0 && game_s >= settings.seconds
                            ? "time"
                            : frontend.end_reason();
    if (!settings.screenshot.empty() && report.mode != PlayMode::headless &&
        !frontend.save_screenshot(settings.screenshot)) {
      return Error{"cannot write the screenshot " + settings.screenshot +
                   " (no frame was drawn, or the file cannot be written)"};
    }
    report.game_seconds = simulation.scene().world().time();
    report.session_restarts = frontend.session_restarts();
    report.simulation = simulation.result();
    report.simulation.interrupted = interrupted;
  } catch (const std::exception& e) {
    return Error{std::string("stopped by an error: ") + e.what()};
  }
  return report;
}

namespace {

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto i = static_cast<std::size_t>(std::lround(p * static_cast<double>(values.size() - 1)));
  return values[i];
}

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

nlohmann::json cost_json(const std::vector<double>& ms) {
  return {{"mean", mean(ms)}, {"p50", percentile(ms, 0.5)}, {"p99", percentile(ms, 0.99)}};
}

}  // namespace

std::string play_report_json(const PlayReport& report) {
  nlohmann::json j = nlohmann::json::parse(sim::report_json(report.simulation));
  j["play"] = {
      {"mode", std::string(name_of(report.mode))},
      {"mode_note", report.mode_note},
      {"device", report.device},
      {"frames", report.frames},
      {"game_seconds", report.game_seconds},
      {"end_reason", report.end_reason},
      {"haptic_pulses", {{"left", report.haptic_pulses[0]}, {"right", report.haptic_pulses[1]}}},
      {"hands",
       {{"left",
         {{"tracked_frames", report.hand_tracked_frames[0]},
          {"travel_m", report.hand_travel_m[0]},
          {"travel_unfocused_m", report.hand_travel_unfocused_m[0]}}},
        {"right",
         {{"tracked_frames", report.hand_tracked_frames[1]},
          {"travel_m", report.hand_travel_m[1]},
          {"travel_unfocused_m", report.hand_travel_unfocused_m[1]}}}}},
      {"unfocused_frames", report.unfocused_frames},
      {"session_restarts", report.session_restarts},
      {"frames_in_flight", report.frames_in_flight},
      {"cpu_ms_per_frame",
       {{"physics", cost_json(report.costs.physics_ms)},
        {"ai", cost_json(report.costs.ai_ms)},
        {"render", cost_json(report.costs.render_ms)}}}};
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";  // names need not be UTF-8
}

std::string play_summary_text(const PlayReport& report) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(2);
  out << "stagger play: " << report.frames << " frames, " << report.game_seconds
      << " s of game time, ended by " << report.end_reason << "\n";
  out << "CPU per frame [ms]      median    p99   mean\n";
  const std::pair<const char*, const std::vector<double>*> rows[] = {
      {"physics", &report.costs.physics_ms},
      {"ai", &report.costs.ai_ms},
      {"render submission", &report.costs.render_ms}};
  for (const auto& [name, ms] : rows) {
    out << "  " << name;
    for (std::size_t pad = std::string(name).size(); pad < 20; ++pad) out << ' ';
    out << percentile(*ms, 0.5) << "  " << percentile(*ms, 0.99) << "  " << mean(*ms) << "\n";
  }
  out << "haptic pulses: left " << report.haptic_pulses[0] << ", right " << report.haptic_pulses[1];
  if (report.session_restarts > 0) out << "; XR sessions restarted: " << report.session_restarts;
  // The enemies' lines as `stagger sim` prints them, under this command's name.
  std::string enemies = sim::summary_text(report.simulation);
  const std::string sim_prefix = "stagger sim: ";
  if (enemies.rfind(sim_prefix, 0) == 0) enemies.replace(0, sim_prefix.size(), "stagger play: ");
  out << "\n" << enemies;
  return out.str();
}

}  // namespace stagger::vr
