#include "stagger/physics/hand.h"

#include <algorithm>

#include "bullet_convert.h"
#include "stagger/physics/ragdoll.h"
#include "world_impl.h"

namespace stagger::physics {

Hand::Hand(World& world, const HandSettings& settings, Vec3 position, Quat rotation)
    : world_(world), settings_(settings), target_(position), target_rotation_(rotation) {
  BodySettings body;
  body.shape = BodySettings::Shape::box;
  body.half_extents = settings.half_extents;
  body.mass_kg = settings.mass_kg;
  body.position = position;
  body.rotation = rotation;
  body.friction = 0.8f;
  World::Impl& impl = world.impl();
  body_ = impl.add_body(body, -1);
  // A fast hand must not pass through a thin wall or a forearm between two steps.
  btRigidBody& rigid = impl.rigid(body_);
  rigid.setCcdMotionThreshold(0.5f * settings.half_extents.y);
  rigid.setCcdSweptSphereRadius(0.9f * settings.half_extents.y);
  pull_ = impl.add_pull(body_);
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

namespace {

// Counts what a body at a pose would overlap by more than a few millimetres, among the objects
// it can touch (not its own finger spheres, not ghosts).
struct OverlapCounter : btCollisionWorld::ContactResultCallback {
  explicit OverlapCounter(const btCollisionObject& self) : self_(self) {}
  bool needsCollision(btBroadphaseProxy* proxy) const override {
    if (!ContactResultCallback::needsCollision(proxy)) return false;
    const auto* other = static_cast<const btCollisionObject*>(proxy->m_clientObject);
    return self_.checkCollideWith(other) &&
           !(other->getCollisionFlags() & btCollisionObject::CF_NO_CONTACT_RESPONSE);
  }
  btScalar addSingleResult(btManifoldPoint& point, const btCollisionObjectWrapper*, int, int,
                           const btCollisionObjectWrapper*, int, int) override {
    if (point.getDistance() < -0.005f) ++overlaps;
    return 0;
  }
  int overlaps = 0;

 private:
  const btCollisionObject& self_;
};

}  // namespace

bool Hand::target_is_clear() const {
  World::Impl& impl = world_.impl();
  btRigidBody& rigid = impl.rigid(body_);
  const btTransform was = rigid.getWorldTransform();
  rigid.setWorldTransform(btTransform(to_bt(target_rotation_), to_bt(target_)));
  OverlapCounter counter(rigid);
  impl.dynamics.contactTest(&rigid, counter);
  rigid.setWorldTransform(was);
  return counter.overlaps == 0;
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
  btRigidBody& rigid = world_.impl().rigid(body_);
  rigid.setWorldTransform(btTransform(to_bt(target_rotation_), to_bt(target_)));
  rigid.setLinearVelocity(to_bt(tracked_ ? target_velocity_ : Vec3{}));
  rigid.setAngularVelocity(btVector3(0, 0, 0));
}

void Hand::before_step(float /*dt*/) {
  update_ghost();
  World::Impl& impl = world_.impl();
  // Position: velocity motors against the world with a force cap (solved with the contacts, so a
  // wall simply wins), following the target's own velocity and closing the gap.
  WorldPull& pull = *impl.pulls[pull_];
  pull.set_target(target_);
  const float cap = settings_.max_force_n;
  // (an untracked hand's target does not move, whatever velocity it last came with)
  pull.pull({cap, cap, cap}, settings_.time_constant_s, settings_.max_catch_up_speed,
            tracked_ ? target_velocity_ : Vec3{});
  // Rotation: a critically damped torque toward the target rotation, capped.
  btRigidBody& rigid = impl.rigid(body_);
  const BodyState now = state();
  const Vec3 h = settings_.half_extents;
  const float inertia = settings_.mass_kg / 3.0f * (dot(h, h) * 2.0f / 3.0f);  // mean of the box's
  const float omega = 2.0f * kPi * settings_.turn_frequency_hz;
  const Vec3 error = rotation_vector(target_rotation_ * now.rotation.conjugate());
  Vec3 torque = (error * (omega * omega) - now.angular_velocity * (2.0f * omega)) * inertia;
  if (length(torque) > settings_.max_torque_nm)
    torque = normalized(torque) * settings_.max_torque_nm;
  rigid.activate(true);
  rigid.applyTorque(to_bt(torque));
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
    const Ragdoll& body = *world_.impl().ragdolls[ragdoll];
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
  World::Impl& impl = world_.impl();
  std::fill(touched_now_.begin(), touched_now_.end(), false);
  last_step_impulse_ns_ = 0;
  const btCollisionObject* hand = &impl.rigid(body_);
  const int manifolds = impl.dispatcher.getNumManifolds();
  for (int i = 0; i < manifolds; ++i) {
    const btPersistentManifold* m = impl.dispatcher.getManifoldByIndexInternal(i);
    const bool hand_is_a = m->getBody0() == hand;
    if (!hand_is_a && m->getBody1() != hand) continue;
    const int other = (hand_is_a ? m->getBody1() : m->getBody0())->getUserIndex();
    if (other < 0) continue;
    const int owner = impl.bodies[static_cast<std::size_t>(other)].owner;
    if (owner < 0 || static_cast<std::size_t>(owner) >= impl.ragdolls.size()) continue;
    const Ragdoll& ragdoll = *impl.ragdolls[static_cast<std::size_t>(owner)];
    const auto part = ragdoll.part_of(static_cast<BodyId>(other));
    if (!part) continue;
    // The normal points from B toward A; A gets +n·impulse, B −n·impulse.
    Vec3 impulse;
    for (int p = 0; p < m->getNumContacts(); ++p) {
      const btManifoldPoint& point = m->getContactPoint(p);
      impulse = impulse + from_bt(point.m_normalWorldOnB) * point.getAppliedImpulse();
    }
    if (hand_is_a) impulse = -impulse;
    if (length(impulse) > 0) touch(static_cast<std::size_t>(owner), *part, impulse);
  }
  close_episodes(dt);
}

void Hand::close_episodes(float dt) {
  World::Impl& impl = world_.impl();
  for (std::size_t r = 0; r < episodes_.size(); ++r) {
    Episode& e = episodes_[r];
    if (!e.active) continue;
    if (touched_now_[r]) {
      e.touching_s += dt;
      e.apart_s = 0;
    } else {
      e.apart_s += dt;
    }
    // The struck body reacts once per shove, a moment into it (the blow builds over steps).
    const bool ending = e.apart_s >= settings_.episode_gap_s;
    if (!e.reacted && (e.touching_s >= settings_.react_after_s || ending)) {
      impl.ragdolls[r]->react_to_hit(e.shove.part, e.shove.impulse);
      e.reacted = true;
    }
    if (ending) {
      shoves_.push_back(e.shove);
      e.active = false;
    }
  }
}

}  // namespace stagger::physics
