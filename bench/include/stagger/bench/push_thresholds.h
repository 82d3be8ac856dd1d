#pragma once
// `stagger bench --push-thresholds`: where a standing enemy stops catching a push. Chest pushes
// in 8 directions around the body (forward, front-left, left, ... front-right), each at 6 push
// times 0.1 s apart, at every impulse from 15 to 100 N·s in 5 N·s steps; a run falls if the
// drives let go within 4 s of the push. Per direction:
//   S, the largest impulse that and every smaller one survive at all push times;
//   T, the smallest impulse that fells the body at all push times, above which every impulse
//     fells it at least 5 times in 6 (none: no such impulse in the range).
// A push that falls at one time and not another, or a smaller impulse falling where a larger
// survives, shows the stepping giving up on some bodies that others catch. Mirrored directions
// (left and right, front-left and front-right, back-left and back-right) are compared by S.
//
// Every enemy stands alone in its own lane of one flat ground, facing +Z; a world holds
// `lanes_per_world` of them, and worlds run one after another. Single-threaded, deterministic.

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "stagger/physics/ragdoll_settings.h"
#include "stagger/physics/skeleton.h"

namespace stagger::bench {

inline constexpr int kPushDirections = 8;
/// The directions' names, in order of their yaw from the body's forward (0°, 45°, ... toward the
/// body's left first).
std::string_view push_direction_name(int direction);

struct PushThresholdOptions {
  float from_ns = 15.0f;  ///< [N·s] the smallest impulse
  float to_ns = 100.0f;   ///< [N·s] the largest
  float step_ns = 5.0f;   ///< [N·s]
  int push_times = 6;     ///< pushes at 1.0 s, 1.1 s, ... after the spawn
  physics::BodyPart part = physics::BodyPart::chest;
  int lanes_per_world = 48;
  physics::RagdollSettings ragdoll;  ///< every enemy's (`--settings`)
  std::function<bool()> stop;        ///< asked before every step: true ends the run early
  /// After each world: runs done so far, of the total.
  std::function<void(int done, int total)> progress;
};

/// One push.
struct PushRun {
  int direction = 0;         ///< 0..7, push_direction_name
  int time_index = 0;        ///< 0..push_times-1
  int impulse_index = 0;     ///< from from_ns upward
  float impulse_ns = 0;      ///< [N·s]
  bool fell = false;         ///< the drives let go within the watch
  double fell_after_s = -1;  ///< [s] from the push, when it fell
  int steps = 0;             ///< steps taken after the push
};

struct DirectionThresholds {
  std::optional<float> survives_ns;  ///< S [N·s]; none when the smallest impulse already falls
  std::optional<float> falls_ns;     ///< T [N·s]; none when no impulse in the range qualifies
  std::vector<int> falls;            ///< per impulse (from_ns upward), of push_times
};

struct PushThresholdResult {
  PushThresholdOptions options;  ///< as run (without the callbacks' use)
  std::vector<PushRun> runs;
  std::array<DirectionThresholds, kPushDirections> directions;
  double wall_s = 0;
  std::uint64_t state_hash = 0;  ///< the finished worlds' final states, combined
  bool interrupted = false;      ///< `stop` ended it: the figures are of the worlds that finished

  /// The impulses of the sweep, from_ns upward [N·s].
  std::vector<float> impulses() const;
};

/// Runs the sweep (options.push_times × 8 directions × every impulse).
PushThresholdResult run_push_thresholds(const PushThresholdOptions& options);
/// S and T of one direction from its falls per impulse (`falls[i]` of `push_times` at
/// `impulses[i]`).
DirectionThresholds thresholds_of(const std::vector<float>& impulses, const std::vector<int>& falls,
                                  int push_times);

/// The table: per direction S, T, T - S and the falls per impulse; the mirrored pairs' S.
std::string push_threshold_table(const PushThresholdResult& result);
/// The same as JSON, with every push.
std::string push_threshold_report_json(const PushThresholdResult& result);

}  // namespace stagger::bench
