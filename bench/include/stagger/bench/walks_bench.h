#pragma once
// `stagger bench --walks`: how far planted feet slide on flat ground. Ten scripted walks of one
// enemy on the built-in scene, 12 s each at 240 Hz, walking at 1.2 m/s from 0.5 s: straight along
// +X, -X, +Z, -Z and the diagonal, and along +Z turning by 0°, 45°, 90°, 135° or 180° (toward +X,
// the body's left) at 5 s and stopping at 9 s. Per walk the fall witness's largest slide of a
// planted foot within one stance (the report's `max_foot_slip_m`) and the falls; over all walks
// the distribution of the slide per stance. Deterministic: the same build gives the same figures.
// But a walk's largest slide is chaotic (a sideways 1e-7 m/s in a walk's velocity changed one
// from 0.035 to 0.085 m): the slides per stance, and walks from nudged spawns, say more.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "stagger/core/math.h"
#include "stagger/physics/ragdoll_settings.h"

namespace stagger::bench {

/// One walk's script: the velocity from 0.5 s, and where it turns, the velocity from `turn_s`
/// and the stop at `stop_s`.
struct WalkDefinition {
  std::string name;      ///< e.g. `straight +X`, `+Z, turn 90deg, stop`
  Vec3 velocity;         ///< [m/s] from 0.5 s
  bool turns = false;    ///< the walk turns and stops
  Vec3 turned_velocity;  ///< [m/s] from turn_s
};

/// The ten walks, in the order they are run and printed.
std::vector<WalkDefinition> walk_definitions();

struct WalksOptions {
  float bar_m = 0.02f;  ///< [m] a stance sliding farther counts as over (the aim)
  /// Nudges the walker's spawn as `stagger sim --vary` does (up to 1 cm and 0.5°): independent
  /// samples of the same walks. Unset: the spawn as the scene has it.
  std::optional<std::uint64_t> vary_seed;
  physics::RagdollSettings ragdoll;  ///< the walker's (`--settings`)
  std::function<bool()> stop;        ///< asked before every step: true ends the run early
};

struct WalkRun {
  std::string name;
  float max_foot_slip_m = 0;  ///< [m] the witness's largest slide within one stance
  int stances = 0;            ///< stances watched to their end (or to the walk's end)
  int stances_over = 0;       ///< ... sliding farther than the bar
  int falls = 0;
  int steps_taken = 0;
};

struct WalksResult {
  WalksOptions options;  ///< as run (without the callbacks' use)
  std::vector<WalkRun> walks;
  std::vector<float> stance_slips_m;  ///< [m] every stance of every walk, in order
  double wall_s = 0;
  std::uint64_t state_hash = 0;  ///< the walks' final states, combined
  bool interrupted = false;      ///< `stop` ended it: the figures are of the walks that finished
};

/// Runs the ten walks one after another.
WalksResult run_walks(const WalksOptions& options);

/// The table `stagger bench --walks` prints.
std::string walks_table(const WalksResult& result);
/// The same as JSON, with every stance's slide.
std::string walks_report_json(const WalksResult& result);

}  // namespace stagger::bench
