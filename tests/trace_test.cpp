// `stagger sim --trace` and `--plot`: the CSV's rows and columns, and the picture's
// bands and push markers where the run put them.

#include "stagger/output/trace.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "process.h"
#include "scenario.h"
#include "stagger/output/plot.h"

namespace stagger {
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

TEST(Trace, OneRowPerEnemyPerStepWithTheBalanceOfThatStep) {
  sim::Simulation s(sim::builtin_scene(2),
                    test::push_script("dummy", physics::BodyPart::chest, {25, 0, 0}, 0.5));
  std::ostringstream csv;
  output::TraceWriter trace(csv);
  s.on_step([&trace](const sim::Simulation& sim) { trace.write(sim); });
  test::run_steps(s, 480);
  std::istringstream lines(csv.str());
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "# stagger trace format 1");
  std::getline(lines, line);
  EXPECT_EQ(line,
            "time_s,enemy,state,brain,com_x_m,com_y_m,com_z_m,support_x_m,support_y_m,support_z_m,"
            "balance_error_m,pelvis_height_m,agent_x_m,agent_y_m,agent_z_m,fall_cause,"
            "balance_com_x_m,balance_com_y_m,balance_com_z_m");
  int rows = 0;
  bool stepped = false;
  float largest_error = 0;
  float largest_com_jump = 0;
  Vec3 last_com;
  while (std::getline(lines, line)) {
    const auto f = split(line);
    ASSERT_EQ(f.size(), 19u) << line;
    EXPECT_NEAR(std::stod(f[0]), (rows / 2 + 1) / 240.0, 1e-6);
    EXPECT_EQ(f[1], rows % 2 == 0 ? "dummy" : "dummy-2");
    EXPECT_TRUE(f[3].empty()) << "no mind in the built-in scene";
    EXPECT_TRUE(f[12].empty() && f[13].empty() && f[14].empty()) << "and no agent";
    EXPECT_TRUE(f[15].empty()) << "a 25 N·s push fells no one";
    if (f[1] == "dummy") {
      // The whole body's centre of mass moves smoothly through the steps (a point that left out
      // the swing leg jumped 11 cm when a step began or ended).
      const Vec3 com{std::stof(f[4]), std::stof(f[5]), std::stof(f[6])};
      if (rows > 0) largest_com_jump = std::max(largest_com_jump, length(com - last_com));
      last_com = com;
      stepped = stepped || f[2] == "stepping";
      largest_error = std::max(largest_error, std::stof(f[10]));
    }
    ++rows;
  }
  EXPECT_EQ(rows, 960);
  EXPECT_TRUE(stepped) << "the 25 N·s push made it step";
  EXPECT_LT(largest_com_jump, 0.01f) << "[m] in one 1/240 s step";
  EXPECT_NEAR(largest_error, s.result().enemies[0].max_balance_error_m, 1e-4f);
}

TEST(Plot, BandsAndPushMarksWhereTheRunPutThem) {
  const sim::InputScript script =
      test::push_script("dummy", physics::BodyPart::chest, {25, 0, 0}, 1.0);
  sim::Simulation s(sim::builtin_scene(1), script);
  output::TracePlot plot(script.pushes);
  double first_step_s = -1;
  s.on_step([&](const sim::Simulation& sim) {
    plot.record(sim);
    if (first_step_s < 0 &&
        sim.scene().enemies()[0].ragdoll->state() == physics::LocomotionState::stepping) {
      first_step_s = sim.scene().world().time();
    }
  });
  test::run_steps(s, 3 * 240);
  ASSERT_GT(first_step_s, 1.0);
  const image::Canvas picture = plot.render(1200);
  EXPECT_EQ(picture.width(), 1200);
  EXPECT_EQ(picture.height(), 60 + 240);
  const auto colour_at = [&](double t, int y) {
    const image::Colour c = picture.at(static_cast<int>(output::TracePlot::x_of(t, 3.0, 1200)), y);
    return std::array<int, 3>{c.r, c.g, c.b};
  };
  const image::Colour push{130, 40, 160};
  EXPECT_EQ(colour_at(1.0, 150), (std::array<int, 3>{push.r, push.g, push.b})) << "the push's line";
  const image::Colour stepping = output::state_colour(physics::LocomotionState::stepping);
  EXPECT_EQ(colour_at(first_step_s + 0.05, 200),
            (std::array<int, 3>{stepping.r, stepping.g, stepping.b}))
      << "the stepping band";
  const image::Colour standing = output::state_colour(physics::LocomotionState::standing);
  EXPECT_EQ(colour_at(0.5, 200), (std::array<int, 3>{standing.r, standing.g, standing.b}));
}

TEST(Cli, SimWritesTraceAndPlotFiles) {
  const auto script = test::temp_path("trace_push.json");
  std::ofstream(script)
      << R"({ "events": [ { "t": 0.5, "type": "push", "enemy": "dummy", "body": "chest", "impulse": [25, 0, 0] } ] })";
  const auto csv = test::temp_path("trace.csv");
  const auto png = test::temp_path("trace.png");
  const auto r =
      test::run_stagger("sim --seconds 2 --quiet --input \"" + script.string() + "\" --trace \"" +
                        csv.string() + "\" --plot \"" + png.string() + "\"");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(csv);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, 2 + 480) << "the version line, the header and a row per step";
  EXPECT_GT(std::filesystem::file_size(png), 1000u);
  const auto bad = test::run_stagger("sim --seconds 1 --trace /nonexistent/dir/trace.csv");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("cannot write the trace to /nonexistent/dir/trace.csv"), std::string::npos)
      << bad.err;
}

}  // namespace
}  // namespace stagger
