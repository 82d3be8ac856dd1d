#pragma once
// Fake ragdolls (docs/physics.md, Fake ragdolls): enemies that are not full ragdolls (far away,
// off screen) thrown by a blast as point bodies with their own 2.5-D ballistic flight. A launch
// predicts the whole flight with the same fixed step the flight then runs, so the body lands
// exactly where it was predicted to, on a navmesh spot wide enough for it; the spin is planned so
// that it lands lying flat, prone or supine. Nothing here touches the physics world: the
// simulation chooses the candidates, poses the drawn body around the point and gets it up again.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "stagger/ai/navmesh.h"
#include "stagger/core/math.h"

namespace stagger::sim {

/// The rules of a blast's launches and flights; the defaults are the shipped ones.
struct BlastSettings {
  float step_s = 1.0f / 240.0f;   ///< [s] the fixed step: step() must be given exactly this
  float gravity_mps2 = kGravity;  ///< [m/s²] down along -Y

  // The launch.
  float max_turn_rad = deg_to_rad(15.0f);   ///< [rad] random turn of the direction, either way
  float elevation_rad = deg_to_rad(60.0f);  ///< [rad] above the horizontal
  float elevation_jitter_rad = deg_to_rad(5.0f);  ///< [rad] random, either way
  float speed_jitter = 0.2f;                      ///< the speed is × (1 ± this), random
  float edge_falloff = 0.5f;  ///< the speed's factor at the blast's edge (1 at its centre, linear)
  float horizontal_gain = 0.85f;  ///< the horizontal part of the launch velocity is × this
  float vertical_gain = 1.3f;     ///< the vertical part is × this (a throw that reads as a blast)
  float min_launch_speed_mps = 2.0f;  ///< [m/s] no launch is slower, retries and hops included
  /// [m] a candidate horizontally nearer the centre than this is thrown in a random direction.
  float at_centre_m = 0.01f;

  // Retries when the predicted landing is not walkable: turns of the direction (0, +step, -step,
  // +2 step, ... up to ±max), and for each of them the horizontal part scaled by each factor.
  float retry_turn_step_rad = deg_to_rad(25.0f);  ///< [rad]
  float retry_max_turn_rad = deg_to_rad(175.0f);  ///< [rad]
  std::array<float, 4> retry_horizontal_scales{1.0f, 0.7f, 0.4f, 0.1f};

  // The landing.
  float max_flight_s = 10.0f;  ///< [s] a predicted flight that has not landed by then is refused
  /// [m] a landing counts as on the navmesh when the navmesh's nearest point is within this
  /// across ...
  float landing_horizontal_tolerance_m = 0.05f;
  float landing_vertical_tolerance_m = 0.25f;  ///< [m] ... and within this up or down

  // The spin: a quarter turn (upright to lying flat), plus a half turn per this much apex height
  // above the launch point, at most `max_extra_half_turns` of them.
  float apex_per_half_turn_m = 2.5f;  ///< [m]
  int max_extra_half_turns = 3;
};

/// A blast: every candidate whose feet are within `radius_m` of `centre` is thrown.
struct Blast {
  Vec3 centre;           ///< [m]
  float radius_m = 0;    ///< [m] > 0
  float impulse_ns = 0;  ///< [N·s] > 0: a candidate at the centre gets this over its mass
};

/// An enemy the blast may throw.
struct LaunchCandidate {
  std::uint32_t enemy = 0;  ///< unique among the candidates
  Vec3 feet;                ///< [m]
  float yaw_rad = 0;        ///< [rad] its facing (0 faces +Z)
  float mass_kg = 75.0f;    ///< [kg] > 0
  float radius_m = 0.3f;    ///< [m] how far the landing spot must keep from the navmesh's edge
  bool immune = false;      ///< never thrown (a level's `blast_immune`)
};

/// How the launch was found: as rolled, or changed by a retry.
enum class LaunchKind : std::uint8_t {
  as_rolled,  ///< the rolled launch lands on walkable ground
  retried,    ///< turned and/or with its horizontal part scaled down
  hop,        ///< nothing else fitted: straight up, landing back where it stood
};

/// One body in flight. The point is the feet's, i.e. where the feet would be if it stood.
struct Flight {
  std::uint32_t enemy = 0;
  Vec3 position;            ///< [m] now
  Vec3 velocity;            ///< [m/s] now
  float spin_rad = 0;       ///< [rad] tipped so far about `tip_axis` (0 upright)
  float spin_rate_rps = 0;  ///< [rad/s]
  float yaw_rad = 0;        ///< [rad] the facing it had when thrown
  Vec3 tip_axis;  ///< unit, horizontal: up × the flight's direction (the head goes along it)

