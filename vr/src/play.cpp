#include "stagger/vr/play.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <utility>

#include "desktop.h"
#include "draw_list.h"
#include "frontend.h"
#include "locomotion.h"
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
constexpr float kHapticDeadZoneNs = 0.3f;  // [N·s] below this a touch is not felt
constexpr float kHapticFullNs = 30.0f;     // [N·s] this impulse gives full amplitude
constexpr double kHapticGapS = 0.1;        // [s]
constexpr double kHapticPulseS = 0.03;     // [s]
// Taking a hit: a strong, longer pulse on both controllers, felt whatever the hands are doing.
constexpr float kHitPulseAmplitude = 1.0f;  // [0, 1]
constexpr double kHitPulseS = 0.12;         // [s]
// ... and a red flash at the edges of the view, clear within this radius 0.2 m before the eyes
// (about 24° off the view's centre). The comfort vignette, while the stick walks the player,
// leaves a wider view (31°).
constexpr double kHitVignetteS = 0.3;            // [s]
constexpr float kHitVignetteInnerM = 0.09f;      // [m]
constexpr float kComfortVignetteInnerM = 0.12f;  // [m]
constexpr int kFingerJointSpheres = 24;          // XR_HAND_JOINT_COUNT_EXT less palm and wrist
constexpr float kFingerJointRadiusM = 0.01f;     // [m]

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
  Game(const sim::SceneDescription& scene, const sim::InputScript& script)
      : scene_(scene), script_(script) {
    // The script's hands exist already (the simulation made them); the live ones fill the rest.
    for (const sim::HandEvent& e : script.hands) scripted_[static_cast<std::size_t>(e.hand)] = true;
    if (!script.players.empty()) script_player_from_s_ = script.players.front().t;
    start();
    geometry_ = std::make_unique<SceneGeometry>(*simulation_);
    before_ = geometry_->poses(*simulation_);
    after_ = before_;
  }

  /// The level from the start again (the player ran out of hit points): a fresh simulation, whose
  /// bodies are made in the same order, so the geometry's body ids still hold.
  void restart() {
    start();
    before_ = geometry_->poses(*simulation_);
    after_ = before_;
    hits_ = blocks_ = 0;
  }

  /// Punches that landed on the player and that the hands blocked since the last call.
  std::pair<int, int> take_hits_and_blocks() {
    return {std::exchange(hits_, 0), std::exchange(blocks_, 0)};
  }

  sim::Simulation& simulation() { return *simulation_; }
  physics::PlayerBody& player() { return *player_; }
  const SceneGeometry& geometry() const { return *geometry_; }
  /// Whether the script moves this hand (0 left, 1 right) rather than the player.
  bool scripted(int side) const { return scripted_[static_cast<std::size_t>(side)]; }

  // Runs the steps this frame's time allows, with the hands following the input, and returns
  // the impulse each hand gave enemies during them [N·s].
  std::array<float, 2> advance(StepClock& clock, const FrameInput& input) {
    // Once the script's first player event is due (half a step early, as events apply), the
    // script owns the player.
    const double now = simulation_->scene().world().time();
    const double half_step = 0.5 * static_cast<double>(simulation_->scene().world().dt());
    const bool script_player = now + half_step >= script_player_from_s_;
    if (input.player_present && !script_player)
      simulation_->set_player(input.player_feet, input.player_head);
    std::array<float, 2> impulse{};
    const int steps = clock.advance(input.frame_s);
    const float dt = simulation_->scene().world().dt();
    const auto alpha = static_cast<float>(clock.alpha());
    for (int i = 0; i < steps; ++i) {
      // The frame's pose is for the display time; the simulation stops alpha steps short of it,
      // and each step before the last one step earlier: targets go back along the velocity.
      const float ahead = (static_cast<float>(steps - 1 - i) + alpha) * dt;
      for (int side = 0; side < 2; ++side) {
        if (scripted(side)) continue;  // (the simulation moves it along its path)
        const TrackedHand& h = input.hands[static_cast<std::size_t>(side)];
        physics::Hand& hand = *simulation_->hand(side);
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
        simulation_->set_hand_joints(side, finger_targets_);
      }
      simulation_->step();
      for (int side = 0; side < 2; ++side)
        impulse[static_cast<std::size_t>(side)] += simulation_->hand(side)->last_step_impulse_ns();
      before_ = std::move(after_);
      after_ = geometry_->poses(*simulation_);
    }
    alpha_ = alpha;
    return impulse;
  }

  DrawFrame frame(bool overlay) const {
    return geometry_->frame(*simulation_, before_, after_, alpha_, overlay);
  }

 private:
  void start() {
    simulation_ = std::make_unique<sim::Simulation>(scene_, script_);
    physics::HandSettings hands = scene_.hands;
    hands.ghost_separation_m = 0.3f;  // tracked hands turn ghost when held away
    const Vec3 start = scene_.player_position + Vec3{0, 1.0f, 0};
    simulation_->add_live_hands(hands, start + Vec3{-0.3f, 0, 0}, start + Vec3{0.3f, 0, 0});
    for (int side = 0; side < 2; ++side) {
      if (!scripted(side)) simulation_->hand(side)->set_tracked(false);
    }
    // Finger joints collide when a runtime tracks hands (XR_EXT_hand_tracking): spheres of a
    // typical finger joint's radius, parked until then.
    simulation_->add_hand_joint_spheres(kFingerJointSpheres, kFingerJointRadiusM);
    player_ = &simulation_->scene().world().add_player_body({}, scene_.player_position);
    simulation_->on_event([this](const sim::EnemyEvent& e) {
      hits_ += e.kind == sim::EventKind::punch_landed;
      blocks_ += e.kind == sim::EventKind::punch_blocked;
    });
  }

  sim::SceneDescription scene_;
  sim::InputScript script_;
  std::unique_ptr<sim::Simulation> simulation_;
  std::unique_ptr<SceneGeometry> geometry_;
  physics::PlayerBody* player_ = nullptr;  // in the world, which owns it
  BodyPoses before_, after_;
  float alpha_ = 1.0f;
  std::vector<std::optional<Vec3>> finger_targets_;
  int hits_ = 0;
  int blocks_ = 0;
  std::array<bool, 2> scripted_{};
  double script_player_from_s_ = std::numeric_limits<double>::infinity();  // [s]
};

}  // namespace

