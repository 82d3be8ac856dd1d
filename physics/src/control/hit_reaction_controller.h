#pragma once
// Hit reactions: a blow weakens the struck part and its neighbours for a moment, and a struck
// head or torso twists away from it and springs back.

#include <array>

#include "stagger/physics/hit_reaction.h"
#include "stagger/physics/pose.h"

namespace stagger::physics {

class HitReactionController {
 public:
  struct State {
    std::array<StrengthEnvelope, kBodyPartCount> strength{};
    std::array<TwistSpring, kBodyPartCount> twist{};
    float last_hit_ns = 0;     ///< [N·s] the latest impulse (the larger of two at once)
    float since_hit_s = 1e9f;  ///< [s] since it
  };

  explicit HitReactionController(const HitReactionSettings& settings) : settings_(settings) {}

  void advance(float dt);
  /// Registers a blow on `part` of a body facing `body_yaw_rad`.
  void react(BodyPart part, Vec3 impulse, float body_yaw_rad);
  /// Strength multiplier of a body part, in [0, 1].
  float strength(BodyPart part) const { return state_.strength[slot(part)].strength(settings_); }
  /// Adds the twists of struck heads and torsos to the pose's joints.
  void add_twists(Pose& pose) const;
  float since_hit_s() const { return state_.since_hit_s; }
  float recent_hit_ns(float window_s) const {
    return state_.since_hit_s <= window_s ? state_.last_hit_ns : 0.0f;
  }
  void reset() { state_ = {}; }

 private:
  HitReactionSettings settings_;
  State state_;
};

}  // namespace stagger::physics
