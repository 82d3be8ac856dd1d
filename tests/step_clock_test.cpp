// The application's fixed-step accumulator.

#include "stagger/core/step_clock.h"

#include <gtest/gtest.h>

namespace stagger {
namespace {

TEST(StepClock, NinetyHertzDisplayRunsEightStepsPerThreeFrames) {
  StepClock clock(1.0 / 240.0);
  int steps = 0;
  for (int frame = 0; frame < 90 * 60; ++frame) steps += clock.advance(1.0 / 90.0);
  EXPECT_EQ(steps, 240 * 60);
}

TEST(StepClock, OneFrameCanRunSeveralOrNoSteps) {
  StepClock clock(0.01);
  EXPECT_EQ(clock.advance(0.005), 0);
  EXPECT_NEAR(clock.alpha(), 0.5, 1e-9);
  EXPECT_EQ(clock.advance(0.025), 3);
}

TEST(StepClock, CatchUpIsClamped) {
  StepClock clock(0.01, 0.1);
  EXPECT_EQ(clock.advance(2.0), 10);  // a 2 s stall runs 0.1 s of steps
  EXPECT_NEAR(clock.dropped_s(), 1.9, 1e-9);
}

}  // namespace
}  // namespace stagger
