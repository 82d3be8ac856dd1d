#pragma once
// `stagger export RECORDING -o OUT.gltf`: an animated glTF 2.0 of a run. One node per
// body (the ragdolls' parts as capsules and boxes, the physics hands as boxes) with translation
// and rotation channels sampled at a fixed rate, and the level's static geometry as static meshes,
// all in one .gltf file with its buffer embedded. Y up, metres, as glTF wants and as Stagger is.

#include <string>

#include "stagger/core/result.h"
#include "stagger/sim/simulation.h"

namespace stagger::output {

/// Samples a running simulation's bodies; `record` after every step, `write` at the end.
class GltfAnimation {
 public:
  /// `sample_hz` between 30 and 60 (and at most the physics rate).
  GltfAnimation(const sim::Simulation& simulation, double sample_hz);
  void record(const sim::Simulation& simulation);
  Result<bool> write(const std::string& path) const;
  int frames() const { return static_cast<int>(times_.size()); }

 private:
  struct Track {
    std::string name;
    physics::BodyId body{};
    physics::BodySettings shape;  // kind and sizes
    std::vector<Vec3> translations;
    std::vector<Quat> rotations;
  };
  std::vector<Track> tracks_;
  std::vector<float> times_;
  int every_steps_ = 1;
  sim::SceneDescription scene_;
};

}  // namespace stagger::output
