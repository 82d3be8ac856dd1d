// stagger: the command line. Exit codes: 0 success, 1 the input was understood but is wrong, 2
// usage error, 130 interrupted (SIGINT or SIGTERM; what the run had is written).

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>

#include "cli_checks.h"
#include "clips_command.h"
#include "stagger/bench/bench.h"
#include "stagger/bench/blast_bench.h"
#include "stagger/bench/knock_down_course.h"
#include "stagger/bench/patrol_bench.h"
#include "stagger/bench/push_thresholds.h"
#include "stagger/bench/soak.h"
#include "stagger/bench/terrain_course.h"
#include "stagger/bench/walks_bench.h"
#include "stagger/core/limits.h"
#include "stagger/levels/load.h"
#include "stagger/levels/preview.h"
#include "stagger/output/gltf_export.h"
#include "stagger/output/plot.h"
#include "stagger/output/trace.h"
#include "stagger/physics/bullet_version.h"
#include "stagger/sim/input_script.h"
#include "stagger/sim/reachability.h"
#include "stagger/sim/recording.h"
#include "stagger/sim/report.h"
#include "stagger/sim/scene.h"
#include "stagger/sim/settings.h"
#include "stagger/sim/simulation.h"
#include "stagger/vr/offscreen.h"
#include "stagger/vr/openxr_version.h"
#include "stagger/vr/play.h"
#include "stagger/vr/replay_view.h"
#include "stagger_version.h"
#include "video_capture.h"

#if defined(__SANITIZE_ADDRESS__)
// Under AddressSanitizer: Debian's OpenXR loader 1.0.20 keeps a few objects per instance for the
// life of the process; they are not ours to fix.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libopenxr_loader.so\n";
}
#endif

namespace {

using stagger::app::kExitUsage;
using stagger::app::kExitWrongInput;
/// A run stopped by SIGINT or SIGTERM exits with this (the shell's 128 + SIGINT), after writing
/// what it has.
constexpr int kExitInterrupted = 130;
/// [m] `render --eye` and `--at` closer than this give the camera no direction.
constexpr float kMinLookDistanceM = 0.01f;

struct SimOptions {
  std::string level;  // empty: the built-in scene
  double seconds = 10.0;
  double display_hz = 90.0;
  float physics_hz = 240.0f;
  int solver_iterations = 10;
  std::string input;
  std::string report;
  std::string trace;
  std::string plot;
  std::string record;
  int enemies = 1;
  std::string settings;  // a `--settings` file; empty: the defaults
  bool quiet = false;
  std::optional<std::uint64_t>
      vary;            // the seed that nudges the spawns; unset: as the level has them
  int max_active = 0;  // activity levels: the most full ragdolls; 0: every enemy is one
  std::string clips;   // a death clip library (.stclip); empty: none
};

bool write_text(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    return static_cast<bool>(std::cout);
  }
  std::ofstream file(path, std::ios::binary);
  file << text;
  return static_cast<bool>(file);
}

// A progress bar on stderr for runs that take a while: it appears after 2 s of wall time (short
// runs print nothing), only when stderr is a terminal and not with --quiet, and is erased at the
// end.
class Progress {
 public:
  Progress(double total_s, bool enabled)
      : total_s_(total_s),
        enabled_(enabled && isatty(2)),
        start_(std::chrono::steady_clock::now()) {}
  void update(double sim_s) {
    if (!enabled_) return;
    const double wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (wall_s < kShowAfterS) return;
    const int permille = static_cast<int>(1000.0 * sim_s / total_s_);
    if (permille == last_permille_) return;
    last_permille_ = permille;
    const int filled = permille * kWidth / 1000;
    const double left_s = sim_s > 0 ? wall_s * (total_s_ - sim_s) / sim_s : 0.0;
    std::fprintf(stderr, "\r[%.*s%*s] %6.1f / %.1f s simulated, %3.0f s left ", filled, kBar,
                 kWidth - filled, "", sim_s, total_s_, left_s);
    shown_ = true;
  }
  ~Progress() {
    if (shown_) std::fprintf(stderr, "\r%*s\r", 80, "");
  }

 private:
  static constexpr double kShowAfterS = 2.0;
  static constexpr int kWidth = 30;
  static constexpr const char* kBar = "##############################";
  double total_s_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
  int last_permille_ = -1;
  bool shown_ = false;
};

