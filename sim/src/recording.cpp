#include "stagger/sim/recording.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include "byte_io.h"
#include "stagger/core/limits.h"

namespace stagger::sim {

namespace {

using byte_io::little_endian_u64;
using byte_io::Reader;
using byte_io::Writer;

constexpr char kMagic[8] = {'S', 'T', 'A', 'G', 'R', 'E', 'C', '\n'};
constexpr std::size_t kChecksumBytes = 8;
constexpr std::size_t kHashBytes = 8;
/// The first version with the interrupted-run byte after the version.
constexpr std::uint32_t kFirstVersionWithFlag = 2;
/// The first version with the spawn-nudging seed after the input script.
constexpr std::uint32_t kFirstVersionWithVary = 3;
/// The first version with the activity cap, the clip library and the settings file after it.
constexpr std::uint32_t kFirstVersionWithFiles = 4;

// The bounds of the command line (`stagger sim` options): a recording is made by a run, so a
// number outside them means the file is damaged, not that the run was unusual.
constexpr limits::Range kPhysicsHzRange{30.0, 2000.0, false};             // [Hz]
constexpr limits::Range kDisplayHzRange{0.0, 1000.0, true};               // [Hz]
constexpr limits::Range kSecondsRange{0.0, limits::kMaxDurationS, true};  // [s]
constexpr limits::Range kSolverIterationsRange{1.0, 200.0, false};
constexpr limits::Range kBuiltinEnemiesRange{1.0, 1024.0, false};
constexpr limits::Range kMaxActiveRange{0.0, 1024.0, false};

// The fields between the version (and the interrupted byte) and the step count.
void read_settings(Reader& in, Recording& r) {
  r.level_path = in.text("the level path");
  r.level_hash = in.u(8, "the level hash");
  r.builtin_enemies = static_cast<std::int32_t>(in.u(4, "the enemy count"));
  r.physics_hz = in.f32("the physics rate");
  r.solver_iterations = static_cast<std::int32_t>(in.u(4, "the solver iteration count"));
  r.display_hz = in.f64("the display rate");
  r.seconds = in.f64("the duration");
  r.input_name = in.text("the input script's name");
  r.input_script = in.text("the input script");
}

// The fields after the vary seed (version 4 on): what else the run was made of.
void read_files(Reader& in, Recording& r) {
  r.max_active = static_cast<std::int32_t>(in.u(4, "the activity cap"));
  r.clips_path = in.text("the clip library path");
  r.clips_hash = in.u(8, "the clip library hash");
  r.settings_path = in.text("the settings file path");
  r.settings_hash = in.u(8, "the settings file hash");
}

// The step count and the hashes; the count is checked against the bytes left before any is read.
std::optional<std::string> read_steps(Reader& in, Recording& r, std::string_view source) {
  const std::uint64_t steps = in.u(8, "the step count");
  if (!in.ok()) return in.error();
  const std::size_t room = in.left() / kHashBytes;
  if (steps > room) {
    return std::string(source) + ": truncated or damaged: " + std::to_string(steps) +
           " step hashes announced, room for " + std::to_string(room);
  }
  r.step_hashes.reserve(static_cast<std::size_t>(steps));
  for (std::uint64_t i = 0; i < steps; ++i)
    r.step_hashes.push_back(in.u(kHashBytes, "the step hashes"));
  if (in.left() != 0) {
    return std::string(source) + ": damaged: " + std::to_string(in.left()) +
           " bytes follow the step hashes";
  }
  return std::nullopt;
}

// "damaged: the physics rate is 5, outside 30 <= Hz <= 2000" when `value` is outside `range`.
std::optional<std::string> out_of(limits::Range range, double value, const std::string& shown,
                                  const char* field, const char* symbol, std::string_view source) {
  if (range.contains(value)) return std::nullopt;
  return std::string(source) + ": damaged: " + field + " is " + shown + ", outside " +
         range.text(symbol);
}
std::optional<std::string> out_of(limits::Range range, double value, const char* field,
                                  const char* symbol, std::string_view source) {
  return out_of(range, value, limits::number_text(value), field, symbol, source);
}
// A count, shown whole however large it is.
std::optional<std::string> out_of(limits::Range range, std::int32_t value, const char* field,
                                  const char* symbol, std::string_view source) {
  return out_of(range, value, std::to_string(value), field, symbol, source);
}

// Every number against the command line's bounds, then the step count against the duration.
std::optional<std::string> check_numbers(const Recording& r, std::string_view source) {
  if (auto e = out_of(kPhysicsHzRange, static_cast<double>(r.physics_hz), "the physics rate", "Hz",
                      source))
    return e;
  if (auto e = out_of(kDisplayHzRange, r.display_hz, "the display rate", "Hz", source)) return e;
  if (auto e = out_of(kSecondsRange, r.seconds, "the duration", "s", source)) return e;
  if (auto e = out_of(kSolverIterationsRange, r.solver_iterations, "the solver iteration count",
                      "n", source))
    return e;
  if (auto e = out_of(kBuiltinEnemiesRange, r.builtin_enemies, "the enemy count", "n", source))
    return e;
  if (auto e = out_of(kMaxActiveRange, r.max_active, "the activity cap", "n", source)) return e;
  const std::uint64_t expected = recorded_steps(r.seconds, r.physics_hz);
  const std::uint64_t steps = r.step_hashes.size();
  if (steps == expected || (r.incomplete && steps < expected)) return std::nullopt;
  std::ostringstream out;
  out << source << ": damaged: " << steps << " step hashes for "
      << (r.incomplete ? "an interrupted run of " : "a run of ") << limits::number_text(r.seconds)
      << " s at " << limits::number_text(static_cast<double>(r.physics_hz)) << " Hz, which takes "
      << (r.incomplete ? "at most " : "exactly ") << expected << " steps";
  return out.str();
}

}  // namespace

std::uint64_t fnv1a_64(const void* data, std::size_t size, std::uint64_t hash) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= p[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::uint64_t recorded_steps(double seconds, float physics_hz) {
  return static_cast<std::uint64_t>(std::llround(seconds * static_cast<double>(physics_hz)));
}

std::vector<std::uint8_t> encode_recording(const Recording& r) {
  Writer w;
  w.bytes(kMagic, sizeof(kMagic));
  w.u32(Recording::kVersion);
  w.u8(r.incomplete ? 1 : 0);
  w.text(r.level_path);
  w.u64(r.level_hash);
  w.u32(static_cast<std::uint32_t>(r.builtin_enemies));
  w.f32(r.physics_hz);
  w.u32(static_cast<std::uint32_t>(r.solver_iterations));
  w.f64(r.display_hz);
  w.f64(r.seconds);
  w.text(r.input_name);
  w.text(r.input_script);
  w.u8(r.vary_seed ? 1 : 0);
  w.u64(r.vary_seed.value_or(0));
  w.u32(static_cast<std::uint32_t>(r.max_active));
  w.text(r.clips_path);
  w.u64(r.clips_hash);
  w.text(r.settings_path);
  w.u64(r.settings_hash);
  w.u64(r.step_hashes.size());
  for (std::uint64_t h : r.step_hashes) w.u64(h);
  w.u64(fnv1a_64(w.out().data(), w.out().size()));
  return std::move(w.out());
}

Result<Recording> parse_recording(std::string_view bytes, std::string_view source) {
  const std::string name(source);
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    return Error{name + ": not a stagger recording (it does not start with \"STAGREC\")"};
  }
  const std::size_t body_end = bytes.size() >= kChecksumBytes ? bytes.size() - kChecksumBytes : 0;
  if (body_end < sizeof(kMagic)) {
    return Error{name + ": truncated or damaged: " + std::to_string(bytes.size()) +
                 " bytes, too few for a recording"};
  }
  Reader in(bytes, body_end, source);
  in.u(sizeof(kMagic), "the magic");
  const auto version = static_cast<std::uint32_t>(in.u(4, "the version"));
  if (in.ok() && (version < Recording::kOldestVersion || version > Recording::kVersion)) {
    return Error{name + ": recording version " + std::to_string(version) +
                 " is not supported (this stagger reads versions " +
                 std::to_string(Recording::kOldestVersion) + " to " +
                 std::to_string(Recording::kVersion) + ")"};
  }
  const std::uint64_t flag = version >= kFirstVersionWithFlag ? in.u(1, "the interrupted flag") : 0;
  Recording r;
  read_settings(in, r);
  const std::uint64_t varied = version >= kFirstVersionWithVary ? in.u(1, "the varied flag") : 0;
  const std::uint64_t vary_seed = version >= kFirstVersionWithVary ? in.u(8, "the vary seed") : 0;
  if (version >= kFirstVersionWithFiles) read_files(in, r);
  if (auto error = read_steps(in, r, source)) return Error{*error};
  if (little_endian_u64(bytes, body_end) != fnv1a_64(bytes.data(), body_end)) {
    return Error{name + ": damaged or changed: the checksum does not match its contents"};
  }
  // The checksum says the bytes are as written; what follows says what was written makes sense.
  if (flag > 1)
    return Error{name + ": damaged: the interrupted flag is " + std::to_string(flag) +
                 ", not 0 or 1"};
  r.incomplete = flag == 1;
  if (varied > 1)
    return Error{name + ": damaged: the varied flag is " + std::to_string(varied) + ", not 0 or 1"};
  if (varied == 1) r.vary_seed = vary_seed;
  if (auto error = check_numbers(r, source)) return Error{*error};
  return r;
}

Result<bool> write_recording(const Recording& recording, const std::string& path) {
  const std::vector<std::uint8_t> bytes = encode_recording(recording);
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) return Error{path + ": cannot write the recording"};
  return true;
}

Result<Recording> read_recording(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open the recording"};
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return Error{path + ": cannot read the recording"};
  return parse_recording(bytes.str(), path);
}

}  // namespace stagger::sim
