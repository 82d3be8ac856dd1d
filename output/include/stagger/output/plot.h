#pragma once
// `stagger sim --plot FILE.png`: one panel per enemy with its balance error and pelvis height
// over time, the background banded by locomotion state (standing, stepping, walking, falling,
// down, getting up, dead) and the scripted pushes marked with their impulse.

#include <string>
#include <vector>

#include "stagger/image/canvas.h"
#include "stagger/sim/simulation.h"

namespace stagger::output {

class TracePlot {
 public:
  /// `pushes` are marked on the panels of the enemies they hit.
  explicit TracePlot(std::vector<sim::PushEvent> pushes = {}) : pushes_(std::move(pushes)) {}
  /// Takes one sample per enemy of the step that just ran.
  void record(const sim::Simulation& simulation);

  /// The picture: `width` pixels wide, 240 pixels per enemy plus a title and legend.
  image::Canvas render(int width = 1200) const;
  /// Pixel column of time `t` in a picture `width` wide (for tests).
  static float x_of(double t, double end_s, int width);
  bool write_png(const std::string& path, int width = 1200) const;

 private:
  struct Sample {
    float t = 0;         // [s]
    float error_m = 0;   // [m]
    float pelvis_m = 0;  // [m]
    physics::LocomotionState state = physics::LocomotionState::standing;
  };
  void draw_panel(image::Canvas& canvas, std::size_t enemy, float top, double end_s) const;

  std::vector<sim::PushEvent> pushes_;
  std::vector<std::string> names_;
  std::vector<std::vector<Sample>> samples_;
};

/// The band colour of a locomotion state in plots.
image::Colour state_colour(physics::LocomotionState state);

}  // namespace stagger::output
