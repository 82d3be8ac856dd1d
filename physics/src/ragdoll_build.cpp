// make_blueprint: the humanoid's shapes, masses, inertias and joints as plain data.
//
// Stages: 1. proportions of a 1.8 m figure scaled to the requested height;
//         2. masses from flattened Winter fractions scaled to the requested mass;
//         3. inertias from the shapes, floored and conditioned (parent >= sum of children);
//         4. joints: pivots, anatomical limits and drives with scaled torque caps.

#include <algorithm>
#include <iterator>

#include "stagger/physics/ragdoll_settings.h"

namespace stagger::physics {
namespace {

struct PartShape {
  ShapeKind shape;
  float radius;       // capsule/sphere radius at 1.8 m
  float half_length;  // capsule cylinder half length at 1.8 m
  Vec3 half_extents;  // box
  Vec3 center;        // at 1.8 m, soles at y = 0, +X is the character's left
  float mass_percent;
};

// Winter's segment fractions (percent of body mass), flattened so that no neighbours differ by
// more than 4:1 (chest 14.6 % against upper arm 4.3 %): the solver cannot hold large mass ratios
// together. The feet are heavier than Winter's 1.45 %: a 1.5 kg foot under 70 kg of body made the
// contacts converge poorly and the standing body creep.
constexpr PartShape kParts[kBodyPartCount] = {
    {ShapeKind::capsule_x, 0.10f, 0.05f, {}, {0.0f, 0.97f, 0.0f}, 17.2f},       // pelvis
    {ShapeKind::box, 0, 0, {0.16f, 0.23f, 0.11f}, {0.0f, 1.30f, 0.0f}, 20.0f},  // chest (and spine)
    {ShapeKind::capsule_y, 0.10f, 0.03f, {}, {0.0f, 1.67f, 0.0f}, 7.0f},        // head
    {ShapeKind::capsule_y, 0.045f, 0.095f, {}, {0.22f, 1.31f, 0.0f}, 5.0f},     // upper_arm_l
    {ShapeKind::capsule_y, 0.04f, 0.17f, {}, {0.22f, 0.96f, 0.0f}, 3.4f},       // lower_arm_l, fist
    {ShapeKind::capsule_y, 0.045f, 0.095f, {}, {-0.22f, 1.31f, 0.0f}, 5.0f},    // upper_arm_r
    {ShapeKind::capsule_y, 0.04f, 0.17f, {}, {-0.22f, 0.96f, 0.0f}, 3.4f},      // lower_arm_r
    {ShapeKind::capsule_y, 0.07f, 0.14f, {}, {0.10f, 0.71f, 0.0f}, 10.5f},      // thigh_l
    {ShapeKind::capsule_y, 0.05f, 0.16f, {}, {0.10f, 0.29f, 0.0f}, 5.0f},       // shin_l
    {ShapeKind::box, 0, 0, {0.05f, 0.04f, 0.13f}, {0.10f, 0.04f, 0.05f}, 4.0f},   // foot_l
    {ShapeKind::capsule_y, 0.07f, 0.14f, {}, {-0.10f, 0.71f, 0.0f}, 10.5f},       // thigh_r
    {ShapeKind::capsule_y, 0.05f, 0.16f, {}, {-0.10f, 0.29f, 0.0f}, 5.0f},        // shin_r
    {ShapeKind::box, 0, 0, {0.05f, 0.04f, 0.13f}, {-0.10f, 0.04f, 0.05f}, 4.0f},  // foot_r
};

struct JointShape {
  Vec3 pivot;      // at 1.8 m
  Vec3 lower_deg;  // X, Y, Z Euler limits for the left side (or the middle)
  Vec3 upper_deg;
  bool mirrored;  // right side: Y and Z limits mirror the left side's
};

// X flexes (+X bends knees back, -X raises thighs and arms forward), Y twists about the bone,
// Z abducts (+Z moves a left limb outward). Locked axes have lower == upper.
constexpr JointShape kJoints[kJointCount] = {
    {{0.0f, 1.07f, 0.0f}, {-60, -50, -40}, {45, 50, 40}, false},     // lumbar (the whole spine)
    {{0.0f, 1.53f, 0.0f}, {-45, -60, -35}, {45, 60, 35}, false},     // neck
    {{0.22f, 1.45f, 0.0f}, {-170, -80, -20}, {60, 80, 170}, false},  // shoulder_l
    {{0.22f, 1.17f, 0.0f}, {-150, 0, 0}, {0, 0, 0}, false},          // elbow_l
    {{-0.22f, 1.45f, 0.0f}, {-170, -80, -20}, {60, 80, 170}, true},  // shoulder_r
    {{-0.22f, 1.17f, 0.0f}, {-150, 0, 0}, {0, 0, 0}, true},          // elbow_r
    {{0.10f, 0.92f, 0.0f}, {-120, -40, -20}, {30, 40, 45}, false},   // hip_l
    {{0.10f, 0.50f, 0.0f}, {0, 0, 0}, {150, 0, 0}, false},           // knee_l
    {{0.10f, 0.08f, 0.0f}, {-45, 0, -25}, {35, 0, 25}, false},       // ankle_l
    {{-0.10f, 0.92f, 0.0f}, {-120, -40, -20}, {30, 40, 45}, true},   // hip_r
    {{-0.10f, 0.50f, 0.0f}, {0, 0, 0}, {150, 0, 0}, true},           // knee_r
    {{-0.10f, 0.08f, 0.0f}, {-45, 0, -25}, {35, 0, 25}, true},       // ankle_r
};

Vec3 shape_inertia(const BodyBlueprint& b) {
  // Solid box approximation of each shape's extents (Bullet's own choice for capsules).
  Vec3 e;  // full extents
  switch (b.shape) {
    case ShapeKind::capsule_y:
      e = {2 * b.radius, 2 * (b.radius + b.half_length), 2 * b.radius};
      break;
    case ShapeKind::capsule_x:
      e = {2 * (b.radius + b.half_length), 2 * b.radius, 2 * b.radius};
      break;
    case ShapeKind::box:
      e = b.half_extents * 2.0f;
      break;
    case ShapeKind::sphere:
      return Vec3{1, 1, 1} * (0.4f * b.mass * b.radius * b.radius);
  }
  const float k = b.mass / 12.0f;
  return {k * (e.y * e.y + e.z * e.z), k * (e.x * e.x + e.z * e.z), k * (e.x * e.x + e.y * e.y)};
}

DriveSettings drive_for(JointName j, const RagdollSettings& s) {
  using S = RagdollSettings;
  // In the joints' order: both sides of a limb share one drive.
  static constexpr DriveSettings S::*kDrives[] = {
      &S::spine_drive,    &S::neck_drive,  &S::shoulder_drive, &S::elbow_drive,
      &S::shoulder_drive, &S::elbow_drive, &S::hip_drive,      &S::knee_drive,
      &S::ankle_drive,    &S::hip_drive,   &S::knee_drive,     &S::ankle_drive};
  static_assert(std::size(kDrives) == kJointCount);
  return s.*kDrives[index_of(j)];
}

void condition_inertias(RagdollBlueprint& bp) {
  // Small inertias jitter under strong drives: floor them at m·(3 cm)².
  for (auto& b : bp.bodies) {
    const float floor = b.mass * 0.03f * 0.03f;
    b.inertia = {std::max(b.inertia.x, floor), std::max(b.inertia.y, floor),
                 std::max(b.inertia.z, floor)};
    b.shape_inertia = b.inertia;
  }
  // Leaves first (children come after parents in BodyPart order): each parent gets at least the
  // sum of its children's inertia, growing by at most 2x (Jolt's Stabilize, after Strunk 2013).
  // All build-pose frames share the world axes, so the diagonals can be compared directly.
  for (int i = kBodyPartCount - 1; i >= 0; --i) {
    Vec3 children;
    for (int c = 1; c < kBodyPartCount; ++c) {
      if (index_of(parent_of(body_part_at(c))) == i)
        children += bp.bodies[static_cast<std::size_t>(c)].inertia;
    }
    auto& inertia = bp.bodies[static_cast<std::size_t>(i)].inertia;
    inertia = {std::max(inertia.x, std::min(children.x, 2 * inertia.x)),
               std::max(inertia.y, std::min(children.y, 2 * inertia.y)),
               std::max(inertia.z, std::min(children.z, 2 * inertia.z))};
  }
}

}  // namespace

RagdollBlueprint make_blueprint(const RagdollSettings& settings) {
  RagdollBlueprint bp;
  const float scale = settings.height_m / 1.8f;
  float percent_sum = 0;
  for (const auto& p : kParts) percent_sum += p.mass_percent;

  Vec3 weighted_center;
  for (int i = 0; i < kBodyPartCount; ++i) {
    const PartShape& p = kParts[i];
    BodyBlueprint& b = bp.bodies[static_cast<std::size_t>(i)];
    b.part = body_part_at(i);
    b.shape = p.shape;
    b.radius = p.radius * scale;
    b.half_length = p.half_length * scale;
    b.half_extents = p.half_extents * scale;
    b.center = p.center * scale;
    b.mass = settings.mass_kg * p.mass_percent / percent_sum;
    b.inertia = shape_inertia(b);
    bp.total_mass += b.mass;
    weighted_center += b.center * b.mass;
  }
  bp.rest_com_height = weighted_center.y / bp.total_mass;
  condition_inertias(bp);

  const float torque_scale = settings.torque_scale();
  for (int j = 0; j < kJointCount; ++j) {
    const JointShape& shape = kJoints[j];
    JointBlueprint& joint = bp.joints[static_cast<std::size_t>(j)];
    joint.joint = joint_at(j);
    joint.child = child_of(joint.joint);
    joint.parent = parent_of(joint.child);
    joint.pivot = shape.pivot * scale;
    Vec3 lower = shape.lower_deg;
    Vec3 upper = shape.upper_deg;
    if (shape.mirrored) {
      // Mirroring across the sagittal plane negates Y and Z rotations.
      lower = {shape.lower_deg.x, -shape.upper_deg.y, -shape.upper_deg.z};
      upper = {shape.upper_deg.x, -shape.lower_deg.y, -shape.lower_deg.z};
    }
    joint.limits.lower = {deg_to_rad(lower.x), deg_to_rad(lower.y), deg_to_rad(lower.z)};
    joint.limits.upper = {deg_to_rad(upper.x), deg_to_rad(upper.y), deg_to_rad(upper.z)};
    joint.drive = drive_for(joint.joint, settings);
    joint.drive.max_torque_nm *= torque_scale;
  }
  return bp;
}

}  // namespace stagger::physics
