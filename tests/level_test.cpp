// Level files: the sample levels load; every broken file in tests/data/levels gives its exact
// diagnostic (file, line, column, message); a level survives save and load unchanged.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "stagger/levels/load.h"
#include "stagger/levels/preview.h"
#include "stagger/sim/scene.h"

namespace stagger::levels {
namespace {

const std::string kBroken = STAGGER_TEST_DATA "/levels/";
const std::string kSamples = STAGGER_SOURCE_DIR "/levels/data/";

std::vector<std::string> formatted(const LoadResult& r) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diagnostics) out.push_back(format(d));
  return out;
}

struct Broken {
  const char* file;
  const char* diagnostic;  // after "FILE:"
};

class BrokenLevel : public ::testing::TestWithParam<Broken> {};

TEST_P(BrokenLevel, GivesExactlyItsDiagnostic) {
  const std::string path = kBroken + GetParam().file;
  const LoadResult r = load_level(path);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(formatted(r), std::vector<std::string>{path + ":" + GetParam().diagnostic});
}

INSTANTIATE_TEST_SUITE_P(
    Files, BrokenLevel,
    ::testing::Values(
        Broken{"bad_geometry_type.json",
               "4:27: error: geometry `type` must be \"box\" or \"mesh\", got \"bx\" (did you mean "
               "\"box\"?)"},
        Broken{"bad_mode.json", "6:41: error: `mode` must be \"loop\" or \"ping-pong\""},
        Broken{"duplicate_enemy.json",
               "8:26: error: duplicate enemy name `guard` (first used at line 7, column 26)"},
        Broken{"duplicate_route.json",
               "7:25: error: duplicate route name `yard` (first used at line 6, column 25)"},
        Broken{"empty_geometry.json",
               "4:15: error: `geometry` must hold at least one walkable surface"},
        Broken{"fractional_hit_points.json",
               "5:52: error: `hit_points` must be a whole number from 0 to 1000"},
        Broken{"enemy_too_tall.json", "7:70: error: `height_m` must be between 1 and 2.5 m, got 4"},
        Broken{"missing_format.json", "1:1: error: missing `format` in the level"},
        Broken{
            "missing_mesh_file.json",
            "5:61: error: mesh file `meshes/nowhere.gltf` not found (looked in " STAGGER_TEST_DATA
            "/levels/meshes/nowhere.gltf)"},
        Broken{"missing_player.json", "1:1: error: missing `player` in the level"},
        Broken{"missing_route.json",
               "7:67: error: route `yrd` does not exist (did you mean `yard`?)"},
        Broken{"negative_wait.json", "6:80: error: `wait_s` must be between 0 and 3600 s, got -2"},
        Broken{"number_too_large.json",
               "5:34: error: not valid JSON: a number too large for a double (not finite)"},
        Broken{"player_not_object.json", "5:13: error: `player` must be a JSON object"},
        Broken{"route_without_points.json", "6:59: error: route `yard` has no points"},
        Broken{"short_vector.json", "7:47: error: `position` must be an array of three numbers"},
        Broken{"syntax_error.json",
               "5:37: error: not valid JSON: Missing a comma or '}' after an object member."},
        Broken{"unknown_key.json",
               "4:51: error: unknown key `centre` in box `floor` (did you mean `center`?)"},
        Broken{"unknown_top_key.json",
               "6:3: error: unknown key `enemys` in the level (did you mean `enemies`?)"},
        Broken{"wrong_format.json", "2:13: error: `format` must be \"stagger-level\""},
        Broken{"wrong_type_size.json", "4:83: error: `size` must be an array of three numbers"},
        Broken{"wrong_version.json",
               "3:14: error: version 2 is not supported (this build reads version 1)"},
        Broken{"zero_size_box.json",
               "4:83: error: box `floor` has a zero or negative size; every side must be > 0 m"}),
    [](const auto& p) { return std::filesystem::path(p.param.file).stem().string(); });

TEST(Level, EveryBrokenFileIsCovered) {
  // Each file under tests/data/levels is either in the table above or the three-problem file.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kBroken))
    files += entry.path().extension() == ".json";
  EXPECT_EQ(files, 24);
}

TEST(Level, AFileWithThreeProblemsReportsAllThree) {
  const std::string path = kBroken + "three_problems.json";
  EXPECT_EQ(
      formatted(load_level(path)),
      (std::vector<std::string>{
          path + ":4:51: error: unknown key `centre` in box `floor` (did you mean `center`?)",
          path + ":4:83: error: box `floor` has a zero or negative size; every side must be > 0 m",
          path + ":7:67: error: route `hall` does not exist"}));
}

