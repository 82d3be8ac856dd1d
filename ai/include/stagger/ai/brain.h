#pragma once
// The enemy brain: a state machine over what the body can do (from the ragdoll's state), what
// the eyes see (Perception) and where the legs got (Navigator). Pure logic over positions: it
// says where to go, how fast, where to face and what the right arm does; the navigator and the
// ragdoll do it. Transitions: docs/ai.md.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "stagger/ai/patrol.h"
#include "stagger/core/math.h"
#include "stagger/core/random.h"
#include "stagger/physics/locomotion.h"

namespace stagger::ai {

enum class BrainState : std::uint8_t { guard, patrol, chase, attack, search, stunned, down, dead };
std::string_view name_of(BrainState state);

/// The body as the brain sees it (the sim maps the ragdoll's locomotion state onto this).
enum class BodyCondition : std::uint8_t {
  upright,    ///< standing or walking
  stumbling,  ///< taking a balance step after a shove
  down,       ///< falling, lying or getting up
  dead,
};

struct BrainSettings {
  float patrol_speed = 1.0f;    ///< [m/s] (at 1.2 the gait fell about once a minute on patrol)
  float chase_speed = 1.5f;     ///< [m/s]
  float corner_slow_m = 1.5f;   ///< [m] slows this close to a route point where the route turns
  float attack_reach_m = 0.8f;  ///< [m] feet to the player's feet (horizontal) to punch
  float chase_repath_m =
      0.75f;  ///< [m] the chase target is re-requested when the player moves this far
  float search_arrived_m = 0.7f;  ///< [m] at the last seen position
  float look_around_s = 3.0f;     ///< [s] looking around there
  float look_angle_deg = 70.0f;   ///< [deg] to either side
  float calm_s = 0.5f;            ///< [s] upright without a balance step before a stun ends
  int stalls_to_skip = 3;         ///< stalls on one leg before its point is skipped
  int stalls_to_give_up_search = 2;
  float windup_s = 0.3f;    ///< [s] punch: the fist comes up, elbow bent
  float strike_s = 0.15f;   ///< [s] the arm straightens at the aim point ...
  float hold_s = 0.1f;      ///< [s] ... and stays out this long
  float recover_s = 0.45f;  ///< [s] the arm drops back before the next punch
};

struct BrainInput {
  BodyCondition body = BodyCondition::upright;
  Vec3 position;      ///< [m] the body's feet on the navmesh
  float yaw_rad = 0;  ///< [rad] where the body faces
  bool sees_player = false;
  Vec3 player_feet;  ///< [m] on the navmesh; valid while seen
  Vec3 player_head;  ///< [m] valid while seen
  bool remembers_player = false;
  Vec3 last_seen_feet;   ///< [m] valid while remembered
  bool stalled = false;  ///< the navigator found no progress for a while (and replanned)
  bool settled = true;   ///< the body stands still (a wait at a route point counts from then)
  /// another enemy is within the patrol's taken radius of the route point walked to
  bool route_point_taken = false;
  float dt = 0;  ///< [s]
};

struct BrainOutput {
  bool move = true;                 ///< false: leave the legs alone (stunned, down, dead)
  std::optional<Vec3> goal;         ///< [m] where to walk; none: stand
  float speed = 0;                  ///< [m/s]
  std::optional<float> facing_rad;  ///< turn to this heading when there
  physics::ArmReach right_arm;      ///< the punch
  bool forget_player = false;       ///< the last seen position has been searched
};

class Brain {
 public:
  /// `route` is the enemy's patrol (a one-point route guards that point); `seed` makes the punch
  /// aim reproducible.
  Brain(Patrol route, std::uint64_t seed, BrainSettings settings = {});

  BrainOutput update(const BrainInput& in);

  BrainState state() const { return state_; }
  const Patrol& patrol() const { return patrol_; }
  int punches() const { return punches_; }
  /// Whether a punch is under way (from the wind-up until the arm has dropped back).
  bool punching() const { return punch_s_ >= 0; }
  /// Route points given up after `stalls_to_skip` stalls on the leg to them, in order.
  const std::vector<std::size_t>& skipped_points() const { return skipped_; }
  /// The aim point of the last punch thrown [m].
  Vec3 last_aim() const { return aim_; }

 private:
  void enter(BrainState state);
  void choose_after_interruption(const BrainInput& in);
  void resume_route(Vec3 position);
  BrainOutput follow_route(const BrainInput& in);
  float corner_slowdown(Vec3 position) const;
  BrainOutput chase(const BrainInput& in);
  BrainOutput attack(const BrainInput& in);
  BrainOutput search(const BrainInput& in);
  void start_punch(const BrainInput& in);
  physics::ArmReach punch_arm(float dt);
  float next_uniform();

  Patrol patrol_;
  SplitMix64 rng_;
  BrainSettings settings_;
  BrainState state_;
  BrainState before_stun_ = BrainState::patrol;
  float state_s_ = 0;  // time in this state
  std::optional<Vec3> last_goal_;
  Vec3 chase_goal_;
  bool chase_goal_set_ = false;
  bool looking_ = false;  // search: at the spot, looking around
  float look_from_yaw_ = 0;
  int search_stalls_ = 0;
  std::size_t stalled_leg_ = 0;
  int leg_stalls_ = 0;
  float calm_s_ = 0;
  float punch_s_ = -1;  // time into the current punch; < 0: none
  Vec3 aim_;
  int punches_ = 0;
  std::vector<std::size_t> skipped_;
};

}  // namespace stagger::ai
