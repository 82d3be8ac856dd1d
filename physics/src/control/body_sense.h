#pragma once
// What a ragdoll senses of its body after each physics step: the balance readout and how long
// each foot has been off the ground. Ragdoll measures it; the controllers read it.

#include <array>
#include <cstddef>

#include "stagger/physics/balance.h"

namespace stagger::physics {

struct BodySense {
  /// [s] a foot that touched the ground within this long still counts as planted (contacts
  /// flicker as a foot rocks)
  static constexpr float kPlantedGraceS = 0.1f;

  BalanceReadout balance;
  float airtime_s = 0;                  ///< [s] since either foot touched anything
  std::array<float, 2> off_ground_s{};  ///< [s] per foot (left, right): since it touched anything
  float yaw = 0;                        ///< [rad] the body's heading (from the balance readout)
  float age_s = 0;                      ///< [s] since the ragdoll was created

  bool planted(int leg) const {
    return off_ground_s[static_cast<std::size_t>(leg)] < kPlantedGraceS;
  }
};

}  // namespace stagger::physics
