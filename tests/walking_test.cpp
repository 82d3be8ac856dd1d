// Acceptance: walking. 1.2 m/s straight for 20 m, 90° and 180° turns, a 10° ramp up and down and
// a 5 cm step up and down, without falling; planted feet that stay where they landed.

#include <gtest/gtest.h>

#include <cmath>

#include "scenario.h"
#include "stagger/levels/load.h"

namespace stagger {
namespace {

using physics::LocomotionState;

constexpr float kSpeed = 1.2f;  // [m/s]
constexpr double kSpeedD = 1.2;

struct Walker {
  explicit Walker(const sim::SceneDescription& scene, sim::InputScript script)
      : s(scene, std::move(script)), r(*s.scene().enemies()[0].ragdoll) {}
  Vec3 com() const { return r.balance().com; }
  double time() const { return s.scene().world().time(); }
  int falls() const { return s.result().enemies[0].falls; }
  sim::Simulation s;
  const physics::Ragdoll& r;
};

sim::InputScript walk_script(Vec3 velocity) {
  sim::InputScript script;
  script.walks.push_back(test::walk_event("dummy", velocity, 0.0));
  return script;
}

TEST(Walking, StraightTwentyMetresStaysOnTheLineAtTheCommandedSpeed) {
  Walker w(sim::builtin_scene(1), walk_script({0, 0, kSpeed}));
  double started = -1;
  double arrived = -1;
  float off_line = 0;
  while (arrived < 0 && w.time() < 40.0) {
    w.s.step();
    const Vec3 c = w.com();
    if (started < 0 && c.z >= 0.5f) started = w.time();
    if (started >= 0 && c.z >= 20.5f) arrived = w.time();
    off_line = std::max(off_line, std::fabs(c.x));
  }
  ASSERT_GE(arrived, 0.0) << "did not get 20 m along the line; stopped at z = " << w.com().z;
  const double speed = 20.0 / (arrived - started);
  EXPECT_NEAR(speed, kSpeedD, 0.15 * kSpeedD);
  EXPECT_LT(off_line, 0.5f);
  EXPECT_EQ(w.falls(), 0);
  RecordProperty("average_speed_mps", std::to_string(speed));
  RecordProperty("max_off_line_m", std::to_string(off_line));
}

// A planted foot stays where it landed: the largest slide of a stance foot in 12 s of walking
// straight at 1.2 m/s, in four headings. The aim of 0.02 m is not reached (0.029-0.032 m here: a
// landing heel bounces and the foot comes down 2-3 cm on); this guards the stance leg that holds
// the body rather than lifting its foot, without which the vault over each stance foot dragged it
// back (0.076-0.109 m).
class StraightWalk : public ::testing::TestWithParam<int> {};

TEST_P(StraightWalk, KeepsEachPlantedFootWithinFourCentimetres) {
  const float heading = deg_to_rad(static_cast<float>(GetParam()));
  Walker w(sim::builtin_scene(1),
           walk_script({std::sin(heading) * kSpeed, 0, std::cos(heading) * kSpeed}));
  test::run_steps(w.s, 12 * 240);
  EXPECT_EQ(w.falls(), 0);
  const float slip = w.s.result().enemies[0].max_foot_slip_m;
  EXPECT_LT(slip, 0.04f);
  RecordProperty("max_foot_slip_m", std::to_string(slip));
}

INSTANTIATE_TEST_SUITE_P(Headings, StraightWalk, ::testing::Values(0, 90, 180, 270),
                         [](const auto& p) { return "heading" + std::to_string(p.param); });

class Turn : public ::testing::TestWithParam<int> {};

TEST_P(Turn, WhileWalkingWithoutFalling) {
  // Walk along +Z, then turn by the parameter (degrees) and keep walking.
  const float turn = deg_to_rad(static_cast<float>(GetParam()));
  const Vec3 after{std::sin(turn) * kSpeed, 0, std::cos(turn) * kSpeed};
  sim::InputScript script = walk_script({0, 0, kSpeed});
  script.walks.push_back(test::walk_event("dummy", after, 4.0));
  Walker w(sim::builtin_scene(1), script);
  test::run_steps(w.s, 4 * 240);
  const Vec3 at_turn = w.com();
  test::run_steps(w.s, 6 * 240);
  EXPECT_EQ(w.falls(), 0);
  const Vec3 heading = w.r.balance().forward;
  EXPECT_GT(dot(heading, normalized(after)), std::cos(deg_to_rad(20.0f)))
      << "not facing the new way";
  EXPECT_GT(dot(w.com() - at_turn, normalized(after)), 2.0f) << "did not walk on the new way";
}

INSTANTIATE_TEST_SUITE_P(Angles, Turn, ::testing::Values(90, -90, 180, -180), [](const auto& p) {
  return (p.param < 0 ? "right" : "left") + std::to_string(std::abs(p.param));
});

// A 10° ramp rising along +Z from z = 2 over 6 m, then a plateau.
constexpr float kRampDeg = 10.0f;
constexpr float kRampLength = 6.0f;

sim::SceneDescription ramp_scene() {
  sim::SceneDescription scene = sim::builtin_scene(1);
  const float a = deg_to_rad(kRampDeg);
  const float top = kRampLength * std::sin(a);
  const float run = kRampLength * std::cos(a);
  scene.boxes.push_back({{0, 0.5f * top - 0.05f * std::cos(a), 2.0f + 0.5f * run},
                         {1.5f, 0.05f, 0.5f * kRampLength},
                         Quat::from_axis_angle({1, 0, 0}, -a),
                         0.9f});
  scene.boxes.push_back({{0, top - 0.5f, 2.0f + run + 5.0f}, {1.5f, 0.5f, 5.0f}, {}, 0.9f});
  return scene;
}

TEST(Walking, UpATenDegreeRamp) {
  const float top = kRampLength * std::sin(deg_to_rad(kRampDeg));
  Walker w(ramp_scene(), walk_script({0, 0, kSpeed}));
  while (w.com().z < 2.0f + kRampLength + 1.0f && w.time() < 20.0) w.s.step();
  EXPECT_EQ(w.falls(), 0);
  EXPECT_GT(w.com().z, 2.0f + kRampLength + 1.0f) << "did not reach the top";
  EXPECT_GT(w.com().y, top + 0.5f);
}

TEST(Walking, DownATenDegreeRamp) {
  const float a = deg_to_rad(kRampDeg);
  sim::SceneDescription scene = ramp_scene();
  scene.enemies[0].position = {0, kRampLength * std::sin(a),
                               2.0f + kRampLength * std::cos(a) + 2.5f};
  scene.enemies[0].yaw_deg = 180.0f;
  Walker w(scene, walk_script({0, 0, -kSpeed}));
  while (w.com().z > 0.0f && w.time() < 20.0) w.s.step();
  EXPECT_EQ(w.falls(), 0);
  EXPECT_LT(w.com().z, 0.0f) << "did not reach the bottom";
  EXPECT_LT(w.com().y, 1.1f);
}

// A 12° slope rising along +X (as the hillside trial's), its surface through the origin.
constexpr float kHillDeg = 12.0f;

sim::SceneDescription hill_scene() {
  sim::SceneDescription scene = sim::builtin_scene(1);
  const float a = deg_to_rad(kHillDeg);
  scene.boxes.push_back({{0.05f * std::sin(a), -0.05f * std::cos(a), 0},
                         {8.0f, 0.05f, 8.0f},
                         Quat::from_axis_angle({0, 0, 1}, a),
                         0.9f});
  constexpr float kUpSlopeM = 3.0f;  // [m] the spawn, clear of the flat ground's crease
  scene.enemies[0].position = {kUpSlopeM, kUpSlopeM * std::tan(a), 0};
  scene.enemies[0].yaw_deg = 0;  // along the slope's contour
  return scene;
}

// [m] the lowest corner of a foot's box above the hill's surface (which rises along +X).
float foot_above_hill(const physics::Ragdoll& r, physics::BodyPart foot) {
  const physics::BodyState s = r.body_state(foot);
  const Vec3 h = r.blueprint().bodies[physics::slot(foot)].half_extents;
  float lowest = 1e9f;
  for (int c = 0; c < 8; ++c) {
    const Vec3 corner = s.position + s.rotation.rotate({c & 1 ? h.x : -h.x, c & 2 ? h.y : -h.y,
                                                        c & 4 ? h.z : -h.z});
    lowest = std::min(lowest, corner.y - corner.x * std::tan(deg_to_rad(kHillDeg)));
  }
  return lowest;
}

// A spawn point on a slope is on the ground, but level soles there would reach into the slope
// on their uphill side: the body is built, and teleported, with its soles clear of it.
TEST(Walking, ABodyOnASlopeIsBuiltAndTeleportedWithItsSolesClearOfTheGround) {
  constexpr float kToleranceM = 0.001f;
  Walker w(hill_scene(), {});
  for (const physics::BodyPart foot : {physics::BodyPart::foot_l, physics::BodyPart::foot_r})
    EXPECT_GE(foot_above_hill(w.r, foot), -kToleranceM);
  const float a = deg_to_rad(kHillDeg);
  ASSERT_TRUE(w.s.teleport_enemy(sim::EnemyId{0}, {4.0f, 4.0f * std::tan(a), 2.0f}, 0.0f).ok());
  for (const physics::BodyPart foot : {physics::BodyPart::foot_l, physics::BodyPart::foot_r})
    EXPECT_GE(foot_above_hill(w.r, foot), -kToleranceM);
}

// A body facing along a slope's contour told to turn on the spot almost all the way round, the
// shorter way through facing downhill: it goes round the other way, never facing within 60° of
// downhill on its way round, comes round within 3.5 s (at 90°/s, without stalling), then stays
// within 15° of the facing it was given (a standing body steps to a facing more than 10° off,
// turn_in_place_deg), and does not fall. (Turning through facing downhill, guards on the
// hillside trial slipped and fell at their route points.) Spawns nudged by seeds, as
// `stagger sim --vary` does.
TEST(Walking, TurningOnTheSpotOnASlopeGoesRoundThroughFacingUphill) {
  const float downhill = deg_to_rad(-90.0f);  // the slope rises along +X; yaw 0 faces +Z
  constexpr float kArrivedDeg = 10.0f;        // [deg] the facing is reached
  constexpr float kHeldDeg = 15.0f;           // [deg] off the facing, at most, once reached
  for (const float wanted_deg : {-150.0f, -170.0f}) {
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
      SCOPED_TRACE(testing::Message() << "turn to " << wanted_deg << " deg, seed " << seed);
      sim::InputScript script;
      sim::WalkEvent turn = test::walk_event("dummy", {}, 1.0);
      turn.intent.has_facing = true;
      turn.intent.facing_rad = deg_to_rad(wanted_deg);
      script.walks.push_back(turn);
      Walker w(sim::vary_spawns(hill_scene(), seed), script);
      float nearest_downhill = kPi;
      float most_off_once_round = 0;
      double came_round_s = -1;
      while (w.time() < 7.0) {
        w.s.step();
        const float yaw = yaw_of(w.r.balance().forward);
        const float off = std::fabs(wrap_angle(yaw - deg_to_rad(wanted_deg)));
        if (came_round_s < 0 && off < deg_to_rad(kArrivedDeg)) came_round_s = w.time();
        if (came_round_s < 0) {
          nearest_downhill = std::min(nearest_downhill, std::fabs(wrap_angle(yaw - downhill)));
        } else {
          most_off_once_round = std::max(most_off_once_round, off);
        }
      }
      EXPECT_EQ(w.falls(), 0);
      EXPECT_GT(nearest_downhill, deg_to_rad(60.0f));
      ASSERT_GE(came_round_s, 0.0) << "did not come round";
      EXPECT_LT(came_round_s, 4.5) << "stalled on the way round";
      EXPECT_LT(most_off_once_round, deg_to_rad(kHeldDeg));
    }
  }
}

TEST(Walking, UpAndDownAFiveCentimetreStep) {
  sim::SceneDescription scene = sim::builtin_scene(1);
  scene.boxes.push_back({{0, 0.025f, 5.0f}, {1.5f, 0.025f, 3.0f}, {}, 0.9f});  // z = 2 .. 8
  Walker w(scene, walk_script({0, 0, kSpeed}));
  while (w.com().z < 10.0f && w.time() < 20.0) w.s.step();
  EXPECT_EQ(w.falls(), 0);
  EXPECT_GT(w.com().z, 10.0f) << "did not get over the step";
}

TEST(Walking, UpTheArenasGltfRampOntoItsPlatform) {
  // The arena's mesh: a 1 m rise over 6 m (9.5°) from z = -14, then a platform to z = -4.
  const levels::LoadResult level = levels::load_level(STAGGER_SOURCE_DIR "/levels/data/arena.json");
  ASSERT_TRUE(level.ok());
  sim::SceneDescription scene = sim::scene_from_level(level.level, level.mesh_triangles);
  levels::EnemySpawn dummy;
  dummy.name = "dummy";
  dummy.position = {-10, 0, -17};
  scene.enemies = {dummy};
  Walker w(scene, walk_script({0, 0, 1.0f}));
  while (w.com().z < -6.0f && w.time() < 15.0) w.s.step();
  EXPECT_EQ(w.falls(), 0);
  EXPECT_GT(w.com().z, -6.0f) << "did not reach the platform";
  EXPECT_GT(w.com().y, 1.0f + 0.8f) << "not standing on the platform";
}

// Walks over the arena's stairs (six 0.15 m steps with 0.6 m treads, x 8.5 .. 11.5) from
// `count` spawns nudged by up to 4 cm, and counts the walks with a fall. A single spawn says
// little here: whether a foot lands across an edge is chaotic.
int stair_walks_with_falls(int count, bool down) {
  const levels::LoadResult level = levels::load_level(STAGGER_SOURCE_DIR "/levels/data/arena.json");
  EXPECT_TRUE(level.ok());
  int with_falls = 0;
  for (int i = 0; i < count; ++i) {
    sim::SceneDescription scene = sim::scene_from_level(level.level, level.mesh_triangles);
    levels::EnemySpawn dummy;
    dummy.name = "dummy";
    const auto k = static_cast<float>(i);
    const Vec3 nudge{0.04f * std::sin(1.7f * k), 0, 0.04f * std::cos(2.3f * k)};
    dummy.position = (down ? Vec3{10, 0.9f, -12.5f} : Vec3{10, 0, -3}) + nudge;
    dummy.yaw_deg = down ? 0.0f : 180.0f;
    scene.enemies = {dummy};
    Walker w(scene, walk_script({0, 0, down ? 1.0f : -1.0f}));
    auto across = [&] { return down ? w.com().z > -3.0f : w.com().z < -12.0f; };
    // A flight down is walked at StepSettings::stairs_down_speed (0.35 m/s): about 20 s.
    while (!across() && w.time() < 25.0) w.s.step();
    // (One that fell may still be getting up.)
    EXPECT_TRUE(across() || w.falls() > 0) << "walk " << i << " stalled without falling at "
                                           << w.com().x << " " << w.com().y << " " << w.com().z;
    with_falls += w.falls() > 0 ? 1 : 0;
  }
  return with_falls;
}

TEST(Walking, DownTheArenasStairsAtMostOneWalkInSixFalls) {
  // Measured: 2 of these 32 (3 when flights down were walked at 0.5 m/s; 14 in 200 then); without
  // BalanceSettings::walk_fall_hold_s, 6 (25 in 200); without feet kept clear of edges as well,
  // 45 in 200. A regression guard, not the goal: see docs/physics.md, Stairs.
  const int with_falls = stair_walks_with_falls(32, true);
  RecordProperty("walks_with_falls", with_falls);
  EXPECT_LE(with_falls, 5);
}

TEST(Walking, UpTheArenasStairsAlmostNeverFalls) {
  // Measured: 1 of these 16 (0 before the step-down rules and the slower flights down; 5 in 200
  // then).
  const int with_falls = stair_walks_with_falls(16, false);
  RecordProperty("walks_with_falls", with_falls);
  EXPECT_LE(with_falls, 1);
}

TEST(Walking, StopsWhenToldAndStandsStill) {
  sim::InputScript script = walk_script({0, 0, kSpeed});
  sim::WalkEvent stop = test::walk_event("dummy", {}, 4.0);
  stop.intent.gait = physics::Gait::idle;
  script.walks.push_back(stop);
  Walker w(sim::builtin_scene(1), script);
  test::run_steps(w.s, 9 * 240);
  EXPECT_EQ(w.falls(), 0);
  EXPECT_EQ(w.r.state(), LocomotionState::standing);
  EXPECT_LT(length(horizontal(w.r.balance().com_velocity)), 0.05f);
}

}  // namespace
}  // namespace stagger
