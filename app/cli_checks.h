#pragma once
// What every `stagger` subcommand checks before it starts work: numeric options finite and inside
// their documented bounds (stagger/core/limits.h), level arguments that are files or sample names,
// output paths that can be written; and the interrupt flag that SIGINT and SIGTERM raise so a run
// stops at its next step and keeps what it has.

#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "stagger/core/limits.h"

namespace stagger::app {

inline constexpr int kExitWrongInput = 1;  ///< the input was understood but is wrong
inline constexpr int kExitUsage = 2;       ///< a usage error: option, value, missing file

// The command-line bounds, each with the symbol its message uses.
inline constexpr limits::Range kSecondsRange{0.0, limits::kMaxDurationS, true};
inline constexpr limits::Range kPlaySecondsRange{0.0, limits::kMaxDurationS,
                                                 false};  ///< 0: until closed
inline constexpr limits::Range kDisplayHzRange{1.0, 1000.0, false};
inline constexpr limits::Range kPhysicsHzRange{30.0, 2000.0, false};
inline constexpr limits::Range kBlowRange{0.0, 10000.0, false};    ///< [N·s] bench blows
inline constexpr limits::Range kApproachRange{0.5, 50.0, false};   ///< [m] terrain run-up
inline constexpr limits::Range kSnapTurnRange{0.0, 180.0, false};  ///< [deg] 0: smooth turning
inline constexpr limits::Range kCoordinateRange{-limits::kWorldExtentM, limits::kWorldExtentM,
                                                false};

/// A validator for a real-valued option: finite and inside `range`. The message reads
/// "--seconds must be a finite number of seconds, 0 < s <= 86400, got nan".
inline CLI::Validator finite_in(const std::string& option, const std::string& quantity,
                                const std::string& symbol, limits::Range range) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        const bool parsed = end != text.c_str() && *end == '\0';
        if (parsed && range.contains(v)) return {};
        return option + " must be a finite number of " + quantity + ", " + range.text(symbol) +
               ", got " + limits::quoted(text);
      },
      range.text(symbol));
}

/// A validator for an integer option inside [min, max]; `quantity` names what it counts (empty: a
/// plain number, such as a seed).
inline CLI::Validator integer_in(const std::string& option, const std::string& quantity, long min,
                                 long max) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        char* end = nullptr;
        const long v = std::strtol(text.c_str(), &end, 10);
        const bool parsed = end != text.c_str() && *end == '\0';
        if (parsed && v >= min && v <= max) return {};
        const std::string of = quantity.empty() ? "" : " of " + quantity;
        return option + " must be a whole number" + of + ", " + std::to_string(min) +
               " <= n <= " + std::to_string(max) + ", got " + limits::quoted(text);
      },
      std::to_string(min) + " <= n <= " + std::to_string(max));
}

/// A level by its file, or by its name among the sample levels (`courtyard` is
/// levels/data/courtyard.json, looked for under the working directory, then the source tree).
inline std::optional<std::string> resolve_level(const std::string& level) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::is_regular_file(level, error)) return level;
  if (level.empty() || level.find('/') != std::string::npos) return std::nullopt;
  for (const fs::path& dir : {fs::path("levels/data"), fs::path(STAGGER_LEVELS_DIR)}) {
    for (const char* extension : {".json", ".gltf"}) {
      const fs::path candidate = dir / (level + extension);
      if (fs::is_regular_file(candidate, error)) return candidate.string();
    }
  }
  return std::nullopt;
}

/// A validator for LEVEL arguments: a level file or a sample level's name, replaced by its path.
inline CLI::Validator level_argument() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const auto path = resolve_level(text);
        if (!path) {
          return "no level file or sample level named " + limits::quoted(text) +
                 " (the samples: courtyard, corridor, arena, gltf_yard)";
        }
        text = *path;
        return {};
      },
      "LEVEL");
}

/// A validator for input files (scripts, recordings): the file exists and is a regular file.
inline CLI::Validator existing_file(const std::string& what) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        std::error_code error;
        if (std::filesystem::is_regular_file(text, error)) return {};
        return "no " + what + " file " + limits::quoted(text);
      },
      "FILE");
}

/// Whether `path` can be written, tried now so that a run with an unwritable output fails before
/// any work: it is opened for appending (nothing in it changes) and, when it did not exist, removed
/// again, so that a run refused later leaves no empty file. "-" is standard output.
inline bool can_write(const std::string& path) {
  if (path.empty() || path == "-") return true;
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) return false;
  const bool existed = std::filesystem::exists(path, error);
  const bool writable = static_cast<bool>(std::ofstream(path, std::ios::binary | std::ios::app));
  if (writable && !existed) std::filesystem::remove(path, error);
  return writable;
}

/// Set by SIGINT and SIGTERM once `catch_interrupts()` ran; runs poll it between steps.
inline std::atomic<bool>& interrupt_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}
inline bool interrupted() {
  return interrupt_flag().load(std::memory_order_relaxed);
}

/// The first SIGINT or SIGTERM asks the run to stop at its next step; a second one ends the
/// process at once, as it would without this handler.
inline void catch_interrupts() {
  static_assert(std::atomic<bool>::is_always_lock_free,
                "a signal handler may only touch lock-free atomics");
  interrupt_flag().store(false);  // made before any signal can arrive
  const auto handler = +[](int signal) {
    if (interrupt_flag().exchange(true)) {
      std::signal(signal, SIG_DFL);
      std::raise(signal);
    }
  };
  std::signal(SIGINT, handler);
  std::signal(SIGTERM, handler);
}

}  // namespace stagger::app
