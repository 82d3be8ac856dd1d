// Two ragdolls meet through their trunks alone: their arms and legs pass each other, their
// pelvises, chests and heads do not (WorldSettings::limbs_meet_other_ragdolls).

#include <gtest/gtest.h>

#include "scenario.h"

namespace stagger {
namespace {

// [m] how far apart the pelvises of two ragdolls stand 2 s after they were placed `gap_m` apart
// side by side, both facing +Z.
float apart_after_standing(float gap_m, bool limbs_meet) {
  sim::SceneDescription scene = sim::builtin_scene(2);
  scene.world.limbs_meet_other_ragdolls = limbs_meet;
  scene.enemies[0].position = {0.0f, 0.0f, 0.0f};
  scene.enemies[1].position = {gap_m, 0.0f, 0.0f};
  scene.enemies[0].yaw_deg = scene.enemies[1].yaw_deg = 0.0f;
  sim::Simulation s(scene, {});
  test::run_steps(s, 2 * 240);
  const Vec3 a = s.scene().enemies()[0].ragdoll->body_state(physics::BodyPart::pelvis).position;
  const Vec3 b = s.scene().enemies()[1].ragdoll->body_state(physics::BodyPart::pelvis).position;
  return length(horizontal(b - a));
}

TEST(BodiesMeeting, LimbsPassEachOtherWhileTrunksPushApart) {
  // 0.42 m apart the near upper arms overlap by 7 cm and the chests are 10 cm clear.
  const float limbs_passing = apart_after_standing(0.42f, false);
  const float limbs_meeting = apart_after_standing(0.42f, true);
  // 0.28 m apart the chests overlap by 4 cm.
  const float trunks = apart_after_standing(0.28f, false);
  RecordProperty("limbs_passing_mm", static_cast<int>(limbs_passing * 1000));
  RecordProperty("limbs_meeting_mm", static_cast<int>(limbs_meeting * 1000));
  RecordProperty("trunks_mm", static_cast<int>(trunks * 1000));
  EXPECT_NEAR(limbs_passing, 0.42f, 0.01f);
  EXPECT_GT(limbs_meeting, 0.45f);  // with limbs meeting, the arms push the bodies apart
  EXPECT_GT(trunks, 0.32f);
}

}  // namespace
}  // namespace stagger
