#pragma once
// A headless run: a scene, an input script and per-enemy statistics, advanced by the fixed step.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "stagger/ai/navmesh.h"
#include "stagger/ai/squad.h"
#include "stagger/core/result.h"
#include "stagger/physics/hand.h"
#include "stagger/sim/activity.h"
#include "stagger/sim/events.h"
#include "stagger/sim/input_script.h"
#include "stagger/sim/scene.h"

namespace stagger::sim {

struct EnemyStats {
  std::string name;
  std::string profile;                   ///< the level profile it was tuned by; empty: none
  int falls = 0;                         ///< times the ragdoll went down (drives released)
  std::vector<std::string> fall_causes;  ///< each fall's cause (physics::FallCause), in order
  /// [s] each fall's time from the decision (drives let go) to `down` (lying still), in order;
  /// -1 for a fall that had not come to rest (the run ended, or it was killed, first)
  std::vector<double> fall_to_down_s;
  int self_falls = 0;         ///< falls neither pushed nor hit (by a push or hand within 2 s)
  float max_foot_slip_m = 0;  ///< [m] largest slide of a planted foot within one stance phase
  int get_ups = 0;            ///< times it stood up again
  bool stays_down = false;    ///< gave up after too many failed get-ups
  int pushes = 0;             ///< pushes received: scripted, and shoves by the physics hands
  std::vector<float> push_impulses_ns;  ///< [N·s] each push's impulse, in the order they began
  int recovery_steps = 0;               ///< balance steps taken to catch a lean
  int steps = 0;                        ///< every step taken (balance, walking, closing)
  double time_down_s = 0;               ///< [s] time spent falling, lying and getting up
  float max_balance_error_m = 0;        ///< [m]
  float min_pelvis_height_m = 1e9f;     ///< [m] pelvis centre above the soles
  float max_joint_separation_m = 0;     ///< [m]
  std::vector<std::size_t> route_points_reached;  ///< indices, in the order reached
  double distance_walked_m = 0;  ///< [m] horizontal path of the centre of mass while upright
  float max_leash_lead_m = 0;    ///< [m] farthest the crowd agent got ahead of the body
  int leash_reseats = 0;         ///< times the agent was removed and added again at the body
  int invalid_agent_ticks = 0;   ///< navigation ticks at which Detour had lost the agent
  bool saw_player = false;
  bool removed = false;     ///< taken out of the run by Simulation::remove_enemy
  int punches = 0;          ///< punches thrown at the player
  int punches_landed = 0;   ///< of which reached the player's head or torso
  int punches_blocked = 0;  ///< of which met a physics hand first
  int resets = 0;           ///< times a non-finite or runaway body made it start again at its spawn
  int runaways = 0;         ///< of which a body beyond the world or faster than the limit
  std::string brain_state;  ///< at the end (`patrol`, `chase`, ...; empty without a mind)
  std::string balance_state;  ///< at the end
  std::string final_state;    ///< locomotion state at the end (`standing`, `down`, `dead`, ...)
  /// Activity levels (only with SceneDescription::activity on): time at each, switches, and the
  /// largest body speed jump at a switch.
  ActivityStats activity;
  std::string final_activity;  ///< at the end (`active`, `light`, ...; empty with levels off)
};

struct SimulationResult {
  std::string level;
  std::optional<std::uint64_t> vary_seed;  ///< the seed the spawns were nudged with, if any
  std::string settings_file;               ///< the `--settings` file; empty: the defaults
  std::uint64_t settings_hash = 0;         ///< of the settings every enemy starts from (settings.h)
  double seconds = 0;
  float physics_hz = 0;
  std::uint64_t steps = 0;
  std::uint64_t state_hash = 0;
  double wall_ms = 0;
  double ms_per_step = 0;
  bool finite = true;
  bool interrupted = false;  ///< stopped before its time (Ctrl-C): the figures cover the steps run
  int runaways = 0;          ///< bodies found beyond the world or too fast (limits.h), all enemies
  std::vector<EnemyStats> enemies;
  std::vector<std::string> warnings;  ///< for the level's designer (skipped route points)
  /// Wall time of each navigation tick (projection, leash, crowd for all enemies) [ms].
  std::vector<double> navigation_tick_ms;
};

/// A running scene with the enemies' minds, the physics hands and the player: what `stagger sim`
/// runs headless, `stagger play` runs in VR, and a game drives through this interface. Single
/// threaded: call everything from the thread that steps it.
class Simulation {
 public:
  Simulation(const SceneDescription& scene, InputScript script = {});

