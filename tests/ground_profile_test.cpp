// The ground profile a gait step reads: segments and edges found by probes along a line.

#include "control/ground_profile.h"

#include <gtest/gtest.h>

#include <cmath>

#include "stagger/physics/ragdoll.h"
#include "stagger/physics/world.h"

namespace stagger::physics {
namespace {

constexpr float kRiser = 0.17f;     // [m]
constexpr float kTread = 0.28f;     // [m]
constexpr float kFirstEdge = 1.0f;  // [m] along +Z
constexpr int kSteps = 3;

// Flat ground (top at 0) and `steps` steps up along +Z from z = 1 (the last one 2 m deep), and a
// ragdoll whose rig probes.
struct Stairs {
  explicit Stairs(int steps = kSteps) {
    world.add_static_box({{0, -0.5f, 0}, {20, 0.5f, 20}, {}});
    for (int i = 1; i <= steps; ++i) {
      const float top = kRiser * static_cast<float>(i);
      const float front = kFirstEdge + kTread * static_cast<float>(i - 1);
      world.add_static_box({{0, 0.5f * top, front + 2.0f}, {1.0f, 0.5f * top, 2.0f}, {}});
    }
    ragdoll = &world.add_ragdoll({}, {5, 0, -5}, 0.0f);
  }
  World world;
  Ragdoll* ragdoll = nullptr;
};

TEST(GroundProfile, FindsEachTreadAndLocatesItsEdgeToTheCentimetre) {
  Stairs stairs;
  GroundProfile profile;
  // From the height of the second tread: the probes start 0.4 m above the line, enough to see
  // the third (0.51 m).
  profile.build(stairs.ragdoll->rig(), {0, 2 * kRiser, 0}, {0, 0, 1}, -0.5f, 2.5f);
  const auto& segments = profile.segments();
  ASSERT_EQ(segments.size(), static_cast<std::size_t>(kSteps + 1));
  for (int i = 0; i <= kSteps; ++i) {
    const GroundSegment& g = segments[static_cast<std::size_t>(i)];
    EXPECT_NEAR(g.height, kRiser * static_cast<float>(i), 1e-4f) << "segment " << i;
    EXPECT_NEAR(g.slope, 0.0f, 1e-4f);
    if (i > 0) {
      EXPECT_NEAR(g.from_s, kFirstEdge + kTread * static_cast<float>(i - 1), 0.01f) << "edge " << i;
    }
  }
  EXPECT_EQ(profile.edges_between(-0.5f, 2.5f), kSteps);
  EXPECT_EQ(profile.edges_between(-0.5f, 0.9f), 0);
  const GroundProfile::Riser riser = profile.highest_riser(0.0f, 1.2f);
  ASSERT_TRUE(riser.found);
  EXPECT_NEAR(riser.at, kFirstEdge, 0.01f);
  EXPECT_NEAR(riser.top, kRiser, 1e-4f);
}

TEST(GroundProfile, FollowsAWholeFlightUpAndDownBeyondItsProbesReach) {
  // Seven risers, 1.19 m: more than the probes reach above (0.4 m) or below (0.8 m) the foot the
  // profile starts from. Every tread is found, walking up from the ground and down from the top.
  constexpr int kFlight = 7;
  Stairs stairs(kFlight);
  const float top = kRiser * static_cast<float>(kFlight);
  const float last_edge = kFirstEdge + kTread * static_cast<float>(kFlight - 1);
  GroundProfile up;
  up.build(stairs.ragdoll->rig(), {0, 0.04f, 0}, {0, 0, 1}, -0.5f, last_edge + 0.5f);
  ASSERT_EQ(up.segments().size(), static_cast<std::size_t>(kFlight + 1));
  EXPECT_NEAR(up.segments().back().height, top, 1e-4f);
  EXPECT_NEAR(up.segments().back().from_s, last_edge, 0.01f);
  EXPECT_EQ(up.edges_between(-0.5f, last_edge + 0.5f), kFlight);

  GroundProfile down;
  down.build(stairs.ragdoll->rig(), {0, top + 0.04f, last_edge + 0.5f}, {0, 0, -1}, 0.0f,
             last_edge + 1.0f);
  ASSERT_EQ(down.segments().size(), static_cast<std::size_t>(kFlight + 1));
  EXPECT_NEAR(down.segments().back().height, 0.0f, 1e-4f);
  EXPECT_NEAR(down.lowest(0.0f, last_edge + 1.0f), 0.0f, 1e-4f);
  EXPECT_EQ(down.edges_between(0.0f, last_edge + 1.0f), kFlight);
}

TEST(GroundProfile, ASlopeIsOneSegmentAndNoObstacleToASoleTiltedWithIt) {
  World world;
  world.add_static_box({{0, -0.5f, 0}, {20, 0.5f, 20}, {}});
  // A 12° ramp rising along +Z (a slab turned about X), its surface through (0, 1, 0).
  const float angle = deg_to_rad(12.0f);
  const Quat turn = Quat::from_euler_xyz({-angle, 0, 0});
  world.add_static_box({Vec3{0, 1, 0} + turn.rotate({0, -0.1f, 0}), {1.5f, 0.1f, 3.0f}, turn});
  Ragdoll& ragdoll = world.add_ragdoll({}, {5, 0, -8}, 0.0f);
  GroundProfile profile;
  profile.build(ragdoll.rig(), {0, 1, 0}, {0, 0, 1}, -0.5f, 0.5f);
  ASSERT_EQ(profile.segments().size(), 1u);
  EXPECT_NEAR(profile.segments()[0].slope, std::tan(angle), 1e-3f);
  EXPECT_NEAR(profile.steepest(-0.5f, 0.5f), std::tan(angle), 1e-3f);
  EXPECT_EQ(profile.edges_between(-0.5f, 0.5f), 0);
  // Above a sole through the ramp at s = 0, tilted with it: nothing sticks out.
  EXPECT_NEAR(profile.highest_above_sole(-0.13f, 0.13f, 0.0f, std::tan(angle)), 1.0f, 1e-3f);
  // A level sole there meets the ramp's higher end 0.13 · tan 12° above it.
  EXPECT_NEAR(profile.highest_above_sole(-0.13f, 0.13f, 0.0f, 0.0f), 1.0f + 0.13f * std::tan(angle),
              1e-3f);
}

}  // namespace
}  // namespace stagger::physics
