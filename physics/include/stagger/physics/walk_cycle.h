#pragma once
// A ragdoll's own walk, recorded once and played back kinematically: what a far enemy that is
// not simulated (an activity level below `active`) is drawn with. The cycle is taken from the
// ragdoll walking straight on flat ground in a private world, so the played gait is the
// simulated one: same stride, cadence, sway and arm swing.

#include <array>
#include <string>
#include <vector>

#include "stagger/core/math.h"
#include "stagger/physics/ragdoll_settings.h"
#include "stagger/physics/skeleton.h"
#include "stagger/physics/world.h"

namespace stagger::physics {

/// A part's place relative to the walker's root: the point on the ground under its pelvis,
/// heading +Z.
struct PartPose {
  Vec3 position;  ///< [m] centre of mass, relative to the root
  Quat rotation;  ///< relative to the root's heading
};
using BodyPoses = std::array<PartPose, kBodyPartCount>;

struct WalkCycle {
  static constexpr int kFrames = 64;  ///< frames per cycle (two steps), evenly spaced in time
  float speed_mps = 0;                ///< [m/s] the speed it was recorded at
  float stride_m = 0;                 ///< [m] ground covered in one cycle
  float period_s = 0;                 ///< [s] one cycle
  std::vector<BodyPoses> frames;      ///< kFrames of them; the last wraps to the first
  BodyPoses standing;                 ///< standing still, before it set off
  /// Phases [0, 1) where a walker handed to its controllers walks on with the least jolt: each
  /// frame is tried at recording (posed, moving as the playback moves, resumed, one step), and
  /// those within 0.1 m/s of the smallest body speed change are kept.
  std::vector<float> hand_over_phases;
};

/// How the recording went wrong, if it did (the walker fell or never settled into a gait).
struct WalkCycleResult {
  WalkCycle cycle;
  bool ok = false;
  std::string error;
};

/// Walks a ragdoll of `settings` straight along +Z at `speed_mps` on flat ground for a few
/// seconds of `world`'s fixed step, and records one steady cycle (two steps, from a step's start
/// to the start of the step after next). About 1500 steps of one ragdoll: tens of milliseconds.
WalkCycleResult record_walk_cycle(const RagdollSettings& settings, const WorldSettings& world,
                                  float speed_mps);

/// The cycle at `phase` (cycles, any real number; wraps) blended toward the standing pose by
/// `1 - walk_weight` (walk_weight in [0, 1]: 0 stands, 1 walks), in the root's frame.
BodyPoses sample_walk_cycle(const WalkCycle& cycle, float phase, float walk_weight);

/// `local` placed in the world at `root` [m] facing `yaw_rad` [rad] (0 = +Z).
void place_poses(const BodyPoses& local, Vec3 root, float yaw_rad,
                 std::array<BodyState, kBodyPartCount>& out);

/// The phase [cycles, 0-1) whose frame matches `world_parts` (seen from `root`, `yaw_rad`) best:
/// the least summed squared distance of the parts' positions.
float closest_phase(const WalkCycle& cycle,
                    const std::array<BodyState, kBodyPartCount>& world_parts, Vec3 root,
                    float yaw_rad);

}  // namespace stagger::physics
