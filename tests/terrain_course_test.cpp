// The terrain course (`stagger bench --terrain`): its geometry, a short flat run, determinism.
// No figure for stairs is asserted here: the course measures the gait, it does not judge it.

#include "stagger/bench/terrain_course.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace stagger {
namespace {

constexpr float kExactM = 1e-5f;  // [m] float rounding of box centres and half extents

bench::TerrainFeature feature_named(const std::string& name) {
  const auto all = bench::terrain_features();
  const auto it =
      std::find_if(all.begin(), all.end(), [&](const auto& f) { return f.name == name; });
  EXPECT_NE(it, all.end()) << name;
  return it == all.end() ? bench::TerrainFeature{} : *it;
}

TEST(TerrainCourse, HasEveryFeatureOfTheCourse) {
  const auto all = bench::terrain_features();
  EXPECT_EQ(all.size(), 6u * 4u + 4u * 3u + 3u * 2u);
  for (const char* name :
       {"stairs 0.17/0.28 up", "stairs 0.17/0.28 up 30deg", "stairs 0.15/0.30 down",
        "stairs 0.15/0.45 down 30deg", "stairs 0.12/0.40 up", "stairs 0.10/0.25 up",
        "stairs 0.20/0.40 down", "ramp 0deg up", "ramp 16deg down", "ramp 12deg across",
        "kerb 0.05 up", "kerb 0.15 down"})
    EXPECT_EQ(feature_named(name).name, name);
}

TEST(TerrainCourse, StairLaneHasTheAskedRiserAndTreadAndADeepLanding) {
  const float lane_x = 12.0f;
  const bench::TerrainLane lane = bench::terrain_lane(feature_named("stairs 0.17/0.28 up"), lane_x);
  ASSERT_GE(lane.risers, 6);
  ASSERT_LE(lane.risers, 8);
  ASSERT_EQ(lane.boxes.size(), static_cast<std::size_t>(lane.risers)) << "the steps and a landing";
  for (std::size_t k = 0; k < lane.boxes.size(); ++k) {
    const auto& b = lane.boxes[k];
    const float top = b.center.y + b.half_extents.y;
    const float front = b.center.z - b.half_extents.z;
    EXPECT_NEAR(top, 0.17f * static_cast<float>(k + 1), kExactM) << "step " << k + 1;
    EXPECT_NEAR(front, 0.28f * static_cast<float>(k), kExactM) << "step " << k + 1;
    EXPECT_LE(b.center.y - b.half_extents.y, 0.0f) << "stands on the ground";
    EXPECT_NEAR(b.center.x, lane_x, kExactM);
    if (k + 1 < lane.boxes.size()) {
      EXPECT_NEAR(2.0f * b.half_extents.z, 0.28f, kExactM);
    }
  }
  EXPECT_GE(2.0f * lane.boxes.back().half_extents.z, 2.0f) << "the landing is at least 2 m deep";
  // Spawned on the ground 2-3 m before the first riser, walking straight up the flight.
  EXPECT_EQ(lane.start.y, 0.0f);
  EXPECT_GE(-lane.start.z, 2.0f);
  EXPECT_LE(-lane.start.z, 3.0f);
  EXPECT_NEAR(lane.direction.z, 1.0f, kExactM);
  EXPECT_GT(lane.distance_m, lane.approach_m + 6 * 0.28f) << "the finish is past the top riser";
}

TEST(TerrainCourse, ALongerApproachStartsFartherAwayOnGroundDeepEnoughForIt) {
  // Up: on the ground that far before the first riser. Down: on a landing deep enough to stand
  // that far from its edge with ground to spare behind the spawn.
  const float approach = 6.0f;
  const bench::TerrainLane up =
      bench::terrain_lane(feature_named("stairs 0.17/0.28 up"), 0.0f, approach);
  EXPECT_NEAR(-up.start.z, approach, kExactM);
  EXPECT_NEAR(up.approach_m, approach, kExactM);
  const bench::TerrainLane down =
      bench::terrain_lane(feature_named("stairs 0.17/0.28 down"), 0.0f, approach);
  const auto& landing = down.boxes.back();
  const float landing_back = landing.center.z + landing.half_extents.z;
  const float edge = landing.center.z - landing.half_extents.z;
  EXPECT_NEAR(down.start.z - edge, approach, kExactM);
  EXPECT_GE(landing_back - down.start.z, 1.0f) << "ground behind the spawn";
  EXPECT_NEAR(down.start.y, landing.center.y + landing.half_extents.y, kExactM);
  const bench::TerrainLane kerb = bench::terrain_lane(feature_named("kerb 0.15 down"), 0.0f, 0.5f);
  EXPECT_NEAR(kerb.start.z, 0.5f, kExactM);
  EXPECT_GT(kerb.distance_m, 0.5f) << "the finish is past the kerb";
}

TEST(TerrainCourse, ObliqueStairWalkIsThirtyDegreesOffTheNosings) {
  const bench::TerrainLane lane =
      bench::terrain_lane(feature_named("stairs 0.15/0.30 down 30deg"), 0.0f);
  EXPECT_NEAR(std::acos(-lane.direction.z), deg_to_rad(30.0f), 1e-5f);
  EXPECT_NEAR(lane.start.y, 7 * 0.15f, kExactM) << "a down walk starts on the landing";
  // The whole walk stays on the flight, with room to spare either side.
  const Vec3 finish = lane.start + lane.direction * lane.distance_m;
  for (const Vec3& p : {lane.start, finish}) {
    EXPECT_LT(std::fabs(p.x), 0.5f * lane.width_m - 1.0f) << p.x;
  }
}

bench::TerrainResult flat_run(std::uint64_t seed) {
  bench::TerrainOptions options;
  options.crossings = 2;
  options.seed = seed;
  options.features = {"ramp 0deg up"};
  return bench::run_terrain_course(options);
}

TEST(TerrainCourse, TwoFlatCrossingsArriveWithoutFalling) {
  const bench::TerrainResult r = flat_run(1);
  ASSERT_EQ(r.features.size(), 1u);
  const bench::TerrainFeatureResult& f = r.features[0];
  EXPECT_EQ(f.feature.name, "ramp 0deg up");
  EXPECT_EQ(f.crossings, 2);
  EXPECT_EQ(f.falls, 0);
  EXPECT_EQ(f.stuck, 0);
  EXPECT_TRUE(f.failures.empty());
  // 8 m at 1.2 m/s is 6.7 s, with the start from standing.
  EXPECT_GT(f.median_time_s, 6.0);
  EXPECT_LT(f.median_time_s, 9.0);
  EXPECT_FALSE(r.interrupted);
}

TEST(TerrainCourse, SameSeedSameResultBitForBit) {
  const bench::TerrainResult a = flat_run(7);
  const bench::TerrainResult b = flat_run(7);
  EXPECT_EQ(a.state_hash, b.state_hash);
  ASSERT_EQ(a.features.size(), b.features.size());
  EXPECT_EQ(a.features[0].median_time_s, b.features[0].median_time_s);
  EXPECT_NE(flat_run(8).state_hash, a.state_hash) << "another seed nudges the spawns otherwise";
}

TEST(TerrainCourse, StopEndsTheRunAndKeepsWhatWasDecided) {
  bench::TerrainOptions options;
  options.crossings = 2;
  options.features = {"kerb 0.05 up"};
  int asked = 0;
  options.stop = [&asked] { return ++asked > 100; };
  const bench::TerrainResult r = bench::run_terrain_course(options);
  EXPECT_TRUE(r.interrupted);
  EXPECT_NE(bench::terrain_table(r).find("interrupted"), std::string::npos);
}

}  // namespace
}  // namespace stagger

