// DrivenConstraint writes its solver rows itself (driven_joint.cpp) instead of through 6Dof2's
// generic getInfo2: here both write the rows of the same joint in the same state, and every
// field must agree bit for bit. The states cover the joints' row kinds: limits engaged inside
// their range and beyond either end (with a bounce, which only the limit rows look at), locked
// hinge axes, velocity motors with and without a limit in reach, a joint on a static body, and a
// servo (which the generic path keeps writing).

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "bullet_ext/impulse_solver.h"
#include "driven_joint.h"

namespace stagger::physics {
namespace {

/// Two bodies in a pose with a relative turn on every axis and some velocity, and the joint
/// between them (frames at the child's end, offset from both centres of mass).
struct Pair {
  explicit Pair(bool static_parent) {
    btVector3 inertia(0.02f, 0.03f, 0.04f);
    const float parent_mass = static_parent ? 0.0f : 3.0f;
    parent = std::make_unique<btRigidBody>(parent_mass, nullptr, nullptr,
                                           static_parent ? btVector3(0, 0, 0) : inertia);
    child = std::make_unique<btRigidBody>(1.5f, nullptr, nullptr, inertia * 0.5f);
    parent->setCenterOfMassTransform(btTransform(
        btQuaternion(btVector3(0.3f, 1, 0.2f).normalized(), 0.4f), btVector3(0.1f, 1.0f, -0.2f)));
    child->setCenterOfMassTransform(
        btTransform(btQuaternion(btVector3(-0.5f, 0.2f, 1).normalized(), 0.9f),
                    btVector3(0.15f, 0.62f, -0.1f)));
    if (!static_parent) {
      parent->setLinearVelocity(btVector3(0.2f, -0.1f, 0.3f));
      parent->setAngularVelocity(btVector3(1.5f, -0.7f, 0.4f));
    }
    child->setLinearVelocity(btVector3(-0.4f, 0.05f, 0.1f));
    child->setAngularVelocity(btVector3(-2.0f, 0.9f, 1.1f));
    const btTransform in_parent(btQuaternion(btVector3(0, 0, 1), 0.1f), btVector3(0.02f, -0.2f, 0));
    const btTransform in_child(btQuaternion::getIdentity(), btVector3(0, 0.18f, 0.01f));
    joint = std::make_unique<DrivenConstraint>(*parent, *child, in_parent, in_child, RO_XYZ);
    joint->setLinearLowerLimit(btVector3(0, 0, 0));
    joint->setLinearUpperLimit(btVector3(0, 0, 0));
  }

  /// The rows as the solver receives them from `write`.
  template <typename Write>
  std::vector<btSolverConstraint> rows(Write write) {
    btTypedConstraint::btConstraintInfo1 sizes;
    joint->getInfo1(&sizes);
    std::vector<btSolverConstraint> out(static_cast<std::size_t>(sizes.m_numConstraintRows) + 1);
    btContactSolverInfo solver;
    solver.m_timeStep = 1.0f / 240.0f;
    btTypedConstraint::btConstraintInfo2 info =
        prepare_joint_rows(out.data(), static_cast<int>(out.size()), solver);
    write(&info);
    return out;  // the last, spare row catches a write past the count
  }

  void expect_rows_as_bullets(const char* state) {
    const auto ours =
        rows([&](btTypedConstraint::btConstraintInfo2* info) { joint->getInfo2(info); });
    const auto bullets = rows([&](btTypedConstraint::btConstraintInfo2* info) {
      joint->btGeneric6DofSpring2Constraint::getInfo2(info);
    });
    ASSERT_EQ(ours.size(), bullets.size()) << state;
    EXPECT_GT(ours.size(), 1u) << state;
    for (std::size_t k = 0; k < ours.size(); ++k) {
      EXPECT_EQ(std::memcmp(&ours[k], &bullets[k], sizeof(btSolverConstraint)), 0)
          << state << ": row " << k << " of " << ours.size() << " (ours rhs " << ours[k].m_rhs
          << " bounds " << ours[k].m_lowerLimit << ".." << ours[k].m_upperLimit << ", Bullet's "
          << bullets[k].m_rhs << " " << bullets[k].m_lowerLimit << ".." << bullets[k].m_upperLimit
          << ")";
    }
  }

