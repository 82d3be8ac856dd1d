// libFuzzer target for the recording reader: any byte string must give a recording or a
// one-sentence error, never a crash, a hang, a sanitizer report or an allocation larger than the
// input. Each input is read twice: as it is, and with its last 8 bytes replaced by the checksum
// of the rest, so that the fuzzer gets past the checksum to the lengths, bounds and step counts.
// A recording that reads must write and read back unchanged. Build with the `fuzz` preset
// (clang) and run, for example,
//   ./build/fuzz/tools/fuzz_recording -max_total_time=600 -max_len=65536 -timeout=10 \
//       -rss_limit_mb=2048 build/fuzz/corpus_recordings tests/data/fuzz_recordings
// New inputs that matter go into tests/data/fuzz_recordings, which tests/fuzz_corpus_test.cpp
// replays.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stagger/sim/recording.h"

namespace {

constexpr std::size_t kChecksumBytes = 8;
constexpr std::string_view kSource = "fuzz.stagrec";

bool same(const stagger::sim::Recording& a, const stagger::sim::Recording& b) {
  return a.level_path == b.level_path && a.level_hash == b.level_hash &&
         a.builtin_enemies == b.builtin_enemies && a.physics_hz == b.physics_hz &&
         a.solver_iterations == b.solver_iterations && a.display_hz == b.display_hz &&
         a.seconds == b.seconds && a.incomplete == b.incomplete && a.input_name == b.input_name &&
         a.input_script == b.input_script && a.step_hashes == b.step_hashes;
}

void check(std::string_view bytes) {
  const auto read = stagger::sim::parse_recording(bytes, kSource);
  if (!read) {
    const std::string& error = read.error();
    if (error.rfind(kSource, 0) != 0 || error.size() == kSource.size() ||
        error.find('\n') != std::string::npos) {
      __builtin_trap();
    }
    return;
  }
  const std::vector<std::uint8_t> written = stagger::sim::encode_recording(read.value());
  const auto again = stagger::sim::parse_recording(
      std::string_view(reinterpret_cast<const char*>(written.data()), written.size()), kSource);
  if (!again || !same(again.value(), read.value())) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  check(bytes);
  if (size >= kChecksumBytes) {
    std::string sealed(bytes);
    const std::uint64_t sum = stagger::sim::fnv1a_64(sealed.data(), size - kChecksumBytes);
    for (std::size_t i = 0; i < kChecksumBytes; ++i)
      sealed[size - kChecksumBytes + i] = static_cast<char>(sum >> (8 * i));
    check(sealed);
  }
  return 0;
}
