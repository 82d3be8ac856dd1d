#include "stagger/physics/balance.h"

#include <algorithm>
#include <cmath>

#include "stagger/core/enum_table.h"

namespace stagger::physics {

std::string_view name_of(BalanceState state) {
  static constexpr std::string_view kNames[] = {"in_balance", "out_of_balance", "fallen", "in_air"};
  return enum_name<BalanceState::in_air>(kNames, state);
}

std::string_view name_of(Lean lean) {
  static constexpr std::string_view kNames[] = {"none", "forward", "backward", "left", "right"};
  return enum_name<Lean::right>(kNames, lean);
}

namespace {

Lean classify_lean(float forward, float left, float error, float dead_zone) {
  if (error < dead_zone) return Lean::none;
  if (std::fabs(forward) >= std::fabs(left)) return forward > 0 ? Lean::forward : Lean::backward;
  return left > 0 ? Lean::left : Lean::right;
}

}  // namespace

BalanceReadout measure_balance(const BalanceInputs& in, const BalanceSettings& s) {
  BalanceReadout out;
  out.com = in.com;
  out.com_velocity = in.com_velocity;
  out.com_height_m = in.com.y - in.sole_height;

  // Capture point: where the CoM would come to rest over, as a linear inverted pendulum.
  const float h = std::max(out.com_height_m, 0.05f);
  const float time_constant = std::sqrt(h / kGravity);
  out.extrapolated_com =
      horizontal(in.com + (in.com_velocity - in.commanded_velocity) * time_constant);
  out.extrapolated_com.y = in.sole_height;
  out.support_mid = (in.left_foot + in.right_foot) * 0.5f;
  out.support_mid.y = in.sole_height;
  out.error = horizontal(out.extrapolated_com - out.support_mid);
  out.error_m = length(out.error);

  const Vec3 pelvis_forward = horizontal(in.pelvis_rotation.rotate({0, 0, 1}));
  out.forward = length(pelvis_forward) > 1e-3f ? normalized(pelvis_forward) : Vec3{0, 0, 1};
  const Vec3 left = cross({0, 1, 0}, out.forward);
  out.error_forward_m = dot(out.error, out.forward);
  out.error_left_m = dot(out.error, left);
  out.lean = classify_lean(out.error_forward_m, out.error_left_m, out.error_m, s.lean_dead_zone_m);

  const float up_dot = std::clamp(in.pelvis_rotation.rotate({0, 1, 0}).y, -1.0f, 1.0f);
  out.tilt_rad = std::acos(up_dot);
  out.airtime_s = in.airtime_s;

  const bool low = out.com_height_m < s.fallen_height_ratio * in.rest_com_height;
  if (in.airtime_s >= s.in_air_time_s && !low) {
    out.state = BalanceState::in_air;
  } else if (low || out.tilt_rad > s.fallen_tilt_rad) {
    out.state = BalanceState::fallen;
  } else if (out.error_m > s.out_of_balance_m) {
    out.state = BalanceState::out_of_balance;
  } else {
    out.state = BalanceState::in_balance;
  }
  return out;
}

bool past_fall_threshold(const BalanceReadout& r, const BalanceSettings& s) {
  return r.state == BalanceState::fallen || r.error_m > s.fall_error_m ||
         r.tilt_rad > s.fall_tilt_rad || r.airtime_s > s.fall_airtime_s;
}

}  // namespace stagger::physics
