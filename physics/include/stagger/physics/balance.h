#pragma once
// Balance measurement: the whole-body centre of mass against the midpoint of the feet, using the
// extrapolated centre of mass (CoM + v·sqrt(h/g), the capture point) in the ground plane.
// Pure functions over body states, so they are tested without Bullet.

#include <cstdint>
#include <string_view>

#include "stagger/core/math.h"

namespace stagger::physics {

enum class BalanceState : std::uint8_t { in_balance, out_of_balance, fallen, in_air };
enum class Lean : std::uint8_t { none, forward, backward, left, right };

std::string_view name_of(BalanceState state);
std::string_view name_of(Lean lean);

struct BalanceSettings {
  float out_of_balance_m =
      0.08f;  ///< [m] capture-point error above which the state is out_of_balance
  float fall_error_m =
      0.32f;  ///< [m] capture-point error at which the ragdoll gives up (goes limp)
  /// [s] not hit within the last second, walking or standing, the error must stay past
  /// `fall_error_m` this long before the ragdoll gives up, unless it passes
  /// `walk_fall_error_at_once` × it. The gait's own capture point swings by a step's length, and
  /// its measure jumps when a step begins or lands (the swing leg counts again, at its real place
  /// instead of its target): two in three of the patrol bench's falls were declared on such an
  /// excursion of an upright body, and standing bodies that had recovered from a shove fell on
  /// the measure of a later step.
  float walk_fall_hold_s = 0.1f;
  float walk_fall_error_at_once = 1.5f;  ///< [-]
  float walk_fall_hit_window_s = 1.0f;   ///< [s] a body hit within this long is judged at once
  float fall_tilt_rad =
      deg_to_rad(50.0f);  ///< [rad] pelvis tilt from vertical that triggers a fall
  float fallen_tilt_rad = deg_to_rad(60.0f);  ///< [rad] pelvis tilt from vertical counted as fallen
  float fallen_height_ratio =
      0.5f;                      ///< [-] CoM height below this fraction of its rest height = fallen
  float in_air_time_s = 0.2f;    ///< [s] both feet off the ground this long = in_air
  float fall_airtime_s = 0.35f;  ///< [s] airborne this long (a drop of about 0.6 m) = a fall
  float lean_dead_zone_m = 0.02f;  ///< [m] below this error the lean direction is `none`

  // Ankle strategy: the ankles tilt the body to bring the capture point back over the feet.
  float ankle_gain = 2.5f;  ///< [-] ankle angle per radian of capture-point lean (error / height)
  float ankle_integral_per_s = 1.0f;  ///< [1/s] slow integral that removes the steady lean error
  float max_ankle_offset_rad = deg_to_rad(12.0f);  ///< [rad] cap on the ankle correction
  /// With both feet planted the ankle strategy moves the pelvis target instead (leg inverse
  /// kinematics keeps the loop through the ground consistent):
  float ankle_gain_m = 0.8f;          ///< [m per m] pelvis shift per metre of capture-point error
  float max_pelvis_shift_m = 0.08f;   ///< [m] at 1.8 m, from over the middle of the feet
  float stance_knee_bend_deg = 8.0f;  ///< [deg] knee bend of the planted stance
  /// [m] the CoM height the ankle strategy and foot placement take at least (a crouched or
  /// falling body's lever is not shorter)
  float min_com_height_m = 0.3f;
};

/// What the balance measurement needs from the body, in world space.
struct BalanceInputs {
  Vec3 com;           ///< [m] whole-body centre of mass
  Vec3 com_velocity;  ///< [m/s]
  /// [m/s] velocity the body is asked to walk at: subtracted, it is not a stumble
  Vec3 commanded_velocity;
  Vec3 left_foot;                ///< [m] centre of the left foot
  Vec3 right_foot;               ///< [m] centre of the right foot
  float sole_height = 0;         ///< [m] height of the lower sole (the ground under the feet)
  Quat pelvis_rotation;          ///< orientation of the pelvis (its +Z is the character's forward)
  float rest_com_height = 1.0f;  ///< [m] CoM height above the soles when standing
  float airtime_s = 0;           ///< [s] how long neither foot has touched anything
};

struct BalanceReadout {
  Vec3 com;                   ///< [m]
  Vec3 com_velocity;          ///< [m/s]
  Vec3 extrapolated_com;      ///< [m] capture point, at sole height
  Vec3 support_mid;           ///< [m] midpoint of the feet, at sole height
  Vec3 error;                 ///< [m] horizontal: extrapolated CoM minus support midpoint
  float error_m = 0;          ///< [m] length of `error`
  float error_forward_m = 0;  ///< [m] error along the heading (+ = leaning forward)
  float error_left_m = 0;     ///< [m] error along the character's left (+ = leaning left)
  float com_height_m = 0;     ///< [m] CoM above the soles
  float tilt_rad = 0;         ///< [rad] pelvis tilt from vertical
  float airtime_s = 0;        ///< [s] since a foot last touched anything
  Vec3 forward{0, 0, 1};      ///< heading: pelvis forward flattened to the ground plane
  Lean lean = Lean::none;
  BalanceState state = BalanceState::in_balance;
};

/// Measures balance for one step. Priority: in_air, fallen, out_of_balance, in_balance.
BalanceReadout measure_balance(const BalanceInputs& in, const BalanceSettings& settings);

/// True when the readout says the ragdoll cannot recover by ankles and hips alone: too large a
/// capture-point error, too much tilt, already down, or too long in the air.
bool past_fall_threshold(const BalanceReadout& readout, const BalanceSettings& settings);

}  // namespace stagger::physics
