#pragma once
// Hit reactions: a blow weakens the struck body and its neighbours quickly and they recover slowly
// (a shipped game's envelope: full strength for 2 frames at 60 Hz, then about 55 %, ramping back
// to 100 % over 120 frames), and a struck head or torso twists away and springs back.

#include "stagger/core/math.h"

namespace stagger::physics {

struct HitReactionSettings {
  float min_impulse_ns = 1.0f;       ///< [N·s] smaller impulses cause no reaction
  float full_impulse_ns = 20.0f;     ///< [N·s] impulse that causes the full strength drop
  float hold_s = 2.0f / 60.0f;       ///< [s] full strength kept right after the hit
  float strength_floor = 0.55f;      ///< [-] strength after a full hit
  float recover_s = 2.0f;            ///< [s] ramp from the floor back to full strength
  float neighbour_share = 0.5f;      ///< [-] fraction of the drop felt by parent and children
  float twist_frequency_hz = 2.5f;   ///< [Hz] torsional spring pulling a twisted head/torso back
  float twist_damping_ratio = 0.6f;  ///< [-]
  float twist_rate_per_ns = 0.06f;   ///< [rad/s per N·s] twist speed a blow starts
  float max_twist_rad = deg_to_rad(25.0f);  ///< [rad] largest twist away from the target
  /// [-] a blow from the side turns the struck head or torso about the vertical by this much of
  /// its tilt
  float twist_turn_share = 0.5f;
};

/// Strength multiplier of one body part after hits, as a function of time.
class StrengthEnvelope {
 public:
  /// Registers a hit whose drop is `depth` (0 = none, 1 = down to the settings' floor).
  void hit(float depth, const HitReactionSettings& settings);
  void advance(float dt) { since_hit_s_ += dt; }
  /// Current multiplier in [floor, 1].
  float strength(const HitReactionSettings& settings) const;

 private:
  float floor_ = 1.0f;
  float since_hit_s_ = 1e9f;
};

/// Twist of a body's joint target away from a blow: a rotation vector driven by a torsional
/// spring-damper, T = kp·angle·axis + kd·(0 - ω), that returns it to zero.
class TwistSpring {
 public:
  /// Starts twisting about `axis` (unit, joint frame) at a rate set by the impulse.
  void kick(Vec3 axis, float impulse_ns, const HitReactionSettings& settings);
  void advance(float dt, const HitReactionSettings& settings);
  Vec3 rotation_vector() const { return angle_; }
  bool active() const { return length(angle_) > 1e-5f || length(rate_) > 1e-4f; }

 private:
  Vec3 angle_;  ///< [rad] rotation vector
  Vec3 rate_;   ///< [rad/s]
};

/// Drop depth in [0, 1] for an impulse of the given size.
float hit_depth(float impulse_ns, const HitReactionSettings& settings);

}  // namespace stagger::physics
