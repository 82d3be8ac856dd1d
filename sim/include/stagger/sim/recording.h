#pragma once
// `stagger sim --record FILE` and `stagger replay FILE` (issue 6): what is needed to re-simulate
// a run, and the state hash after every one of its steps, in a compact, versioned binary.
//
// Layout (little-endian): the 8-byte magic "STAGREC\n", u32 version, then the fields below in
// order (strings as u32 length + bytes, floats as their bits), u64 step count and that many u64
// state hashes, and last a u64 FNV-1a checksum of every byte before it. A truncated file or one
// with a changed byte is rejected before anything is simulated.

#include <cstdint>
#include <string>
#include <vector>

#include "stagger/core/result.h"

namespace stagger::sim {

struct Recording {
  static constexpr std::uint32_t kVersion = 1;
  std::string level_path;          ///< as given on the command line; empty: the built-in scene
  std::uint64_t level_hash = 0;    ///< FNV-1a of the level file's bytes (0 for the built-in scene)
  std::int32_t builtin_enemies = 1;
  float physics_hz = 240.0f;       ///< [Hz]
  std::int32_t solver_iterations = 10;
  double display_hz = 90.0;        ///< [Hz]
  double seconds = 0;              ///< [s]
  std::string input_name;          ///< the input script's path, for messages; empty: none
  std::string input_script;        ///< its JSON text, as it was
  std::vector<std::uint64_t> step_hashes;  ///< World::state_hash after each step
};

/// FNV-1a, 64 bit, of some bytes (the same function the state hash uses).
std::uint64_t fnv1a_64(const void* data, std::size_t size, std::uint64_t hash = 0xcbf29ce484222325ull);

std::vector<std::uint8_t> encode_recording(const Recording& recording);
/// Checks the magic, the version, the lengths and the checksum; `source` names the file in errors.
Result<Recording> decode_recording(const std::vector<std::uint8_t>& bytes, const std::string& source);

Result<bool> write_recording(const Recording& recording, const std::string& path);
Result<Recording> read_recording(const std::string& path);

}  // namespace stagger::sim
