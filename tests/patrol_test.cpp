// Patrol order, waits, guarding and resuming (ai::Patrol, pure logic).

#include "stagger/ai/patrol.h"

#include <gtest/gtest.h>

namespace stagger::ai {
namespace {

std::vector<PatrolPoint> line_of_points(std::vector<float> waits) {
  std::vector<PatrolPoint> points;
  for (std::size_t i = 0; i < waits.size(); ++i)
    points.push_back({{10.0f * static_cast<float>(i), 0, 0}, waits[i]});
  return points;
}

// Walks by jumping onto each target; returns the order of arrivals.
std::vector<std::size_t> walk(Patrol& patrol, int arrivals) {
  Vec3 at{-5, 0, 0};
  for (int step = 0; step < 10000 && static_cast<int>(patrol.reached().size()) < arrivals; ++step) {
    at = patrol.update(at, 0.1f);
  }
  return patrol.reached();
}

TEST(Patrol, LoopVisitsThePointsInARing) {
  Patrol patrol(line_of_points({0, 0, 0}), PatrolMode::loop, 0);
  EXPECT_EQ(walk(patrol, 7), (std::vector<std::size_t>{0, 1, 2, 0, 1, 2, 0}));
}

TEST(Patrol, PingPongTurnsRoundAtTheEnds) {
  Patrol patrol(line_of_points({0, 0, 0}), PatrolMode::ping_pong, 0);
  EXPECT_EQ(walk(patrol, 7), (std::vector<std::size_t>{0, 1, 2, 1, 0, 1, 2}));
}

TEST(Patrol, WaitsOnArrivalForTheGivenTime) {
  PatrolSettings exact;
  exact.start_early_s = 0;
  Patrol patrol(line_of_points({0, 2.0f, 0}), PatrolMode::loop, 0, exact);
  Vec3 at = patrol.update({0, 0, 0}, 0.1f);  // arrives at 0, no wait: on to 1
  EXPECT_EQ(patrol.target_index(), 1u);
  at = patrol.update(at, 0.1f);  // arrives at 1: waits 2 s
  int waited_steps = 0;
  while (patrol.target_index() == 1) {
    at = patrol.update(at, 0.1f);
    ++waited_steps;
  }
  EXPECT_EQ(waited_steps, 20);  // 2.0 s in 0.1 s updates
  EXPECT_EQ(patrol.target_index(), 2u);
}

TEST(Patrol, StartsTheNextLegEarlySoTheBodyLeavesOnTime) {
  PatrolSettings early;
  early.start_early_s = 0.6f;
  Patrol patrol(line_of_points({0, 2.0f, 0}), PatrolMode::loop, 0, early);
  Vec3 at = patrol.update({0, 0, 0}, 0.1f);
  at = patrol.update(at, 0.1f);
  int waited_steps = 0;
  while (patrol.target_index() == 1) {
    at = patrol.update(at, 0.1f);
    ++waited_steps;
  }
  EXPECT_EQ(waited_steps, 14);
}

TEST(Patrol, ArrivalIsWithinTheRadius) {
  PatrolSettings settings;
  settings.arrival_radius_m = 0.5f;  // points with a wait
  settings.pass_radius_m = 1.0f;     // points without
  Patrol patrol(line_of_points({1.0f, 0}), PatrolMode::loop, 0, settings);
  patrol.update({0.6f, 0, 0}, 0.1f);
  EXPECT_TRUE(patrol.reached().empty());
  patrol.update({0.4f, 2.0f, 0}, 0.1f);  // straight above, on the floor over it
  EXPECT_TRUE(patrol.reached().empty());
  patrol.update({0.4f, 0.9f, 0}, 0.1f);  // within arrival_height_m (1 m): a slope, a step
  EXPECT_EQ(patrol.reached(), std::vector<std::size_t>{0});
  for (int i = 0; i < 20; ++i)
    patrol.update({0.4f, 0, 0}, 0.1f);  // waits 1 s (0.15 s less: see start_early_s)
  ASSERT_EQ(patrol.target_index(), 1u);
  patrol.update({8.9f, 0, 0}, 0.1f);  // 1.1 m before point 1, which has no wait
  EXPECT_EQ(patrol.reached().size(), 1u);
  patrol.update({9.1f, 0, 0}, 0.1f);  // 0.9 m before it: passed
  EXPECT_EQ(patrol.reached(), (std::vector<std::size_t>{0, 1}));
}

TEST(Patrol, AWaitingPointAnotherStandsAtCountsAsArrivedFromFartherOffAndIsWaitedShortOf) {
  PatrolSettings settings;
  settings.arrival_radius_m = 0.5f;
  settings.taken_radius_m = 1.5f;
  Patrol patrol(line_of_points({1.0f, 0}), PatrolMode::loop, 0, settings);
  patrol.update({1.4f, 0, 0}, 0.1f, true, false);  // free: 1.4 m off is not there yet
  EXPECT_TRUE(patrol.reached().empty());
  const Vec3 goal = patrol.update({1.4f, 0, 0}, 0.1f, true, true);  // taken: it is
  EXPECT_EQ(patrol.reached(), std::vector<std::size_t>{0});
  // ... and it waits there, out of the way of the one at the point, not walking on to it.
  EXPECT_NEAR(goal.x, 1.4f, 1e-6f);
  EXPECT_NEAR(patrol.update({1.4f, 0, 0}, 0.1f, true, true).x, 1.4f, 1e-6f);
  for (int i = 0; i < 20; ++i) patrol.update({1.4f, 0, 0}, 0.1f, true, true);
  ASSERT_EQ(patrol.target_index(), 1u);  // point 1 has no wait: taken or not, 1 m
  patrol.update({8.6f, 0, 0}, 0.1f, true, true);
  EXPECT_EQ(patrol.reached().size(), 1u);
}

TEST(Patrol, AOnePointRouteIsGuardedFacingItsYaw) {
  Patrol patrol(line_of_points({0}), PatrolMode::loop, 1.5f);
  EXPECT_TRUE(patrol.guarding());
  Vec3 at{3, 0, 0};
  for (int i = 0; i < 100; ++i) at = patrol.update(at, 0.1f);
  EXPECT_EQ(at, (Vec3{0, 0, 0}));
  EXPECT_EQ(patrol.reached(), std::vector<std::size_t>{0});
  EXPECT_FLOAT_EQ(patrol.guard_yaw(), 1.5f);
}

TEST(Patrol, ResumesAtTheNearestPointInTheSameDirection) {
  Patrol patrol(line_of_points({0, 0, 0, 0}), PatrolMode::ping_pong, 0);
  walk(patrol, 5);  // 0, 1, 2, 3, 2: now heading back to 1
  ASSERT_EQ(patrol.target_index(), 1u);
  patrol.resume_from({31, 0, 3});  // knocked down beyond point 3
  EXPECT_EQ(patrol.target_index(), 3u);
  patrol.update({30, 0, 0}, 0.1f);  // arrives at 3, still heading back
  EXPECT_EQ(patrol.target_index(), 2u);
}

TEST(Patrol, ResumesPastTheNearestPointWhenAlreadyOnTheLegAfterIt) {
  Patrol patrol(line_of_points({0, 0, 0, 0}), PatrolMode::ping_pong, 0);
  walk(patrol, 5);                 // heading back to 1
  patrol.resume_from({28, 0, 1});  // nearest is 3, but it is already on the way from 3 to 2
  EXPECT_EQ(patrol.target_index(), 2u);
  Patrol loop(line_of_points({0, 0, 0}), PatrolMode::loop, 0);
  walk(loop, 1);                   // reached 0, heading to 1
  loop.resume_from({0.2f, 0, 0});  // interrupted while still at 0: not back to 0 again
  EXPECT_EQ(loop.target_index(), 1u);
}

TEST(Patrol, SkipGoesOnToThePointAfter) {
  Patrol patrol(line_of_points({0, 0, 0}), PatrolMode::loop, 0);
  walk(patrol, 1);
  ASSERT_EQ(patrol.target_index(), 1u);
  patrol.skip();
  EXPECT_EQ(patrol.target_index(), 2u);
  EXPECT_EQ(patrol.reached(), std::vector<std::size_t>{0});
}

}  // namespace
}  // namespace stagger::ai
