// libFuzzer target for the level loader: any byte string must give a level or diagnostics, never a
// crash, a hang or a sanitizer report. Build with the `fuzz` preset (clang) and run, for example,
//   ./build/fuzz/tools/fuzz_level -max_total_time=600 build/fuzz/corpus tests/data/fuzz_corpus
// New inputs that matter go into tests/data/fuzz_corpus, which the test suite replays.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "stagger/levels/load.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const stagger::levels::LoadResult result = stagger::levels::parse_level(text, "fuzz.json", "");
  // Every diagnostic must be printable and point inside the text.
  for (const auto& d : result.diagnostics) {
    if (d.line < 1 || d.column < 1) __builtin_trap();
    (void)stagger::levels::format(d);
  }
  // A level that loads must survive a save and load unchanged.
  if (result.ok()) {
    const auto again =
        stagger::levels::parse_level(stagger::levels::save_level(result.level), "saved.json", "");
    if (!again.ok() || !(again.level == result.level)) __builtin_trap();
  }
  return 0;
}
