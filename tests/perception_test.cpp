// The view cone and the line of sight (ai::Perception against a physics world's static geometry).

#include "stagger/ai/perception.h"

#include <gtest/gtest.h>

#include "stagger/physics/world.h"

namespace stagger::ai {
namespace {

constexpr float kDt = 1.0f / 80.0f;
const Vec3 kEye{0, 1.7f, 0};
const Vec3 kForward{0, 0, 1};

PlayerView player_at(Vec3 feet) {
  return {true, feet + Vec3{0, 1.7f, 0}, feet};
}

float time_to_see(const physics::World& world, const PlayerView& player, float seconds = 2.0f) {
  Perception eyes;
  for (float t = 0; t < seconds; t += kDt) {
    eyes.update(world, kEye, kForward, player, kDt);
    if (eyes.sees()) return t + kDt;
  }
  return -1;
}

TEST(Perception, SeesAPlayerInItsConeWithinAMoment) {
  physics::World world;
  const float t = time_to_see(world, player_at({1, 0, 8}));
  EXPECT_GT(t, 0.0f);
  EXPECT_LE(t, 0.5f);
}

TEST(Perception, DoesNotSeeBehindAWallOutsideTheConeOrBeyondRange) {
  physics::World world;
  world.add_static_box({{0, 1.5f, 4}, {2, 1.5f, 0.2f}, {}, 0.9f});  // a 3 m wall across the view
  EXPECT_LT(time_to_see(world, player_at({0, 0, 8})), 0.0f) << "behind the wall";
  EXPECT_GT(time_to_see(world, player_at({6, 0, 8})), 0.0f) << "beside the wall";
  physics::World open;
  EXPECT_LT(time_to_see(open, player_at({0, 0, -5})), 0.0f) << "behind the back";
  EXPECT_LT(time_to_see(open, player_at({8, 0, 0.5f})), 0.0f) << "far to the side (outside 120°)";
  EXPECT_LT(time_to_see(open, player_at({0, 0, 20})), 0.0f) << "beyond 15 m";
}

TEST(Perception, AChestHighWallHidesOnlyWhatIsBelowIt) {
  physics::World world;
  world.add_static_box({{0, 0.5f, 4}, {2, 0.5f, 0.2f}, {}, 0.9f});  // 1 m high
  EXPECT_GT(time_to_see(world, player_at({0, 0, 8})), 0.0f) << "the head shows over it";
}

TEST(Perception, RemembersWhereItLastSawThePlayer) {
  physics::World world;
  Perception eyes;
  for (int i = 0; i < 40; ++i) eyes.update(world, kEye, kForward, player_at({1, 0, 6}), kDt);
  ASSERT_TRUE(eyes.sees());
  for (int i = 0; i < 40; ++i) eyes.update(world, kEye, kForward, PlayerView{}, kDt);  // gone
  EXPECT_FALSE(eyes.sees());
  EXPECT_TRUE(eyes.saw_ever());
  EXPECT_TRUE(eyes.remembers());
  EXPECT_EQ(eyes.last_seen_feet(), (Vec3{1, 0, 6}));
  EXPECT_NEAR(eyes.since_seen_s(), 40 * kDt, 1e-4f);
  eyes.forget();
  EXPECT_FALSE(eyes.remembers());
}

}  // namespace
}  // namespace stagger::ai