  Vec3 landing;                  ///< [m] where it lands (feet), predicted at the launch
  double landing_s = 0;          ///< [s] when, on the clock of step()
  float landing_spin_rad = 0;    ///< [rad] π/2 + k·π
  bool prone = false;            ///< lands face down (else face up)
  std::uint32_t steps_left = 0;  ///< fixed steps to the landing

  Vec3 launch_point;     ///< [m]
  Vec3 launch_velocity;  ///< [m/s]
  double launch_s = 0;   ///< [s]
  float radius_m = 0;    ///< [m] the enemy's, as a candidate
  LaunchKind kind = LaunchKind::as_rolled;
  float retry_turn_rad = 0;       ///< [rad] the retry's turn about +Y (0 as rolled)
  float horizontal_scale = 1.0f;  ///< the retry's factor on the horizontal part (1 as rolled)

  /// The body's orientation now: the upright body at its yaw, tipped by `spin_rad` about
  /// `tip_axis`.
  Quat orientation() const;
};

/// A body that came down: it lies still at `feet` from `landed_at_s` on.
struct Landing {
  std::uint32_t enemy = 0;
  Vec3 feet;               ///< [m] the predicted landing point, exactly
  float yaw_rad = 0;       ///< [rad] its facing when thrown
  bool prone = false;      ///< face down (else face up)
  double landed_at_s = 0;  ///< [s]
  Quat orientation;        ///< lying flat: its yaw, tipped by the final spin
};

class FakeRagdolls {
 public:
  /// `level_seed` keys every random draw (with the enemy's id and the blast's index).
  FakeRagdolls(std::shared_ptr<const ai::Navmesh> navmesh, BlastSettings settings,
               std::uint64_t level_seed);

  /// Throws every candidate within the blast's radius that is neither immune nor already
  /// flying, in order of enemy id; returns the enemies thrown, in that order. Every call counts
  /// as one blast (the random draws differ from one blast to the next).
  std::vector<std::uint32_t> blast(const Blast& blast, std::span<const LaunchCandidate> candidates);

  /// One fixed step of every flight; `dt` must be `settings().step_s`.
  void step(float dt);

  /// Appends the landings since the last call, in order of time, then of enemy id.
  void take_landings(std::vector<Landing>& out);

  std::size_t flying() const { return flights_.size(); }
  /// The enemy's flight, or nullptr when it is not flying.
  const Flight* flight(std::uint32_t enemy) const;
  /// Every flight, in order of enemy id.
  std::span<const Flight> flights() const { return flights_; }

  /// FNV-1a (64 bit) over every flight in order of enemy id: its id, position, velocity and spin.
  std::uint64_t state_hash() const;

  /// Whether an enemy of `radius_m` may stand at `feet`: on the navmesh (its nearest point within
  /// the landing tolerances) and at least `radius_m` less the navmesh's agent radius from its
  /// edge (the navmesh is already eroded by the agent radius).
  bool walkable(Vec3 feet, float radius_m) const;

  double time_s() const {
    return static_cast<double>(steps_) * static_cast<double>(settings_.step_s);
  }
  std::uint64_t blasts() const { return blast_index_; }
  const BlastSettings& settings() const { return settings_; }

 private:
  struct Ground;
  struct Prediction;
  Flight launch(const Blast& blast, const LaunchCandidate& candidate,
                std::uint64_t blast_index) const;
  /// The first of the rolled launch and its retries that lands walkable, into `flight`'s launch
  /// and `prediction`; false when none does.
  bool fit(const LaunchCandidate& candidate, Vec3 rolled, Flight& flight,
           Prediction& prediction) const;
  bool predict(Vec3 start, Vec3 velocity, Prediction& out) const;
  Prediction predict_hop(Vec3 start, float vertical_mps) const;

  std::shared_ptr<const ai::Navmesh> navmesh_;
  BlastSettings settings_;
  std::uint64_t level_seed_;
  std::shared_ptr<const Ground> ground_;
  std::vector<Flight> flights_;  ///< sorted by enemy id
  std::vector<Landing> landings_;
  std::uint64_t steps_ = 0;
  std::uint64_t blast_index_ = 0;
  float gravity_step_ = 0;  ///< [m/s] gravity × step: what one step takes off the vertical speed
};

}  // namespace stagger::sim
