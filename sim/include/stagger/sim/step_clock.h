#pragma once
// The fixed-step accumulator owned by the application loop (docs/design.md, Conventions): every
// frame adds its duration and the loop runs as many whole physics steps as fit, so headless runs,
// the desktop window and VR all call the same World::step. Catch-up is clamped so a stall cannot
// spiral.

#include <cstdint>

namespace stagger::sim {

class StepClock {
 public:
  /// `step_s` is the fixed physics step; `max_catch_up_s` bounds the steps one frame may run.
  explicit StepClock(double step_s, double max_catch_up_s = 0.25);

  /// Adds a frame of `frame_s` seconds; returns how many physics steps to run now.
  int advance(double frame_s);
  /// Fraction of a step left in the accumulator, for interpolating the rendered state.
  double alpha() const { return accumulator_ / step_s_; }
  /// Frame time thrown away by the catch-up clamp so far [s].
  double dropped_s() const { return dropped_s_; }

 private:
  double step_s_;
  double max_catch_up_s_;
  double accumulator_ = 0;
  double dropped_s_ = 0;
};

}  // namespace stagger::sim