// Every output path of a command, checked (opened for writing) before any work, so that a long run
// never fails at its end for a path it could not write. Prints why and returns false.
bool outputs_writable(const std::string& command,
                      std::initializer_list<std::pair<const char*, const std::string*>> outputs) {
  for (const auto& [what, path] : outputs) {
    if (stagger::app::can_write(*path)) continue;
    std::cerr << command << ": cannot write the " << what << " to "
              << stagger::limits::quoted(*path)
              << " (no such folder, or no permission); nothing was run\n";
    return false;
  }
  return true;
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A level as `stagger check` judges it: loaded, and its navigation checked when it has geometry
// to walk on. Its diagnostics are printed; nothing is returned when there are errors.
struct CheckedLevel {
  stagger::levels::LoadResult loaded;
  stagger::sim::LevelNavigation navigation;
};

std::optional<CheckedLevel> check_level(const std::string& file) {
  CheckedLevel level{stagger::levels::load_level(file), {}};
  stagger::sim::check_profiles(level.loaded, file);
  for (const auto& d : level.loaded.diagnostics) std::cerr << stagger::levels::format(d) << "\n";
  if (!level.loaded.ok()) return std::nullopt;
  level.navigation = stagger::sim::check_reachability(level.loaded);
  for (const auto& d : level.navigation.diagnostics)
    std::cerr << stagger::levels::format(d) << "\n";
  if (!level.navigation.ok()) return std::nullopt;
  return level;
}

int run_check(const std::vector<std::string>& files) {
  int failed = 0;
  for (const std::string& file : files) {
    const std::optional<CheckedLevel> checked = check_level(file);
    if (!checked) {
      ++failed;
      continue;
    }
    const stagger::levels::Level& l = checked->loaded.level;
    const int warnings = checked->navigation.warnings();
    std::cout << file << ": ok (" << l.boxes.size() + l.meshes.size() << " geometry, "
              << l.routes.size() << " routes, " << l.enemies.size() << " enemies, navmesh of "
              << checked->navigation.navmesh->walkable_polygon_count()
              << " polygons; every point reachable"
              << (warnings > 0 ? "; " + std::to_string(warnings) + " warning(s)" : "") << ")\n";
  }
  if (failed > 0)
    std::cerr << "stagger check: " << failed << " of " << files.size() << " levels have errors\n";
  return failed > 0 ? kExitWrongInput : 0;
}

int run_preview(const std::string& file, const std::string& out, int size_px) {
  if (!outputs_writable("stagger preview", {{"picture", &out}})) return kExitWrongInput;
  const std::optional<CheckedLevel> checked = check_level(file);
  if (!checked) {
    std::cerr << "stagger preview: the level has errors; no picture was made\n";
    return kExitWrongInput;
  }
  stagger::levels::PreviewSettings settings;
  settings.size_px = size_px;
  settings.navmesh_triangles = checked->navigation.navmesh->triangles();
  const auto written = stagger::levels::write_preview_png(
      checked->loaded.level, checked->loaded.mesh_triangles, out, settings);
  if (!written) {
    std::cerr << "stagger preview: " << written.error() << "\n";
    return kExitWrongInput;
  }
  std::cout << out << ": " << size_px << " x " << size_px * 3 / 4 << " preview of " << file << "\n";
  return 0;
}

// The `--settings` file of a command (the built-in defaults without one). Prints its problems
// and returns nothing when it has any; `nothing` says what was then not done.
std::optional<stagger::sim::SettingsFile> settings_option(const std::string& command,
                                                          const std::string& path,
                                                          const char* nothing) {
  if (path.empty()) return stagger::sim::SettingsFile{};
  auto loaded = stagger::sim::load_settings_file(path);
  if (!loaded) {
    std::cerr << loaded.error() << "\n"
              << command << ": the settings file has errors; " << nothing << "\n";
    return std::nullopt;
  }
  return std::move(loaded).value();
}

int run_settings(const std::string& path) {
  const auto settings = settings_option("stagger settings", path, "nothing was printed");
  if (!settings) return kExitWrongInput;
  std::cout << stagger::sim::settings_json(settings->settings);
  return 0;
}

// What a run is made of: the scene and the script, with what a recording needs to make them
// again (the level file's hash, the script's text).
struct RunInputs {
  stagger::sim::SceneDescription scene;
  stagger::sim::InputScript script;
  std::uint64_t level_hash = 0;
  std::string script_text;
};

// Builds the scene (a level that passes `stagger check`, or the built-in one) and checks the
// script against it; prints the problems and returns nothing when there are any. `command` names
// the caller in messages.
std::optional<RunInputs> prepare_run(const std::string& command, const std::string& level,
                                     int enemies, float physics_hz, int solver_iterations,
                                     const std::string& input_name, const std::string& input_text,
                                     std::optional<std::uint64_t> vary = std::nullopt,
                                     const stagger::sim::SettingsFile& settings = {}) {
  RunInputs run;
  run.scene = stagger::sim::builtin_scene(enemies);
  if (!level.empty()) {
    const std::optional<CheckedLevel> checked = check_level(level);
    if (!checked) {
      std::cerr << command << ": the level has errors; nothing was simulated\n";
      return std::nullopt;
    }
    run.scene =
        stagger::sim::scene_from_level(checked->loaded.level, checked->loaded.mesh_triangles);
    if (checked->loaded.level.name.empty()) run.scene.name = level;
    const auto bytes = read_file(level);
    if (bytes) run.level_hash = stagger::sim::fnv1a_64(bytes->data(), bytes->size());
  }
  if (vary) run.scene = stagger::sim::vary_spawns(std::move(run.scene), *vary);
  run.scene.enemy_settings = settings.settings;
  run.scene.settings_file = settings.path;
  run.scene.world.physics_hz = physics_hz;
  run.scene.world.solver_iterations = solver_iterations;
  if (!input_name.empty()) {
    auto parsed = stagger::sim::parse_input_script(input_text, input_name);
    if (!parsed) {
      std::cerr << parsed.error() << "\n"
                << command << ": the input script has errors; nothing was simulated\n";
      return std::nullopt;
    }
    run.script = std::move(parsed).value();
    const std::string problems =
        stagger::sim::check_against_scene(run.script, run.scene, input_name);
    if (!problems.empty()) {
      std::cerr << problems << "\n"
                << command << ": the input script has errors; nothing was simulated\n";
      return std::nullopt;
    }
    run.script_text = input_text;
  }
  return run;
}

const std::function<bool()> kStopOnInterrupt = [] { return stagger::app::interrupted(); };

// The camera of `render` and `--video`: from --eye looking at --at, each defaulting to the
// overview camera's (3 m behind and 2.5 m above the player start, looking 5 m ahead). Prints why
// and returns nothing when the two are too close to give a direction.
std::optional<stagger::vr::EyeView> chosen_camera(const std::string& command,
                                                  const stagger::sim::SceneDescription& scene,
                                                  const std::vector<int>& size,
                                                  const std::vector<float>& eye,
                                                  const std::vector<float>& at) {
  const float aspect = static_cast<float>(size[0]) / static_cast<float>(size[1]);
  stagger::vr::EyeView view = stagger::vr::overview_camera(scene, aspect);
  if (eye.empty() && at.empty()) return view;
  const stagger::Vec3 from = eye.empty() ? view.position : stagger::Vec3{eye[0], eye[1], eye[2]};
  const stagger::Vec3 to =
      at.empty() ? from + view.orientation.rotate({0, 0, -1}) : stagger::Vec3{at[0], at[1], at[2]};
  if (length(to - from) < kMinLookDistanceM) {
    std::cerr << command << ": --eye and --at must be at least " << kMinLookDistanceM
              << " m apart\n";
    return std::nullopt;
  }
  return stagger::vr::look_at(from, to, view.fov);
}

// The text of an input script (empty for no script); prints why and returns nothing when it
// cannot be read.
std::optional<std::string> read_script(const std::string& command, const std::string& path) {
  if (path.empty()) return std::string();
  std::optional<std::string> text = read_file(path);
  if (!text) {
    std::cerr << path << ": cannot open the input script\n"
              << command << ": nothing was simulated\n";
  }
  return text;
}

// A file a recording names (a level, a clip library, a settings file): its absolute path, so that
// the replay finds it from anywhere, and the FNV-1a hash of its bytes, so that it can tell a
// changed file. Empty and 0 for none.
std::string recorded_path(const std::string& path) {
  return path.empty() ? std::string() : std::filesystem::absolute(path).string();
}
std::pair<std::string, std::uint64_t> recorded_file(const std::string& path) {
  if (path.empty()) return {};
  const std::optional<std::string> bytes = read_file(path);
  return {recorded_path(path), bytes ? stagger::sim::fnv1a_64(bytes->data(), bytes->size()) : 0};
}

// The death clip library at `path` (null for none); prints why and returns nothing when it cannot
// be loaded.
std::optional<std::shared_ptr<const stagger::sim::DeathClipLibrary>> load_clips(
    const std::string& command, const std::string& path) {
  if (path.empty()) return std::shared_ptr<const stagger::sim::DeathClipLibrary>();
  auto loaded = stagger::sim::DeathClipLibrary::load(path);
  if (!loaded) {
    std::cerr << command << ": " << loaded.error() << "; nothing was simulated\n";
    return std::nullopt;
  }
  return std::make_shared<const stagger::sim::DeathClipLibrary>(std::move(loaded).value());
}

// The outputs of `stagger sim`, written as the run goes (the trace) or at its end, interrupted or
// not.
struct SimOutputs {
  std::ofstream trace_file;
  std::optional<stagger::output::TraceWriter> trace;
  std::optional<stagger::output::TracePlot> plot;
  stagger::sim::Recording recording;
};

void attach_outputs(const SimOptions& o, const RunInputs& run, stagger::sim::Simulation& simulation,
                    SimOutputs& out) {
  if (!o.trace.empty()) {
    out.trace_file.open(o.trace, std::ios::binary);
    out.trace.emplace(out.trace_file);
    simulation.on_step([&out](const stagger::sim::Simulation& s) { out.trace->write(s); });
  }
  if (!o.plot.empty()) {
    out.plot.emplace(run.script.pushes);
    simulation.on_step([&out](const stagger::sim::Simulation& s) { out.plot->record(s); });
  }
  if (o.record.empty()) return;
  stagger::sim::Recording& recording = out.recording;
  recording.level_path = recorded_path(o.level);  // (its hash was taken as the level was read)
  recording.level_hash = run.level_hash;
  recording.builtin_enemies = o.enemies;
  recording.physics_hz = o.physics_hz;
  recording.solver_iterations = o.solver_iterations;
  recording.display_hz = o.display_hz;
  recording.seconds = o.seconds;
  recording.input_name = o.input;
  recording.input_script = run.script_text;
  recording.vary_seed = o.vary;
  recording.max_active = o.max_active;
  std::tie(recording.clips_path, recording.clips_hash) = recorded_file(o.clips);
  std::tie(recording.settings_path, recording.settings_hash) = recorded_file(o.settings);
  simulation.on_step([&recording](const stagger::sim::Simulation& s) {
    recording.step_hashes.push_back(s.scene().world().state_hash());
  });
}

// Writes what the run made; false (with a message) when one could not be written.
bool write_outputs(const SimOptions& o, const stagger::sim::SimulationResult& result,
                   SimOutputs& out) {
  if (out.trace_file.is_open() && !out.trace_file.flush()) {
    std::cerr << "stagger sim: writing the trace to " << o.trace << " failed\n";
    return false;
  }
  if (!o.record.empty()) {
    out.recording.incomplete = result.interrupted;
    const auto written = stagger::sim::write_recording(out.recording, o.record);
    if (!written) {
      std::cerr << "stagger sim: " << written.error() << "\n";
      return false;
    }
  }
  if (out.plot && !out.plot->write_png(o.plot)) {
    std::cerr << "stagger sim: cannot write the plot to " << o.plot << "\n";
    return false;
  }
  if (!o.report.empty() && !write_text(o.report, stagger::sim::report_json(result))) {
    std::cerr << "stagger sim: cannot write the report to " << o.report << "\n";
    return false;
  }
  return true;
}

int run_sim(const SimOptions& o) {
  if (!outputs_writable("stagger sim", {{"report", &o.report},
                                        {"trace", &o.trace},
                                        {"plot", &o.plot},
                                        {"recording", &o.record}})) {
    return kExitWrongInput;
  }
  const std::optional<std::string> input_text = read_script("stagger sim", o.input);
  if (!input_text) return kExitWrongInput;
  const auto settings = settings_option("stagger sim", o.settings, "nothing was simulated");
  if (!settings) return kExitWrongInput;
  std::optional<RunInputs> run =
      prepare_run("stagger sim", o.level, o.enemies, o.physics_hz, o.solver_iterations, o.input,
                  *input_text, o.vary, *settings);
  if (!run) return kExitWrongInput;
  run->scene.activity.max_active = o.max_active;
  const auto clips = load_clips("stagger sim", o.clips);
  if (!clips) return kExitWrongInput;
  stagger::sim::Simulation simulation(run->scene, run->script);
  if (*clips) simulation.set_death_clips(*clips);
  SimOutputs outputs;
  attach_outputs(o, *run, simulation, outputs);
  stagger::app::catch_interrupts();
  {
    Progress progress(o.seconds, !o.quiet);
    simulation.run(
        o.seconds, o.display_hz, [&](double t) { progress.update(t); }, kStopOnInterrupt);
  }
  const stagger::sim::SimulationResult result = simulation.result();
  if (!write_outputs(o, result, outputs)) return kExitWrongInput;
  if (!o.quiet && o.report != "-") std::cout << stagger::sim::summary_text(result);
  if (result.interrupted) {
    std::cerr << "stagger sim: interrupted after " << result.seconds << " s of " << o.seconds
              << " s; the outputs hold the steps that ran\n";
    return kExitInterrupted;
  }
  // A blow-up that the guard caught and reset is still a failed run.
  const bool reset = std::any_of(result.enemies.begin(), result.enemies.end(),
                                 [](const auto& e) { return e.resets > 0; });
  return result.finite && !reset ? 0 : kExitWrongInput;
}

// A recording made ready to re-simulate: its run built again, with every step's state hash
// checked against the recorded one as it runs.
struct Replay {
  stagger::sim::Recording recording;
  std::unique_ptr<stagger::sim::Simulation> simulation;
  std::uint64_t steps = 0;                // steps re-simulated so far
  std::optional<std::uint64_t> diverged;  // the first step whose hash differs (from 0)
  std::uint64_t last_hash = 0;            // the state hash after the last step
  std::uint64_t total_steps() const { return recording.step_hashes.size(); }
  // [s] what the run covered: its duration, or up to its last step when it was interrupted
  double seconds() const {
    return recording.incomplete
               ? static_cast<double>(total_steps()) / static_cast<double>(recording.physics_hz)
               : recording.seconds;
  }
};

// Whether a file the recording names (`what`: "level", ...) is still a regular file at its path
// with the recorded hash; prints why not. True when the recording names none.
bool recorded_file_unchanged(const char* command, const char* what, const std::string& path,
                             std::uint64_t hash) {
  if (path.empty()) return true;
  std::error_code error;
  // Only a regular file: a recording that names a device or a folder must not make us read it.
  const auto bytes = std::filesystem::is_regular_file(path, error) ? read_file(path) : std::nullopt;
  if (!bytes) {
    std::cerr << command << ": the recorded " << what << " " << stagger::limits::quoted(path)
              << " cannot be opened\n";
    return false;
  }
  if (stagger::sim::fnv1a_64(bytes->data(), bytes->size()) != hash) {
    std::cerr << command << ": the " << what << " " << path
              << " changed since the recording (its hash differs)\n";
    return false;
  }
  return true;
}

// Reads a recording, checks the files it names, builds its run and attaches the hash check; prints
// why and returns nothing when any of that fails.
std::unique_ptr<Replay> open_replay(const std::string& path, const char* command) {
  auto loaded = stagger::sim::read_recording(path);
  if (!loaded) {
    std::cerr << command << ": " << loaded.error() << "\n";
    return nullptr;
  }
  auto replay = std::make_unique<Replay>();
  replay->recording = std::move(loaded).value();
  const stagger::sim::Recording& r = replay->recording;
  if (!recorded_file_unchanged(command, "level", r.level_path, r.level_hash) ||
      !recorded_file_unchanged(command, "clip library", r.clips_path, r.clips_hash) ||
      !recorded_file_unchanged(command, "settings file", r.settings_path, r.settings_hash))
    return nullptr;
  const auto settings = settings_option(command, r.settings_path, "nothing was simulated");
  if (!settings) return nullptr;
  const auto clips = load_clips(command, r.clips_path);
  if (!clips) return nullptr;
  std::optional<RunInputs> run =
      prepare_run(command, r.level_path, r.builtin_enemies, r.physics_hz, r.solver_iterations,
                  r.input_name, r.input_script, r.vary_seed, *settings);
  if (!run) return nullptr;
  run->scene.activity.max_active = r.max_active;
  replay->simulation =
      std::make_unique<stagger::sim::Simulation>(run->scene, std::move(run->script));
  if (*clips) replay->simulation->set_death_clips(*clips);
  // Every step's state hash against the recording's; the first that differs is where the runs
  // part. (Checking each step costs a hash of every body per step: replays are for checking.)
  replay->simulation->on_step([state = replay.get()](const stagger::sim::Simulation& s) {
    state->last_hash = s.scene().world().state_hash();
    const std::vector<std::uint64_t>& recorded = state->recording.step_hashes;
    if (!state->diverged &&
        (state->steps >= recorded.size() || recorded[state->steps] != state->last_hash))
      state->diverged = state->steps;
    ++state->steps;
  });
  return replay;
}

// Runs a replay to its last step as fast as it goes, with a progress bar; Ctrl-C, or `give_up`
// answering true, stops it early.
void run_to_end(Replay& replay, bool quiet, const std::function<bool()>& give_up = {}) {
  stagger::app::catch_interrupts();
  Progress progress(replay.seconds(), !quiet);
  replay.simulation->run(
      replay.seconds(), replay.recording.display_hz, [&](double t) { progress.update(t); },
      [&] { return stagger::app::interrupted() || (give_up && give_up()); });
}

// The verdict on a replay that has run: 0 when every step matched, 1 (with the first divergent
// step) when one did not, 130 when it was interrupted with none diverged. `all_steps`: every
// recorded step was to run (not so when the viewer's window was closed early).
int judge_replay(const Replay& replay, const std::string& path, const char* command,
                 bool interrupted, bool all_steps) {
  std::optional<std::uint64_t> diverged = replay.diverged;
  if (interrupted) {
    std::cerr << command << ": interrupted after " << replay.steps << " of " << replay.total_steps()
              << " steps\n";
    return diverged ? kExitWrongInput : kExitInterrupted;
  }
  if (!diverged && all_steps && replay.steps != replay.total_steps()) diverged = replay.steps;
  if (!diverged) return 0;
  const double t =
      static_cast<double>(*diverged + 1) / static_cast<double>(replay.recording.physics_hz);
  std::cerr << command << ": " << path << " diverges at step " << *diverged + 1 << " (t = " << t
            << " s): ";
  if (*diverged < replay.total_steps() && *diverged < replay.steps) {
    std::cerr << "the state hash differs from the recorded one\n";
  } else {
    std::cerr << "the recording has " << replay.total_steps() << " steps, the replay "
              << replay.steps << "\n";
  }
  return kExitWrongInput;
}

// Re-simulates a recording and checks every step's state hash against it; `watch` may add its
// own observers to the simulation before it runs. Returns the exit code; prints why on failure.
// An incomplete recording (an interrupted run) is re-simulated as far as it goes.
int resimulate(
    const std::string& path, const char* command, bool quiet,
    const std::function<void(stagger::sim::Simulation&, const stagger::sim::Recording&)>& watch,
    std::uint64_t& steps, bool& incomplete) {
  const std::unique_ptr<Replay> replay = open_replay(path, command);
  if (!replay) return kExitWrongInput;
  incomplete = replay->recording.incomplete;
  if (watch) watch(*replay->simulation, replay->recording);
  run_to_end(*replay, quiet);
  steps = replay->steps;
  return judge_replay(*replay, path, command, replay->simulation->result().interrupted, true);
}

const char* incomplete_note(bool incomplete) {
  return incomplete ? " (the recording is incomplete: its run was interrupted)" : "";
}

// `stagger replay`'s options: check only, or watch in a window (--view), or film (--video).
struct ReplayOptions {
  std::string file;
  bool quiet = false;
  bool view = false;
  std::string video;
  std::vector<int> size{1280, 720};
  int fps = 30;
  std::vector<float> eye;
  std::vector<float> at;
  bool overlay = false;
  std::string screenshot;
  std::vector<stagger::vr::ScriptedKey> keys;
};

int run_replay_check(const ReplayOptions& o) {
  std::uint64_t steps = 0;
  std::uint64_t last_hash = 0;
  bool incomplete = false;
  const int code = resimulate(
      o.file, "stagger replay", o.quiet,
      [&last_hash](stagger::sim::Simulation& s, const stagger::sim::Recording&) {
        s.on_step([&last_hash](const stagger::sim::Simulation& sim) {
          last_hash = sim.scene().world().state_hash();
        });
      },
      steps, incomplete);
  if (code != 0) return code;
  std::cout << "stagger replay: " << o.file << ": " << steps
            << " steps reproduced, final state hash " << stagger::sim::state_hash_hex(last_hash)
            << incomplete_note(incomplete) << "\n";
  return 0;
}

// The recording re-simulated in the desktop window at the viewer's pace; its hashes are checked
// for the steps it ran.
int run_replay_view(const ReplayOptions& o) {
  if (!outputs_writable("stagger replay", {{"screenshot", &o.screenshot}})) return kExitWrongInput;
  const std::unique_ptr<Replay> replay = open_replay(o.file, "stagger replay");
  if (!replay) return kExitWrongInput;
  stagger::vr::ReplayViewSettings settings;
  settings.width = o.size[0];
  settings.height = o.size[1];
  settings.overlay = o.overlay;
  settings.screenshot = o.screenshot;
  settings.keys = o.keys;
  settings.stop = kStopOnInterrupt;
  stagger::app::catch_interrupts();
  std::cout << "stagger replay: viewing " << o.file << " (" << replay->total_steps() << " steps, "
            << replay->seconds()
            << " s): space pauses and plays, period or Right steps once, [ and ] change the "
               "speed, F1 the overlay\n"
            << std::flush;
  const auto viewed =
      stagger::vr::view_replay(*replay->simulation, replay->total_steps(), settings, std::cout);
  if (!viewed) {
    std::cerr << "stagger replay: " << viewed.error() << "\n";
    return kExitWrongInput;
  }
  const bool interrupted = viewed.value().end_reason == "interrupted";
  const int code = judge_replay(*replay, o.file, "stagger replay", interrupted, false);
  if (code != 0) return code;
  std::cout << "stagger replay: " << o.file << ": " << viewed.value().frames << " frames drawn, "
            << replay->steps << " of " << replay->total_steps()
            << " steps viewed and reproduced (ended by " << viewed.value().end_reason << ")"
            << incomplete_note(replay->recording.incomplete) << "\n";
  return 0;
}

int run_replay_video(const ReplayOptions& o) {
  if (!outputs_writable("stagger replay", {{"video", &o.video}})) return kExitWrongInput;
  const std::unique_ptr<Replay> replay = open_replay(o.file, "stagger replay");
  if (!replay) return kExitWrongInput;
  const stagger::sim::SceneDescription& scene = replay->simulation->scene().description();
  const auto camera = chosen_camera("stagger replay", scene, o.size, o.eye, o.at);
  if (!camera) return kExitUsage;
  const stagger::output::VideoSettings video{o.size[0], o.size[1], static_cast<double>(o.fps)};
  const auto frames = std::llround(replay->seconds() * o.fps);
  auto started = stagger::app::VideoCapture::start(*replay->simulation, *camera, video,
                                                   static_cast<long>(frames), o.overlay, o.video);
  if (!started) {
    std::cerr << "stagger replay: " << started.error() << "\n";
    return kExitWrongInput;
  }
  stagger::app::VideoCapture& capture = *started.value();
  replay->simulation->on_step(
      [&capture](const stagger::sim::Simulation& s) { capture.after_step(s); });
  run_to_end(*replay, o.quiet, [&capture] { return capture.failed(); });
  // An interrupted video still holds the frames it made.
  const auto finished = capture.finish();
  if (!finished) {
    std::cerr << "stagger replay: " << o.video << ": " << finished.error() << "\n";
    return kExitWrongInput;
  }
  const int code = judge_replay(*replay, o.file, "stagger replay",
                                replay->simulation->result().interrupted, true);
  std::cout << "stagger replay: " << o.video << ": " << capture.frames_written() << " frames, "
            << o.size[0] << "x" << o.size[1] << " at " << o.fps << " fps (" << capture.codec()
            << ", drawn on " << capture.device() << "), of " << replay->steps << " steps"
            << (code == 0 ? " reproduced" : "") << incomplete_note(replay->recording.incomplete)
            << "\n";
  return code;
}

int run_replay(const ReplayOptions& o) {
  if (o.view) return run_replay_view(o);
  if (!o.video.empty()) return run_replay_video(o);
  return run_replay_check(o);
}

int run_export(const std::string& path, const std::string& out, double rate_hz, bool quiet) {
  if (!outputs_writable("stagger export", {{"glTF file", &out}})) return kExitWrongInput;
  std::optional<stagger::output::GltfAnimation> animation;
  std::uint64_t steps = 0;
  bool incomplete = false;
  const int code = resimulate(
      path, "stagger export", quiet,
      [&](stagger::sim::Simulation& s, const stagger::sim::Recording&) {
        animation.emplace(s, rate_hz);
        s.on_step([&animation](const stagger::sim::Simulation& sim) { animation->record(sim); });
      },
      steps, incomplete);
  // An interrupted export still writes the frames it made.
  if (code != 0 && code != kExitInterrupted) return code;
  const auto written = animation->write(out);
  if (!written) {
    std::cerr << "stagger export: " << written.error() << "\n";
    return kExitWrongInput;
  }
  std::cout << "stagger export: " << out << ": " << animation->frames() << " frames at " << rate_hz
            << " Hz of " << steps << " steps" << incomplete_note(incomplete) << "\n";
  return code;
}

std::optional<stagger::sim::SceneDescription> patrolled_level(const std::string& level_path,
                                                              const std::string& settings_path) {
  const auto settings = settings_option("stagger bench", settings_path, "nothing was measured");
  if (!settings) return std::nullopt;
  const std::optional<CheckedLevel> level = check_level(level_path);
  if (!level) {
    std::cerr << "stagger bench: the level has errors; nothing was measured\n";
    return std::nullopt;
  }
  stagger::sim::SceneDescription scene =
      stagger::sim::scene_from_level(level->loaded.level, level->loaded.mesh_triangles);
  scene.enemy_settings = settings->settings;
  scene.settings_file = settings->path;
  const bool routes = std::any_of(scene.enemies.begin(), scene.enemies.end(), [&](const auto& e) {
    return !stagger::sim::route_of(scene, e).points.empty();
  });
  if (!scene.navigation || !routes) {
    std::cerr << "stagger bench: " << level_path
              << " has no navigation settings or no enemy with a route to patrol\n";
    return std::nullopt;
  }
  return scene;
}

int run_patrol_bench(const std::string& level_path, stagger::bench::PatrolBenchOptions options,
                     const std::string& settings_path) {
  const auto scene_or = patrolled_level(level_path, settings_path);
  if (!scene_or) return kExitWrongInput;
  const stagger::sim::SceneDescription& scene = *scene_or;
  std::cerr << "stagger bench: " << options.enemies << " enemies patrolling " << level_path;
  if (options.max_active > 0) {
    std::cerr << ", at most " << options.max_active << " full ragdolls, by turns with the "
              << options.max_active << " nearest the start as full ragdolls alone and the patrol "
              << "bench of " << options.max_active << ",";
  }
  std::cerr << " for " << options.seconds << " simulated seconds...\n";
  stagger::app::catch_interrupts();
  options.stop = kStopOnInterrupt;
  if (options.max_active > 0) {
    const stagger::bench::CrowdBenchResult r = stagger::bench::run_crowd_benchmark(scene, options);
    std::cout << stagger::bench::crowd_bench_text(r);
    return r.crowd.interrupted ? kExitInterrupted : 0;
  }
  const stagger::bench::PatrolBenchResult r = stagger::bench::run_patrol_benchmark(scene, options);
  std::cout << stagger::bench::patrol_bench_text(r);
  return r.interrupted ? kExitInterrupted : 0;
}

int run_soak(const std::string& level_path, stagger::bench::SoakOptions options,
             const std::string& settings_path) {
  const auto scene = patrolled_level(level_path, settings_path);
  if (!scene) return kExitWrongInput;
  std::cerr << "stagger bench: soaking " << options.enemies << " enemies in " << level_path
            << " for " << options.seconds << " simulated seconds (a shove a second)...\n";
  stagger::app::catch_interrupts();
  options.stop = kStopOnInterrupt;
  const stagger::bench::SoakResult r = stagger::bench::run_soak(*scene, options);
  std::cout << stagger::bench::soak_text(r);
  if (r.interrupted) return kExitInterrupted;
  return r.finite && r.rss_growth_after_first_minute < 0.05 ? 0 : kExitWrongInput;
}

// A bench's table on stdout (unless the JSON report goes there) and its report; the exit code
// is 0 whatever it measured, kExitInterrupted for a run cut short.
template <typename Result>
int finish_bench(const Result& r, const std::string& report, std::string (*table)(const Result&),
                 std::string (*json)(const Result&)) {
  if (report != "-") std::cout << table(r);
  if (!report.empty() && !write_text(report, json(r))) {
    std::cerr << "stagger bench: cannot write the report to " << report << "\n";
    return kExitWrongInput;
  }
  return r.interrupted ? kExitInterrupted : 0;
}

// A ragdoll bench's common start: the report writable, the settings file read into every
// walker's settings, and a Ctrl-C that ends the run with what it decided so far. False (an error
// printed) when the run cannot start.
template <typename Options>
bool prepare_bench(Options& options, const std::string& report, const std::string& settings_path) {
  if (!outputs_writable("stagger bench", {{"report", &report}})) return false;
  const auto settings = settings_option("stagger bench", settings_path, "nothing was measured");
  if (!settings) return false;
  options.ragdoll = settings->settings.ragdoll;
  stagger::app::catch_interrupts();
  options.stop = kStopOnInterrupt;
  return true;
}

int run_terrain(stagger::bench::TerrainOptions options, const std::string& report,
                const std::string& settings_path) {
  if (!prepare_bench(options, report, settings_path)) return kExitWrongInput;
  const std::size_t features = options.features.empty() ? stagger::bench::terrain_features().size()
                                                        : options.features.size();
  std::cerr << "stagger bench: the terrain course, " << options.crossings
            << " crossings of each of " << features << " features, seed " << options.seed
            << "...\n";
  options.progress = [](const stagger::bench::TerrainOptions::Progress& p) {
    std::fprintf(stderr, "stagger bench: world %d/%d, %s, crossings %d-%d: ", p.world, p.worlds,
                 p.feature.c_str(), p.first_crossing + 1, p.first_crossing + p.lanes);
    if (p.interrupted) {
      std::fprintf(stderr, "interrupted, not counted (%.1f s)\n", p.wall_s);
      return;
    }
    std::fprintf(stderr, "%d falls, %d stuck (%.1f s)\n", p.falls, p.stuck, p.wall_s);
  };
  const stagger::bench::TerrainResult r = stagger::bench::run_terrain_course(options);
  // Falls are what it measures, not a failure.
  return finish_bench(r, report, stagger::bench::terrain_table,
                      stagger::bench::terrain_report_json);
}

int run_knock_downs(stagger::bench::KnockDownOptions options, const std::string& report,
                    const std::string& settings_path) {
  if (!prepare_bench(options, report, settings_path)) return kExitWrongInput;
  std::cerr << "stagger bench: " << options.knock_downs << " knock-downs on "
            << stagger::bench::name_of(options.ground) << " ground, seed " << options.seed
            << "...\n";
  options.progress = [](int done, int total) {
    std::fprintf(stderr, "stagger bench: %d/%d knock-downs\n", done, total);
  };
  const stagger::bench::KnockDownResult r = stagger::bench::run_knock_downs(options);
  return finish_bench(r, report, stagger::bench::knock_down_table,
                      stagger::bench::knock_down_report_json);
}

int run_push_thresholds(stagger::bench::PushThresholdOptions options, const std::string& report,
                        const std::string& settings_path) {
  if (!prepare_bench(options, report, settings_path)) return kExitWrongInput;
  std::cerr << "stagger bench: push thresholds at the " << stagger::physics::name_of(options.part)
            << "...\n";
  options.progress = [](int done, int total) {
    std::fprintf(stderr, "stagger bench: %d/%d pushes\n", done, total);
  };
  const stagger::bench::PushThresholdResult r = stagger::bench::run_push_thresholds(options);
  return finish_bench(r, report, stagger::bench::push_threshold_table,
                      stagger::bench::push_threshold_report_json);
}

int run_walks(stagger::bench::WalksOptions options, const std::string& report,
              const std::string& settings_path) {
  if (!prepare_bench(options, report, settings_path)) return kExitWrongInput;
  std::cerr << "stagger bench: ten walks on flat ground...\n";
  const stagger::bench::WalksResult r = stagger::bench::run_walks(options);
  return finish_bench(r, report, stagger::bench::walks_table, stagger::bench::walks_report_json);
}

int run_blast_bench(const std::string& level_path, stagger::bench::BlastBenchOptions options,
                    const std::string& report) {
  if (!outputs_writable("stagger bench", {{"report", &report}})) return kExitWrongInput;
  const std::optional<CheckedLevel> level = check_level(level_path);
  if (!level) {
    std::cerr << "stagger bench: the level has errors; nothing was measured\n";
    return kExitWrongInput;
  }
  const stagger::sim::SceneDescription scene =
      stagger::sim::scene_from_level(level->loaded.level, level->loaded.mesh_triangles);
  std::cerr << "stagger bench: " << options.count << " fake ragdolls thrown by a blast over "
            << level_path << "...\n";
  stagger::app::catch_interrupts();
  options.stop = kStopOnInterrupt;
  const stagger::bench::BlastBenchResult r = stagger::bench::run_blast_bench(scene, options);
  return finish_bench(r, report, stagger::bench::blast_bench_text,
                      stagger::bench::blast_bench_json);
}

struct PlayOptions {
  std::string level;
  std::string input;
  std::string mode = "auto";
  double seconds = 0;
  std::string screenshot;
  std::string report;
  bool overlay = false;
  std::vector<int> size{1280, 720};
  std::string settings;
  float snap_turn_deg = 30.0f;
  bool move_along_hand = false;
  bool comfort_vignette = false;
};

int run_play(const PlayOptions& o) {
  if (!outputs_writable("stagger play", {{"screenshot", &o.screenshot}, {"report", &o.report}}))
    return kExitWrongInput;
  const std::optional<std::string> input_text = read_script("stagger play", o.input);
  if (!input_text) return kExitWrongInput;
  const auto tuning = settings_option("stagger play", o.settings, "nothing was played");
  if (!tuning) return kExitWrongInput;
  std::optional<RunInputs> run = prepare_run("stagger play", o.level, 1, 240.0f, 10, o.input,
                                             *input_text, std::nullopt, *tuning);
  if (!run) return kExitWrongInput;
  stagger::vr::PlaySettings settings;
  settings.mode = *stagger::vr::parse_play_mode(o.mode);
  settings.seconds = o.seconds;
  settings.screenshot = o.screenshot;
  settings.overlay = o.overlay;
  settings.width = o.size[0];
  settings.height = o.size[1];
  settings.snap_turn_deg = o.snap_turn_deg;
  settings.move_along_hand = o.move_along_hand;
  settings.comfort_vignette = o.comfort_vignette;
  settings.stop = kStopOnInterrupt;
  settings.script = std::move(run->script);
  stagger::app::catch_interrupts();
  const auto report = stagger::vr::play(run->scene, settings, std::cout);
  if (!report) {
    std::cerr << "stagger play: " << report.error() << "\n";
    return kExitWrongInput;
  }
  std::cout << stagger::vr::play_summary_text(report.value());
  if (!o.report.empty() && !write_text(o.report, stagger::vr::play_report_json(report.value()))) {
    std::cerr << "stagger play: cannot write the report to " << o.report << "\n";
    return kExitWrongInput;
  }
  return report.value().simulation.interrupted ? kExitInterrupted : 0;
}

struct RenderOptions {
  std::string level;
  std::string output;
  std::string video;
  int fps = 30;
  std::string input;
  bool quiet = false;
  double seconds = 1.0;
  std::vector<float> eye;
  std::vector<float> at;
  std::vector<int> size{960, 540};
  bool overlay = false;
};

// `render --video`: films the simulation as it runs; prints the outcome, false on a failure.
bool film(const RenderOptions& o, stagger::sim::Simulation& simulation,
          const stagger::vr::EyeView& camera) {
  const stagger::output::VideoSettings video{o.size[0], o.size[1], static_cast<double>(o.fps)};
  auto started = stagger::app::VideoCapture::start(
      simulation, camera, video, static_cast<long>(std::llround(o.seconds * o.fps)), o.overlay,
      o.video);
  if (!started) {
    std::cerr << "stagger render: " << started.error() << "\n";
    return false;
  }
  stagger::app::VideoCapture& capture = *started.value();
  simulation.on_step([&capture](const stagger::sim::Simulation& s) { capture.after_step(s); });
  {
    Progress progress(o.seconds, !o.quiet);
    simulation.run(
        o.seconds, 90.0, [&](double t) { progress.update(t); },
        [&] { return stagger::app::interrupted() || capture.failed(); });
  }
  // An interrupted video still holds the frames it made.
  const auto finished = capture.finish();
  if (!finished) {
    std::cerr << "stagger render: " << o.video << ": " << finished.error() << "\n";
    return false;
  }
  std::cout << "stagger render: " << o.video << ": " << capture.frames_written() << " frames, "
            << o.size[0] << "x" << o.size[1] << " at " << o.fps << " fps (" << capture.codec()
            << ", drawn on " << capture.device() << "), " << simulation.scene().world().time()
            << " s of the level\n";
  return true;
}

int run_render(const RenderOptions& o) {
  if (!outputs_writable("stagger render", {{"picture", &o.output}, {"video", &o.video}}))
    return kExitWrongInput;
  const std::optional<std::string> input_text = read_script("stagger render", o.input);
  if (!input_text) return kExitWrongInput;
  std::optional<RunInputs> run =
      prepare_run("stagger render", o.level, 1, 240.0f, 10, o.input, *input_text);
  if (!run) return kExitWrongInput;
  const auto camera = chosen_camera("stagger render", run->scene, o.size, o.eye, o.at);
  if (!camera) return kExitUsage;
  stagger::sim::Simulation simulation(run->scene, std::move(run->script));
  stagger::app::catch_interrupts();
  if (!o.video.empty()) {
    if (!film(o, simulation, *camera)) return kExitWrongInput;
  } else {
    simulation.run(o.seconds, 90.0, {}, kStopOnInterrupt);
  }
  if (simulation.result().interrupted) {
    std::cerr << "stagger render: interrupted after " << simulation.scene().world().time()
              << " s of " << o.seconds << " s"
              << (o.output.empty() ? "" : "; the picture was not drawn") << "\n";
    return kExitInterrupted;
  }
  if (o.output.empty()) return 0;
  const auto image =
      stagger::vr::render_offscreen(simulation, *camera, {o.size[0], o.size[1], o.overlay});
  if (!image) {
    std::cerr << "stagger render: " << image.error() << "\n";
    return kExitWrongInput;
  }
  if (!stagger::vr::write_png(image.value(), o.output)) {
    std::cerr << "stagger render: cannot write " << o.output << "\n";
    return kExitWrongInput;
  }
  std::cout << "stagger render: " << o.output << " (" << o.size[0] << "x" << o.size[1] << ", "
            << o.seconds << " s into the level)\n";
  return 0;
}

int run_bench(stagger::bench::BenchOptions options, const std::string& settings_path) {
  const auto settings = settings_option("stagger bench", settings_path, "nothing was measured");
  if (!settings) return kExitWrongInput;
  options.ragdoll = settings->settings.ragdoll;
  std::cerr << "stagger bench: measuring " << options.repetitions
            << " interleaved repetitions...\n";
  stagger::app::catch_interrupts();
  options.stop = kStopOnInterrupt;
  const std::vector<stagger::bench::BenchRow> rows = stagger::bench::run_benchmark(options);
  std::cout << stagger::bench::bench_table(rows, options.walking);
  if (rows.size() < options.counts.size()) {
    std::cerr << "stagger bench: interrupted; " << rows.size() << " of " << options.counts.size()
              << " counts were measured\n";
    return kExitInterrupted;
  }
  return 0;
}

// `stagger --version`: this build's version and those of the libraries it was built with, whose
// exact builds decide the numbers (docs/design.md, Determinism and the state hash).
// A video's frame must have an even width and height (4:2:0 chroma halves both); the message
// when it has not, else empty.
std::string odd_video_size(const std::string& command, const std::vector<int>& size) {
  if (size[0] % 2 == 0 && size[1] % 2 == 0) return {};
  return command + ": --size must be even for a video (its colour is stored at half size), got " +
         std::to_string(size[0]) + " " + std::to_string(size[1]);
}

std::string version_text() {
  return std::string("stagger ") + STAGGER_VERSION + "\nbuilt with:\n  Bullet " +
         stagger::physics::bullet_version() + "\n  Recast/Detour " + STAGGER_RECAST_VERSION +
         "\n  OpenXR loader " + stagger::vr::openxr_version();
}

}  // namespace