namespace {

LocomotionSettings locomotion_settings(const PlaySettings& settings) {
  LocomotionSettings out;
  out.turn = settings.snap_turn_deg > 0 ? TurnStyle::snap : TurnStyle::smooth;
  if (settings.snap_turn_deg > 0) out.snap_deg = settings.snap_turn_deg;
  out.reference = settings.move_along_hand ? MoveReference::hand : MoveReference::head;
  return out;
}

// The player's body follows the head and the sticks; the tracking space is then moved so that
// the head stays over the body. The enemies see the player where its body stands.
void walk(Locomotion& locomotion, FrameInput& input, Frontend& frontend) {
  LocomotionInput in;
  in.dt = static_cast<float>(input.frame_s);
  in.move_stick = input.focused ? input.move_stick : std::array<float, 2>{};
  in.turn_stick = input.focused ? input.turn_stick : std::array<float, 2>{};
  in.head = input.player_head;
  in.head_forward = input.head_rotation.rotate({0, 0, -1});
  in.hand_forward = input.hands[0].rotation.rotate({0, 0, -1});
  const RigMove move = locomotion.update(in);
  frontend.move_rig(move.translation, move.yaw_rad);
  input.player_feet = locomotion.body().feet();
  input.player_head = input.player_head + move.translation;
}

}  // namespace