  /// Adds an enemy at run time, as a level spawns one (`route` names one of the scene's routes;
  /// empty: it guards its spawn). Errors: a name already taken or empty, non-finite numbers, an
  /// unknown route, a height or mass outside the ragdoll's range, or already
  /// SceneDescription::max_enemies present.
  Result<EnemyId> add_enemy(const levels::EnemySpawn& spawn);
  /// Takes an enemy out of the run: its body leaves the world and its mind the squad. Its id
  /// stays taken (its statistics stay in the result, marked `removed`).
  Result<void> remove_enemy(EnemyId enemy);
  /// Puts an enemy back on its feet in the standing pose at `feet` [m] facing `yaw_rad` [rad]
  /// (0 = +Z), at rest: a teleport, and its new spawn. Its agent moves with it.
  Result<void> teleport_enemy(EnemyId enemy, Vec3 feet, float yaw_rad);
  /// Applies an impulse [N·s] to a body part, as a script's push does.
  Result<void> push_enemy(EnemyId enemy, physics::BodyPart part, Vec3 impulse);
  /// Kills an enemy: limp for good. With a `hit` [N·s, world] the killing blow lands first: a
  /// full ragdoll takes it at the chest; an enemy that is not one (activity levels) plays the
  /// death clip nearest it, turned to match, when clips are loaded (set_death_clips).
  Result<void> kill_enemy(EnemyId enemy, std::optional<Vec3> hit = std::nullopt);
  /// A blast at `centre` [m] reaching `radius_m` [m] with `impulse_ns` [N·s] at its centre (half
  /// at its edge): full ragdolls in it are shoved away and up, the others are thrown as fake
  /// ragdolls (sim/fake_ragdolls.h) and get up where they land. Returns how many it reached.
  /// Errors: non-finite numbers, a radius or impulse not positive.
  Result<int> blast(Vec3 centre, float radius_m, float impulse_ns);
  /// The death clips that kills with a hit vector play on enemies that are not full ragdolls.
  void set_death_clips(std::shared_ptr<const DeathClipLibrary> clips);
  /// The id of the present enemy with this name, if any.
  std::optional<EnemyId> find_enemy(const std::string& name) const;
  /// Whether `enemy` names an enemy of this run that was not removed.
  bool has_enemy(EnemyId enemy) const;
  /// The body of a present enemy (nullptr for an unknown or removed id).
  const physics::Ragdoll* enemy_body(EnemyId enemy) const;

  /// The events of the last step (and of the calls made since the one before), in order.
  const std::vector<EnemyEvent>& events() const { return events_; }
  /// Calls `listener` with every event as the step that found it ends.
  void on_event(std::function<void(const EnemyEvent&)> listener) {
    on_event_.push_back(std::move(listener));
  }
  /// How often the enemies' minds (eyes, brains, navigation) think [Hz]. By default the whole
  /// number of steps nearest 90 Hz (every third step, 80 Hz, at 240 Hz physics): the legs, not
  /// the plans, need the physics rate. Rounded to a whole number of physics steps, at least one;
  /// the rate in effect is returned. Error: not finite or not positive.
  Result<float> set_ai_rate_hz(float hz);
  /// [Hz] the rate in effect.
  float ai_rate_hz() const;
  /// The player's volumes that enemies' punches land on.
  void set_player_volumes(const PlayerVolumes& volumes) { player_volumes_ = volumes; }

  /// Runs exactly one physics step, applying the events due at its start.
  void step();
  /// Adds something to call after every physics step (a trace, a plot, a recorder).
  void on_step(std::function<void(const Simulation&)> observer) {
    on_step_.push_back(std::move(observer));
  }
  /// Runs until `seconds` of simulated time, driven by a display clock at `display_hz` (the same
  /// accumulator as the interactive loop). `progress` is called once per display frame; `stop`
  /// is asked before every step and ends the run early (the result then says `interrupted`).
  void run(double seconds, double display_hz,
           const std::function<void(double sim_s)>& progress = {},
           const std::function<bool()>& stop = {});

