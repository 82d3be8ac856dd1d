// The player's body: a capsule character controller on the static geometry.

#include "stagger/physics/player_body.h"

#include <gtest/gtest.h>

#include <cmath>

#include "stagger/core/random.h"
#include "stagger/physics/world.h"

namespace stagger::physics {
namespace {

constexpr float kFrameS = 1.0f / 90.0f;  // [s] a headset's frame
constexpr float kSpeed = 2.5f;           // [m/s] the locomotion's top speed

void floor(World& world) {
  world.add_static_box({{0, -0.5f, 0}, {30, 0.5f, 30}, {}, 0.9f});
}

// Walks at `velocity` [m/s] for `seconds`, one move per frame.
void walk(PlayerBody& body, Vec3 velocity, float seconds) {
  for (float t = 0; t < seconds; t += kFrameS) body.move(velocity * kFrameS, kFrameS);
}

TEST(PlayerBody, StopsAtAWallWithItsRadiusToSpare) {
  World world;
  floor(world);
  world.add_static_box({{3.5f, 1.5f, 0}, {0.5f, 1.5f, 5}, {}, 0.9f});  // its face at x = 3
  PlayerBody& body = world.add_player_body({}, {0, 0, 0});
  float closest = 10;
  for (float t = 0; t < 3; t += kFrameS) {
    body.move(Vec3{kSpeed, 0, 0} * kFrameS, kFrameS);
    closest = std::min(closest, 3.0f - body.feet().x);
  }
  EXPECT_GE(closest, body.settings().radius_m);
  EXPECT_LE(closest, body.settings().radius_m + 0.03f);
  EXPECT_NEAR(body.feet().y, 0.0f, 0.02f);
  EXPECT_TRUE(body.on_ground());
}

TEST(PlayerBody, SlidesAlongAWallItWalksIntoAtAnAngle) {
  World world;
  floor(world);
  world.add_static_box({{3.5f, 1.5f, 0}, {0.5f, 1.5f, 10}, {}, 0.9f});
  PlayerBody& body = world.add_player_body({}, {2, 0, 0});
  const Vec3 diagonal = normalized(Vec3{1, 0, 1}) * kSpeed;
  walk(body, diagonal, 2.0f);
  EXPECT_LE(body.feet().x, 3.0f - body.settings().radius_m + 1e-3f);
  // Sliding keeps the part of the walk along the wall: 2.5 m/s × cos 45° × 2 s = 3.5 m.
  EXPECT_GT(body.feet().z, 3.2f);
}

TEST(PlayerBody, ClimbsStairsAndARampButNotAWaistHighBox) {
  World world;
  floor(world);
  // Five steps of 0.17 m risers and 0.28 m treads up +Z from z = 1, then a landing.
  for (int i = 0; i < 5; ++i) {
    const float top = 0.17f * static_cast<float>(i + 1);
    world.add_static_box({{0, 0.5f * top, 1.0f + 0.28f * static_cast<float>(i) + 0.14f},
                          {1, 0.5f * top, 0.14f},
                          {},
                          0.9f});
  }
  world.add_static_box({{0, 0.425f, 3.4f}, {1, 0.425f, 1.0f}, {}, 0.9f});  // z 2.4 to 4.4
  PlayerBody& stairs = world.add_player_body({}, {0, 0, 0});
  walk(stairs, {0, 0, kSpeed}, 1.5f);
  EXPECT_NEAR(stairs.feet().y, 0.85f, 0.02f) << "on the landing";
  EXPECT_GT(stairs.feet().z, 3.4f);

  // A 20° ramp rising toward -X, 6 m long.
  const float slope = deg_to_rad(20.0f);
  world.add_static_box({{-6, -0.1f + 3.0f * std::sin(slope), 0},
                        {3.0f, 0.1f, 1.0f},
                        Quat::from_euler_xyz({0, 0, -slope}),
                        0.9f});
  PlayerBody& ramp = world.add_player_body({}, {-2.5f, 0, 0});
  walk(ramp, {-kSpeed, 0, 0}, 1.2f);
  EXPECT_GT(ramp.feet().y, 0.5f) << "up the ramp";
  EXPECT_TRUE(ramp.on_ground());

  world.add_static_box({{0, 0.5f, -3}, {1, 0.5f, 0.5f}, {}, 0.9f});  // 1 m high, face at z = -2.5
  PlayerBody& box = world.add_player_body({}, {0, 0, -1});
  walk(box, {0, 0, -kSpeed}, 2.0f);
  EXPECT_NEAR(box.feet().y, 0.0f, 0.02f) << "not on the box";
  EXPECT_GE(box.feet().z, -2.5f + box.settings().radius_m);
}

TEST(PlayerBody, FallsOffAnEdgeAndLands) {
  World world;
  floor(world);
  world.add_static_box({{0, 0.5f, 0}, {2, 0.5f, 2}, {}, 0.9f});  // a 1 m platform
  PlayerBody& body = world.add_player_body({}, {0, 1.0f, 0});
  walk(body, {0, 0, 0}, 0.1f);
  ASSERT_TRUE(body.on_ground());
  EXPECT_NEAR(body.feet().y, 1.0f, 0.02f);
  bool fell = false;
  for (float t = 0; t < 2.5f; t += kFrameS) {
    body.move(Vec3{0, 0, kSpeed} * kFrameS, kFrameS);
    fell = fell || !body.on_ground();
  }
  EXPECT_TRUE(fell);
  EXPECT_TRUE(body.on_ground());
  EXPECT_NEAR(body.feet().y, 0.0f, 0.02f);
  EXPECT_GT(body.feet().z, 4.0f);
}

TEST(PlayerBody, NeverLeavesAWalledRoomWhateverItIsToldToDo) {
  World world;
  floor(world);
  const float half = 3.0f;  // [m] the room's inside half width; walls 0.2 m thick, 2 m high
  for (int side = 0; side < 4; ++side) {
    const float sign = side % 2 == 0 ? 1.0f : -1.0f;
    const Vec3 centre =
        side < 2 ? Vec3{sign * (half + 0.1f), 1, 0} : Vec3{0, 1, sign * (half + 0.1f)};
    const Vec3 extent = side < 2 ? Vec3{0.1f, 1, half + 0.2f} : Vec3{half + 0.2f, 1, 0.1f};
    world.add_static_box({centre, extent, {}, 0.9f});
  }
  PlayerBody& body = world.add_player_body({}, {0, 0, 0});
  SplitMix64 random(7);
  float farthest = 0;
  for (int frame = 0; frame < 5000; ++frame) {
    // Random sprints, and now and then a teleport-sized jump of a head moved in the room.
    const float step = frame % 50 == 0 ? 2.0f : kSpeed * kFrameS;
    body.move(Vec3{random.symmetric(), 0, random.symmetric()} * step, kFrameS);
    farthest = std::max({farthest, std::fabs(body.feet().x), std::fabs(body.feet().z)});
  }
  EXPECT_LE(farthest, half - body.settings().radius_m + 1e-3f);
  EXPECT_NEAR(body.feet().y, 0.0f, 0.02f);
}

}  // namespace
}  // namespace stagger::physics
