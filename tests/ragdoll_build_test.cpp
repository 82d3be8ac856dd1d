// The humanoid blueprint: body count and names, mass conditioning, inertia conditioning, scaling.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "stagger/physics/ragdoll.h"
#include "stagger/physics/ragdoll_settings.h"

namespace stagger::physics {
namespace {

float sum_mass(const RagdollBlueprint& bp) {
  float m = 0;
  for (const auto& b : bp.bodies) m += b.mass;
  return m;
}

TEST(RagdollBlueprint, ThirteenNamedBodiesOfDefaultMass) {
  const RagdollBlueprint bp = make_blueprint(RagdollSettings{});
  EXPECT_EQ(bp.bodies.size(), 13u);
  EXPECT_NEAR(sum_mass(bp), 75.0f, 1e-3f);
  EXPECT_EQ(name_of(BodyPart::chest), "chest");
  EXPECT_EQ(body_part_from_name("foot_r"), BodyPart::foot_r);
  EXPECT_FALSE(body_part_from_name("tail").has_value());
  EXPECT_FALSE(body_part_from_name("hand_l").has_value());  // part of the forearm
  EXPECT_FALSE(body_part_from_name("spine").has_value());   // part of the chest
  EXPECT_EQ(bp.bodies[static_cast<std::size_t>(index_of(BodyPart::foot_l))].shape, ShapeKind::box);
}

TEST(RagdollBlueprint, NeighbourMassRatiosAtMostFourToOne) {
  const RagdollBlueprint bp = make_blueprint(RagdollSettings{});
  for (const JointBlueprint& j : bp.joints) {
    const float a = bp.bodies[static_cast<std::size_t>(index_of(j.parent))].mass;
    const float b = bp.bodies[static_cast<std::size_t>(index_of(j.child))].mass;
    EXPECT_LE(std::max(a, b) / std::min(a, b), 4.0f) << name_of(j.joint);
  }
}

TEST(RagdollBlueprint, ParentInertiaCoversChildrenUpToTwiceItsOwn) {
  const RagdollSettings settings;
  const RagdollBlueprint bp = make_blueprint(settings);
  for (int p = 0; p < kBodyPartCount; ++p) {
    Vec3 children;
    for (int c = 1; c < kBodyPartCount; ++c) {
      if (index_of(parent_of(body_part_at(c))) == p)
        children += bp.bodies[static_cast<std::size_t>(c)].inertia;
    }
    const Vec3 own = bp.bodies[static_cast<std::size_t>(p)].inertia;
    const Vec3 shape = bp.bodies[static_cast<std::size_t>(p)].shape_inertia;
    const float owns[3] = {own.x, own.y, own.z};
    const float shapes[3] = {shape.x, shape.y, shape.z};
    const float kids[3] = {children.x, children.y, children.z};
    for (int axis = 0; axis < 3; ++axis) {
      // At least the children's sum, unless that needed more than doubling the shape's own.
      EXPECT_GE(owns[axis], std::min(kids[axis], 2 * shapes[axis]) * 0.999f)
          << name_of(body_part_at(p));
      EXPECT_GE(owns[axis], shapes[axis]);
      EXPECT_LE(owns[axis], 2 * shapes[axis] * 1.001f);
    }
    const float floor = bp.bodies[static_cast<std::size_t>(p)].mass * 0.03f * 0.03f;
    EXPECT_GE(std::min({own.x, own.y, own.z}), floor * 0.999f);
  }
}

TEST(RagdollBlueprint, ScalesWithHeightAndMass) {
  RagdollSettings tall;
  tall.height_m = 2.0f;
  tall.mass_kg = 90.0f;
  const RagdollBlueprint base = make_blueprint(RagdollSettings{});
  const RagdollBlueprint big = make_blueprint(tall);
  EXPECT_NEAR(sum_mass(big), 90.0f, 1e-3f);
  const auto head = static_cast<std::size_t>(index_of(BodyPart::head));
  EXPECT_NEAR(big.bodies[head].center.y / base.bodies[head].center.y, 2.0f / 1.8f, 1e-4f);
  const float crown =
      base.bodies[head].center.y + base.bodies[head].half_length + base.bodies[head].radius;
  EXPECT_NEAR(crown, 1.8f, 0.01f);
  // Drive caps scale with the gravity torque they carry: mass × height.
  EXPECT_NEAR(big.joints[0].drive.max_torque_nm / base.joints[0].drive.max_torque_nm,
              (90.0f / 75.0f) * (2.0f / 1.8f), 1e-4f);
}

TEST(RagdollBlueprint, JointTwistRangesStayInsideNinetyDegrees) {
  // The middle Euler axis (Y) of a 6Dof2 joint is only defined within ±90°.
  const RagdollBlueprint bp = make_blueprint(RagdollSettings{});
  for (const JointBlueprint& j : bp.joints) {
    EXPECT_GE(j.limits.lower.y, -deg_to_rad(90)) << name_of(j.joint);
    EXPECT_LE(j.limits.upper.y, deg_to_rad(90)) << name_of(j.joint);
    EXPECT_LE(j.limits.lower.x, j.limits.upper.x);
  }
}

TEST(Ragdoll, CreatesThirteenBodiesAndNoLinkedCollisions) {
  World world;
  world.add_static_box({{0, -0.5f, 0}, {10, 0.5f, 10}, {}, 0.9f});
  Ragdoll& r = world.add_ragdoll(RagdollSettings{}, {0, 0, 0}, 0.0f);
  EXPECT_EQ(world.body_count(), 13u);
  EXPECT_NEAR(r.mass(), 75.0f, 1e-3f);
  // Built in place: every joint closed, the body standing on its soles.
  EXPECT_LT(r.max_joint_separation(), 1e-4f);
  EXPECT_NEAR(r.balance().com_height_m, r.blueprint().rest_com_height, 0.01f);
  // Turned to face +X, the left foot is at -Z.
  World turned;
  Ragdoll& t = turned.add_ragdoll(RagdollSettings{}, {0, 0, 0}, kPi / 2);
  EXPECT_LT(t.body_state(BodyPart::foot_l).position.z, -0.05f);
  EXPECT_NEAR(t.balance().forward.x, 1.0f, 1e-3f);
}

TEST(Ragdoll, CollidesWithItselfOnlyWhileLimp) {
  // Knocked down and limp, limbs that are neither parent nor grandparent of each other meet:
  // their pairs come in, and some touch (not in every fall: four falls, forward, back and to
  // either side, from 150 N·s to the chest).
  int most_contacts = 0;
  for (int d = 0; d < 4; ++d) {
    World world;
    world.add_static_box({{0, -0.5f, 0}, {10, 0.5f, 10}, {}, 0.9f});
    Ragdoll& r = world.add_ragdoll(RagdollSettings{}, {0, 0, 0}, 0.0f);
    for (int i = 0; i < 240; ++i) world.step();
    EXPECT_EQ(world.solver_load().self_pairs, 0) << "standing";
    const float a = static_cast<float>(d) * 0.5f * kPi;
    r.apply_impulse(BodyPart::chest, Vec3{std::sin(a), 0, std::cos(a)} * 150.0f);
    int most_pairs = 0;
    for (int i = 0; i < 240 * 3; ++i) {
      world.step();
      const SolverLoad load = world.solver_load();
      most_pairs = std::max(most_pairs, load.self_pairs);
      most_contacts = std::max(most_contacts, load.self_contact_points);
    }
    EXPECT_GE(most_pairs, 10) << "limp, fall " << d;
    RecordProperty("limp_self_pairs_" + std::to_string(d), most_pairs);
    for (int i = 0; i < 240 * 8 && r.state() != LocomotionState::standing; ++i) world.step();
    ASSERT_EQ(r.state(), LocomotionState::standing) << "fall " << d << ": did not get up";
    EXPECT_EQ(world.solver_load().self_pairs, 0) << "standing again";
  }
  EXPECT_GE(most_contacts, 1) << "limp";
  RecordProperty("limp_self_contacts", most_contacts);
}

}  // namespace
}  // namespace stagger::physics
