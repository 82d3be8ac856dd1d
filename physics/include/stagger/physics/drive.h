#pragma once
// Joint drives: a joint moves toward a new target like a spring-damper with the given natural
// frequency and damping ratio (mass-independent, integrated implicitly), holds its pose stiffly
// against loads, and caps its torque so a shove wins.

#include "stagger/core/math.h"

namespace stagger::physics {

struct DriveSettings {
  float frequency_hz = 6.0f;     ///< [Hz] natural frequency of the joint's response to a target
  float damping_ratio = 1.0f;    ///< [-] 1 = critically damped; below 1 overshoots
  float max_torque_nm = 100.0f;  ///< [N·m] cap per driven axis; a larger external load wins
  /// [rad] when a load drags the joint this far from its reference motion, the reference restarts
  /// from where the joint is (it then springs back with the frequency and damping ratio above)
  float max_lag_rad = 0.15f;
};

/// Angular limits per Euler axis of the joint frame (X first, then Y, then Z; the joint's Y range
/// must stay inside ±90°). lower == upper locks the axis; lower > upper leaves it free.
struct JointLimits {
  Vec3 lower;  ///< [rad]
  Vec3 upper;  ///< [rad]
};

}  // namespace stagger::physics