  Scene& scene() { return scene_; }
  /// The physics hand of a side (0 left, 1 right), if the script moves one or live hands were
  /// added.
  const physics::Hand* hand(int side) const { return hands_[static_cast<std::size_t>(side)]; }
  physics::Hand* hand(int side) { return hands_[static_cast<std::size_t>(side)]; }
  /// Live input (VR, desktop): creates both physics hands (those the script does not already
  /// move) at `left` and `right`, with `settings` (tracked hands turn ghost when held away).
  void add_live_hands(const physics::HandSettings& settings, Vec3 left, Vec3 right);
  /// Live input with hand tracking: `count` finger-joint spheres per hand (kinematic, radius
  /// `radius_m`), parked out of the way with their collisions off until `set_hand_joints`.
  void add_hand_joint_spheres(int count, float radius_m);
  /// Moves a hand's joint spheres to tracked joint centres [m] for the coming step (they push
  /// enemies), joint i to sphere i; a joint without a centre (not tracked) is parked with its
  /// collisions off. A sphere that appears or parks is teleported, so it flings nothing.
  void set_hand_joints(int side, const std::vector<std::optional<Vec3>>& centres);
  /// The joint spheres of a hand (empty without hand tracking).
  const std::vector<physics::BodyId>& hand_joint_spheres(int side) const {
    return joint_spheres_[static_cast<std::size_t>(side)];
  }
  float hand_joint_radius_m() const { return joint_radius_m_; }
  /// Live input: where the player stands and looks from, for the enemies' eyes [m], and where
  /// the head looks (a unit vector; zero: unknown), for the choice of active enemies.
  void set_player(Vec3 feet, Vec3 head, Vec3 gaze = {});
  /// A spectator the activity levels choose the active enemies for instead of the player (a
  /// camera, a replay's eye, a bench), whom the enemies neither see nor chase; [m], `gaze` as
  /// in set_player. Until it is set, they choose for the player.
  void set_spectator(Vec3 feet, Vec3 head, Vec3 gaze = {});
  /// The activity levels of the enemies (every enemy is active while they are off).
  const ActivityLevels& activity() const { return activity_; }
  /// The enemies' minds; nullptr in a scene without navigation.
  const ai::Squad* squad() const { return squad_.get(); }
  /// Enemy `index`'s member in squad(), or -1 when it has no mind there (no navigation, its
  /// spawn off the navmesh, or removed).
  int mind_of(std::size_t index) const {
    const int m = index < squad_index_.size() ? squad_index_[index] : -1;
    return m >= 0 && squad_->present(m) && squad_->active(m) ? m : -1;
  }
  /// [ms] CPU time the enemies' minds (eyes, brains, navigation) have taken so far.
  double ai_cpu_ms() const { return ai_cpu_ms_; }
  /// [ms] CPU time the activity levels (choosing, posing the bodies that are not full ragdolls,
  /// fake ragdolls, clips) have taken so far.
  double activity_cpu_ms() const { return activity_cpu_ms_; }
  const Scene& scene() const { return scene_; }
  SimulationResult result() const;

 private:
  void apply_due_events();
  void record_stats();
  void guard_finite();
  void start_minds();
  void start_hands();
  void move_hands();
  void move_player(const PlayerEvent& event);
  void start_enemy_stats(std::size_t index);
  void ensure_squad();
  ai::SquadMember member_for(std::size_t index);
  Result<std::size_t> present_index(EnemyId enemy) const;
  void collect_events();
  void watch_punches();
  /// The impulse of a solid hand's contact with a punching arm this step, if any.
  std::optional<Vec3> arm_blocked(const physics::Ragdoll& body);
  /// Which of the player's volumes the fist reaches, if any.
  std::optional<PlayerPart> fist_on_player(const physics::Ragdoll& body) const;
  void post(const EnemyEvent& event);
  /// Activity levels around the world step: before it (who is active, light poses), after it.
  void activity_before_step();
  /// Makes enemy `index` a full ragdoll now, if it is not (something is about to touch it).
  void make_active(std::size_t index) { (void)activity_.promote_now(index); }

  Scene scene_;
  InputScript script_;
  std::ptrdiff_t max_present_;  // enemies present at once at most
  std::size_t next_push_ = 0;
  std::size_t next_kill_ = 0;
  std::size_t next_walk_ = 0;
  std::size_t next_player_ = 0;
  std::size_t next_blast_ = 0;
  std::vector<EnemyStats> stats_;
  std::vector<bool> was_fallen_;
  std::vector<double> fall_began_s_;  ///< [s] per enemy: when its latest fall was decided
  // The enemies' minds (only in scenes with navigation settings, that is levels) and the player
  // they look for: absent until a `player` event places them.
  std::unique_ptr<ai::Squad> squad_;
  int ai_every_steps_ = 1;
  std::vector<int> squad_index_;  // per enemy: its member in the squad (-1: none)
  ai::PlayerView player_;
  Vec3 player_gaze_;
  std::optional<ActivityViewer> spectator_;  ///< set_spectator's
  ActivityLevels activity_;
  std::vector<Vec3> hand_points_;  // scratch: the solid hands' centres this step
  PlayerVolumes player_volumes_;
  std::vector<int> punches_seen_;  // per enemy: punches thrown as of the last step
  std::vector<int> punch_ended_;   // per enemy: the punch (count) last blocked or landed
  std::vector<physics::ContactImpulse> contacts_;  // scratch
  std::vector<EnemyEvent> events_;
  std::vector<physics::RagdollEvent> ragdoll_events_;  // scratch
  std::vector<std::function<void(const EnemyEvent&)>> on_event_;
  std::vector<double> navigation_tick_ms_;
  // The physics hands the script moves (only those it has events for: a hand is a body, and
  // bodies change every hash).
  std::array<physics::Hand*, 2> hands_{};
  std::array<std::vector<physics::BodyId>, 2> joint_spheres_;
  std::array<std::vector<bool>, 2> joint_live_;
  float joint_radius_m_ = 0;
  std::vector<std::vector<std::pair<double, float>>>
      scripted_pushes_;                      // per enemy: time, impulse [N·s]
  std::vector<std::string> guard_warnings_;  // non-finite bodies found and reset
  bool interrupted_ = false;                 // run() was stopped before its time
  std::vector<Vec3> last_com_;
  double wall_ms_ = 0;
  double ai_cpu_ms_ = 0;
  double activity_cpu_ms_ = 0;
  std::vector<std::function<void(const Simulation&)>> on_step_;
};

}  // namespace stagger::sim
