#include "stagger/physics/hit_reaction.h"

#include <algorithm>

namespace stagger::physics {

float hit_depth(float impulse_ns, const HitReactionSettings& s) {
  if (impulse_ns < s.min_impulse_ns) return 0.0f;
  return std::clamp(impulse_ns / s.full_impulse_ns, 0.0f, 1.0f);
}

void StrengthEnvelope::hit(float depth, const HitReactionSettings& s) {
  if (depth <= 0.0f) return;
  const float new_floor = 1.0f - depth * (1.0f - s.strength_floor);
  // A second blow restarts the envelope from the weaker of the two.
  floor_ = std::min(new_floor, strength(s));
  since_hit_s_ = 0.0f;
}

float StrengthEnvelope::strength(const HitReactionSettings& s) const {
  // The shipped reference keeps full strength for the first frames: the impact is resisted
  // before the muscles give.
  if (since_hit_s_ < s.hold_s) return 1.0f;
  const float ramp = std::clamp((since_hit_s_ - s.hold_s) / s.recover_s, 0.0f, 1.0f);
  return floor_ + (1.0f - floor_) * ramp;
}

void TwistSpring::kick(Vec3 axis, float impulse_ns, const HitReactionSettings& s) {
  rate_ += axis * (s.twist_rate_per_ns * impulse_ns);
}

void TwistSpring::advance(float dt, const HitReactionSettings& s) {
  // Semi-implicit Euler of a torsional spring-damper toward zero twist.
  const float w = 2.0f * kPi * s.twist_frequency_hz;
  const Vec3 acceleration = -(w * w) * angle_ - (2.0f * s.twist_damping_ratio * w) * rate_;
  rate_ += acceleration * dt;
  angle_ += rate_ * dt;
  const float magnitude = length(angle_);
  if (magnitude > s.max_twist_rad) {
    // At the limit the twist stops growing: keep only the part of the rate that returns it.
    angle_ *= s.max_twist_rad / magnitude;
    const Vec3 outward = angle_ / s.max_twist_rad;
    const float along = dot(rate_, outward);
    if (along > 0) rate_ -= outward * along;
  }
}

}  // namespace stagger::physics
