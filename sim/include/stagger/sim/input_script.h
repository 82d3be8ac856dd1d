#pragma once
// Headless input scripts (docs/design.md, Input scripts): timed events read from JSON, validated
// before anything is simulated: `push`, `hand`, `player`, `kill`, `walk` (an extension: a
// locomotion intent given directly) and `blast`. Every problem is reported as `FILE:LINE:COL:
// error: events[N] (TYPE at t=T): message`; every number is finite and inside the bounds of
// stagger/core/limits.h (times up to a day, positions inside the world, impulses up to 1000 N·s,
// walking speeds up to the gait's top speed).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stagger/core/result.h"
#include "stagger/levels/json_tree.h"
#include "stagger/physics/locomotion.h"
#include "stagger/physics/skeleton.h"
#include "stagger/sim/scene.h"

namespace stagger::sim {

struct PushEvent {
  double t = 0;  ///< [s] simulation time
  std::string enemy;
  physics::BodyPart body = physics::BodyPart::chest;
  Vec3 impulse;                     ///< [N·s] world space
  std::size_t event_index = 0;      ///< position in the file's `events` array, for messages
  levels::TextPosition enemy_at{};  ///< where the enemy's name stands in the file
};

/// Limp for good: the enemy becomes a corpse.
struct KillEvent {
  double t = 0;  ///< [s]
  std::string enemy;
  std::size_t event_index = 0;
  levels::TextPosition enemy_at{};
  /// [N·s] the killing blow, in the world: an enemy that is not a full ragdoll plays the death
  /// clip nearest it (Simulation::kill_enemy); unset: it just goes limp
  std::optional<Vec3> hit;
};

/// From `t` on, the enemy walks as told (until the next walk event for it).
struct WalkEvent {
  double t = 0;  ///< [s]
  std::string enemy;
  physics::LocomotionIntent intent;  ///< velocity [m/s], gait, optional facing
  std::size_t event_index = 0;
  levels::TextPosition enemy_at{};
};

/// From `t` on, the player stands with their feet at `position` (enemies see the head above
/// them); `present: false` takes the player out of the level. Before the first player event a
/// headless run has no player.
struct PlayerEvent {
  double t = 0;  ///< [s]
  bool present = true;
  Vec3 position;               ///< [m] feet
  float head_height_m = 1.7f;  ///< [m] eyes above the feet
  std::size_t event_index = 0;
};

/// A physics hand moving along a path: straight lines between the points, at the times given,
/// sampled at physics-step times; before the first point it waits there, after the last it stays.
struct HandEvent {
  struct Point {
    double t = 0;   ///< [s]
    Vec3 position;  ///< [m]
  };
  double t = 0;             ///< [s]
  int hand = 1;             ///< 0 left, 1 right
  std::vector<Point> path;  ///< at least one point, times not decreasing
  std::size_t event_index = 0;
};

/// A blast at `position`: the enemies within `radius_m` that are not full ragdolls are thrown as
/// fake ragdolls (stagger/sim/fake_ragdolls.h).
struct BlastEvent {
  double t = 0;          ///< [s]
  Vec3 position;         ///< [m] the blast's centre
  float radius_m = 0;    ///< [m] 0 < m <= kMaxBlastRadiusM
  float impulse_ns = 0;  ///< [N·s] 0 < N·s <= limits::kMaxImpulseNs
  std::size_t event_index = 0;
};

/// [m] the largest blast radius a script may give: a whole arena, not a whole world.
inline constexpr double kMaxBlastRadiusM = 100.0;

struct InputScript {
  std::vector<PushEvent> pushes;     ///< sorted by time (stable: equal times keep file order)
  std::vector<KillEvent> kills;      ///< sorted by time
  std::vector<WalkEvent> walks;      ///< sorted by time
  std::vector<PlayerEvent> players;  ///< sorted by time
  std::vector<HandEvent> hands;      ///< sorted by time
  std::vector<BlastEvent> blasts;    ///< sorted by time
};

/// Parses a script. `source` names it in error messages. Every problem is reported, one per line.
Result<InputScript> parse_input_script(std::string_view json_text, std::string_view source);

/// Checks the script against a scene (enemy names), in the same form. Returns an empty string when
/// it fits.
std::string check_against_scene(const InputScript& script, const SceneDescription& scene,
                                std::string_view source);

}  // namespace stagger::sim
