// Physics hands (issue 6, first part): a scripted hand stops at a wall, and its contact with an
// enemy is a shove the report counts with its impulse and the enemy's hit reaction feels.

#include <gtest/gtest.h>

#include "scenario.h"
#include "stagger/physics/hand.h"
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
  scene.boxes.push_back({{0, 1.5f, 0}, {2, 1.5f, 0.1f}, {}, 0.9f});  // a wall, front face at z = 0.1
  sim::InputScript script;
  script.hands.push_back(right_hand({{0.5, {0, 1.3f, 1.0f}}, {0.8, {0, 1.3f, -1.0f}}}));  // 6.7 m/s through it
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

TEST(Hand, AShoveIsAPushWithItsImpulseAndTheEnemyFeelsIt) {
  sim::InputScript script;
  // In front of the chest (which stands about 1.3 m up, facing +Z) and through it at 3 m/s, and back.
  script.hands.push_back(right_hand({{1.0, {0, 1.3f, 0.8f}}, {1.27, {0, 1.3f, 0.0f}}, {1.67, {0, 1.3f, 0.8f}}}));
  sim::Simulation s(sim::builtin_scene(1), script);
  float weakest = 1.0f;
  test::run_steps(s, 3 * 240, [&] { weakest = std::min(weakest, s.scene().enemies()[0].ragdoll->strength(physics::BodyPart::chest)); });
  const sim::EnemyStats e = s.result().enemies[0];
  ASSERT_EQ(e.pushes, 1);
  ASSERT_EQ(e.push_impulses_ns.size(), 1u);
  EXPECT_GT(e.push_impulses_ns[0], 10.0f);
  EXPECT_LT(weakest, 0.9f) << "the hit reaction took strength away";
  EXPECT_GE(e.recovery_steps, 1) << "it stepped to catch the shove";
}

}  // namespace
}  // namespace stagger