TEST(Level, MissingFileIsOneClearDiagnostic) {
  const LoadResult r = load_level(kBroken + "no-such-level.json");
  EXPECT_EQ(formatted(r),
            std::vector<std::string>{kBroken +
                                     "no-such-level.json:1:1: error: cannot open the level file"});
}

TEST(Level, SampleLevelsLoadAndBecomeScenes) {
  for (const char* name : {"courtyard.json", "corridor.json", "arena.json"}) {
    const LoadResult r = load_level(kSamples + name);
    ASSERT_TRUE(r.ok()) << name << ": " << (r.diagnostics.empty() ? "" : format(r.diagnostics[0]));
    const sim::SceneDescription scene = sim::scene_from_level(r.level, r.mesh_triangles);
    EXPECT_EQ(scene.boxes.size(), r.level.boxes.size());
    EXPECT_EQ(scene.meshes.size(), r.level.meshes.size());
    EXPECT_EQ(scene.enemies.size(), r.level.enemies.size());
    EXPECT_FALSE(r.level.routes.empty());
  }
}

TEST(Level, LoadSaveLoadGivesAnEqualLevel) {
  for (const char* name : {"courtyard.json", "corridor.json", "arena.json"}) {
    const LoadResult first = load_level(kSamples + name);
    ASSERT_TRUE(first.ok());
    const std::string saved = save_level(first.level);
    const LoadResult second = parse_level(saved, "saved.json", kSamples);
    ASSERT_TRUE(second.ok()) << saved;
    EXPECT_EQ(second.level, first.level) << name;
    EXPECT_EQ(save_level(second.level), saved);
  }
}

TEST(Level, ArenaMeshIsReadFromItsGltfFile) {
  const LoadResult r = load_level(kSamples + "arena.json");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.mesh_triangles.size(), 1u);
  EXPECT_EQ(r.mesh_triangles[0].triangle_count(), 10u);
  // Placed at (-10, 0, -14): the platform top is 1 m up at z = -8 .. -4.
  float top = -1e9f;
  for (Vec3 v : r.mesh_triangles[0].vertices) top = std::max(top, v.y);
  EXPECT_FLOAT_EQ(top, 1.0f);
}

TEST(Level, ABrokenMeshFileIsADiagnosticAtItsName) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/broken.gltf") << "{ \"asset\": { \"version\": \"2.0\" }, \"meshes\": [ ";
  const LoadResult r = parse_level(R"({ "format": "stagger-level", "version": 1,
  "geometry": [ { "type": "mesh", "file": "broken.gltf" } ],
  "player": { "position": [0, 0, 3] } })",
                                   "m.json", dir);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].line, 2);
  EXPECT_EQ(r.diagnostics[0].column, 43);
  EXPECT_NE(r.diagnostics[0].message.find("broken.gltf: not a readable glTF file"),
            std::string::npos)
      << r.diagnostics[0].message;
}

TEST(Level, FuzzCorpusReplaysCleanly) {
  // Inputs kept from fuzzing (tools/fuzz_level.cpp): each loads or gives positioned diagnostics,
  // and what loads survives a save and load.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(STAGGER_TEST_DATA "/fuzz_corpus")) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text_stream;
    text_stream << in.rdbuf();
    const std::string text = text_stream.str();
    const LoadResult r = parse_level(text, entry.path().filename().string(), "");
    for (const Diagnostic& d : r.diagnostics) {
      EXPECT_GE(d.line, 1) << entry.path();
      EXPECT_GE(d.column, 1) << entry.path();
    }
    if (r.ok()) {
      EXPECT_EQ(parse_level(save_level(r.level), "saved.json", "").level, r.level) << entry.path();
    }
    ++files;
  }
  EXPECT_GE(files, 8);
}

