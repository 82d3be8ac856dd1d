// The enemy brain's transitions (ai::Brain, pure logic; the table is in docs/ai.md).

#include "stagger/ai/brain.h"

#include <gtest/gtest.h>

namespace stagger::ai {
namespace {

constexpr float kDt = 1.0f / 80.0f;

Patrol square_route() {
  return Patrol({{{0, 0, 0}, 0}, {{6, 0, 0}, 0}, {{6, 0, 6}, 0}, {{0, 0, 6}, 0}}, PatrolMode::loop,
                0);
}

BrainInput at(Vec3 position) {
  BrainInput in;
  in.position = position;
  in.dt = kDt;
  return in;
}

BrainInput seeing(Vec3 position, Vec3 player_feet) {
  BrainInput in = at(position);
  in.sees_player = true;
  in.player_feet = player_feet;
  in.player_head = player_feet + Vec3{0, 1.7f, 0};
  in.remembers_player = true;
  in.last_seen_feet = player_feet;
  return in;
}

TEST(Brain, PatrolsItsRouteAndGuardsAOnePointRoute) {
  Brain walker(square_route(), 1);
  EXPECT_EQ(walker.state(), BrainState::patrol);
  const BrainOutput out = walker.update(at({0, 0, 0}));
  EXPECT_TRUE(out.move);
  ASSERT_TRUE(out.goal);
  EXPECT_EQ(*out.goal, (Vec3{6, 0, 0}));  // arrived at 0, on to 1
  // Point 0 is a right-angle corner without a wait: half speed within 1.5 m of it, full beyond.
  EXPECT_FLOAT_EQ(out.speed, 0.5f * BrainSettings{}.patrol_speed);
  EXPECT_FLOAT_EQ(walker.update(at({3, 0, 0})).speed, BrainSettings{}.patrol_speed);

  Brain guard(Patrol({{{2, 0, 2}, 0}}, PatrolMode::loop, 1.0f), 1);
  EXPECT_EQ(guard.state(), BrainState::guard);
  const BrainOutput g = guard.update(at({2, 0, 2}));
  ASSERT_TRUE(g.facing_rad);
  EXPECT_FLOAT_EQ(*g.facing_rad, 1.0f);
}

TEST(Brain, ChasesASeenPlayerAndRequestsANewTargetOnlyAfterTheyMove) {
  Brain brain(square_route(), 1);
  // The goal is short of the player's feet by half the reach, on the chaser's side.
  BrainOutput out = brain.update(seeing({0, 0, 0}, {0, 0, 8}));
  EXPECT_EQ(brain.state(), BrainState::chase);
  EXPECT_NEAR(length(*out.goal - Vec3{0, 0, 7.6f}), 0.0f, 1e-4f);
  EXPECT_FLOAT_EQ(out.speed, BrainSettings{}.chase_speed);
  out = brain.update(seeing({0, 0, 0}, {0.5f, 0, 8}));  // moved 0.5 m: same target
  EXPECT_NEAR(length(*out.goal - Vec3{0, 0, 7.6f}), 0.0f, 1e-4f);
  out = brain.update(seeing({0, 0, 0}, {1.0f, 0, 8}));  // 1 m: new target
  EXPECT_NEAR(length(horizontal(*out.goal - Vec3{1, 0, 8})), 0.4f, 1e-4f);
}

TEST(Brain, AttacksWithinReachWithSeededPunchesBetweenChinAndTemple) {
  const auto aims = [](std::uint64_t seed) {
    Brain brain(square_route(), seed);
    std::vector<Vec3> out;
    bool struck = false;
    for (int i = 0; i < 400; ++i) {
      const BrainOutput o = brain.update(seeing({0, 0, 0}, {0, 0, 0.6f}));
      EXPECT_EQ(brain.state(), BrainState::attack);
      EXPECT_FALSE(o.goal);
      if (o.right_arm.active && o.right_arm.extension >= 1.0f && !struck)
        out.push_back(o.right_arm.target);
      struck = o.right_arm.active && o.right_arm.extension >= 1.0f;
    }
    EXPECT_GE(brain.punches(), static_cast<int>(out.size()));
    EXPECT_LE(brain.punches(), static_cast<int>(out.size()) + 1);
    return out;
  };
  const std::vector<Vec3> a = aims(7);
  ASSERT_GE(a.size(), 4u);  // a punch a second over 5 s
  EXPECT_EQ(a, aims(7)) << "the same seed throws the same punches";
  EXPECT_NE(a, aims(8));
  const Vec3 head{0, 1.7f, 0.6f};
  for (const Vec3& p : a) {
    // Between the chin (12 cm below the head, in front) and the temple (8 cm to the side).
    EXPECT_LT(length(p - head), 0.15f);
    EXPECT_LE(p.y, head.y + 1e-4f);
    EXPECT_GE(p.y, head.y - 0.12f - 1e-4f);
  }
}

TEST(Brain, SearchesTheLastSeenPositionThenReturnsToItsRoute) {
  Brain brain(square_route(), 1);
  brain.update(seeing({0, 0, 0}, {5, 0, 5}));
  ASSERT_EQ(brain.state(), BrainState::chase);
  BrainInput lost = at({1, 0, 1});
  lost.remembers_player = true;
  lost.last_seen_feet = {5, 0, 5};
  BrainOutput out = brain.update(lost);
  EXPECT_EQ(brain.state(), BrainState::search);
  EXPECT_EQ(*out.goal, (Vec3{5, 0, 5}));
  // There: looks left, right and ahead for 3 s, then forgets and walks the route again.
  lost.position = {5, 0, 5};
  bool forgot = false;
  int ticks = 0;
  for (; ticks < 400 && brain.state() == BrainState::search; ++ticks) {
    out = brain.update(lost);
    forgot = forgot || out.forget_player;
  }
  EXPECT_NEAR(ticks * kDt, BrainSettings{}.look_around_s, 0.05f);
  EXPECT_TRUE(forgot);
  EXPECT_EQ(brain.state(), BrainState::patrol);
  EXPECT_EQ(brain.patrol().target_index(), 2u)
      << "the route point nearest to where the search ended";
}

TEST(Brain, AShoveStunsThenTheRouteGoesOnWhereItWas) {
  Brain brain(square_route(), 1);
  brain.update(at({0, 0, 0}));
  ASSERT_EQ(brain.patrol().target_index(), 1u);
  BrainInput shoved = at({2, 0, 0});
  shoved.body = BodyCondition::stumbling;
  const BrainOutput out = brain.update(shoved);
  EXPECT_EQ(brain.state(), BrainState::stunned);
  EXPECT_FALSE(out.move);
  // Calm for under 0.5 s: still stunned; then on to point 1 again.
  for (int i = 0; i < 30; ++i) brain.update(at({2, 0, 0}));
  EXPECT_EQ(brain.state(), BrainState::stunned);
  for (int i = 0; i < 20; ++i) brain.update(at({2, 0, 0}));
  EXPECT_EQ(brain.state(), BrainState::patrol);
  EXPECT_EQ(brain.patrol().target_index(), 1u);
}

TEST(Brain, DownAndDeadFollowTheBody) {
  Brain brain(square_route(), 1);
  BrainInput in = at({5, 0, 5});
  in.body = BodyCondition::down;
  EXPECT_FALSE(brain.update(in).move);
  EXPECT_EQ(brain.state(), BrainState::down);
  in.body = BodyCondition::upright;  // up again near point 2: steadies itself, then resumes there
  EXPECT_FALSE(brain.update(in).move);
  EXPECT_EQ(brain.state(), BrainState::stunned);
  for (int i = 0; i < 45; ++i) brain.update(in);
  EXPECT_EQ(brain.state(), BrainState::patrol);
  EXPECT_EQ(brain.patrol().target_index(), 2u);
  in.body = BodyCondition::dead;
  const BrainOutput out = brain.update(in);
  EXPECT_EQ(brain.state(), BrainState::dead);
  EXPECT_FALSE(out.move);
  EXPECT_FALSE(out.goal);
}

TEST(Brain, ThreeStallsOnOneLegSkipItsPoint) {
  Brain brain(square_route(), 1);
  brain.update(at({0, 0, 0}));
  ASSERT_EQ(brain.patrol().target_index(), 1u);
  BrainInput stuck = at({1, 0, 0});
  stuck.stalled = true;
  brain.update(stuck);
  brain.update(stuck);
  EXPECT_EQ(brain.patrol().target_index(), 1u);
  brain.update(stuck);
  EXPECT_EQ(brain.patrol().target_index(), 2u);
  EXPECT_EQ(brain.skipped_points(), std::vector<std::size_t>{1});
}

}  // namespace
}  // namespace stagger::ai
