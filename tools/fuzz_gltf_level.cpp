// libFuzzer target for the glTF level reader: any byte string, as a .gltf or (when it starts with
// the GLB magic "glTF") as a .glb, must give a level or positioned diagnostics, never a crash, a
// hang or a sanitizer report. No base folder is given, so no external buffer or image is read
// from this machine. Build with the `fuzz` preset (clang) and run, for example,
//   ./build/fuzz/tools/fuzz_gltf_level -max_total_time=600 -max_len=65536 -timeout=10 \
//       -rss_limit_mb=2048 build/fuzz/corpus_gltf tests/data/fuzz_gltf
// New inputs that matter go into tests/data/fuzz_gltf, which tests/fuzz_corpus_test.cpp replays.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "stagger/levels/load.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const bool binary = bytes.substr(0, 4) == "glTF";
  const stagger::levels::LoadResult result =
      stagger::levels::parse_gltf_level(bytes, binary ? "fuzz.glb" : "fuzz.gltf", binary, "");
  for (const auto& d : result.diagnostics) {
    if (d.line < 1 || d.column < 1 || d.message.empty()) __builtin_trap();
    (void)stagger::levels::format(d);
  }
  // A level that loads has its geometry: one mesh, with triangles.
  if (result.ok() && (result.level.meshes.size() != 1 || result.mesh_triangles.size() != 1 ||
                      result.mesh_triangles[0].indices.empty())) {
    __builtin_trap();
  }
  return 0;
}
