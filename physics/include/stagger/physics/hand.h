#pragma once
// A physics hand: a dynamic body of about 1 kg, CCD on, driven toward a target pose by
// a force- and torque-capped drive. It cannot pass through walls (the cap is what it can push
// with), and a fast hand delivers a real shove: its contacts with a ragdoll are blows that the
// ragdoll's hit reaction feels, counted per contact. Created by World::add_hand; VR drives it from
// the tracked grip pose, `stagger sim` from `hand` events.

#include <cstddef>
#include <vector>

#include "stagger/core/math.h"
#include "stagger/physics/skeleton.h"
#include "stagger/physics/world.h"

namespace stagger::physics {

struct HandSettings {
  float mass_kg = 1.0f;                      ///< [kg]
  Vec3 half_extents{0.045f, 0.025f, 0.09f};  ///< [m] a flat box: fist and palm
  float max_force_n = 300.0f;       ///< [N] per world axis, what the arm can keep pushing with
  float time_constant_s = 0.02f;    ///< [s] how fast the hand closes a gap to its target
  float max_catch_up_speed = 6.0f;  ///< [m/s] on top of the target's own velocity
  float max_torque_nm = 4.0f;       ///< [N·m]
  float turn_frequency_hz = 6.0f;   ///< [Hz] of the (critically damped) rotation drive
  /// [kg] the arm (and shoulder) behind the hand: on first contact with an enemy it adds this
  /// mass times the target's closing speed as an impulse. A tracked hand keeps moving; its arm's
  /// momentum is not in the 1 kg body, and without it a faster shove would deliver less (a
  /// capped drive pushes for a shorter time). 15 kg: shoves at 2.5-3.5 m/s are caught with steps,
  /// at 7-8 m/s they knock down (docs/physics.md, §Hands).
  float arm_mass_kg = 15.0f;
  float episode_gap_s = 0.1f;   ///< [s] contact lost this long ends one shove
  float react_after_s = 0.05f;  ///< [s] the struck body reacts this long into a contact
  /// [m] a body held this far from its target (a wall, an enemy in the way) turns ghost: it
  /// collides with nothing and snaps to the target until it can be solid there again. 0: never
  /// (scripted `stagger sim` hands push as far as the drive can); tracked hands use 0.3 m.
  float ghost_separation_m = 0.0f;
};

/// One shove: a contact between the hand and one ragdoll, from first touch to letting go.
struct HandShove {
  std::size_t ragdoll = 0;          ///< index in the world (World::ragdoll)
  BodyPart part = BodyPart::chest;  ///< the part that took the most of it
  Vec3 impulse;                     ///< [N·s] total, on the ragdoll
  double start_s = 0;               ///< [s] world time of the first touch
};

class Hand {
 public:
  Hand(World& world, const HandSettings& settings, Vec3 position, Quat rotation);
  Hand(const Hand&) = delete;
  Hand& operator=(const Hand&) = delete;

  /// Where the hand should be during the coming step, and how fast that point moves [m/s].
  void set_target(Vec3 position, Quat rotation, Vec3 velocity = {});
  /// A tracked hand follows its target; an untracked one (tracking lost, input unfocused) turns
  /// ghost and sits at its target, with no velocity: the caller leaves the last tracked pose
  /// there to freeze it (VR) or moves it about (the desktop's resting hands).
  void set_tracked(bool tracked);
  bool tracked() const { return tracked_; }
  /// True while the hand collides with nothing (untracked, or too far from its target).
  bool ghost() const { return ghost_; }
  /// [N·s] the impulse the hand gave ragdolls in the last step (for haptics).
  float last_step_impulse_ns() const { return last_step_impulse_ns_; }
  BodyId body() const { return body_; }
  BodyState state() const { return world_.body_state(body_); }
  /// Finished shoves, in the order they ended.
  const std::vector<HandShove>& shoves() const { return shoves_; }

  /// Called by World::step: the drive before the Bullet step, the contacts after it.
  void before_step(float dt);
  void after_step(float dt);

 private:
  struct Episode {
    bool active = false;
    HandShove shove;
    float largest_ns = 0;  // the largest per-part share, for `part`
    float touching_s = 0;
    float apart_s = 0;
    bool reacted = false;
  };
  void touch(std::size_t ragdoll, BodyPart part, Vec3 impulse);
  void close_episodes(float dt);
  void update_ghost();
  void set_ghost(bool ghost);
  bool target_is_clear() const;

  World& world_;
  HandSettings settings_;
  BodyId body_;
  PullId pull_{};
  Vec3 target_;
  Quat target_rotation_;
  Vec3 target_velocity_;
  std::vector<Episode> episodes_;  // per ragdoll
  std::vector<bool> touched_now_;
  std::vector<HandShove> shoves_;
  std::vector<ContactImpulse> contacts_;  // the last step's, reused
  bool tracked_ = true;
  bool ghost_ = false;
  float last_step_impulse_ns_ = 0;
};

}  // namespace stagger::physics
