#pragma once
// `stagger bench --knock-downs N`: standing enemies knocked down by a blow in seeded random
// directions, on flat ground, a 12° slope or a building's stairs, and timed from the blow to
// standing again. A measurement, not a test: how a body lands is chaotic, so one knock-down says
// little and the figures are distributions over many.
//
// Every enemy stands in its own lane (8 m apart, far beyond a fall's reach) of one shared
// surface; a world holds up to `lanes_per_world` of them, and worlds run one after another.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "stagger/core/math.h"
#include "stagger/physics/ragdoll_settings.h"
#include "stagger/physics/skeleton.h"

namespace stagger::bench {

enum class KnockDownGround : std::uint8_t { flat, slope, stairs };

/// "flat", "slope", "stairs".
std::string_view name_of(KnockDownGround ground);
/// The ground named `name`, if it is one.
bool parse_knock_down_ground(std::string_view name, KnockDownGround& out);

/// The surfaces: a 12° slope rising along +Z through the origin; stairs of 0.17 m risers and
/// 0.28 m treads rising along +Z, the enemy standing on the middle tread of a 20-tread flight.
inline constexpr float kKnockDownSlopeDeg = 12.0f;
inline constexpr float kKnockDownRiserM = 0.17f;
inline constexpr float kKnockDownTreadM = 0.28f;

/// Height [m] of the knock-down surface `ground` at (x, z): flat 0, the slope, the stairs' treads.
float knock_down_ground_height(KnockDownGround ground, float z);

struct KnockDownOptions {
  int knock_downs = 200;
  std::uint64_t seed = 1;  ///< blow directions and spawn headings follow from it
  KnockDownGround ground = KnockDownGround::flat;
  float impulse_ns = 150.0f;  ///< [N·s] the blow, horizontal, at the part's centre of mass
  physics::BodyPart part = physics::BodyPart::chest;
  int lanes_per_world = 25;          ///< enemies (and lanes) per world
  physics::RagdollSettings ragdoll;  ///< every enemy's (`--settings`)
  std::function<bool()> stop;        ///< asked before every step: true ends the run early
  /// After each world: knock-downs done so far, of `knock_downs`.
  std::function<void(int done, int total)> progress;
};

/// One knock-down. Times are from the blow [s]; < 0 when it did not happen in the run's 12 s.
struct KnockDown {
  int index = 0;
  float direction_deg = 0;  ///< [deg] of the blow, yaw (0 = +Z, 90 = +X)
  float heading_deg = 0;    ///< [deg] the enemy's heading at spawn, yaw
  double fell_s = -1;       ///< the fall was decided (drives let go)
  double down_s = -1;       ///< the body was declared lying still (`down`)
  double stood_s = -1;      ///< the first get-up that stood
  int failed_get_ups = 0;   ///< attempts that fell back before the one that stood
  bool fell_again = false;  ///< fell within 2 s of standing
  /// [m] highest lowest-corner of a foot above the ground under it while getting up
  float max_foot_lift_m = 0;
  /// [m] highest the pelvis came above its standing height over the ground under the higher foot
  /// (on the stairs the highest tread under that foot's sole) while getting up (negative: never
  /// that high)
  float max_pelvis_over_standing_m = -1;
  float max_joint_separation_m = 0;  ///< [m] over the whole run, from the blow on

  double fall_to_down_s() const { return fell_s >= 0 && down_s >= 0 ? down_s - fell_s : -1; }
  double down_to_up_s() const { return down_s >= 0 && stood_s >= 0 ? stood_s - down_s : -1; }
};

struct KnockDownResult {
  KnockDownGround ground = KnockDownGround::flat;
  std::uint64_t seed = 0;
  float impulse_ns = 0;
  physics::BodyPart part = physics::BodyPart::chest;
  std::vector<KnockDown> runs;
  double wall_s = 0;
  std::uint64_t state_hash = 0;  ///< the finished worlds' final states, combined
  bool interrupted = false;      ///< `stop` ended it: the figures are of the worlds that finished

  /// Knock-downs that stood within `seconds` of the blow.
  int stood_within(double seconds) const;
};

/// Runs the knock-downs. Single-threaded and deterministic.
KnockDownResult run_knock_downs(const KnockDownOptions& options);

/// Percentile `p` (0..100, nearest rank) of `values`; 0 when empty.
double percentile(std::vector<double> values, double p);

/// The summary: how many stood within 5, 6 and 8 s, the distributions (median, 90th, 99th
/// percentile, worst) of the blow to the fall, the fall to `down`, `down` to standing and the
/// blow to standing, the failed attempts, and the worst foot lift, pelvis height and joint
/// separation.
std::string knock_down_table(const KnockDownResult& result);
/// The same as JSON, with every knock-down.
std::string knock_down_report_json(const KnockDownResult& result);

}  // namespace stagger::bench
