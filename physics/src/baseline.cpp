#include "stagger/physics/baseline.h"

#include "stagger/physics/pose.h"
#include "world_impl.h"

namespace stagger::physics {

void add_baseline_ragdoll(World& world, const RagdollSettings& settings, Vec3 feet_position,
                          float yaw_rad) {
  World::Impl& impl = world.impl();
  const RagdollAssembly parts = assemble_ragdoll(impl, make_blueprint(settings), settings,
                                                 feet_position, yaw_rad, /*controlled=*/false);
  const Pose pose = standing_pose();
  // [rad/s] the servo speed of a typical stock Bullet ragdoll that holds a standing pose.
  constexpr float kServoSpeed = 10.0f;
  for (int j = 0; j < kJointCount; ++j) {
    const auto index = static_cast<std::size_t>(j);
    impl.joint(parts.joints[index]).hold_with_bullet_servos(pose.rotations[index], kServoSpeed);
  }
}

}  // namespace stagger::physics
