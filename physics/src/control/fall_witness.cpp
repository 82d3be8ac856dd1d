#include "fall_witness.h"

#include <algorithm>

namespace stagger::physics {
namespace {

constexpr BodyPart kFeet[2] = {BodyPart::foot_l, BodyPart::foot_r};

}  // namespace

void FallWitness::observe(float dt, bool on_its_feet, const RagdollRig& rig, const BodySense& sense,
                          const StepController::Swing& swing) {
  state_.since_push_s += dt;
  state_.since_hit_s += dt;
  state_.since_trip_s += dt;
  state_.since_slip_s += dt;
  for (int leg = 0; leg < 2; ++leg) {
    const bool swinging = swing.active && swing.leg == leg;
    watch_stance(leg, on_its_feet && !swinging && sense.planted(leg), rig);
  }
  if (on_its_feet && swing.active) watch_swing(rig, swing);
}

void FallWitness::watch_swing(const RagdollRig& rig, const StepController::Swing& swing) {
  // A swing foot that touches down early, well short of its target, has caught on the ground
  // (a riser's nosing, a kerb): a trip. Early in the lift the toe may still brush the ground it
  // leaves.
  if (swing.elapsed_s < settings_.trip_grace_share * swing.lift_s) return;
  const BodyPart foot = kFeet[swing.leg];
  if (!rig.touching(foot)) return;
  const Vec3 short_by = horizontal(swing.target - rig.body_state(foot).position);
  if (length(short_by) > settings_.trip_distance_m) state_.since_trip_s = 0;
}

void FallWitness::watch_stance(int leg, bool planted, const RagdollRig& rig) {
  const auto i = static_cast<std::size_t>(leg);
  const Vec3 at = horizontal(rig.body_state(kFeet[leg]).position);
  if (!planted) {
    state_.planted[i] = false;
    return;
  }
  if (!state_.planted[i]) {
    // A stance begins when the foot is on the ground (a foot that left it a moment ago still
    // counts as planted, but a stance does not begin in the air).
    if (!rig.touching(kFeet[leg])) return;
    state_.planted[i] = true;
    state_.stance_start[i] = at;
    state_.slip_m[i] = 0;
    return;
  }
  state_.slip_m[i] = std::max(state_.slip_m[i], length(at - state_.stance_start[i]));
  if (state_.slip_m[i] > settings_.slip_m) state_.since_slip_s = 0;
  max_foot_slip_m_ = std::max(max_foot_slip_m_, state_.slip_m[i]);
}

bool FallWitness::over_lower_ground(const RagdollRig& rig, const BodySense& sense) const {
  // The ground under the centre of mass, probed from the height of the soles down, compared with
  // the soles: over a drop (or no ground within reach) the body is going over an edge.
  const float sole = sense.balance.com.y - sense.balance.com_height_m;
  const float reach = rig.settings().height_m;
  const GroundHit ground =
      rig.probe_ground({sense.balance.com.x, sole, sense.balance.com.z}, settings_.drop_m, reach);
  return !ground.hit || ground.point.y < sole - settings_.drop_m;
}

FallCause FallWitness::judge(const RagdollRig& rig, const BodySense& sense) const {
  if (state_.since_push_s <= settings_.blow_window_s) return FallCause::pushed;
  if (state_.since_hit_s <= settings_.blow_window_s) return FallCause::hit;
  if (state_.since_trip_s <= settings_.foot_window_s) return FallCause::tripped;
  if (over_lower_ground(rig, sense)) return FallCause::stepped_off_edge;
  if (state_.since_slip_s <= settings_.foot_window_s) return FallCause::slipped;
  return FallCause::lost_balance;
}

}  // namespace stagger::physics
