#pragma once
// The humanoid's body parts and joints: names (as level files and scripts use them), parents and
// the joint between them.
// Joint j drives body part j+1 relative to its parent, so there is one joint per non-root part.
// The spine is part of the chest and the hands are part of the forearms: three bodies and three
// joints fewer to solve, and no visible loss for an enemy seen at arm's length.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace stagger::physics {

enum class BodyPart : std::uint8_t {
  pelvis,
  chest,  // with the spine, one body
  head,
  upper_arm_l,
  lower_arm_l,  // the forearm and the fist, one body
  upper_arm_r,
  lower_arm_r,
  thigh_l,
  shin_l,
  foot_l,
  thigh_r,
  shin_r,
  foot_r,
};
inline constexpr int kBodyPartCount = 13;
inline constexpr int kJointCount = kBodyPartCount - 1;

enum class JointName : std::uint8_t {
  lumbar,      // pelvis -> chest
  neck,        // chest -> head
  shoulder_l,  // chest -> upper_arm_l
  elbow_l,
  shoulder_r,
  elbow_r,
  hip_l,  // pelvis -> thigh_l
  knee_l,
  ankle_l,
  hip_r,
  knee_r,
  ankle_r,
};

constexpr int index_of(BodyPart part) {
  return static_cast<int>(part);
}
constexpr int index_of(JointName joint) {
  return static_cast<int>(joint);
}
/// The part's or joint's place in arrays indexed by part or joint.
constexpr std::size_t slot(BodyPart part) {
  return static_cast<std::size_t>(index_of(part));
}
constexpr std::size_t slot(JointName joint) {
  return static_cast<std::size_t>(index_of(joint));
}
constexpr BodyPart body_part_at(int index) {
  return static_cast<BodyPart>(index);
}
constexpr JointName joint_at(int index) {
  return static_cast<JointName>(index);
}

/// The body part a joint moves (its child).
constexpr BodyPart child_of(JointName joint) {
  return body_part_at(index_of(joint) + 1);
}
/// The joint that moves `part` relative to its parent; pelvis has none.
constexpr std::optional<JointName> joint_of(BodyPart part) {
  if (part == BodyPart::pelvis) return std::nullopt;
  return joint_at(index_of(part) - 1);
}
/// Parent of each body part; pelvis is the root and is its own parent.
BodyPart parent_of(BodyPart part);
/// The body part a joint is anchored on (its parent).
BodyPart joint_parent(JointName joint);

std::string_view name_of(BodyPart part);
std::string_view name_of(JointName joint);
std::optional<BodyPart> body_part_from_name(std::string_view name);

/// Every body part name, in order, for messages such as "expected one of ...".
const std::array<std::string_view, kBodyPartCount>& body_part_names();

}  // namespace stagger::physics
