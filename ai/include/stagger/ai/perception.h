#pragma once
// What an enemy sees: a view cone from its head, with a ray against the level's static geometry
// for the line of sight, and a memory of where it last saw the player.

#include "stagger/core/math.h"
#include "stagger/physics/world.h"

namespace stagger::ai {

struct PerceptionSettings {
  float view_angle_deg = 120.0f;  ///< [deg] full opening angle of the view cone
  float range_m = 15.0f;          ///< [m] farthest the enemy sees
  float near_m = 1.5f;     ///< [m] closer than this (across) the player is noticed in any direction
  float notice_s = 0.15f;  ///< [s] the player must stay in sight this long to be seen
  float memory_s = 20.0f;  ///< [s] the last seen position is kept this long
};

/// The player as the eyes look for them: the head, and the chest below it (either in sight is
/// enough, so a low wall that hides the head's line but not the chest's still hides nothing).
struct PlayerView {
  bool present = false;
  Vec3 head;  ///< [m]
  Vec3 feet;  ///< [m]
};

class Perception {
 public:
  explicit Perception(PerceptionSettings settings = {}) : settings_(settings) {}

  /// Looks from `eye` along `forward` (need not be unit) for `dt` seconds.
  void update(const physics::World& world, Vec3 eye, Vec3 forward, const PlayerView& player,
              float dt);

  bool sees() const { return sees_; }                 ///< the player is in sight (noticed) now
  bool saw_ever() const { return saw_ever_; }         ///< the report's `saw_player`
  bool remembers() const { return remembers_; }       ///< a last seen position within `memory_s`
  Vec3 last_seen_feet() const { return last_seen_; }  ///< [m] the player's feet when last seen
  float since_seen_s() const { return since_seen_s_; }
  /// Forgets the last seen position (after searching it).
  void forget() { remembers_ = false; }

  /// Whether `target` is inside the cone from `eye` along `forward` and within range (no ray).
  bool in_cone(Vec3 eye, Vec3 forward, Vec3 target) const;

 private:
  PerceptionSettings settings_;
  float in_sight_s_ = 0;
  bool sees_ = false;
  bool saw_ever_ = false;
  bool remembers_ = false;
  Vec3 last_seen_;
  float since_seen_s_ = 1e9f;
};

}  // namespace stagger::ai
