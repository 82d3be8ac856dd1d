#include "stagger/physics/skeleton.h"

#include <array>

namespace stagger::physics {
namespace {

constexpr std::array<BodyPart, kBodyPartCount> kParents = {
    BodyPart::pelvis,       // pelvis (root)
    BodyPart::pelvis,       // chest
    BodyPart::chest,        // head
    BodyPart::chest,        // upper_arm_l
    BodyPart::upper_arm_l,  // lower_arm_l
    BodyPart::chest,        // upper_arm_r
    BodyPart::upper_arm_r,  // lower_arm_r
    BodyPart::pelvis,       // thigh_l
    BodyPart::thigh_l,      // shin_l
    BodyPart::shin_l,       // foot_l
    BodyPart::pelvis,       // thigh_r
    BodyPart::thigh_r,      // shin_r
    BodyPart::shin_r,       // foot_r
};

constexpr std::array<std::string_view, kBodyPartCount> kBodyNames = {
    "pelvis",  "chest",  "head",   "upper_arm_l", "lower_arm_l", "upper_arm_r", "lower_arm_r",
    "thigh_l", "shin_l", "foot_l", "thigh_r",     "shin_r",      "foot_r"};

constexpr std::array<std::string_view, kJointCount> kJointNames = {
    "lumbar", "neck",   "shoulder_l", "elbow_l", "shoulder_r", "elbow_r",
    "hip_l",  "knee_l", "ankle_l",    "hip_r",   "knee_r",     "ankle_r"};

}  // namespace

BodyPart parent_of(BodyPart part) {
  return kParents[static_cast<std::size_t>(index_of(part))];
}
BodyPart joint_parent(JointName joint) {
  return parent_of(child_of(joint));
}

std::string_view name_of(BodyPart part) {
  return kBodyNames[static_cast<std::size_t>(index_of(part))];
}
std::string_view name_of(JointName joint) {
  return kJointNames[static_cast<std::size_t>(index_of(joint))];
}

std::optional<BodyPart> body_part_from_name(std::string_view name) {
  for (int i = 0; i < kBodyPartCount; ++i) {
    if (kBodyNames[static_cast<std::size_t>(i)] == name) return body_part_at(i);
  }
  return std::nullopt;
}

const std::array<std::string_view, kBodyPartCount>& body_part_names() {
  return kBodyNames;
}

}  // namespace stagger::physics