Result<PlayReport> play(const sim::SceneDescription& scene, const PlaySettings& settings,
                        std::ostream& log) {
  if (settings.mode == PlayMode::headless && settings.seconds <= 0) {
    return Error{"headless play needs --seconds (there is no window to close)"};
  }
  Game game(scene, settings.script);
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
    auto locomotion = std::make_unique<Locomotion>(game.player(), locomotion_settings(settings));
    int hit_points = scene.player_hit_points;
    double hit_flash_until_s = -1;  // [s] game time
    StepClock clock(game.simulation().scene().world().dt(), 0.25);
    bool overlay = settings.overlay;
    std::array<double, 2> last_pulse{-1e9, -1e9};
    double game_s = 0;
    FrameInput input;
    std::array<Vec3, 2> hand_was{game.simulation().hand(0)->state().position,
                                 game.simulation().hand(1)->state().position};
    bool interrupted = false;
    while (frontend.begin_frame(input)) {
      if (settings.stop && settings.stop()) {
        interrupted = true;
        break;
      }
      game_s += input.frame_s;
      const bool last = settings.seconds > 0 && game_s >= settings.seconds;
      if (input.toggle_overlay) overlay = !overlay;
      if (input.player_present && report.mode != PlayMode::headless)
        walk(*locomotion, input, frontend);
      const double ai_before = game.simulation().ai_cpu_ms();
      const double physics_start = thread_cpu_ms();
      const std::array<float, 2> impulse = game.advance(clock, input);
      const double ai_ms = game.simulation().ai_cpu_ms() - ai_before;
      report.costs.physics_ms.push_back(thread_cpu_ms() - physics_start - ai_ms);
      report.costs.ai_ms.push_back(ai_ms);
      for (int side = 0; side < 2; ++side) {
        const float ns = impulse[static_cast<std::size_t>(side)];
        if (game.scripted(side) || !input.focused || ns < kHapticDeadZoneNs ||
            game_s - last_pulse[static_cast<std::size_t>(side)] < kHapticGapS)
          continue;
        frontend.haptic_pulse(side, std::min(1.0f, ns / kHapticFullNs), kHapticPulseS);
        last_pulse[static_cast<std::size_t>(side)] = game_s;
        ++report.haptic_pulses[static_cast<std::size_t>(side)];
      }
      const auto [hits, blocks] = game.take_hits_and_blocks();
      report.hits_taken += hits;
      report.blocks += blocks;
      if (hits > 0 && input.focused) {
        for (int side = 0; side < 2; ++side) {
          frontend.haptic_pulse(side, kHitPulseAmplitude, kHitPulseS);
          ++report.haptic_pulses[static_cast<std::size_t>(side)];
          last_pulse[static_cast<std::size_t>(side)] = game_s;
        }
      }
      if (hit_points > 0 && (hit_points -= hits) <= 0) {
        // Out of hit points: the level starts again, the player at the start, facing its way.
        const Vec3 start = scene.player_position;
        const float undo_turns = -locomotion->turned_rad();
        const Vec3 head = input.player_head;
        const float feet_y = locomotion->body().feet().y;
        report.player_walked_m += locomotion->distance_m();
        report.snap_turns += locomotion->snap_turns();
        report.game_seconds += game.simulation().scene().world().time();
        game.restart();
        locomotion = std::make_unique<Locomotion>(game.player(), locomotion_settings(settings));
        frontend.move_rig({start.x - head.x, start.y - feet_y, start.z - head.z}, undo_turns);
        hit_points = scene.player_hit_points;
        ++report.restarts;
        for (int side = 0; side < 2; ++side)
          hand_was[static_cast<std::size_t>(side)] = game.simulation().hand(side)->state().position;
        log << "stagger play: out of hit points at " << game_s << " s; the level starts again\n";
      }
      if (!input.focused) ++report.unfocused_frames;
      for (std::size_t side = 0; side < 2; ++side) {
        const Vec3 now = game.simulation().hand(static_cast<int>(side))->state().position;
        const double moved = length(now - hand_was[side]);
        hand_was[side] = now;
        report.hand_travel_m[side] += moved;
        if (!input.focused) report.hand_travel_unfocused_m[side] += moved;
        if (input.hands[side].tracked && input.focused && !game.scripted(static_cast<int>(side)))
          ++report.hand_tracked_frames[side];
      }
      if (hits > 0) hit_flash_until_s = game_s + kHitVignetteS;
      const double render_start = thread_cpu_ms();
      if (report.mode != PlayMode::headless) {
        DrawFrame frame = game.frame(overlay);
        // A hit flashes the edges of the view red; with --comfort-vignette, walking by the stick
        // darkens them (the view moving without the body is what makes players sick).
        const bool hit_flash = game_s < hit_flash_until_s;
        const bool comfort = settings.comfort_vignette && locomotion->moving();
        if (input.player_present && (hit_flash || comfort)) {
          game.geometry().add_vignette(frame, input.player_head, input.head_rotation,
                                       hit_flash ? kHitVignetteInnerM : kComfortVignetteInnerM,
                                       hit_flash);
          ++report.vignette_frames;
        }
        frontend.draw(frame, !settings.screenshot.empty());
      }
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
    report.game_seconds += game.simulation().scene().world().time();
    report.player_feet = game.player().feet();
    report.player_walked_m += locomotion->distance_m();
    report.snap_turns += locomotion->snap_turns();
    report.hit_points_left = hit_points;
    report.session_restarts = frontend.session_restarts();
    report.simulation = game.simulation().result();
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
      {"player",
       {{"feet", {report.player_feet.x, report.player_feet.y, report.player_feet.z}},
        {"walked_m", report.player_walked_m},
        {"snap_turns", report.snap_turns},
        {"hits_taken", report.hits_taken},
        {"blocks", report.blocks},
        {"hit_points_left", report.hit_points_left},
        {"restarts", report.restarts},
        {"vignette_frames", report.vignette_frames}}},
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
  out << "haptic pulses: left " << report.haptic_pulses[0] << ", right " << report.haptic_pulses[1]
      << "; hits taken " << report.hits_taken << ", blocked " << report.blocks;
  if (report.session_restarts > 0) out << "; XR sessions restarted: " << report.session_restarts;
  // The enemies' lines as `stagger sim` prints them, under this command's name.
  std::string enemies = sim::summary_text(report.simulation);
  const std::string sim_prefix = "stagger sim: ";
  if (enemies.rfind(sim_prefix, 0) == 0) enemies.replace(0, sim_prefix.size(), "stagger play: ");
  out << "\n" << enemies;
  return out.str();
}

}  // namespace stagger::vr
