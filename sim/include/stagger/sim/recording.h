#pragma once
// `stagger sim --record FILE` and `stagger replay FILE`: what is needed to re-simulate a run, and
// the state hash after every one of its steps, in a compact, versioned binary.
//
// Layout (little-endian): the 8-byte magic "STAGREC\n", u32 version, (version 2 on) one byte that
// is 1 when the run was interrupted and 0 when it ran to its end, then the fields below in order
// (strings as u32 length + bytes, floats as their bits), u64 step count and that many u64 state
// hashes, and last a u64 FNV-1a checksum of every byte before it. Older versions are still read:
// version 3 without the activity cap, the clip library and the settings file; version 2 also
// without the vary seed; version 1 also without the interrupted byte (as complete runs).
//
// A truncated file, one with a changed byte, or one whose numbers are outside the command line's
// bounds (stagger/core/limits.h) or whose step count does not match its duration is rejected
// before anything is simulated.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stagger/core/result.h"

namespace stagger::sim {

struct Recording {
  static constexpr std::uint32_t kVersion = 4;        ///< the version written
  static constexpr std::uint32_t kOldestVersion = 1;  ///< the oldest version read
  std::string level_path;        ///< as given on the command line; empty: the built-in scene
  std::uint64_t level_hash = 0;  ///< FNV-1a of the level file's bytes (0 for the built-in scene)
  std::int32_t builtin_enemies = 1;
  float physics_hz = 240.0f;  ///< [Hz]
  std::int32_t solver_iterations = 10;
  double display_hz = 90.0;  ///< [Hz]
  double seconds = 0;        ///< [s] the duration asked for
  /// The run was interrupted (Ctrl-C): `step_hashes` holds only the steps done, fewer than
  /// `seconds` asks for (or as many, when the interrupt came after the last step).
  bool incomplete = false;
  std::string input_name;    ///< the input script's path, for messages; empty: none
  std::string input_script;  ///< its JSON text, as it was
  /// The seed the spawns were nudged with (`stagger sim --vary`); unset: not nudged.
  std::optional<std::uint64_t> vary_seed;
  /// The most full ragdolls at once (`stagger sim --max-active`); 0: every enemy is one.
  std::int32_t max_active = 0;
  /// The death clip library (`stagger sim --clips`) by its absolute path, and the FNV-1a hash of
  /// its bytes; empty: none.
  std::string clips_path;
  std::uint64_t clips_hash = 0;
  /// The settings file (`stagger sim --settings`) by its absolute path, and the FNV-1a hash of
  /// its bytes; empty: none.
  std::string settings_path;
  std::uint64_t settings_hash = 0;
  std::vector<std::uint64_t> step_hashes;  ///< World::state_hash after each step
};

/// FNV-1a, 64 bit, of some bytes (the same function the state hash uses).
std::uint64_t fnv1a_64(const void* data, std::size_t size,
                       std::uint64_t hash = 0xcbf29ce484222325ull);

/// The steps a complete run of `seconds` at `physics_hz` takes (as Simulation::run counts them).
std::uint64_t recorded_steps(double seconds, float physics_hz);

/// The recording in the current version's layout.
std::vector<std::uint8_t> encode_recording(const Recording& recording);
/// Reads a recording from memory: checks the magic, the version, every length against the bytes
/// left, the checksum, then every number against its bounds and the step count against the
/// duration. Any bytes give a recording or a one-sentence error that starts with `source`; it
/// never allocates more than the input's size.
Result<Recording> parse_recording(std::string_view bytes, std::string_view source);

Result<bool> write_recording(const Recording& recording, const std::string& path);
/// Reads the file, then parse_recording().
Result<Recording> read_recording(const std::string& path);

}  // namespace stagger::sim
