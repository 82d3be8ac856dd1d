// Bounding boxes without the predicted motion (WorldSettings::sweep_every_box off): Bullet widens
// a moving body's box over where it would go this step, which only pairs bodies a step before
// they could touch; the contacts come from the narrowphase at the present transforms. Where no
// two bodies close in on each other fast, every result is bit for bit what Bullet's widened boxes
// give. Where they do (a knock-down, two walkers meeting head on), the pairs come in another
// order and GJK starts from another separating axis, so the results part at float precision.

#include <gtest/gtest.h>

#include "scenario.h"

namespace stagger {
namespace {

// Eight enemies walking side by side on flat ground for 3 s (the feet meet the ground at each
// step; in eight directions they would also meet each other).
std::uint64_t walkers_hash(bool sweep_every_box) {
  sim::SceneDescription scene = sim::builtin_scene(8);
  scene.world.sweep_every_box = sweep_every_box;
  sim::InputScript script;
  for (const levels::EnemySpawn& e : scene.enemies) {
    script.walks.push_back(test::walk_event(e.name, Vec3{1.2f, 0, 0}, 0.5));
  }
  sim::Simulation s(scene, script);
  s.run(3.0, 90.0);
  return s.result().state_hash;
}

TEST(BoundingBoxes, WalkersMoveBitForBitAsWithBoxesSweptOverTheirMotion) {
  EXPECT_EQ(walkers_hash(false), walkers_hash(true));
}

// The switch does something, or the test above would prove nothing: in a knock-down the limbs
// meet the ground fast.
TEST(BoundingBoxes, TheSwitchActsWhereBodiesMeetFast) {
  auto knocked_down = [](bool sweep_every_box) {
    sim::SceneDescription scene = sim::builtin_scene(1);
    scene.world.sweep_every_box = sweep_every_box;
    sim::Simulation s(scene,
                      test::push_script("dummy", physics::BodyPart::chest, {150, 0, 0}, 0.5));
    s.run(2.0, 90.0);
    return s.result().state_hash;
  };
  EXPECT_NE(knocked_down(false), knocked_down(true));
}

}  // namespace
}  // namespace stagger