namespace stagger {
namespace {

// The course's acceptance figure where the gait meets it: no fall in 200 crossings of a 0.15 m
// kerb, up or down, or of a 12 deg ramp down or across, or of a 16 deg ramp up, down or across
// (a 16 deg ramp may see 2). Each runs 200 nudged crossings (seed 3) in five worlds of forty;
// 5-10 s.
class TerrainWithoutFalls : public ::testing::TestWithParam<const char*> {};

TEST_P(TerrainWithoutFalls, TwoHundredCrossings) {
  bench::TerrainOptions options;
  options.crossings = 200;
  options.seed = 3;
  options.features = {GetParam()};
  const bench::TerrainResult r = bench::run_terrain_course(options);
  ASSERT_EQ(r.features.size(), 1u);
  const bench::TerrainFeatureResult& f = r.features[0];
  EXPECT_EQ(f.crossings, 200);
  EXPECT_EQ(f.falls, 0);
  EXPECT_EQ(f.stuck, 0);
  RecordProperty("falls", f.falls);
}

INSTANTIATE_TEST_SUITE_P(Course, TerrainWithoutFalls,
                         ::testing::Values("kerb 0.15 up", "kerb 0.15 down", "ramp 12deg down",
                                           "ramp 12deg across", "ramp 16deg up", "ramp 16deg down",
                                           "ramp 16deg across"));

}  // namespace
}  // namespace stagger