TEST(Preview, DrawsTheLevelWithThePlayerWhereItStands) {
  const LoadResult r = load_level(kSamples + "courtyard.json");
  ASSERT_TRUE(r.ok());
  PreviewSettings settings;
  settings.size_px = 800;
  const PreviewImage image = render_preview(r.level, r.mesh_triangles, settings);
  ASSERT_EQ(image.width, 800);
  ASSERT_EQ(image.height, 600);
  const auto pixel = [&](int x, int y) {
    const std::size_t i = (static_cast<std::size_t>(y) * 800 + static_cast<std::size_t>(x)) * 3;
    return std::array<int, 3>{image.rgb[i], image.rgb[i + 1], image.rgb[i + 2]};
  };
  EXPECT_EQ(pixel(image.player_px[0], image.player_px[1]),
            (std::array<int, 3>{80, 240, 120}));                 // player green
  EXPECT_EQ(pixel(790, 500), (std::array<int, 3>{28, 30, 36}));  // background beside the legend
  // The yard floor is drawn at the map's middle (the low end of the height shade: slate).
  EXPECT_EQ(pixel(300, 150), (std::array<int, 3>{70, 80, 95}));

  const std::string path = ::testing::TempDir() + "/courtyard.png";
  ASSERT_TRUE(write_preview_png(r.level, r.mesh_triangles, path, settings).ok());
  std::ifstream png(path, std::ios::binary);
  char signature[8] = {};
  png.read(signature, 8);
  EXPECT_EQ(std::string(signature, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(GltfLevel, EmptiesBecomeThePlayerEnemiesAndRoutes) {
  const LoadResult r = load_level(kSamples + "gltf_yard.gltf");
  ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : format(r.diagnostics[0]));
  EXPECT_EQ(r.level.name, "gltf_yard");
  ASSERT_EQ(r.mesh_triangles.size(), 1u);
  EXPECT_EQ(r.mesh_triangles[0].triangle_count(), 36u);  // floor, wall and block: 12 each
  EXPECT_EQ(r.level.player.position, (Vec3{0, 0, 6}));
  EXPECT_NEAR(r.level.player.yaw_deg, 180.0f, 1e-3f);
  ASSERT_EQ(r.level.enemies.size(), 2u);
  EXPECT_EQ(r.level.enemies[0].name, "scout");
  EXPECT_EQ(r.level.enemies[0].route, "lap");
  EXPECT_NEAR(r.level.enemies[0].yaw_deg, 90.0f, 1e-3f);
  EXPECT_EQ(r.level.enemies[1].height_m, 1.7f);
  ASSERT_EQ(r.level.routes.size(), 1u);
  const Route& lap = r.level.routes[0];
  EXPECT_EQ(lap.mode, RouteMode::ping_pong);
  ASSERT_EQ(lap.points.size(), 3u);
  EXPECT_EQ(lap.points[0].position, (Vec3{-5, 0, -3}));
  EXPECT_EQ(lap.points[2].wait_s, 2.0f);
  // Saved as a JSON level, it names the glTF for its geometry and loads the same.
  const LoadResult again = parse_level(save_level(r.level), "saved.json", kSamples);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.level, r.level);
  EXPECT_EQ(again.mesh_triangles[0].vertices, r.mesh_triangles[0].vertices);
}

TEST(GltfLevel, AMisspeltCustomPropertyIsReportedAtItsNode) {
  std::ifstream in(kSamples + "gltf_yard.gltf");
  std::ostringstream text;
  text << in.rdbuf();
  const std::string original = text.str();
  const auto at = original.find("\"stagger_index\": 1");
  ASSERT_NE(at, std::string::npos);
  const std::string gltf = original.substr(0, at) + "\"stagger_indx\"" + original.substr(at + 15);
  const std::string path = ::testing::TempDir() + "/misspelt.gltf";
  std::ofstream(path) << gltf;
  const LoadResult r = load_level(path);
  ASSERT_EQ(r.diagnostics.size(), 2u);
  // Both at the node `Lap.1` (its object's opening brace in the JSON).
  const std::size_t node_at = gltf.rfind("{", gltf.find("\"name\": \"Lap.1\""));
  const int line =
      static_cast<int>(std::count(gltf.begin(), gltf.begin() + static_cast<long>(node_at), '\n')) +
      1;
  EXPECT_EQ(r.diagnostics[0].line, line);
  std::ostringstream expected;
  expected << path << ":" << line << ":" << r.diagnostics[0].column
           << ": error: node `Lap.1`: unknown custom property `stagger_indx` (did you mean "
              "`stagger_index`?)";
  EXPECT_EQ(format(r.diagnostics[0]), expected.str());
  EXPECT_NE(r.diagnostics[1].message.find("a route point needs stagger_index"), std::string::npos);
}

TEST(Level, DefaultsFillWhatALevelLeavesOut) {
  const LoadResult r = parse_level(R"({ "format": "stagger-level", "version": 1,
      "geometry": [ { "type": "box", "center": [0, -0.5, 0], "size": [10, 1, 10] } ],
      "player": { "position": [0, 0, 3] } })",
                                   "min.json", "");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.level.navigation, NavigationSettings{});
  EXPECT_TRUE(r.level.enemies.empty());
  EXPECT_EQ(r.level.boxes[0].friction, 0.9f);
  EXPECT_EQ(r.level.player.yaw_deg, 0.0f);
}

}  // namespace
}  // namespace stagger::levels
