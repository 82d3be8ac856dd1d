// The fuzzers' seed corpora (tools/fuzz_*.cpp), replayed through the same entry points in the
// normal build: every file gives a value or a non-empty error, never a crash. Files named bad_*
// are refused; the known-good seeds load.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>

#include "stagger/levels/load.h"
#include "stagger/sim/death_clips.h"
#include "stagger/sim/input_script.h"
#include "stagger/sim/recording.h"

namespace stagger {
namespace {

constexpr std::size_t kMaxErrorLineBytes = 2000;  // as tools/fuzz_input_script.cpp allows

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

struct Outcome {
  bool ok = false;
  std::string error;  ///< empty when ok
};

bool refused_as_bad(const std::string& name) {
  return name.rfind("bad_", 0) == 0;
}

// Every file of the corpus through `read`; returns how many there were.
int replay(const std::string& corpus, const std::set<std::string>& must_load,
           const std::function<Outcome(const std::string& bytes, const std::string& name)>& read) {
  int files = 0;
  std::set<std::string> loaded;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(STAGGER_TEST_DATA) + "/" + corpus)) {
    const std::string name = entry.path().filename().string();
    const Outcome outcome = read(read_all(entry.path()), name);
    EXPECT_TRUE(outcome.ok || !outcome.error.empty())
        << corpus << "/" << name << ": an error without a message";
    if (refused_as_bad(name)) {
      EXPECT_FALSE(outcome.ok) << corpus << "/" << name << " was accepted";
    }
    if (outcome.ok) loaded.insert(name);
    ++files;
  }
  for (const std::string& name : must_load)
    EXPECT_TRUE(loaded.count(name)) << corpus << "/" << name << " did not load";
  return files;
}

bool lines_are_short(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.size() > kMaxErrorLineBytes) return false;
  }
  return true;
}

TEST(FuzzCorpus, InputScriptsGiveAScriptOrShortErrorLines) {
  const int files =
      replay("fuzz_scripts", {"hand_shove.json", "push_recovery.json", "golden_pushes.json"},
             [](const std::string& bytes, const std::string& name) {
               const auto script = sim::parse_input_script(bytes, name);
               if (script) return Outcome{true, {}};
               EXPECT_TRUE(lines_are_short(script.error())) << name;
               return Outcome{false, script.error()};
             });
  EXPECT_GE(files, 10);
}

TEST(FuzzCorpus, GltfLevelsGiveALevelOrPositionedDiagnostics) {
  const int files = replay("fuzz_gltf", {"gltf_yard.gltf", "gltf_yard.glb"},
                           [](const std::string& bytes, const std::string& name) {
                             const bool binary = bytes.rfind("glTF", 0) == 0;
                             const levels::LoadResult r =
                                 levels::parse_gltf_level(bytes, name, binary, "");
                             std::string error;
                             for (const levels::Diagnostic& d : r.diagnostics) {
                               EXPECT_GE(d.line, 1) << name;
                               EXPECT_GE(d.column, 1) << name;
                               if (d.error && error.empty()) error = levels::format(d);
                             }
                             if (r.ok()) {
                               EXPECT_EQ(r.mesh_triangles.size(), 1u) << name;
                             }
                             return Outcome{r.ok(), error};
                           });
  EXPECT_GE(files, 5);
}

TEST(FuzzCorpus, GltfLevelsFromBytesOpenNoExternalFile) {
  for (const char* name : {"external_absolute_uri.gltf", "external_relative_uri.gltf"}) {
    const std::string bytes = read_all(std::string(STAGGER_TEST_DATA) + "/fuzz_gltf/" + name);
    const levels::LoadResult r = levels::parse_gltf_level(bytes, name, false, "");
    ASSERT_FALSE(r.diagnostics.empty()) << name;
    EXPECT_NE(r.diagnostics[0].message.find("not a readable glTF file"), std::string::npos)
        << r.diagnostics[0].message;
  }
}

TEST(FuzzCorpus, RecordingsGiveARecordingOrOneSentence) {
  const int files = replay(
      "fuzz_recordings",
      {"v1_builtin.stagrec", "v1_script.stagrec", "v2_builtin.stagrec", "v2_corridor.stagrec",
       "v2_golden_pushes.stagrec", "v2_interrupted.stagrec", "v4_corridor_clips.stagrec"},
      [](const std::string& bytes, const std::string& name) {
        const auto r = sim::parse_recording(bytes, name);
        if (r) return Outcome{true, {}};
        EXPECT_EQ(r.error().rfind(name + ": ", 0), 0u) << r.error();
        EXPECT_EQ(r.error().find('\n'), std::string::npos) << r.error();
        return Outcome{false, r.error()};
      });
  EXPECT_GE(files, 8);
}

TEST(FuzzCorpus, ClipLibrariesGiveALibraryOrOneSentence) {
  const int files = replay("fuzz_clips", {"corridor_2.stclip"},
                           [](const std::string& bytes, const std::string& name) {
                             const auto r = sim::DeathClipLibrary::parse(bytes, name);
                             if (r) return Outcome{true, {}};
                             EXPECT_EQ(r.error().rfind(name + ": ", 0), 0u) << r.error();
                             EXPECT_EQ(r.error().find('\n'), std::string::npos) << r.error();
                             return Outcome{false, r.error()};
                           });
  EXPECT_GE(files, 12);
}

}  // namespace
}  // namespace stagger
