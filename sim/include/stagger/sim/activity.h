#pragma once
// Activity levels: how much of an enemy is simulated. Near the player, in view, touched or not
// yet calm, an enemy is `active`: the full ragdoll. Otherwise it is `light`: its ragdoll is out
// of the physics world and walks where its mind sends it as a kinematic pose, its own walk cycle
// (physics/walk_cycle.h) played along the ground. A blast throws light enemies as `fake`
// ragdolls (point bodies, sim/fake_ragdolls.h); a kill plays a `clip`; a corpse at rest far away
// is `asleep`. A cap on the active count keeps the nearest active.

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "stagger/ai/navmesh.h"
#include "stagger/core/math.h"
#include "stagger/physics/ragdoll.h"
#include "stagger/physics/walk_cycle.h"
#include "stagger/sim/death_clips.h"
#include "stagger/sim/fake_ragdolls.h"

namespace stagger::sim {

enum class Activity : std::uint8_t { active, light, fake, clip, asleep };
inline constexpr int kActivityCount = 5;
std::string_view name_of(Activity activity);

struct ActivitySettings {
  /// The most full ragdolls at once; 0 switches activity levels off (every enemy is active).
  int max_active = 0;
  float promote_distance_m = 10.0f;   ///< [m] a player this near (across) makes an enemy active
  float demote_distance_m = 14.0f;    ///< [m] ... and farther than this lets it go (hysteresis)
  float view_distance_m = 18.0f;      ///< [m] in the player's view this near makes it active
  float view_half_angle_deg = 35.0f;  ///< [deg] half the view cone around the player's gaze
  /// [m] a physics hand this near the pelvis makes it active at once, wherever it is in its
  /// stride (a hand moving at 9 m/s covers it in 0.13 s)
  float hand_reach_m = 1.2f;
  float calm_s = 2.0f;  ///< [s] upright, unhit and active this long before it may go light
  float light_turn_rate_deg_s = 180.0f;  ///< [deg/s] how fast a light walker turns
  float demote_blend_s = 0.4f;           ///< [s] from the last simulated pose onto the walk cycle
  /// [m/s] a calm body goes light only when no body of it moves faster or slower than the light
  /// pose would by more than this (it waits for the moment in its stride); the difference is
  /// carried on and dies away, so the switch itself keeps every body's speed
  float max_switch_speed_mps = 1.0f;
  /// [s] how quickly a light walker's pose goes between standing and walking
  float walk_blend_s = 0.3f;
  /// [m] a light walker probes the ground again after moving this far
  float ground_probe_every_m = 0.15f;
};

/// Per enemy: what its activity levels were.
struct ActivityStats {
  std::array<double, kActivityCount> seconds{};  ///< [s] time at each level, by Activity
  int promotions = 0;                            ///< to active
  int demotions = 0;                             ///< from active to light
  /// [m/s] the largest change of any body's speed across a switch (the step before it to the
  /// step after it); not for a promotion forced by a push, kill or blast (the blow changes it)
  float max_switch_jump_mps = 0;
};

/// Where the player is and looks, for the choice of who is active.
struct ActivityViewer {
  bool present = false;
  Vec3 feet;           ///< [m]
  Vec3 head;           ///< [m]
  Vec3 gaze{0, 0, 1};  ///< where the head looks (unit); zero: unknown (distance alone decides)
};

/// The activity levels of a scene's enemies. Owned by sim::Simulation, which calls it around
/// every physics step; the ragdolls stay the enemies' (their intents come from their minds).
class ActivityLevels {
 public:
  ActivityLevels(const ActivitySettings& settings, const physics::WorldSettings& world);

  const ActivitySettings& settings() const { return settings_; }
  bool enabled() const { return settings_.max_active > 0; }

  /// Starts following enemy `index` (active at first). Its walk is recorded at each of
  /// `walk_speeds_mps` [m/s] (its patrol and chase speeds) once per `rig_key` (enemies tuned
  /// alike share a key and the cycles); a light walker plays the one nearest its speed. A rig
  /// whose walk cannot be recorded stays active.
  void add_enemy(std::size_t index, physics::Ragdoll& body,
                 const std::vector<float>& walk_speeds_mps, std::uint64_t rig_key);
  void remove_enemy(std::size_t index);

