// Physics hands: a scripted hand stops at a wall, and its contact with an
// enemy is a shove the report counts with its impulse and the enemy's hit reaction feels.

#include "stagger/physics/hand.h"

#include <gtest/gtest.h>

#include "scenario.h"
#include "stagger/sim/simulation.h"

namespace stagger {
namespace {

sim::HandEvent right_hand(std::vector<sim::HandEvent::Point> path) {
  sim::HandEvent e;
  e.t = path.front().t;
  e.hand = 1;
  e.path = std::move(path);
  return e;
}

TEST(Hand, APathThroughAWallStopsAtTheWall) {
  sim::SceneDescription scene = sim::builtin_scene(1);
  scene.enemies[0].position = {5, 0, 5};  // out of the way
  scene.boxes.push_back(
      {{0, 1.5f, 0}, {2, 1.5f, 0.1f}, {}, 0.9f});  // a wall, front face at z = 0.1
  sim::InputScript script;
  script.hands.push_back(
      right_hand({{0.5, {0, 1.3f, 1.0f}}, {0.8, {0, 1.3f, -1.0f}}}));  // 6.7 m/s through it
  sim::Simulation s(scene, script);
  const auto hand_id = static_cast<physics::BodyId>(s.scene().world().body_count() - 1);
  float deepest = 0;  // [m] how far the hand's box reached past the wall's face
  test::run_steps(s, 2 * 240, [&] {
    const physics::BodyState hand = s.scene().world().body_state(hand_id);
    // The box's lowest z (it stays level: the target rotation is the identity).
    const float front = hand.position.z - physics::HandSettings{}.half_extents.z;
    deepest = std::max(deepest, 0.1f - front);
    EXPECT_GT(hand.position.z, -0.1f) << "through the wall at t=" << s.scene().world().time();
  });
  EXPECT_LT(deepest, 0.02f) << "penetration";
  EXPECT_GT(deepest, -0.01f) << "it did reach the wall";
}

// A right-hand shove into the chest of the standing dummy (chest about 1.3 m up, facing +Z): from
// 0.8 m in front to the chest's centre at `speed`, then back out in 0.4 s.
sim::SimulationResult shove(float speed, float& weakest_chest) {
  sim::InputScript script;
  const double arrive = 1.0 + 0.8 / static_cast<double>(speed);
  script.hands.push_back(right_hand(
      {{1.0, {0, 1.3f, 0.8f}}, {arrive, {0, 1.3f, 0.0f}}, {arrive + 0.4, {0, 1.3f, 0.8f}}}));
  sim::Simulation s(sim::builtin_scene(1), script);
  weakest_chest = 1.0f;
  test::run_steps(s, 5 * 240, [&] {
    weakest_chest =
        std::min(weakest_chest, s.scene().enemies()[0].ragdoll->strength(physics::BodyPart::chest));
  });
  return s.result();
}

TEST(Hand, AShoveAt3MetresASecondIsCaughtWithAStepAt7ItKnocksDown) {
  float weakest = 1.0f;
  const sim::EnemyStats slow = shove(3.0f, weakest).enemies[0];
  ASSERT_EQ(slow.pushes, 1);
  ASSERT_EQ(slow.push_impulses_ns.size(), 1u);
  EXPECT_GT(slow.push_impulses_ns[0], 20.0f);
  EXPECT_LT(weakest, 0.9f) << "the hit reaction took strength away";
  EXPECT_GE(slow.recovery_steps, 1) << "it stepped to catch the shove";
  EXPECT_EQ(slow.falls, 0);
  const sim::EnemyStats fast = shove(7.0f, weakest).enemies[0];
  EXPECT_EQ(fast.pushes, 1);
  EXPECT_GT(fast.push_impulses_ns[0], slow.push_impulses_ns[0]);
  EXPECT_EQ(fast.falls, 1) << "knocked down";
}

}  // namespace
}  // namespace stagger

namespace stagger {
namespace {

// Tracked hands (VR, desktop) turn ghost when held 0.3 m from their target or when tracking is
// lost, and solid again once tracked and clear (docs/vr.md).
TEST(Hand, HeldAwayOrUntrackedItTurnsGhostAndSolidAgainWhenClear) {
  physics::World world;
  world.add_static_box({{0, -0.5f, 0}, {10, 0.5f, 10}, {}, 0.9f});
  world.add_static_box(
      {{0, 1.0f, -1.0f}, {2, 1.0f, 0.1f}, {}, 0.9f});  // a wall, its face at z = -0.9
  physics::HandSettings settings;
  settings.ghost_separation_m = 0.3f;
  physics::Hand& hand = world.add_hand(settings, {0, 1.2f, 0}, {});
  // The target moves at 1 m/s, as a tracked hand does, to `to` and stays there a while.
  Vec3 target{0, 1.2f, 0};
  bool was_ghost = false;
  const auto move_to = [&](Vec3 to) {
    const float dt = world.dt();
    was_ghost = false;
    for (int i = 0; i < 480; ++i) {
      const Vec3 gap = to - target;
      const Vec3 step = length(gap) > dt ? normalized(gap) * dt : gap;
      target = target + step;
      hand.set_target(target, {}, step / dt);
      world.step();
      was_ghost = was_ghost || hand.ghost();
    }
  };
  // Into the wall by 0.1 m: the wall stops it (its centre 0.09 m from the face), still solid.
  move_to({0, 1.2f, -1.0f});
  EXPECT_FALSE(hand.ghost());
  EXPECT_NEAR(hand.state().position.z, -0.81f, 0.02f);
  // On through the wall: 0.3 m behind its target it turns ghost and follows it through; in the
  // clear beyond, solid again.
  move_to({0, 1.2f, -1.5f});
  EXPECT_TRUE(was_ghost);
  EXPECT_FALSE(hand.ghost());
  EXPECT_NEAR(hand.state().position.z, -1.5f, 0.01f);
  // A target that jumps into the wall: ghost, and it stays ghost while the target is inside.
  target = {0, 1.2f, -1.0f};
  hand.set_target(target, {});
  for (int i = 0; i < 60; ++i) world.step();
  EXPECT_TRUE(hand.ghost());
  EXPECT_NEAR(hand.state().position.z, -1.0f, 1e-3f);
  move_to({0, 1.2f, -0.5f});
  EXPECT_FALSE(hand.ghost());
  // Tracking lost: a ghost at its last target, not falling, not drifting.
  hand.set_tracked(false);
  for (int i = 0; i < 240; ++i) world.step();
  EXPECT_TRUE(hand.ghost());
  EXPECT_LT(length(hand.state().position - target), 1e-3f);
  hand.set_tracked(true);
  for (int i = 0; i < 10; ++i) world.step();
  EXPECT_FALSE(hand.ghost());
}

}  // namespace
}  // namespace stagger
