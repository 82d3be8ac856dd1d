// libFuzzer target for the input-script reader: any byte string must give a script or an error,
// never a crash, a hang or a sanitizer report, and no line of an error may be longer than a
// person can read (a quoted value is cut, however long it is in the file). Build with the `fuzz`
// preset (clang) and run, for example,
//   ./build/fuzz/tools/fuzz_input_script -max_total_time=600 -max_len=65536 -timeout=10 \
//       -rss_limit_mb=2048 build/fuzz/corpus_scripts tests/data/fuzz_scripts
// New inputs that matter go into tests/data/fuzz_scripts, which tests/fuzz_corpus_test.cpp replays.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "stagger/sim/input_script.h"

namespace {

constexpr std::size_t kMaxErrorLineBytes =
    2000;  // a file position, an event's label and a cut quote

bool lines_are_short(std::string_view text) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    if (std::min(end, text.size()) > kMaxErrorLineBytes) return false;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto script = stagger::sim::parse_input_script(text, "fuzz.json");
  if (!script && (script.error().empty() || !lines_are_short(script.error()))) __builtin_trap();
  return 0;
}
