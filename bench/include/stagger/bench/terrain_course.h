#pragma once
// `stagger bench --terrain`: a generated course of stairs, ramps and kerbs, each feature crossed
// many times by walking enemies, counting the crossings that end in a fall. A measurement, not a
// test: whether a foot lands across an edge is chaotic, so one walk says little and the figure is
// falls per 100 crossings over many nudged spawns.
//
// Every feature is a lane of static boxes on flat ground; a world holds up to `lanes_per_world`
// copies of one feature side by side, one enemy each, and worlds run one after another.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "stagger/core/math.h"
#include "stagger/physics/locomotion.h"
#include "stagger/physics/ragdoll_settings.h"
#include "stagger/physics/world.h"

namespace stagger::bench {

enum class TerrainKind : std::uint8_t { stairs, ramp, kerb };
/// Up and down: along the feature's rise (or fall). Across: along a ramp's contour.
enum class TerrainWay : std::uint8_t { up, down, across };

/// One feature of the course and the way it is walked.
struct TerrainFeature {
  std::string name;  ///< e.g. `stairs 0.17/0.28 up 30deg`, `ramp 12deg across`, `kerb 0.15 down`
  TerrainKind kind = TerrainKind::stairs;
  TerrainWay way = TerrainWay::up;
  float riser_m = 0;      ///< [m] stairs: each riser; kerbs: the kerb's height
  float tread_m = 0;      ///< [m] stairs: each tread, nosing to nosing
  float slope_deg = 0;    ///< [deg] ramps
  float oblique_deg = 0;  ///< [deg] stairs: the walk's angle off the perpendicular to the nosings
};

/// Every feature of the course, in the order they are run and printed: stairs (six sizes, each up
/// and down, straight and at 30°), ramps (0, 8, 12, 16°: up, down, across), kerbs (0.05, 0.10,
/// 0.15 m: up, down).
std::vector<TerrainFeature> terrain_features();

/// Whether `name` is one of terrain_features()'s names.
bool is_terrain_feature(const std::string& name);

/// [m] spawn to a feature's first edge by default: walkers set off from standing and meet the
/// feature while still gathering speed. Longer approaches bring them to it at walking speed.
inline constexpr float kTerrainApproachM = 2.5f;

/// One lane: its boxes (standing on the ground, whose top is y = 0) and the crossing's nominal
/// line. An enemy is spawned at `start` (its soles; nudged per crossing), walks along `direction`,
/// and has crossed once its centre of mass is `distance_m` along `direction` from `start`.
struct TerrainLane {
  std::vector<physics::StaticBoxSettings> boxes;
  Vec3 start;                 ///< [m] the soles' nominal spawn point, on the surface
  Vec3 direction{0, 0, 1};    ///< unit, horizontal
  float distance_m = 0;       ///< [m] from `start` to the finish, along `direction`
  float approach_m = 0;       ///< [m] from `start` to the feature's first edge, along `direction`
  float width_m = 0;          ///< [m] the lane's geometry across (x)
  int risers = 0;             ///< stairs: risers in the flight, the last one up onto the landing
  float landing_depth_m = 0;  ///< [m] stairs, ramps, kerbs: the raised flat part at the top
};

/// The lane of `feature` whose centre line is x = `center_x`. The feature rises along +Z from its
/// first edge at z = 0 (the first riser, the foot of the ramp, the kerb); a stair flight's step k
/// (1-based) is the box whose front face is at z = (k - 1)·tread and whose top is at k·riser, and
/// the landing is the last. `approach_m`: the spawn's distance before the first edge.
TerrainLane terrain_lane(const TerrainFeature& feature, float center_x,
                         float approach_m = kTerrainApproachM);

struct TerrainOptions {
  int crossings = 200;  ///< per feature
  /// [m] spawn to each feature's first edge, along the walk (a down walk's landing, the ramps'
  /// tops and the kerbs' platforms are this deep and 1.5 m more); walks across a ramp start on it
  float approach_m = kTerrainApproachM;
  std::uint64_t seed = 1;             ///< the spawns' nudges follow from it
  int lanes_per_world = 40;           ///< enemies (and lanes) per world
  std::vector<std::string> features;  ///< names to run; empty: the whole course
  physics::RagdollSettings ragdoll;   ///< every walker's (`--settings`)
  std::function<bool()> stop;         ///< asked before every step: true ends the run early

  /// After each world: which it was and what it gave (for a progress line).
  struct Progress {
    int world = 0;   ///< 1-based
    int worlds = 0;  ///< in the whole run
    std::string feature;
    int first_crossing = 0;  ///< 0-based index of the world's first crossing of its feature
    int lanes = 0;           ///< crossings the world holds
    int falls = 0;
    int stuck = 0;
    bool interrupted = false;  ///< `stop` ended it; its crossings are not counted
    double wall_s = 0;         ///< [s] the world's wall time
  };
  std::function<void(const Progress&)> progress;
};

/// Stuck: not across by the time limit. Strayed: farther than 3 m from its line before that (it
/// turned away from the crossing); the table counts both as stuck.
enum class CrossingOutcome : std::uint8_t { arrived, fell, stuck, strayed };

/// A crossing that failed, and where: for the report's list.
struct CrossingFailure {
  int crossing = 0;  ///< 0-based index within its feature
  CrossingOutcome outcome = CrossingOutcome::fell;
  double time_s = 0;      ///< [s] from the walking intent to the fall or the stray (< 0: settling;
                          ///< stuck: the time limit)
  float along_m = 0;      ///< [m] centre of mass from the nominal start along the walk
  float feature_z_m = 0;  ///< [m] centre of mass from the feature's first edge along its rise
  float aside_m = 0;      ///< [m] centre of mass from the nominal line, to the walk's left
  /// fell: why (tripped, slipped, stepped_off_edge, lost_balance; see physics::FallCause)
  physics::FallCause cause = physics::FallCause::lost_balance;
};

struct TerrainFeatureResult {
  TerrainFeature feature;
  int crossings = 0;  ///< decided: arrived, fell or stuck
  int falls = 0;
  int stuck = 0;             ///< stuck or strayed
  double median_time_s = 0;  ///< [s] of the arrivals, from the walking intent; 0 without any
  /// [m] the farthest any centre of mass strayed from its nominal line before its crossing was
  /// decided: the walk follows a velocity, not the line, so it drifts (the lanes leave room)
  float max_aside_m = 0;
  std::vector<CrossingFailure> failures;

  double falls_per_100() const { return crossings > 0 ? 100.0 * falls / crossings : 0.0; }
};

struct TerrainResult {
  std::vector<TerrainFeatureResult> features;  ///< those that ran, in course order
  int crossings_per_feature = 0;               ///< asked for
  std::uint64_t seed = 0;
  float approach_m = 0;          ///< [m] as asked for
  float physics_hz = 0;          ///< [Hz]
  double wall_s = 0;             ///< [s]
  std::uint64_t state_hash = 0;  ///< the finished worlds' final state hashes, combined
  bool interrupted = false;      ///< `stop` ended it: the figures are of the worlds that finished
};

/// Runs the course. Single-threaded and deterministic: the same options give the same result, bit
/// for bit. Unknown names in `options.features` are skipped.
TerrainResult run_terrain_course(const TerrainOptions& options);

/// The table: a row per feature (crossings, falls, stuck, falls per 100, median time) and a total.
std::string terrain_table(const TerrainResult& result);
/// The same as JSON, with every failed crossing and where it failed.
std::string terrain_report_json(const TerrainResult& result);

}  // namespace stagger::bench