  /// Before a physics step: who should be active (when `decide`, at the minds' rate), the
  /// promotions due, hands that reach a light body, and the light bodies' poses for the step.
  void before_step(const ActivityViewer& viewer, const std::vector<Vec3>& hands, float dt,
                   bool decide);
  /// After the step: the speed jumps of the switches made before it, the time at each level.
  void after_step(float dt);
  /// Makes an enemy active now (a push or a hit is about to reach it). A fake ragdoll in flight
  /// or a clip playing is left alone (false); true when it is active afterwards.
  bool promote_now(std::size_t index);

  /// Blasts throw light enemies as fake ragdolls on this navmesh (without one they cannot:
  /// Simulation promotes them and pushes them instead). `level_seed` keys the throws.
  void set_navmesh(std::shared_ptr<const ai::Navmesh> navmesh, std::uint64_t level_seed);
  bool can_throw() const { return fakes_ != nullptr; }
  /// Throws every light enemy within the blast as a fake ragdoll (a level's `blast_immune` ones
  /// excepted, by `immune[index]`); returns those thrown, in index order.
  std::vector<std::size_t> blast(const Blast& blast, const std::vector<bool>& immune);
  /// The death clips a kill with a hit vector plays on an enemy that is not active.
  void set_death_clips(std::shared_ptr<const DeathClipLibrary> clips) { clips_ = std::move(clips); }
  bool has_death_clips() const { return clips_ != nullptr && !clips_->clips().empty(); }
  /// Plays the clip nearest `hit` [N·s, world] on a light or asleep enemy (which is then dead);
  /// false when it is active, flying or already in a clip, or there are no clips.
  bool play_death_clip(std::size_t index, Vec3 hit);
  /// The clip an enemy plays (or played last) and the turn it was played at, if any.
  std::optional<DeathClipLibrary::Choice> death_clip(std::size_t index) const {
    return enemies_[index].clip_choice;
  }
  /// The fake ragdolls in flight (nullptr without a navmesh).
  const FakeRagdolls* fake_ragdolls() const { return fakes_.get(); }

  Activity activity(std::size_t index) const { return enemies_[index].activity; }
  const ActivityStats& stats(std::size_t index) const { return enemies_[index].stats; }
  int active_count() const;
  /// The cycle an enemy's light pose is played from (nullptr before it has one).
  const physics::WalkCycle* cycle(std::size_t index) const { return enemies_[index].cycle; }

 private:
  struct Light {
    Vec3 root;                    ///< [m] on the ground under the pelvis
    float yaw_rad = 0;            ///< [rad] heading
    float phase = 0;              ///< [cycles]
    float phase_advance = 0;      ///< [cycles] in the last step
    float walk_weight = 0;        ///< [-] 0 standing, 1 walking
    float turn_rate_radps = 0;    ///< [rad/s] how fast the root turned in the last step
    float heading_error_rad = 0;  ///< [rad] from the heading to where the intent goes (or faces)
    Vec3 probed_at;               ///< [m] where the ground was last probed
    float ground_y = 0;           ///< [m] the height found there, which the root eases to
    physics::BodyPoses shown{};   ///< the pose last shown, in the root's frame
    /// What the last simulated pose missed of the cycle's frame (in the root's frame: position
    /// [m] added, rotation applied before), faded out after a demotion
    physics::BodyPoses offset{};
    /// [m/s] what the body's velocity had beyond the cycle's at a demotion (the root's frame):
    /// it carries the offset on and dies away
    std::array<Vec3, physics::kBodyPartCount> offset_velocity{};
    float blend_left_s = 0;  ///< [s] until the pose is the cycle's alone
    float blend_s = 0;       ///< [s] the whole fade
    /// [m/s] how fast it steps aside out of the full ragdolls' rooms (horizontal)
    Vec3 aside_velocity;
  };
  struct Tracked {
    physics::Ragdoll* body = nullptr;
    std::vector<const physics::WalkCycle*> gaits;  ///< by the speeds asked for
    const physics::WalkCycle* cycle = nullptr;     ///< the one played now
    Activity activity = Activity::active;
    Light light;
    float active_s = 0;  ///< [s] since it became active
    /// [s] waiting for a hand-over phase (WalkCycle), at most one cycle (<0: no promotion due)
    float promote_wait_s = -1;
    bool wanted = false;      ///< chosen active at the last decision
    bool demote_due = false;  ///< to go light as soon as its motion matches the cycle's
    bool placed = false;      ///< has had its first level (a spawn's is no switch)
    std::optional<std::array<physics::BodyState, physics::kBodyPartCount>> before_switch;
    std::array<physics::BodyState, physics::kBodyPartCount> parts{};  ///< scratch and last pose
    ActivityStats stats;
    std::optional<DeathClipLibrary::Choice> clip_choice;  ///< the death clip played
    float clip_s = 0;                                     ///< [s] into it
    Vec3 clip_feet;                                       ///< [m] where it plays
    float clip_yaw_rad = 0;                               ///< [rad] its turn
    float lie_left_s = -1;  ///< [s] a landed fake ragdoll lies this long, then gets up
  };