  void drive_all_axes(float target_velocity, float cap) {
    for (int i = 0; i < 3; ++i) {
      joint->enableMotor(3 + i, true);
      joint->setTargetVelocity(3 + i, target_velocity * static_cast<float>(i + 1));
      joint->setMaxMotorForce(3 + i, cap);
    }
  }

  std::unique_ptr<btRigidBody> parent;
  std::unique_ptr<btRigidBody> child;
  std::unique_ptr<DrivenConstraint> joint;
};

TEST(JointRows, BallJointWithRangedLimitsAndMotorsAsBulletWritesThem) {
  Pair p(false);
  p.joint->setAngularLowerLimit(btVector3(-1.5f, -1.5f, -1.5f));
  p.joint->setAngularUpperLimit(btVector3(1.5f, 1.5f, 1.5f));
  p.drive_all_axes(0.7f, 40.0f);
  p.expect_rows_as_bullets("limits in range, motors on");
}

TEST(JointRows, LimitsPassedAtEitherEndWithABounceAsBulletWritesThem) {
  for (float bounce : {0.0f, 0.4f}) {
    Pair p(false);
    // Ranges the pose lies outside of, above on one axis and below on another.
    p.joint->setAngularLowerLimit(btVector3(-0.05f, 0.6f, -2.0f));
    p.joint->setAngularUpperLimit(btVector3(0.02f, 1.2f, -1.4f));
    for (int i = 3; i < 6; ++i) p.joint->setBounce(i, bounce);
    p.drive_all_axes(-0.3f, 25.0f);
    p.expect_rows_as_bullets(bounce > 0 ? "limits passed, bounce" : "limits passed");
  }
}

TEST(JointRows, LimitsInReachOfAFastJointAsBulletWritesThem) {
  // Just inside both limits of every axis and turning fast toward one of them: 6Dof2 then lets
  // the limit row ask for no approach speed at all (its bounce term, zero or not, wins).
  for (float bounce : {0.0f, 0.4f}) {
    Pair p(false);
    p.joint->calculateTransforms();
    btVector3 lower, upper;
    for (int i = 0; i < 3; ++i) {
      lower[i] = p.joint->getAngle(i) - 0.01f;
      upper[i] = p.joint->getAngle(i) + 0.01f;
      p.joint->setBounce(3 + i, bounce);
    }
    p.joint->setAngularLowerLimit(lower);
    p.joint->setAngularUpperLimit(upper);
    // The angles grow with (ω_parent - ω_child) along the axes: X toward its lower limit,
    // Y toward its upper one.
    p.parent->setAngularVelocity(btVector3(0, 0, 0));
    p.child->setAngularVelocity(p.joint->getAxis(0) * 5.0f - p.joint->getAxis(1) * 5.0f);
    p.drive_all_axes(1.0f, 20.0f);
    p.expect_rows_as_bullets(bounce > 0 ? "fast toward limits, bounce" : "fast toward limits");
  }
}

TEST(JointRows, HingeWithLockedAxesAsBulletWritesThem) {
  Pair p(false);
  p.joint->setAngularLowerLimit(btVector3(-2.0f, 0.1f, 0.2f));
  p.joint->setAngularUpperLimit(btVector3(0.3f, 0.1f, 0.2f));  // Y and Z locked off zero
  p.joint->enableMotor(3, true);
  p.joint->setTargetVelocity(3, 1.2f);
  p.joint->setMaxMotorForce(3, 60.0f);
  p.expect_rows_as_bullets("hinge");
}

TEST(JointRows, FreeAxesWithMotorsOnlyAsBulletWritesThem) {
  Pair p(false);
  p.joint->setAngularLowerLimit(btVector3(1, 1, 1));  // lower above upper: no limit rows
  p.joint->setAngularUpperLimit(btVector3(0, 0, 0));
  p.drive_all_axes(0.5f, 10.0f);
  p.expect_rows_as_bullets("free axes");
  p.joint->enableMotor(3, false);  // X neither limited nor driven: no rows at all
  p.expect_rows_as_bullets("free axes, X undriven");
}

TEST(JointRows, JointOnAStaticBodyAsBulletWritesThem) {
  // Against a static body 6Dof2 scales the linear rows' turning part by the bodies' shares when
  // both other rotations are off their limits.
  Pair p(true);
  p.joint->setAngularLowerLimit(btVector3(0.5f, 0.4f, -0.3f));
  p.joint->setAngularUpperLimit(btVector3(0.5f, 0.4f, -0.3f));  // all locked away from the pose
  p.expect_rows_as_bullets("static parent, rotations off their locks");
  p.joint->setAngularLowerLimit(btVector3(-3, -1.5f, -3));
  p.joint->setAngularUpperLimit(btVector3(3, 1.5f, 3));
  p.drive_all_axes(0.2f, 5.0f);
  p.expect_rows_as_bullets("static parent, in range");
  // A joint to the world that only turns its body (DrivenJoint's parent_is_world): no linear rows.
  p.joint->setLinearLowerLimit(btVector3(1, 1, 1));
  p.joint->setLinearUpperLimit(btVector3(0, 0, 0));
  p.expect_rows_as_bullets("static parent, free linear axes");
}

TEST(JointRows, ServosStayWithBulletsGenericRows) {
  Pair p(false);
  p.joint->setAngularLowerLimit(btVector3(-1, -1, -1));
  p.joint->setAngularUpperLimit(btVector3(1, 1, 1));
  p.drive_all_axes(2.0f, 30.0f);
  p.joint->setServo(4, true);
  p.joint->setServoTarget(4, 0.3f);
  p.expect_rows_as_bullets("servo");
}

/// The frames, angles, axes and limit state as DrivenConstraint's own update leaves them
/// (getInfo1 without a refresh() runs it), then as Bullet's calculateTransforms does.
void expect_frames_as_bullets(DrivenConstraint& joint, const char* state) {
  btTypedConstraint::btConstraintInfo1 sizes;
  joint.getInfo1(&sizes);
  const btTransform frame_a = joint.getCalculatedTransformA();
  const btTransform frame_b = joint.getCalculatedTransformB();
  btVector3 angles, axes[3];
  for (int i = 0; i < 3; ++i) {
    angles[i] = joint.getAngle(i);
    axes[i] = joint.getAxis(i);
  }
  const btTranslationalLimitMotor2 linear = *joint.getTranslationalLimitMotor();
  joint.calculateTransforms();
  EXPECT_EQ(std::memcmp(&frame_a, &joint.getCalculatedTransformA(), sizeof frame_a), 0) << state;
  EXPECT_EQ(std::memcmp(&frame_b, &joint.getCalculatedTransformB(), sizeof frame_b), 0) << state;
  for (int i = 0; i < 3; ++i) {
    const btScalar angle = joint.getAngle(i);
    const btVector3 axis = joint.getAxis(i);
    EXPECT_EQ(std::memcmp(&angles[i], &angle, sizeof angle), 0) << state << ": angle " << i;
    EXPECT_EQ(std::memcmp(&axes[i], &axis, 12), 0) << state << ": axis " << i;
  }
  const btTranslationalLimitMotor2& bullets = *joint.getTranslationalLimitMotor();
  EXPECT_EQ(std::memcmp(&linear.m_currentLinearDiff, &bullets.m_currentLinearDiff, 12), 0) << state;
  EXPECT_EQ(std::memcmp(&linear.m_currentLimitError, &bullets.m_currentLimitError, 12), 0) << state;
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(linear.m_currentLimit[i], bullets.m_currentLimit[i]) << state;
}

TEST(JointRows, FramesAndAnglesAsBulletComputesThem) {
  Pair moving(false);
  expect_frames_as_bullets(*moving.joint, "general pose");
  Pair fixed(true);
  expect_frames_as_bullets(*fixed.joint, "static parent");
  // Exactly ±90° about Y, where the XYZ angles lock (both gimbal branches).
  for (float s : {1.0f, -1.0f}) {
    Pair p(false);
    p.parent->setCenterOfMassTransform(btTransform::getIdentity());
    p.child->setCenterOfMassTransform(
        btTransform(btMatrix3x3(0, 0, s, 0, 1, 0, -s, 0, 0), btVector3(0, 0.3f, 0)));
    p.joint->setFrames(btTransform::getIdentity(), btTransform::getIdentity());
    expect_frames_as_bullets(*p.joint, s > 0 ? "+90 about Y" : "-90 about Y");
  }
}

}  // namespace
}  // namespace stagger::physics
