// Hit reactions: the strength envelope of the shipped reference and the twist spring.

#include "stagger/physics/hit_reaction.h"

#include <gtest/gtest.h>

#include "stagger/physics/ragdoll.h"

namespace stagger::physics {
namespace {

TEST(StrengthEnvelope, FullForTwoFramesThenFiftyFivePercentThenRecovers) {
  const HitReactionSettings s;
  StrengthEnvelope e;
  e.hit(1.0f, s);
  const float frame = 1.0f / 60.0f;
  e.advance(1.5f * frame);
  EXPECT_FLOAT_EQ(e.strength(s), 1.0f);
  e.advance(0.6f * frame);  // just past two frames
  EXPECT_NEAR(e.strength(s), 0.55f, 0.01f);
  e.advance(60 * frame);  // halfway through the 120-frame ramp
  EXPECT_NEAR(e.strength(s), 0.775f, 0.01f);
  e.advance(61 * frame);
  EXPECT_FLOAT_EQ(e.strength(s), 1.0f);
}

TEST(StrengthEnvelope, SmallImpulsesDoNothingAndDepthScales) {
  const HitReactionSettings s;
  EXPECT_EQ(hit_depth(0.5f, s), 0.0f);
  EXPECT_NEAR(hit_depth(10.0f, s), 0.5f, 1e-6f);
  EXPECT_EQ(hit_depth(100.0f, s), 1.0f);
  StrengthEnvelope e;
  e.hit(0.5f, s);
  e.advance(0.05f);
  EXPECT_NEAR(e.strength(s), 1.0f - 0.5f * 0.45f, 0.01f);
}

TEST(TwistSpring, TwistsAwayAndSpringsBack) {
  const HitReactionSettings s;
  TwistSpring t;
  t.kick({1, 0, 0}, 40.0f, s);
  float peak = 0;
  for (int i = 0; i < 240; ++i) {
    t.advance(1.0f / 240.0f, s);
    peak = std::max(peak, t.rotation_vector().x);
  }
  EXPECT_GT(peak, deg_to_rad(3.0f));
  EXPECT_LE(peak, s.max_twist_rad + 1e-6f);
  for (int i = 0; i < 480; ++i) t.advance(1.0f / 240.0f, s);
  EXPECT_LT(length(t.rotation_vector()), deg_to_rad(0.1f));
}

TEST(HitReaction, RagdollStruckPartAndNeighboursWeaken) {
  World world;
  world.add_static_box({{0, -0.5f, 0}, {10, 0.5f, 10}, {}, 0.9f});
  Ragdoll& r = world.add_ragdoll(RagdollSettings{}, {0, 0, 0}, 0.0f);
  r.apply_impulse(BodyPart::head, {0, 0, -20.0f});
  for (int i = 0; i < 24; ++i) world.step();  // 0.1 s: past the hold
  EXPECT_NEAR(r.strength(BodyPart::head), 0.55f, 0.03f);
  EXPECT_LT(r.strength(BodyPart::chest), 0.9f);  // neighbour: half the drop
  EXPECT_GT(r.strength(BodyPart::chest), r.strength(BodyPart::head));
  EXPECT_FLOAT_EQ(r.strength(BodyPart::foot_l), 1.0f);
  for (int i = 0; i < 240 * 3; ++i) world.step();
  EXPECT_FLOAT_EQ(r.strength(BodyPart::head), 1.0f);
}

}  // namespace
}  // namespace stagger::physics