  void decide(const ActivityViewer& viewer);
  bool calm(const Tracked& e) const;
  /// Makes an active enemy light if every body moves within max_switch_speed_mps of how the
  /// cycle's would at the phase nearest its pose; otherwise it stays active for now.
  bool demote(Tracked& e);
  /// How a body moving as `now` matches the light pose `l` (its root, yaw and walk weight set)
  /// played from `phase` with its root at `root_velocity` [m/s].
  struct SwitchMatch {
    float mismatch_mps = 0;     ///< [m/s] the largest body velocity difference
    float turn_rate_radps = 0;  ///< [rad/s] the pose turns at the pelvis's yaw rate, or none
    std::array<Vec3, physics::kBodyPartCount> velocity{};  ///< [m/s] of each body in the pose
  };
  SwitchMatch match_at(const Tracked& e,
                       const std::array<physics::BodyState, physics::kBodyPartCount>& now,
                       const Light& l, Vec3 root_velocity, float phase) const;
  /// The recorded gait nearest `speed_mps`; another than the one playing only when it is nearer
  /// by more than `hysteresis_mps` [m/s].
  void pick_cycle(Tracked& e, float speed_mps, float hysteresis_mps);
  void lift_clear_of_ground(Tracked& e);
  void start_fade(Light& l) const;
  static void carry_offset_velocity(Light& l, float dt);
  void pose_fake(Tracked& e, const Flight& flight);
  void pose_lying(Tracked& e, const Landing& landing);
  void get_up_from_lying(Tracked& e);
  void play_clip(Tracked& e, float dt);
  void advance_fakes(float dt);
  /// `local` (the standing pose, root frame) tipped by `orientation` about its centre of mass,
  /// that centre `pivot_height_m` over `feet`.
  void pose_tipped(Tracked& e, Vec3 feet, Quat orientation, float pivot_height_m, bool moving);
  void promote(Tracked& e);
  void pose_light(Tracked& e, float dt);
  bool at_hand_over_phase(const Tracked& e) const;
  /// The room each full ragdoll takes (for the light walkers to keep out of), this step.
  void mark_rooms();
  /// A light walker's aside_velocity for this step: toward closing its overlap with the full
  /// ragdolls' rooms in kStepAsideTimeS, at most kStepAsideSpeedMps, changed smoothly.
  void step_aside(Tracked& e, float dt) const;

  ActivitySettings settings_;
  physics::WorldSettings world_;
  std::map<std::uint64_t, physics::WalkCycle> cycles_;  ///< by rig and speed
  std::vector<Tracked> enemies_;
  std::unique_ptr<FakeRagdolls> fakes_;
  std::vector<Landing> landings_;  // scratch
  /// A full ragdoll's room: a circle on the ground around its pelvis.
  struct Room {
    const Tracked* owner = nullptr;
    Vec3 center;  ///< [m] (its height unused)
    float radius_m = 0;
  };
  std::vector<Room> rooms_;  // scratch, by mark_rooms
  std::shared_ptr<const DeathClipLibrary> clips_;
  float dt_ = 0;  // [s] the last step's
};

}  // namespace stagger::sim
