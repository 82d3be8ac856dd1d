#pragma once
// The fixed-step accumulator a game loop owns (docs/design.md, Conventions): every rendered frame
// adds its duration and the loop runs as many whole physics steps as fit, so headless runs, the
// desktop window, VR and a game of your own all call the same World::step at the same rate. The
// fraction of a step left over is the `alpha` a renderer interpolates the last two steps by.
// Catch-up is clamped so that a stall (a breakpoint, a loading hitch) cannot spiral.

#include <algorithm>
#include <cmath>

#include "stagger/core/assert.h"

namespace stagger {

class StepClock {
 public:
  /// `step_s` [s] is the fixed physics step; `max_catch_up_s` [s] bounds the simulated time one
  /// frame may run (what is past it is dropped, not simulated).
  explicit StepClock(double step_s, double max_catch_up_s = 0.25)
      : step_s_(step_s), max_catch_up_s_(max_catch_up_s) {
    STAGGER_ASSERT(step_s > 0 && max_catch_up_s >= step_s);
  }

  /// Adds a frame of `frame_s` seconds; returns how many physics steps to run now. A negative or
  /// non-finite frame time counts as zero.
  int advance(double frame_s) {
    if (!std::isfinite(frame_s) || frame_s < 0) frame_s = 0;
    accumulator_ += frame_s;
    if (accumulator_ > max_catch_up_s_) {
      dropped_s_ += accumulator_ - max_catch_up_s_;
      accumulator_ = max_catch_up_s_;
    }
    // A tolerance of a millionth of a step keeps 240 Hz physics under a 90 Hz display at exactly
    // 8 steps per 3 frames despite rounding.
    const int steps = static_cast<int>(std::floor(accumulator_ / step_s_ + kRoundingSteps));
    accumulator_ = std::max(0.0, accumulator_ - steps * step_s_);
    return steps;
  }
  /// [0, 1) the fraction of a step left in the accumulator: draw the state `alpha` of the way
  /// from the step before the last to the last one.
  double alpha() const { return std::min(accumulator_ / step_s_, 1.0); }
  /// [s] frame time thrown away by the catch-up clamp so far.
  double dropped_s() const { return dropped_s_; }
  /// [s] the fixed step.
  double step_s() const { return step_s_; }

 private:
  static constexpr double kRoundingSteps = 1e-6;  // [steps]

  double step_s_;
  double max_catch_up_s_;
  double accumulator_ = 0;
  double dropped_s_ = 0;
};

}  // namespace stagger
