#include "stagger/physics/hand.h"

#include <algorithm>

#include "stagger/physics/ragdoll.h"

namespace stagger::physics {
namespace {

constexpr float kFriction = 0.8f;  // [-] of the hand's box
// Continuous collision: a hand moving more than half its thickness in a step is swept as a
// sphere nearly as thick as it is, so that it cannot pass through a thin wall or a forearm.
constexpr float kSweepThresholdShare = 0.5f;  // [-] of the half thickness
constexpr float kSweptRadiusShare = 0.9f;     // [-] of the half thickness
constexpr float kClearDepthM = 0.005f;  // [m] overlaps shallower than this leave a target clear

}  // namespace

Hand::Hand(World& world, const HandSettings& settings, Vec3 position, Quat rotation)
    : world_(world), settings_(settings), target_(position), target_rotation_(rotation) {
  BodySettings body;
  body.shape = BodySettings::Shape::box;
  body.half_extents = settings.half_extents;
  body.mass_kg = settings.mass_kg;
  body.position = position;
  body.rotation = rotation;
  body.friction = kFriction;
  body.continuous = {kSweepThresholdShare * settings.half_extents.y,
                     kSweptRadiusShare * settings.half_extents.y};
  body_ = world.add_body(body);
  pull_ = world.add_pull(body_);
}

void Hand::set_target(Vec3 position, Quat rotation, Vec3 velocity) {
  target_ = position;
  target_rotation_ = rotation;
  target_velocity_ = velocity;
}

void Hand::set_tracked(bool tracked) {
  tracked_ = tracked;
}

void Hand::set_ghost(bool ghost) {
  if (ghost == ghost_) return;
  ghost_ = ghost;
  world_.set_collisions(body_, !ghost);
}

bool Hand::target_is_clear() const {
  return !world_.overlaps_at(body_, target_, target_rotation_, kClearDepthM);
}

// Ghost rules (as VR physics hands do it): lost tracking or a body held too far from the
// target turns the hand ghost, so a drive chasing a far target can never fling an enemy; it turns
// solid again once tracked and the target pose overlaps nothing.
void Hand::update_ghost() {
  const float separation = length(state().position - target_);
  const bool held_away =
      settings_.ghost_separation_m > 0 && separation > settings_.ghost_separation_m;
  if (!tracked_ || held_away) {
    set_ghost(true);
  } else if (ghost_ && target_is_clear()) {
    set_ghost(false);
  }
  if (!ghost_) return;
  world_.place_body(body_, target_, target_rotation_, tracked_ ? target_velocity_ : Vec3{}, {});
}

void Hand::before_step(float /*dt*/) {
  update_ghost();
  // Position: velocity motors against the world with a force cap (solved with the contacts, so a
  // wall simply wins), following the target's own velocity and closing the gap.
  const float cap = settings_.max_force_n;
  // (an untracked hand's target does not move, whatever velocity it last came with)
  world_.pull(pull_, target_, {cap, cap, cap}, settings_.time_constant_s,
              settings_.max_catch_up_speed, tracked_ ? target_velocity_ : Vec3{});
  // Rotation: a critically damped torque toward the target rotation, capped.
  const BodyState now = state();
  const Vec3 h = settings_.half_extents;
  const float inertia = settings_.mass_kg / 3.0f * (dot(h, h) * 2.0f / 3.0f);  // mean of the box's
  const float omega = 2.0f * kPi * settings_.turn_frequency_hz;
  const Vec3 error = rotation_vector(target_rotation_ * now.rotation.conjugate());
  Vec3 torque = (error * (omega * omega) - now.angular_velocity * (2.0f * omega)) * inertia;
  if (length(torque) > settings_.max_torque_nm)
    torque = normalized(torque) * settings_.max_torque_nm;
  world_.apply_torque(body_, torque);
}

void Hand::touch(std::size_t ragdoll, BodyPart part, Vec3 impulse) {
  if (episodes_.size() <= ragdoll) {
    episodes_.resize(ragdoll + 1);
    touched_now_.resize(ragdoll + 1, false);
  }
  Episode& e = episodes_[ragdoll];
  if (!e.active) {
    e = Episode{};
    e.active = true;
    e.shove.ragdoll = ragdoll;
    e.shove.start_s = world_.time();
    // The arm's momentum lands with the first touch, along the way the hand was going.
    const Ragdoll& body = world_.ragdoll(ragdoll);
    const Vec3 toward = body.body_state(part).position - state().position;
    const float closing =
        length(toward) > 1e-6f ? std::max(0.0f, dot(target_velocity_, normalized(toward))) : 0.0f;
    if (settings_.arm_mass_kg > 0 && closing > 0) {
      const Vec3 blow = normalized(target_velocity_) * (settings_.arm_mass_kg * closing);
      world_.apply_impulse(body.body(part), blow);
      impulse = impulse + blow;
    }
  }
  e.shove.impulse = e.shove.impulse + impulse;
  last_step_impulse_ns_ += length(impulse);
  if (length(impulse) > e.largest_ns) {
    e.largest_ns = length(impulse);
    e.shove.part = part;
  }
  touched_now_[ragdoll] = true;
}

void Hand::after_step(float dt) {
  std::fill(touched_now_.begin(), touched_now_.end(), false);
  last_step_impulse_ns_ = 0;
  world_.contact_impulses(body_, contacts_);
  for (const ContactImpulse& contact : contacts_) {
    const auto struck = world_.ragdoll_part(contact.other);
    if (struck && length(contact.impulse) > 0)
      touch(struck->ragdoll, struck->part, contact.impulse);
  }
  close_episodes(dt);
}

void Hand::close_episodes(float dt) {
  for (std::size_t r = 0; r < episodes_.size(); ++r) {
    Episode& e = episodes_[r];
    if (!e.active) continue;
    if (!world_.has_ragdoll(r)) {  // removed mid-shove
      e.active = false;
      continue;
    }
    if (touched_now_[r]) {
      e.touching_s += dt;
      e.apart_s = 0;
    } else {
      e.apart_s += dt;
    }
    // The struck body reacts once per shove, a moment into it (the blow builds over steps).
    const bool ending = e.apart_s >= settings_.episode_gap_s;
    if (!e.reacted && (e.touching_s >= settings_.react_after_s || ending)) {
      world_.ragdoll(r).react_to_hit(e.shove.part, e.shove.impulse);
      e.reacted = true;
    }
    if (ending) {
      shoves_.push_back(e.shove);
      e.active = false;
    }
  }
}

}  // namespace stagger::physics
