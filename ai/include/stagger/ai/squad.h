#pragma once
// The minds of a scene's enemies: one navigator (crowd and leash) for all of them, eyes and a
// brain for each. Each tick reads the ragdolls and the player, and writes what the legs and the
// right arm do.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "stagger/ai/brain.h"
#include "stagger/ai/navigator.h"
#include "stagger/ai/perception.h"
#include "stagger/physics/ragdoll.h"

namespace stagger::ai {

struct SquadMember {
  physics::Ragdoll* body = nullptr;
  Vec3 spawn;                      ///< [m] feet
  float yaw_rad = 0;               ///< [rad] spawn facing; guards hold it
  std::vector<PatrolPoint> route;  ///< empty: guards its spawn point
  PatrolMode mode = PatrolMode::loop;
  // This member's own tuning (a level's profile); unset: the squad's.
  std::optional<BrainSettings> brain;
  std::optional<PerceptionSettings> perception;
  std::optional<PatrolSettings> patrol;
};

struct SquadSettings {
  LeashSettings leash;
  BrainSettings brain;
  PerceptionSettings perception;
  PatrolSettings patrol;
  float arrived_m = 0.25f;      ///< [m] the body stands when this close to its aim
  float settled_speed = 0.15f;  ///< [m/s] slower than this the body stands (waits count from then)
  float braking_m = 1.0f;  ///< [m] it slows with the distance to its aim this close to the goal
  float turn_first_deg =
      45.0f;  ///< [deg] setting off facing farther than this away, it turns first
  /// [deg] walking, it stops and turns on the spot when its way lies farther than this off its
  /// heading
  float turn_back_deg = 90.0f;
  float max_walk_turn_deg_s = 60.0f;  ///< [deg/s] how fast the walking direction turns
  float min_turn_speed_scale = 0.5f;  ///< [-] speed kept while it still has to turn 90° or more
  /// [deg] while the body moves (at settled_speed or more), the walking direction stays within
  /// this of its heading: the gait answers a direction far off its heading by stepping sideways
  /// or turning over its feet, and on stairs such steps land on nosings
  float max_walk_lead_deg = 45.0f;
  /// [m] a walking body whose centre of mass is farther than this (across) from the navmesh is
  /// steered back onto it ...
  float off_navmesh_m = 0.0f;
  float back_onto_navmesh_gain = 2.0f;       ///< [1/s] ... at this speed per metre farther ...
  float max_back_onto_navmesh_speed = 0.5f;  ///< [m/s] ... at most
  /// Two patrolling bodies walking at each other in a narrow place (a stairwell's landing) can
  /// hold each other up: their agents, each steering for the corner the other stands at, stop
  /// face to face. Their agents stopped (slower than settled_speed) within this [m] ...
  float standoff_m = 1.2f;
  float standoff_s = 1.0f;         ///< [s] ... for this long, one gives way: ...
  float give_way_aside_m = 0.9f;   ///< [m] ... it steps this far aside, off the other's way, ...
  float give_way_clear_m = 1.5f;   ///< [m] ... and waits until the other's agent is this far ...
  float give_way_most_s = 8.0f;    ///< [s] ... or this long
  float stumble_hit_ns = 8.0f;     ///< [N·s] a hit at least this strong stuns ...
  float stumble_window_s = 0.25f;  ///< [s] ... for this long after it (then until calm) ...
  float catch_window_s = 3.0f;     ///< [s] ... and balance steps this soon after it stun too
  std::uint64_t seed = 0x5EED;     ///< punch aims; each member gets its own stream
};

class Squad {
 public:
  /// `capacity`: how many members the squad can ever hold, those added later included (0: as
  /// many as `members`).
  Squad(std::shared_ptr<const Navmesh> navmesh, const NavigationSettings& navmesh_settings,
        const physics::World& world, const std::vector<SquadMember>& members,
        SquadSettings settings = {}, int capacity = 0);

  /// Adds a member; returns its index. Its mind is off (`active` false) when its spawn is off the
  /// navmesh or the squad is at its capacity.
  int add(const SquadMember& member);
  /// Forgets a member (its body is about to go): its agent leaves the crowd and its index stays
  /// taken.
  void remove(int member);
  /// A member's body was teleported to `feet` [m]: its agent follows. False when `feet` is off
  /// the navmesh (its agent then stays where it was).
  bool teleport(int member, Vec3 feet);
  /// False once a member was removed.
  bool present(int member) const {
    return members_[static_cast<std::size_t>(member)].body != nullptr;
  }

