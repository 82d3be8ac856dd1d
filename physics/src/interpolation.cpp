#include "stagger/physics/interpolation.h"

#include <algorithm>

#include "stagger/core/assert.h"

namespace stagger::physics {

BodyPose interpolate(const BodyPose& from, const BodyPose& to, float alpha) {
  const float t = std::clamp(alpha, 0.0f, 1.0f);
  return {lerp(from.position, to.position, t), slerp(from.rotation, to.rotation, t)};
}

void PoseHistory::capture(const World& world) {
  older_.swap(newer_);
  newer_.resize(world.body_count());
  for (std::size_t i = 0; i < newer_.size(); ++i) {
    const auto id = static_cast<BodyId>(i);
    if (world.has_body(id)) {
      const BodyState state = world.body_state(id);
      newer_[i] = {state.position, state.rotation};
    } else if (i < older_.size()) {
      newer_[i] = older_[i];  // removed: where it was last seen
    }
  }
  // Bodies added since the older snapshot start from where they are.
  for (std::size_t i = older_.size(); i < newer_.size(); ++i) older_.push_back(newer_[i]);
}

void PoseHistory::reset(const World& world) {
  capture(world);
  older_ = newer_;
}

BodyPose PoseHistory::pose(BodyId body, float alpha) const {
  const auto i = static_cast<std::size_t>(body);
  STAGGER_ASSERT(i < newer_.size());
  return interpolate(older_[i], newer_[i], alpha);
}

}  // namespace stagger::physics
