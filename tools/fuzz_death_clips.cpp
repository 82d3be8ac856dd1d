// libFuzzer target for the death clip library reader: any byte string must give a library or a
// one-sentence error, never a crash, a hang, a sanitizer report or an allocation larger than the
// input. Each input is read twice: as it is, and with its last 8 bytes replaced by the checksum
// of the rest, so that the fuzzer gets past the checksum to the counts, bounds and key times. A
// library that reads must write and read back unchanged. Build with the `fuzz` preset (clang)
// and run, for example,
//   ./build/fuzz/tools/fuzz_death_clips -max_total_time=600 -max_len=65536 -timeout=10 \
//       -rss_limit_mb=2048 build/fuzz/corpus_clips tests/data/fuzz_clips
// New inputs that matter go into tests/data/fuzz_clips, which tests/fuzz_corpus_test.cpp
// replays.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stagger/sim/death_clips.h"
#include "stagger/sim/recording.h"

namespace {

constexpr std::size_t kChecksumBytes = 8;
constexpr std::string_view kSource = "fuzz.stclip";

void check(std::string_view bytes) {
  const auto read = stagger::sim::DeathClipLibrary::parse(bytes, kSource);
  if (!read) {
    const std::string& error = read.error();
    if (error.rfind(kSource, 0) != 0 || error.size() == kSource.size() ||
        error.find('\n') != std::string::npos) {
      __builtin_trap();
    }
    return;
  }
  const std::vector<std::uint8_t> written = read.value().encode();
  const auto again = stagger::sim::DeathClipLibrary::parse(
      std::string_view(reinterpret_cast<const char*>(written.data()), written.size()), kSource);
  if (!again || !(again.value() == read.value())) __builtin_trap();
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