// Prints a parse error on one line, named by the subcommand it belongs to. Our validators' messages
// are whole sentences ("--seconds must be ..."), so CLI11's "--seconds: " before them goes.
int usage_error(const CLI::App& app, const CLI::ParseError& e) {
  std::string message = e.what();
  const std::size_t colon = message.find(": ");
  if (dynamic_cast<const CLI::ValidationError*>(&e) != nullptr && colon != std::string::npos)
    message.erase(0, colon + 2);
  std::string command = "stagger";
  for (const CLI::App* sub : app.get_subcommands()) command += " " + sub->get_name();
  std::cerr << command << ": " << message << "\n"
            << "Run '" << command << " --help' for the options.\n";
  return kExitUsage;
}

int main(int argc, char** argv) {
  using stagger::app::finite_in;
  using stagger::app::integer_in;
  CLI::App app{"Stagger: physically simulated enemies for VR (active ragdolls in Bullet)",
               "stagger"};
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);
  // --seconds of a headless run (sim, bench): its default shown, within a run's bounds.
  const auto add_seconds = [](CLI::App* command, double& seconds, const std::string& description) {
    command->add_option("--seconds", seconds, description)
        ->capture_default_str()
        ->check(finite_in("--seconds", "seconds", "s", stagger::app::kSecondsRange));
  };

  SimOptions sim;
  CLI::App* sim_cmd = app.add_subcommand(
      "sim",
      "Run a level (or the built-in scene) headlessly at the fixed step and print a summary");
  sim_cmd
      ->add_option(
          "level", sim.level,
          "Level file (JSON or glTF) or a sample level's name; without it, the built-in scene")
      ->transform(stagger::app::level_argument());
  add_seconds(sim_cmd, sim.seconds, "Simulated time [s]");
  sim_cmd
      ->add_option("--display-hz", sim.display_hz, "Display rate driving the step accumulator [Hz]")
      ->capture_default_str()
      ->check(finite_in("--display-hz", "hertz", "hz", stagger::app::kDisplayHzRange));
  sim_cmd->add_option("--physics-hz", sim.physics_hz, "Fixed physics step rate [Hz]")
      ->capture_default_str()
      ->check(finite_in("--physics-hz", "hertz", "hz", stagger::app::kPhysicsHzRange));
  sim_cmd
      ->add_option("--solver-iterations", sim.solver_iterations,
                   "Bullet solver iterations per step")
      ->capture_default_str()
      ->check(integer_in("--solver-iterations", "iterations", 1, 200));
  sim_cmd->add_option("--input", sim.input, "Input script (JSON) with timed events")
      ->check(stagger::app::existing_file("input script"));
  sim_cmd->add_option("--report", sim.report, "Write the JSON report here ('-' for stdout)");
  sim_cmd->add_option("--trace", sim.trace, "Write a CSV row per enemy per physics step here");
  sim_cmd->add_option("--plot", sim.plot, "Draw balance error and pelvis height over time (PNG)");
  sim_cmd->add_option("--record", sim.record,
                      "Write a recording that `stagger replay` re-simulates and checks");
  sim_cmd
      ->add_option("--enemies", sim.enemies,
                   "Number of enemies in the built-in scene (3 m grid; not with a level)")
      ->capture_default_str()
      ->check(integer_in("--enemies", "enemies", 1, 1024));
  sim_cmd->add_flag("--quiet", sim.quiet, "Print nothing but errors");
  const char* const settings_help =
      "Enemy settings (JSON) every enemy starts from, instead of the defaults (`stagger "
      "settings` lists them); a level's profiles apply on top";
  sim_cmd->add_option("--settings", sim.settings, settings_help)
      ->check(stagger::app::existing_file("settings"));
  long vary_seed = 0;
  sim_cmd
      ->add_option("--vary", vary_seed,
                   "Nudge every spawn by up to 1 cm and 0.5 deg from this seed (independent "
                   "samples of one level; the same seed repeats the run)")
      ->check(integer_in("--vary", "", 0, std::numeric_limits<long>::max()));
  sim_cmd
      ->add_option("--max-active", sim.max_active,
                   "Activity levels: at most this many full ragdolls, the nearest to the player; "
                   "the others walk their recorded gait kinematically (0: every enemy is one)")
      ->check(integer_in("--max-active", "full ragdolls", 0, 1024));
  sim_cmd
      ->add_option("--clips", sim.clips,
                   "A death clip library (stagger clips build): kills with a hit vector on enemies "
                   "that are not full ragdolls play its nearest clip")
      ->check(stagger::app::existing_file("clip library"));

  ReplayOptions replay;
  std::string replay_keys;
  CLI::App* replay_cmd = app.add_subcommand(
      "replay",
      "Re-simulate a recording and check every step's state hash (exits 1 where it diverges); "
      "--view watches it in a window, --video films it");
  replay_cmd->add_option("recording", replay.file, "Recording written by `stagger sim --record`")
      ->required()
      ->check(stagger::app::existing_file("recording"));
  replay_cmd->add_flag("--quiet", replay.quiet, "No progress bar");
  CLI::Option* replay_view =
      replay_cmd->add_flag("--view", replay.view,
                           "Watch the re-simulation in a desktop window: space pauses, period or "
                           "Right steps once, [ and ] change the speed, F1 the overlay");
  CLI::Option* replay_video =
      replay_cmd
          ->add_option("--video", replay.video,
                       "Film the re-simulation offscreen into this video file (.mp4; needs "
                       "ffmpeg)")
          ->excludes(replay_view);
  replay_cmd->add_option("--size", replay.size, "Window or video size in pixels, WIDTH HEIGHT")
      ->expected(2)
      ->capture_default_str()
      ->check(integer_in("--size", "pixels", 16, 8192));
  replay_cmd->add_option("--fps", replay.fps, "With --video: frames per second")
      ->capture_default_str()
      ->check(integer_in("--fps", "frames per second", 1, 120))
      ->needs(replay_video);
  replay_cmd
      ->add_option("--eye", replay.eye,
                   "With --video: camera position X Y Z [m] (default: behind and above the player "
                   "start)")
      ->expected(3)
      ->check(finite_in("--eye", "metres", "m", stagger::app::kCoordinateRange))
      ->needs(replay_video);
  replay_cmd->add_option("--at", replay.at, "With --video: point the camera looks at X Y Z [m]")
      ->expected(3)
      ->check(finite_in("--at", "metres", "m", stagger::app::kCoordinateRange))
      ->needs(replay_video);
  replay_cmd->add_flag("--overlay", replay.overlay,
                       "With --view or --video: draw the debug overlay (F1 toggles it in the "
                       "window)");
  replay_cmd
      ->add_option("--screenshot", replay.screenshot,
                   "With --view: save the last frame drawn as a PNG")
      ->needs(replay_view);
  replay_cmd
      ->add_option("--view-keys", replay_keys,
                   "With --view: keys pressed at given frames, FRAME:KEY,... (KEY: space, period, "
                   "Right, bracketleft, bracketright, F1, Escape); for tests and demonstrations")
      ->needs(replay_view);

  std::string export_file;
  std::string export_out;
  double export_rate = 30.0;
  bool export_quiet = false;
  CLI::App* export_cmd = app.add_subcommand(
      "export",
      "Re-simulate a recording into an animated glTF 2.0 (a node per body, the level as static "
      "meshes), or draw a death clip library (.stclip) as one animation per clip");
  export_cmd
      ->add_option("recording", export_file,
                   "Recording written by `stagger sim --record`, or a clip library (.stclip) "
                   "written by `stagger clips build`")
      ->required()
      ->check(stagger::app::existing_file("recording or clip library"));
  export_cmd->add_option("-o,--output", export_out, "glTF file to write (.gltf, buffer embedded)")
      ->required();
  export_cmd->add_option("--rate", export_rate, "Animation keys per second (recordings)")
      ->capture_default_str()
      ->check(finite_in("--rate", "keys per second", "hz", {30.0, 60.0, false}));
  export_cmd->add_flag("--quiet", export_quiet, "No progress bar");

  stagger::app::ClipsOptions clips;
  const stagger::app::ClipsCommands clips_cmd = stagger::app::add_clips_commands(app, clips);

  std::string settings_list_file;
  CLI::App* settings_cmd = app.add_subcommand(
      "settings", "Print every enemy setting (key, default, unit, min, max, description) as JSON");
  settings_cmd
      ->add_option("--settings", settings_list_file,
                   "Show this settings file's values as the defaults")
      ->check(stagger::app::existing_file("settings"));

  std::vector<std::string> check_files;
  CLI::App* check_cmd = app.add_subcommand(
      "check", "Validate level files; problems print as FILE:LINE:COL: error: message");
  check_cmd->add_option("levels", check_files, "Level files or sample levels' names")
      ->required()
      ->transform(stagger::app::level_argument());

  std::string preview_level;
  std::string preview_out;
  int preview_size = 1024;
  CLI::App* preview_cmd = app.add_subcommand(
      "preview",
      "Draw a level from above to a PNG: geometry by height, routes, spawns, legend, scale");
  preview_cmd->add_option("level", preview_level, "Level file or a sample level's name")
      ->required()
      ->transform(stagger::app::level_argument());
  preview_cmd->add_option("-o,--output", preview_out, "PNG file to write")->required();
  preview_cmd->add_option("--size", preview_size, "Width in pixels (the height is 3/4 of it)")
      ->capture_default_str()
      ->check(integer_in("--size", "pixels", 400, 8192));

  stagger::bench::BenchOptions bench;
  CLI::App* bench_cmd = app.add_subcommand("bench",
                                           "Time standing (or walking) ragdolls against a raw "
                                           "Bullet baseline of the same bodies and motors");
  bench_cmd->add_option("--counts", bench.counts, "Ragdoll counts to measure")
      ->capture_default_str()
      ->delimiter(',')
      ->check(integer_in("--counts", "ragdolls", 1, 4096));
  add_seconds(bench_cmd, bench.seconds, "Simulated seconds per episode");
  bench_cmd
      ->add_option("--repetitions", bench.repetitions, "Interleaved repetitions (median reported)")
      ->capture_default_str()
      ->check(integer_in("--repetitions", "repetitions", 1, 100));
  bench_cmd->add_flag("--walking", bench.walking,
                      "Our ragdolls walk at 1.2 m/s (the baseline holds its pose)");
  std::string bench_settings;
  bench_cmd->add_option("--settings", bench_settings, settings_help)
      ->check(stagger::app::existing_file("settings"));
  std::string patrol_level;
  stagger::bench::PatrolBenchOptions patrol_bench;
  bench_cmd
      ->add_option("--patrol", patrol_level,
                   "Instead: enemies patrolling this level (navmesh build, navigation tick, CPU "
                   "per 90 Hz frame)")
      ->transform(stagger::app::level_argument());
  std::string crowd_level;
  bench_cmd
      ->add_option("--crowd", crowd_level,
                   "Instead: enemies patrolling this level with activity levels (the nearest "
                   "--max-active are full ragdolls, the rest walk their cycle kinematically)")
      ->transform(stagger::app::level_argument())
      ->excludes("--patrol");
  int crowd_max_active = 32;
  bench_cmd->add_flag("--chased", patrol_bench.chased,
                      "With --crowd: the player stands at the level's start and every enemy that "
                      "sees them chases them (by default a spectator nobody sees chooses the full "
                      "ragdolls, and the enemies patrol)");
  bench_cmd
      ->add_option("--max-active", crowd_max_active, "With --crowd: the most full ragdolls at once")
      ->capture_default_str()
      ->check(integer_in("--max-active", "full ragdolls", 1, 1024));
  bench_cmd
      ->add_option("--enemies", patrol_bench.enemies,
                   "With --patrol, --crowd or --soak: enemies spread along the level's routes")
      ->capture_default_str()
      ->check(integer_in("--enemies", "enemies", 1, 1024));
  std::string soak_level;
  bench_cmd
      ->add_option("--soak", soak_level,
                   "Instead: a long run of enemies patrolling this level under random shoves "
                   "(memory, finiteness)")
      ->transform(stagger::app::level_argument())
      ->excludes("--patrol");
  bool terrain = false;
  stagger::bench::TerrainOptions terrain_bench;
  std::string terrain_report;
  bench_cmd
      ->add_flag("--terrain", terrain,
                 "Instead: enemies walking over stairs, ramps and kerbs (falls per 100 crossings "
                 "of each feature)")
      ->excludes("--patrol")
      ->excludes("--soak");
  stagger::bench::KnockDownOptions knock_down_bench;
  std::string knock_down_ground = "flat";
  bench_cmd
      ->add_option("--knock-downs", knock_down_bench.knock_downs,
                   "Instead: this many standing enemies knocked down (150 N*s at the chest, random "
                   "directions) and timed until they stand again")
      ->check(integer_in("--knock-downs", "knock-downs", 1, 100000))
      ->excludes("--patrol")
      ->excludes("--soak")
      ->excludes("--terrain");
  bool push_thresholds = false;
  bench_cmd
      ->add_flag("--push-thresholds", push_thresholds,
                 "Instead: standing enemies pushed in 8 directions at 6 push times, 15-100 N*s in "
                 "5 N*s steps (per direction the largest impulse all survive and the smallest "
                 "all fall to)")
      ->excludes("--patrol")
      ->excludes("--soak")
      ->excludes("--terrain")
      ->excludes("--knock-downs");
  bool walks = false;
  bench_cmd
      ->add_flag("--walks", walks,
                 "Instead: ten 12 s walks of one enemy on flat ground, straight and turning to a "
                 "stop (how far planted feet slide within a stance, per walk and per stance)")
      ->excludes("--patrol")
      ->excludes("--crowd")
      ->excludes("--soak")
      ->excludes("--terrain")
      ->excludes("--knock-downs")
      ->excludes("--push-thresholds");
  bench_cmd
      ->add_option("--ground", knock_down_ground,
                   "With --knock-downs: flat, slope (12 deg) or stairs (0.17 m risers, 0.28 m "
                   "treads)")
      ->capture_default_str()
      ->check(CLI::IsMember({"flat", "slope", "stairs"}));
  std::string knock_down_part = "chest";
  bench_cmd
      ->add_option("--part", knock_down_part,
                   "With --knock-downs or --push-thresholds: the body part struck (pelvis, chest, "
                   "head, upper_arm_l, "
                   "lower_arm_l, thigh_l, shin_l, foot_l, ... _r)")
      ->capture_default_str();
  bench_cmd
      ->add_option("--impulse", knock_down_bench.impulse_ns,
                   "With --knock-downs: the blow [N*s], horizontal")
      ->capture_default_str()
      ->check(finite_in("--impulse", "newton-seconds", "N*s", stagger::app::kBlowRange));
  bench_cmd
      ->add_option("--crossings", terrain_bench.crossings,
                   "With --terrain: crossings of each feature")
      ->capture_default_str()
      ->check(integer_in("--crossings", "crossings", 1, 100000));
  bench_cmd
      ->add_option("--approach", terrain_bench.approach_m,
                   "With --terrain: the spawn's distance before each feature [m] (longer: the "
                   "walkers meet it at walking speed)")
      ->capture_default_str()
      ->check(finite_in("--approach", "metres", "m", stagger::app::kApproachRange));
  bench_cmd->add_option(
      "--feature", terrain_bench.features,
      "With --terrain: only this feature, by its name in the table (e.g. \"stairs 0.17/0.28 "
      "down\"); repeat it for several");
  bench_cmd
      ->add_option("--seed", terrain_bench.seed,
                   "With --terrain, --knock-downs or --blast: the seed the spawns (and blows, "
                   "and launches) follow from; with --walks: nudges the walker's spawn")
      ->capture_default_str()
      ->check(integer_in("--seed", "", 0, 4294967295));
  bench_cmd->add_option("--report", terrain_report,
                        "With --terrain, --knock-downs, --push-thresholds, --walks or --blast: "
                        "write the results as JSON here ('-' for stdout)");
  stagger::bench::BlastBenchOptions blast_bench;
  bench_cmd
      ->add_option("--blast", blast_bench.count,
                   "Instead: N fake ragdolls spread over a level's navmesh thrown at once by a "
                   "blast (launch and flight cost for 1000, 2000, ... up to N)")
      ->check(integer_in("--blast", "fake ragdolls", 1, 100000))
      ->excludes("--patrol")
      ->excludes("--soak")
      ->excludes("--terrain")
      ->excludes("--knock-downs")
      ->excludes("--push-thresholds")
      ->excludes("--walks");
  std::string blast_level;
  bench_cmd
      ->add_option("--level", blast_level, "With --blast: the level (default: the arena sample)")
      ->transform(stagger::app::level_argument());

  PlayOptions play;
  CLI::App* play_cmd =
      app.add_subcommand("play",
                         "Play a level: in VR through OpenXR, in a desktop window, or headless "
                         "(--mode auto picks the first that works)");
  play_cmd
      ->add_option("level", play.level,
                   "Level file, or a sample level's name (courtyard, corridor, arena, gltf_yard)")
      ->required()
      ->transform(stagger::app::level_argument());
  play_cmd
      ->add_option("--input", play.input,
                   "Input script (JSON) with timed events, as for sim: pushes, hands, walks, the "
                   "player, kills")
      ->check(stagger::app::existing_file("input script"));
  play_cmd->add_option("--mode", play.mode, "auto, xr, desktop or headless")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "xr", "desktop", "headless"}));
  play_cmd
      ->add_option("--seconds", play.seconds,
                   "Stop after this much game time [s] (0: until closed or the XR session ends)")
      ->capture_default_str()
      ->check(finite_in("--seconds", "seconds", "s", stagger::app::kPlaySecondsRange));
  play_cmd->add_option("--screenshot", play.screenshot,
                       "Save the last frame drawn as a PNG (VR: the left eye)");
  play_cmd->add_option("--report", play.report,
                       "Write the JSON report (the simulation's, with CPU time per frame) here");
  play_cmd->add_option("--settings", play.settings, settings_help)
      ->check(stagger::app::existing_file("settings"));
  play_cmd->add_flag("--overlay", play.overlay,
                     "Start with the debug overlay on (F1 toggles it in the window)");
  play_cmd
      ->add_option("--snap-turn", play.snap_turn_deg,
                   "Degrees per flick of the turn stick (Q and E in the window); 0 turns smoothly")
      ->capture_default_str()
      ->check(finite_in("--snap-turn", "degrees", "deg", stagger::app::kSnapTurnRange));
  play_cmd->add_flag("--move-along-hand", play.move_along_hand,
                     "The move stick walks where the left hand points, not where the head looks");
  play_cmd->add_flag("--comfort-vignette", play.comfort_vignette,
                     "Darken the edges of the view while the move stick walks the player");
  play_cmd->add_option("--size", play.size, "Desktop window size in pixels, WIDTH HEIGHT")
      ->expected(2)
      ->capture_default_str()
      ->check(integer_in("--size", "pixels", 64, 8192));

  RenderOptions render;
  CLI::App* render_cmd = app.add_subcommand(
      "render", "Render a level to a PNG from a camera, offscreen (a GPU, or lavapipe on the CPU)");
  render_cmd->add_option("level", render.level, "Level file, or a sample level's name")
      ->required()
      ->transform(stagger::app::level_argument());
  render_cmd->add_option("-o,--output", render.output,
                         "PNG file to write: the frame after --seconds");
  CLI::Option* render_video =
      render_cmd->add_option("--video", render.video,
                             "Film the level from 0 to --seconds into this video file (.mp4; "
                             "needs ffmpeg)");
  render_cmd->add_option("--fps", render.fps, "With --video: frames per second")
      ->capture_default_str()
      ->check(integer_in("--fps", "frames per second", 1, 120))
      ->needs(render_video);
  render_cmd
      ->add_option("--input", render.input, "Input script (JSON) with timed events, as for sim")
      ->check(stagger::app::existing_file("input script"));
  render_cmd->add_flag("--quiet", render.quiet, "With --video: no progress bar");
  render_cmd->add_option("--seconds", render.seconds, "Simulate this long first [s]")
      ->capture_default_str()
      ->check(finite_in("--seconds", "seconds", "s", stagger::app::kPlaySecondsRange));
  render_cmd
      ->add_option("--eye", render.eye,
                   "Camera position X Y Z [m] (default: behind and above the player start)")
      ->expected(3)
      ->check(finite_in("--eye", "metres", "m", stagger::app::kCoordinateRange));
  render_cmd->add_option("--at", render.at, "Point the camera looks at X Y Z [m]")
      ->expected(3)
      ->check(finite_in("--at", "metres", "m", stagger::app::kCoordinateRange));
  render_cmd->add_option("--size", render.size, "Image size in pixels, WIDTH HEIGHT")
      ->expected(2)
      ->capture_default_str()
      ->check(integer_in("--size", "pixels", 16, 8192));
  render_cmd->add_flag("--overlay", render.overlay,
                       "Draw the debug overlay (centres of mass, feet, navigation, routes)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(app, e);
  }
  const auto usage = [](const std::string& message) {
    std::cerr << message << "\n";
    return kExitUsage;
  };
  if (sim_cmd->parsed()) {
    if (sim_cmd->count("--vary") > 0) sim.vary = static_cast<std::uint64_t>(vary_seed);
    if (!sim.level.empty() && sim_cmd->count("--enemies") > 0) {
      return usage(
          "stagger sim: --enemies applies to the built-in scene only; a level brings its own "
          "enemies");
    }
    return run_sim(sim);
  }
  if (play_cmd->parsed()) {
    if (play.mode == "headless" && play.seconds <= 0) {
      return usage("stagger play: --mode headless needs --seconds (there is no window to close)");
    }
    if (play.mode == "headless" && !play.screenshot.empty()) {
      return usage(
          "stagger play: --mode headless draws nothing, so --screenshot cannot be saved (use "
          "desktop, xr or render)");
    }
    return run_play(play);
  }
  if (render_cmd->parsed()) {
    if (render.output.empty() && render.video.empty())
      return usage("stagger render: give -o OUT.png, --video OUT.mp4, or both");
    if (!render.video.empty()) {
      if (const std::string odd = odd_video_size("stagger render", render.size); !odd.empty())
        return usage(odd);
      if (std::llround(render.seconds * render.fps) < 1)
        return usage("stagger render: --video needs --seconds of at least one frame (1/fps)");
    }
    return run_render(render);
  }
  if (check_cmd->parsed()) return run_check(check_files);
  if (settings_cmd->parsed()) return run_settings(settings_list_file);
  if (replay_cmd->parsed()) {
    if (!replay.view && replay.video.empty()) {
      for (const char* option : {"--size", "--overlay"}) {
        if (replay_cmd->count(option) > 0)
          return usage(std::string("stagger replay: ") + option + " applies to --view and --video");
      }
    }
    if (!replay.video.empty()) {
      if (const std::string odd = odd_video_size("stagger replay", replay.size); !odd.empty())
        return usage(odd);
    }
    auto keys = stagger::vr::parse_scripted_keys(replay_keys);
    if (!keys) return usage("stagger replay: --view-keys: " + keys.error());
    replay.keys = std::move(keys).value();
    return run_replay(replay);
  }
  if (export_cmd->parsed()) {
    if (stagger::app::is_clip_library(export_file)) {
      for (const char* option : {"--rate", "--quiet"}) {
        if (export_cmd->count(option) > 0)
          return usage(std::string("stagger export: ") + option +
                       " applies to recordings, not to clip libraries");
      }
      return stagger::app::run_export_clips(export_file, export_out);
    }
    return run_export(export_file, export_out, export_rate, export_quiet);
  }
  if (clips_cmd.clips->parsed()) return stagger::app::run_clips(clips_cmd, clips);
  if (preview_cmd->parsed()) return run_preview(preview_level, preview_out, preview_size);
  if (bench_cmd->parsed()) {
    if (bench_cmd->count("--blast") > 0) {
      for (const char* other :
           {"--counts", "--repetitions", "--walking", "--enemies", "--crossings", "--approach",
            "--ground", "--part", "--impulse", "--settings"}) {
        if (bench_cmd->count(other) > 0)
          return usage(std::string("stagger bench: ") + other + " does not apply to --blast");
      }
      if (bench_cmd->count("--seconds") > 0) blast_bench.seconds = bench.seconds;
      blast_bench.seed = terrain_bench.seed;
      if (blast_level.empty()) {
        const auto arena = stagger::app::resolve_level("arena");
        if (!arena) return usage("stagger bench: the arena sample level is not to be found");
        blast_level = *arena;
      }
      return run_blast_bench(blast_level, blast_bench, terrain_report);
    }
    if (bench_cmd->count("--level") > 0)
      return usage("stagger bench: --level applies to --blast only");
    if (walks) {
      for (const char* other : {"--counts", "--seconds", "--repetitions", "--walking", "--enemies",
                                "--crossings", "--approach", "--ground", "--impulse", "--part"}) {
        if (bench_cmd->count(other) > 0)
          return usage(std::string("stagger bench: ") + other + " does not apply to --walks");
      }
      stagger::bench::WalksOptions options;
      if (bench_cmd->count("--seed") > 0) options.vary_seed = terrain_bench.seed;
      return run_walks(options, terrain_report, bench_settings);
    }
    if (push_thresholds) {
      for (const char* other : {"--counts", "--seconds", "--repetitions", "--walking", "--enemies",
                                "--crossings", "--approach", "--ground", "--impulse", "--seed"}) {
        if (bench_cmd->count(other) > 0)
          return usage(std::string("stagger bench: ") + other +
                       " does not apply to --push-thresholds");
      }
      stagger::bench::PushThresholdOptions options;
      const auto part = stagger::physics::body_part_from_name(knock_down_part);
      if (!part) return usage("stagger bench: --part " + knock_down_part + " is no body part");
      options.part = *part;
      return run_push_thresholds(options, terrain_report, bench_settings);
    }
    const bool knock_downs = bench_cmd->count("--knock-downs") > 0;
    if (knock_downs) {
      for (const char* other : {"--counts", "--seconds", "--repetitions", "--walking", "--enemies",
                                "--crossings", "--approach"}) {
        if (bench_cmd->count(other) > 0)
          return usage(std::string("stagger bench: ") + other + " does not apply to --knock-downs");
      }
      knock_down_bench.seed = terrain_bench.seed;
      const auto part = stagger::physics::body_part_from_name(knock_down_part);
      if (!part) return usage("stagger bench: --part " + knock_down_part + " is no body part");
      knock_down_bench.part = *part;
      stagger::bench::parse_knock_down_ground(knock_down_ground, knock_down_bench.ground);
      return run_knock_downs(knock_down_bench, terrain_report, bench_settings);
    }
    for (const char* option : {"--ground", "--impulse"}) {
      if (bench_cmd->count(option) > 0)
        return usage(std::string("stagger bench: ") + option + " applies to --knock-downs only");
    }
    if (bench_cmd->count("--part") > 0) {
      return usage("stagger bench: --part applies to --knock-downs and --push-thresholds only");
    }
    const bool terrain_options = bench_cmd->count("--crossings") > 0 ||
                                 bench_cmd->count("--approach") > 0 ||
                                 bench_cmd->count("--feature") > 0 ||
                                 bench_cmd->count("--seed") > 0 || bench_cmd->count("--report") > 0;
    if (terrain) {
      for (const char* other :
           {"--counts", "--seconds", "--repetitions", "--walking", "--enemies"}) {
        if (bench_cmd->count(other) > 0)
          return usage(std::string("stagger bench: ") + other + " does not apply to --terrain");
      }
      for (const std::string& name : terrain_bench.features) {
        if (!stagger::bench::is_terrain_feature(name))
          return usage("stagger bench: --feature: no feature is named \"" + name +
                       "\" (the names are the first column of the table, e.g. \"ramp 12deg "
                       "across\")");
      }
      return run_terrain(terrain_bench, terrain_report, bench_settings);
    }
    if (terrain_options)
      return usage(
          "stagger bench: --crossings, --approach and --feature apply to --terrain only; "
          "--seed and --report to --terrain and --knock-downs, and to --blast; --report also to "
          "--push-thresholds and --walks");
    if (patrol_bench.chased && crowd_level.empty())
      return usage("stagger bench: --chased applies to --crowd only");
    if (!soak_level.empty()) {
      stagger::bench::SoakOptions soak;
      soak.enemies = bench_cmd->count("--enemies") > 0 ? patrol_bench.enemies : 64;
      soak.seconds = bench_cmd->count("--seconds") > 0 ? bench.seconds : 600.0;
      return run_soak(soak_level, soak, bench_settings);
    }
    if (!patrol_level.empty() || !crowd_level.empty()) {
      if (bench_cmd->count("--seconds") > 0) patrol_bench.seconds = bench.seconds;
      if (!crowd_level.empty()) patrol_bench.max_active = crowd_max_active;
      return run_patrol_bench(crowd_level.empty() ? patrol_level : crowd_level, patrol_bench,
                              bench_settings);
    }
    if (bench_cmd->count("--max-active") > 0)
      return usage("stagger bench: --max-active applies to --crowd only");
    if (bench_cmd->count("--enemies") > 0)
      return usage("stagger bench: --enemies applies to --patrol, --crowd and --soak only");
    return run_bench(bench, bench_settings);
  }
  return kExitUsage;
}
