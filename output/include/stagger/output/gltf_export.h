#pragma once
// `stagger export RECORDING -o OUT.gltf`: an animated glTF 2.0 of a run. One node per
// body (the ragdolls' parts as capsules and boxes, the physics hands as boxes) with translation
// and rotation channels sampled at a fixed rate, and the level's static geometry as static meshes,
// all in one .gltf file with its buffer embedded. Y up, metres, as glTF wants and as Stagger is.

#include <string>

#include "stagger/core/result.h"
#include "stagger/sim/death_clips.h"
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

/// `stagger export CLIPS.stclip -o OUT.gltf`: a death clip library as glTF 2.0. A node per body
/// part with its shape (from the library's rig), and one animation per clip (`clip-01`, ...) with
/// a LINEAR translation and rotation sampler per part on that part's own keys, in the clip's root
/// frame: the feet at the origin, facing +Z. Nodes rest in the first clip's first pose.
Result<bool> write_clips_gltf(const sim::DeathClipLibrary& library, const std::string& path);

}  // namespace stagger::output
