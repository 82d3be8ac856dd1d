#pragma once
// The stock Bullet baseline for benchmarks, added to a world with WorldSettings::bullet_extensions
// off: the same bodies and joints as a Ragdoll, held in the standing pose by Bullet's own servo
// motors, with no controller code of ours running per step.

#include "stagger/physics/ragdoll_settings.h"
#include "stagger/physics/world.h"

namespace stagger::physics {

/// Adds a statue ragdoll (bodies, joints, Bullet servos at the standing pose) to `world`.
void add_baseline_ragdoll(World& world, const RagdollSettings& settings, Vec3 feet_position,
                          float yaw_rad);

}  // namespace stagger::physics