  void set_player(const PlayerView& player) { player_ = player; }
  /// Hands a member's legs to someone else (an input script's walk events): its mind stops
  /// commanding the body, and its agent waits.
  void release(int member) { members_[static_cast<std::size_t>(member)].released = true; }
  /// One tick of `dt` seconds: eyes, brains, navigation, then the bodies' intents.
  void tick(float dt);

  int size() const { return static_cast<int>(members_.size()); }
  /// False for a member whose spawn is off the navmesh: it has no mind and just stands.
  bool active(int member) const { return members_[static_cast<std::size_t>(member)].handle >= 0; }
  bool released(int member) const { return members_[static_cast<std::size_t>(member)].released; }
  const Brain& brain(int member) const { return *members_[static_cast<std::size_t>(member)].brain; }
  const Perception& perception(int member) const {
    return members_[static_cast<std::size_t>(member)].eyes;
  }
  const Navigator::Follow& follow(int member) const;
  /// The next corners of a member's planned path, nearest first [m] (for the debug overlay).
  std::vector<Vec3> path_corners(int member) const;
  /// CPU time of the calling thread in the last navigation tick (projection, leash, crowd) [ms].
  double last_navigation_ms() const { return last_navigation_ms_; }

 private:
  struct Member {
    physics::Ragdoll* body = nullptr;
    int handle = -1;  // in the navigator
    std::optional<Brain> brain;
    Perception eyes;
    bool released = false;
    BodyCondition condition = BodyCondition::upright;  // this tick's
    bool walking = false;
    float walk_yaw = 0;      // [rad] direction of the walk, turned at a limited rate
    int facing = -1;         // the member it has stood face to face with ...
    Vec3 facing_from;        // [m] ... its agent standing about here ...
    float facing_s = 0;      // [s] ... for this long
    int giving_way_to = -1;  // the member it steps aside for (-1: none) ...
    Vec3 aside;              // [m] ... to here (on the navmesh) ...
    float giving_way_s = 0;  // [s] ... for this long so far
  };
  BrainInput sense(Member& m, Vec3 player_on_navmesh, float dt);
  /// Whether another upright member is nearer the route point `m` patrols to, within the
  /// patrol's taken radius of it.
  bool route_point_taken(const Member& m) const;
  void command(Member& m, const BrainOutput& out, float dt);
  /// The first other member whose agent (`agents`: each upright member's, by member) stands
  /// within standoff_m of member `i`'s, on its floor, with the first corner of `i`'s path
  /// toward it; -1 if none. `i` is patrolling and upright.
  int holding_up(std::size_t i, const std::vector<std::optional<Vec3>>& agents) const;
  /// Finds pairs of members standing face to face and has one of each step aside; ends the
  /// giving way once the other has passed.
  void settle_standoffs(float dt);
  /// [m] where `m` steps aside for `other`: off the line between them, on the side farther from
  /// the other's way; none where the navmesh leaves no room.
  std::optional<Vec3> aside_for(const Member& m, const Member& other) const;
  static physics::LocomotionIntent turn_on_the_spot(float yaw_rad);
  /// The way a body setting off from `com` [m] heads: to the first corner of its agent's path,
  /// or along `to_goal` [m] (horizontal) without one.
  Vec3 way_out(const Member& m, Vec3 com, Vec3 to_goal) const;
  /// [m/s] a walking `velocity` for `body`, turned back onto the navmesh where the body is off it.
  Vec3 back_onto_navmesh(const physics::Ragdoll& body, Vec3 velocity) const;
  physics::LocomotionIntent walk(Member& m, float wanted_yaw, float speed, float to_goal_m,
                                 float to_aim_m, float dt) const;

  const physics::World& world_;
  std::shared_ptr<const Navmesh> navmesh_;
  SquadSettings settings_;
  Navigator navigator_;
  std::vector<Member> members_;
  std::uint64_t stream_;  // the punch-aim stream the next member's is drawn from
  PlayerView player_;
  std::vector<BrainOutput> outputs_;  // per member, this tick's
  // per member, this tick's agent where the member is upright (settle_standoffs' list, kept so
  // that the tick allocates nothing)
  std::vector<std::optional<Vec3>> upright_agents_;
  double last_navigation_ms_ = 0;
};

}  // namespace stagger::ai
