#include "clips_command.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

#include "cli_checks.h"
#include "stagger/levels/load.h"
#include "stagger/output/gltf_export.h"
#include "stagger/sim/death_clips.h"
#include "stagger/sim/scene.h"
#include "stagger/sim/settings.h"

namespace stagger::app {

namespace {

/// The most deaths one library records (one a degree).
constexpr int kMaxDeaths = 360;

// [deg] a direction's heading, 0 to 359, whole: 0 along +Z, 90 along +X (the enemy's left).
double heading_deg(Vec3 direction) {
  const double deg = std::round(static_cast<double>(rad_to_deg(yaw_of(direction))));
  return std::fmod(deg + 360.0, 360.0);
}

std::string rig_text(const sim::ClipRig& rig) {
  return limits::number_text(static_cast<double>(rig.height_m)) + " m, " +
         limits::number_text(static_cast<double>(rig.mass_kg)) + " kg, profile " +
         (rig.profile.empty() ? std::string("none") : "`" + rig.profile + "`");
}

// The level's scene as `stagger sim` reads it (its profiles checked); its problems printed.
std::optional<sim::SceneDescription> level_scene(const std::string& file) {
  levels::LoadResult loaded = levels::load_level(file);
  sim::check_profiles(loaded, file);
  for (const auto& d : loaded.diagnostics) std::cerr << levels::format(d) << "\n";
  if (!loaded.ok()) return std::nullopt;
  sim::SceneDescription scene = sim::scene_from_level(loaded.level, loaded.mesh_triangles);
  if (loaded.level.name.empty()) scene.name = file;
  return scene;
}

void print_death(int done, int total, const sim::RecordedDeath& death,
                 const sim::KeyTolerance& tolerance) {
  const sim::DeathClip& c = death.clip;
  const std::size_t keys = sim::reduce(death, tolerance).key_count();
  std::printf(
      "death %d/%d: pushed toward %.0f deg (up %+.2f), %.1f N*s: %s %.2f s, %zu of %zu keys\n",
      done, total, heading_deg(c.hit_direction), static_cast<double>(c.hit_direction.y),
      static_cast<double>(c.impulse_ns),
      c.came_to_rest ? "lay still after" : "still moving at the cap,",
      static_cast<double>(c.duration_s), keys,
      death.frames.size() * static_cast<std::size_t>(physics::kBodyPartCount));
  std::fflush(stdout);
}

int run_build(const ClipsOptions& o) {
  if (!can_write(o.output)) {
    std::cerr << "stagger clips build: cannot write the clip library to "
              << limits::quoted(o.output)
              << " (no such folder, or no permission); nothing was recorded\n";
    return kExitWrongInput;
  }
  const std::optional<sim::SceneDescription> scene = level_scene(o.level);
  if (!scene) {
    std::cerr << "stagger clips build: the level has errors; nothing was recorded\n";
    return kExitWrongInput;
  }
  sim::DeathClipBuildSettings settings;
  settings.deaths = o.deaths;
  settings.seed = o.seed;
  settings.impulse_ns = o.impulse_ns;
  const auto start = std::chrono::steady_clock::now();
  sim::DeathClipProgress progress;
  if (!o.quiet) {
    progress = [&settings](int done, int total, const sim::RecordedDeath& death) {
      print_death(done, total, death, settings.tolerance);
    };
  }
  const sim::DeathClipLibrary library = sim::build_death_clips(*scene, settings, progress);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (const auto saved = library.save(o.output); !saved) {
    std::cerr << "stagger clips build: " << saved.error() << "\n";
    return kExitWrongInput;
  }
  std::size_t kept = 0;
  std::size_t recorded = 0;
  for (const sim::DeathClip& c : library.clips()) {
    kept += c.key_count();
    recorded += c.recorded_frames() * static_cast<std::size_t>(physics::kBodyPartCount);
  }
  std::printf(
      "stagger clips build: %s: %zu clips of `%s`'s first enemy (%s), %zu keys kept of %zu at "
      "30 Hz (%.0f %%), %zu bytes, recorded in %.1f s\n",
      o.output.c_str(), library.clips().size(), library.rig().level.c_str(),
      rig_text(library.rig()).c_str(), kept, recorded,
      100.0 * static_cast<double>(kept) / static_cast<double>(recorded), library.encode().size(),
      seconds);
  return 0;
}

int run_info(const std::string& file) {
  const auto loaded = sim::DeathClipLibrary::load(file);
  if (!loaded) {
    std::cerr << "stagger clips info: " << loaded.error() << "\n";
    return kExitWrongInput;
  }
  const sim::DeathClipLibrary& library = loaded.value();
  std::printf("%s: %zu clips, recorded from level `%s` (%s, seed %llu)\n", file.c_str(),
              library.clips().size(), library.rig().level.c_str(), rig_text(library.rig()).c_str(),
              static_cast<unsigned long long>(library.rig().seed));
  std::printf(
      "hit: the way the blow pushed, in the enemy's frame (x its left, y up, z forward)\n"
      "   #  hit (x, y, z)              toward  impulse    part     duration  at rest  keys\n");
  for (std::size_t i = 0; i < library.clips().size(); ++i) {
    const sim::DeathClip& c = library.clips()[i];
    std::printf(
        "%4zu  (%+.3f, %+.3f, %+.3f)  %3.0f deg  %6.1f N*s  %-8s %5.2f s    %-3s      %zu of %zu\n",
        i + 1, static_cast<double>(c.hit_direction.x), static_cast<double>(c.hit_direction.y),
        static_cast<double>(c.hit_direction.z), heading_deg(c.hit_direction),
        static_cast<double>(c.impulse_ns), std::string(physics::name_of(c.hit_part)).c_str(),
        static_cast<double>(c.duration_s), c.came_to_rest ? "yes" : "no", c.key_count(),
        c.recorded_frames() * static_cast<std::size_t>(physics::kBodyPartCount));
  }
  return 0;
}

}  // namespace

ClipsCommands add_clips_commands(CLI::App& app, ClipsOptions& o) {
  ClipsCommands commands;
  commands.clips = app.add_subcommand(
      "clips",
      "Death clips: ragdoll deaths recorded as animation, for enemies too far away to "
      "be full ragdolls");
  commands.clips->require_subcommand(1);
  commands.build = commands.clips->add_subcommand(
      "build",
      "Record the level's first enemy dying from blows spread evenly around it, on flat ground, "
      "into a clip library");
  commands.build->add_option("level", o.level, "Level file or a sample level's name")
      ->required()
      ->transform(level_argument());
  commands.build->add_option("-o,--output", o.output, "Clip library to write (.stclip)")
      ->required();
  commands.build->add_option("--deaths", o.deaths, "Deaths recorded, their blows evenly spread")
      ->capture_default_str()
      ->check(integer_in("--deaths", "deaths", 1, kMaxDeaths));
  commands.build
      ->add_option("--seed", o.seed,
                   "The seed each blow's size (mean ± 25 %) and up/down part follow from")
      ->capture_default_str()
      ->check(integer_in("--seed", "", 0, 4294967295));
  commands.build->add_option("--impulse", o.impulse_ns, "The mean blow [N*s], at the chest")
      ->capture_default_str()
      ->check(finite_in("--impulse", "newton-seconds", "N*s", kBlowRange));
  commands.build->add_flag("--quiet", o.quiet, "Print only the summary");
  commands.info = commands.clips->add_subcommand(
      "info", "List a clip library's clips: hit vector, impulse, duration, keys");
  commands.info->add_option("library", o.file, "Clip library (.stclip)")
      ->required()
      ->check(existing_file("clip library"));
  return commands;
}

int run_clips(const ClipsCommands& commands, const ClipsOptions& options) {
  if (commands.build->parsed()) return run_build(options);
  return run_info(options.file);
}

bool is_clip_library(const std::string& path) {
  constexpr std::string_view kExtension = ".stclip";
  return path.size() >= kExtension.size() &&
         path.compare(path.size() - kExtension.size(), kExtension.size(), kExtension) == 0;
}

int run_export_clips(const std::string& path, const std::string& out) {
  if (!can_write(out)) {
    std::cerr << "stagger export: cannot write the glTF file to " << limits::quoted(out)
              << " (no such folder, or no permission); nothing was exported\n";
    return kExitWrongInput;
  }
  const auto loaded = sim::DeathClipLibrary::load(path);
  if (!loaded) {
    std::cerr << "stagger export: " << loaded.error() << "\n";
    return kExitWrongInput;
  }
  const auto written = output::write_clips_gltf(loaded.value(), out);
  if (!written) {
    std::cerr << "stagger export: " << written.error() << "\n";
    return kExitWrongInput;
  }
  std::size_t keys = 0;
  for (const sim::DeathClip& c : loaded.value().clips()) keys += c.key_count();
  std::cout << "stagger export: " << out << ": " << loaded.value().clips().size()
            << " clips as animations of " << physics::kBodyPartCount << " nodes (" << keys
            << " keys)\n";
  return 0;
}

}  // namespace stagger::app
