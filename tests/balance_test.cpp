// Balance measurement from body states: capture point, lean direction, state priority.

#include "stagger/physics/balance.h"

#include <gtest/gtest.h>

namespace stagger::physics {
namespace {

BalanceInputs standing_inputs() {
  BalanceInputs in;
  in.com = {0, 1.0f, 0.05f};
  in.left_foot = {0.1f, 0.04f, 0.05f};
  in.right_foot = {-0.1f, 0.04f, 0.05f};
  in.sole_height = 0.0f;
  in.rest_com_height = 1.0f;
  return in;
}

TEST(Balance, CentredAndStillIsInBalance) {
  const BalanceReadout r = measure_balance(standing_inputs(), BalanceSettings{});
  EXPECT_EQ(r.state, BalanceState::in_balance);
  EXPECT_NEAR(r.error_m, 0.0f, 1e-6f);
  EXPECT_EQ(r.lean, Lean::none);
  EXPECT_NEAR(r.com_height_m, 1.0f, 1e-6f);
}

TEST(Balance, VelocityExtrapolatesTheCentreOfMass) {
  BalanceInputs in = standing_inputs();
  in.com_velocity = {0, 0, 0.5f};  // moving forward: capture point 0.5·sqrt(1/9.81) ahead
  const BalanceReadout r = measure_balance(in, BalanceSettings{});
  EXPECT_NEAR(r.error_forward_m, 0.5f * std::sqrt(1.0f / kGravity), 1e-4f);
  EXPECT_EQ(r.lean, Lean::forward);
  EXPECT_EQ(r.state, BalanceState::out_of_balance);
}

TEST(Balance, LeanIsMeasuredInTheHeadingFrame) {
  BalanceInputs in = standing_inputs();
  // Facing +X (yaw +90°): its left is -Z.
  in.pelvis_rotation = Quat::from_yaw(kPi / 2);
  in.left_foot = {0.05f, 0.04f, -0.1f};
  in.right_foot = {0.05f, 0.04f, 0.1f};
  in.com = {0.05f, 1.0f, -0.05f};
  const BalanceReadout r = measure_balance(in, BalanceSettings{});
  EXPECT_EQ(r.lean, Lean::left);
  EXPECT_NEAR(r.error_left_m, 0.05f, 1e-5f);
  in.com = {0.0f, 1.0f, 0.0f};
  EXPECT_EQ(measure_balance(in, BalanceSettings{}).lean, Lean::backward);
}

TEST(Balance, StatePriorityInAirThenFallenThenOutOfBalance) {
  BalanceSettings s;
  BalanceInputs in = standing_inputs();
  in.com.z += 0.2f;  // out of balance
  EXPECT_EQ(measure_balance(in, s).state, BalanceState::out_of_balance);
  in.pelvis_rotation = Quat::from_axis_angle({1, 0, 0}, deg_to_rad(70));
  EXPECT_EQ(measure_balance(in, s).state, BalanceState::fallen);
  in.airtime_s = 0.5f;
  EXPECT_EQ(measure_balance(in, s).state, BalanceState::in_air);
  in.com.y = 0.3f;  // low and airborne: lying, not flying
  EXPECT_EQ(measure_balance(in, s).state, BalanceState::fallen);
}

TEST(Balance, FallThresholds) {
  BalanceSettings s;
  BalanceInputs in = standing_inputs();
  EXPECT_FALSE(past_fall_threshold(measure_balance(in, s), s));
  in.com.x += s.fall_error_m + 0.01f;
  EXPECT_TRUE(past_fall_threshold(measure_balance(in, s), s));
  in = standing_inputs();
  in.pelvis_rotation = Quat::from_axis_angle({0, 0, 1}, s.fall_tilt_rad + 0.01f);
  EXPECT_TRUE(past_fall_threshold(measure_balance(in, s), s));
}

}  // namespace
}  // namespace stagger::physics

namespace stagger::physics {
namespace {

TEST(Balance, LongAirtimeIsAFall) {
  BalanceSettings s;
  BalanceInputs in = standing_inputs();
  in.airtime_s = s.fall_airtime_s * 0.5f;
  EXPECT_FALSE(past_fall_threshold(measure_balance(in, s), s));
  in.airtime_s = s.fall_airtime_s * 1.5f;
  EXPECT_TRUE(past_fall_threshold(measure_balance(in, s), s));
}

}  // namespace
}  // namespace stagger::physics
