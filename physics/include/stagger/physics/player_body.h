#pragma once
// The player's body: an upright capsule that the head and hands belong to, moved like a character
// controller. It walks on the static geometry (slides along walls, climbs steps and ramps it can,
// follows the ground down, falls off edges it walks over) and never passes through it; bodies do
// not stop it. It moves when told (once a frame), not with the physics steps: it is kinematic.
// Created by World::add_player_body.

#include "stagger/core/math.h"
#include "stagger/physics/world.h"

namespace stagger::physics {

struct PlayerBodySettings {
  float radius_m = 0.25f;       ///< [m] the capsule's radius: the head keeps this far from walls
  float height_m = 1.75f;       ///< [m] feet to the top of the capsule
  float step_height_m = 0.3f;   ///< [m] the highest rise it climbs without a jump (kerbs, stairs)
  float max_slope_deg = 45.0f;  ///< [deg] steeper ground is a wall
  float gravity = kGravity;     ///< [m/s²] while falling
  /// [m] gap kept between the capsule and what it touches, so that each sweep starts clear
  float skin_m = 0.01f;
  int slide_iterations = 4;  ///< [-] sweeps per move: each slides the rest along what it met
};

class PlayerBody {
 public:
  PlayerBody(const World& world, const PlayerBodySettings& settings, Vec3 feet);
  PlayerBody(const PlayerBody&) = delete;
  PlayerBody& operator=(const PlayerBody&) = delete;

  /// Walks by `displacement` [m] (its y is ignored) over `dt` [s]: up a step or a ramp, along a
  /// wall, down with the ground, and falling where there is none.
  void move(Vec3 displacement, float dt);
  /// Puts the feet at `feet` [m] at rest (no check that it fits there).
  void teleport(Vec3 feet);

  Vec3 feet() const { return feet_; }  ///< [m] the bottom of the capsule
  /// [m/s] how fast the feet moved in the last move (falling included).
  Vec3 velocity() const { return velocity_; }
  bool on_ground() const { return on_ground_; }
  const PlayerBodySettings& settings() const { return settings_; }

 private:
  Vec3 centre(Vec3 feet) const { return feet + Vec3{0, 0.5f * settings_.height_m, 0}; }
  /// How far the capsule at `feet` can go along `offset` [m] before it touches, less the skin.
  SweepHit sweep(Vec3 feet, Vec3 offset) const;
  float clear_travel(const SweepHit& hit, float distance) const;
  Vec3 slide(Vec3 feet, Vec3 displacement) const;
  void settle(Vec3 raised, float rise, float dt);
  /// Whether the ground a downward sweep met can be stood on (an edge counts as its top);
  /// `hit_centre` [m] is the capsule's centre when it touched.
  bool walkable_at(const SweepHit& hit, Vec3 hit_centre) const;

  const World& world_;
  PlayerBodySettings settings_;
  Vec3 feet_;
  Vec3 velocity_;
  float fall_speed_ = 0;  // [m/s] downward, while off the ground
  bool on_ground_ = false;
};

}  // namespace stagger::physics
