// The walking gait's footholds and swing over uneven ground, read from the ground profile:
//
//   1. build (or reuse) the profile along the swing foot's line;
//   2. where the ground within reach has an edge or rises along the walk, choose the foothold on
//      the profile (one surface, clear of risers, reachable, with a foothold after it);
//   3. during the swing, climb steps up first, hold the toe behind a riser, keep the sole clear.

#include <algorithm>
#include <cmath>

#include "step_controller.h"

namespace stagger::physics {
namespace {

constexpr BodyPart kFeet[2] = {BodyPart::foot_l, BodyPart::foot_r};

// Treads this short are where a step down aims the toe back from the nosing, lowers the pelvis
// through the swing and refuses to land on the tread it leaves (see short_tread_m).
bool short_tread(const GroundSegment& tread, const StepSettings& s) {
  return tread.to_s - tread.from_s < s.short_tread_m;
}

}  // namespace

Vec3 StepController::gait_foothold(Vec3 target, Vec3 forward, Vec3* normal) {
  const StepSettings& s = settings().step;
  const float reach = s.max_step_m * settings().length_scale();
  GroundProfile& profile = state_.profile;
  const Vec3 stance = rig_.body_state(kFeet[1 - state_.swing.leg]).position;
  if (!profile.covers(target, forward, s.profile_lateral_m, deg_to_rad(s.profile_turn_deg))) {
    const float stance_s = dot(horizontal(stance - target), forward);
    profile.build(rig_, target, forward, stance_s - s.profile_behind_m,
                  stance_s + std::max(reach + s.profile_ahead_m, s.stairs_lookahead_m));
  }
  const float aim_s = profile.along(target);
  const float stance_s = profile.along(stance);
  // A flight down keeps its speed until both feet are down at the lowest ground ahead: capped
  // only while two edges were ahead, bodies sped up over the last riser and fell at the flight's
  // foot, at 1.3–1.6 m/s and crouched; released once the stance foot was past the last edge, they
  // sped up while the trailing foot stepped down the last riser, sank 0.3 m into a crouch and
  // sprang up out of it.
  const int edges_ahead = profile.edges_between(stance_s, stance_s + s.stairs_lookahead_m);
  const float lowest_ahead = profile.lowest(stance_s, stance_s + s.stairs_lookahead_m);
  const float half_length = rig_.blueprint().bodies[slot(BodyPart::foot_l)].half_extents.z;
  const float half_height = rig_.blueprint().bodies[slot(BodyPart::foot_l)].half_extents.y;
  const float highest_sole =
      std::max(stance_sole(state_.swing.leg), state_.swing.start.y - half_height);
  const bool flight_down_goes_on =
      state_.stairs_down && (edges_ahead > 0 || highest_sole > lowest_ahead + s.edge_rise_m);
  state_.stairs_ahead = edges_ahead >= s.stairs_edges || flight_down_goes_on;
  // A flight down: lower ground ahead and no riser (a flight up ends on a landing that may drop
  // again beyond it).
  state_.stairs_down = flight_down_goes_on ||
                       (state_.stairs_ahead &&
                        !profile.highest_riser(stance_s, stance_s + s.stairs_lookahead_m).found &&
                        lowest_ahead < stance_sole(state_.swing.leg) - s.edge_rise_m);
  const GroundSegment* stance_tread = profile.segment_at(stance_s);
  state_.swing.stance_on_short_tread = stance_tread != nullptr && short_tread(*stance_tread, s);
  const float choice_s = profile.along(smoothed_choice_aim(target));
  const Vec3 lateral = horizontal(target) - horizontal(profile.at(aim_s));
  float chosen_s = 0;
  const GroundSegment* chosen = nullptr;
  // Where the ground within a step is level along the walk (flat ground, across a slope) and has
  // no edge, the foot lands where it is aimed, on the ground probed there (footholds from the
  // profile's line made walking across a 12° slope fall 2 to 6 times as often; up a 16° slope
  // they took the falls from 16 in 100 to none). Steps down take the profile's foothold too: the
  // older rule (the whole foot to the nearer side of the edge under the aim, kept where it is
  // when the other side is no longer than a foot) left feet across the nosing of 0.28 m treads,
  // and those landed on the nosing they were leaving.
  const float near_s = stance_s - half_length;
  const float far_s = stance_s + std::max(reach + half_length, s.stairs_lookahead_m);
  const bool uneven = profile.edges_between(near_s, far_s) > 0 ||
                      profile.steepest(near_s, far_s) > std::tan(deg_to_rad(s.profile_slope_deg));
  state_.uneven_ahead = uneven;
  const bool found = uneven && choose_foothold(aim_s, choice_s, stance_s, aim_s - stance_s, lateral,
                                               chosen_s, chosen);
  // Whether the foothold is below a sole standing at `from_s` (at height `sole`), over an edge.
  // The edge may be under that foot's heel: a foot whose centre stands at a nosing leaves that
  // tread too (counted from its centre, such a step down was taken for a step on the flat and
  // aimed by the older rule, across the nosing: 200 crossings down 0.15/0.30 stairs, 19 falls
  // against 5).
  const auto below_over_edge = [&](float from_s, float sole) {
    return chosen->height_at(chosen_s) < sole - s.edge_rise_m &&
           profile.edges_between(std::min(from_s, chosen_s) - half_length,
                                 std::max(from_s, chosen_s)) > 0;
  };
  state_.swing.down_a_step =
      found && short_tread(*chosen, s) &&
      below_over_edge(profile.along(state_.swing.start), state_.swing.start.y - half_height);
  state_.swing.on_profile = found && (state_.swing.down_a_step ||
                                      !below_over_edge(stance_s, stance_sole(state_.swing.leg)));
  if (!state_.swing.on_profile) {
    return foot_center_clear_of_edges(target, forward, state_.swing.edge_side, normal);
  }
  if (normal) *normal = chosen->normal;
  Vec3 foot = profile.at(chosen_s) + lateral;
  // The profile's line may pass a few centimetres beside the aim: across a slope the ground
  // there is higher or lower by the slope's rise over that offset.
  const float beside =
      -(chosen->normal.x * lateral.x + chosen->normal.z * lateral.z) / chosen->normal.y;
  foot.y = chosen->height_at(chosen_s) + beside + half_height;
  return foot;
}

float StepController::stance_sole(int swing_leg) const {
  // The stance foot's sole as it stands (its centre may be over a tread below, the foot hanging
  // over a nosing).
  return rig_.body_state(kFeet[1 - swing_leg]).position.y -
         rig_.blueprint().bodies[slot(BodyPart::foot_l)].half_extents.y;
}

bool StepController::foothold_range(std::size_t i, float& lo, float& hi) const {
  // A foot stands on one segment. Beside a riser (higher ground next to the segment) it keeps
  // the edge margin; at a nosing (lower ground, or a gap) it keeps the margin too where the
  // segment is long enough, and may hang over it by max_overhang_m where the tread is shorter
  // than the foot. The ends of the profile are no edges.
  const StepSettings& s = settings().step;
  const std::vector<GroundSegment>& segments = state_.profile.segments();
  const GroundSegment& g = segments[i];
  if (g.normal.y < std::cos(deg_to_rad(s.max_foothold_slope_deg))) return false;
  const float half_length = rig_.blueprint().bodies[slot(BodyPart::foot_l)].half_extents.z;
  const auto riser = [&](const GroundSegment* other, float at) {
    return other != nullptr && other->height_at(at) > g.height_at(at) + s.edge_rise_m;
  };
  const GroundSegment* before =
      i > 0 && segments[i - 1].to_s >= g.from_s ? &segments[i - 1] : nullptr;
  const GroundSegment* after =
      i + 1 < segments.size() && segments[i + 1].from_s <= g.to_s ? &segments[i + 1] : nullptr;
  // Walked across a riser ahead obliquely, the toe's leading corner meets it sooner than the
  // foot's centre line does, by the profile's edge lead. (The lead is not added at the heel: down
  // a flight it pushed the foot toward the nosing ahead.)
  const float toe_lead = riser(after, g.to_s) ? state_.profile.edge_lead() : 0.0f;
  const bool short_tread = g.to_s - g.from_s < 2.0f * (half_length + s.edge_margin_m) + toe_lead;
  const float nosing = short_tread ? s.max_overhang_m : -s.edge_margin_m;
  const bool profile_start = i == 0 && before == nullptr && g.from_s <= segments.front().from_s;
  const bool profile_end = i + 1 == segments.size();
  const float heel_min =
      profile_start ? -1e9f : g.from_s + (riser(before, g.from_s) ? s.edge_margin_m : -nosing);
  const float toe_max =
      profile_end ? 1e9f : g.to_s + (riser(after, g.to_s) ? -(s.edge_margin_m + toe_lead) : nosing);
  lo = heel_min + half_length;
  hi = toe_max - half_length;
  return lo <= hi;
}

Vec3 StepController::smoothed_choice_aim(Vec3 target) {
  // The aim follows the capture point, which shakes with the body's velocity (the feet striking
  // treads): an aim near the gap between two treads' footholds chose one, then the other, at
  // nearly every physics step, and the foot, following neither, caught the nosing between them.
  // The tread is chosen by the aim smoothed; the foot is still placed on it by the aim itself.
  // Down a flight only: up one, the smoothed choice stepped onto the landing late and tripped
  // on its nosing (0.17/0.28 m stairs up, seeds 1 and 2: 6 falls in 400 against none).
  Swing& swing = state_.swing;
  const float tau = settings().step.foothold_choice_smoothing_s;
  if (swing.choice_aim_at_s < 0 || tau <= 0 || !state_.stairs_down) {
    swing.choice_aim = target;
  } else {
    const float dt = std::max(0.0f, swing.elapsed_s - swing.choice_aim_at_s);
    swing.choice_aim = swing.choice_aim + (target - swing.choice_aim) * (dt / (tau + dt));
  }
  swing.choice_aim_at_s = swing.elapsed_s;
  return swing.choice_aim;
}

bool StepController::choose_foothold(float aim_s, float choice_s, float stance_s, float stride_s,
                                     Vec3 lateral, float& chosen_s,
                                     const GroundSegment*& chosen) const {
  // The segment whose foothold is nearest the smoothed aim (`choice_s`), within a long step of
  // the stance foot, and on it the foot centre nearest the aim; a foothold after which the next
  // step (the same stride on) finds none scores worse, so that a stride is shortened or
  // lengthened to match the treads ahead.
  const StepSettings& s = settings().step;
  const float reach = s.max_step_m * settings().length_scale();
  const GroundProfile& profile = state_.profile;
  const Vec3 stance = profile.at(stance_s);
  const float most_height = s.max_step_height_m * settings().length_scale();
  const float stance_ground = stance_sole(state_.swing.leg);
  const float half_length = rig_.blueprint().bodies[slot(BodyPart::foot_l)].half_extents.z;
  const auto reachable = [&](float from_s, float to_s, Vec3 side) {
    return length(horizontal(profile.at(to_s) + side - profile.at(from_s))) <= reach;
  };
  const std::size_t count = profile.segments().size();
  const auto nearest = [&](float goal, float& best_s, const GroundSegment*& best) {
    float best_off = 1e9f;
    for (std::size_t i = 0; i < count; ++i) {
      float lo = 0;
      float hi = 0;
      if (!foothold_range(i, lo, hi)) continue;
      const float candidate = std::clamp(goal, lo, hi);
      if (std::fabs(candidate - goal) < best_off) {
        best_off = std::fabs(candidate - goal);
        best_s = candidate;
        best = &profile.segments()[i];
      }
    }
    return best != nullptr;
  };
  float best_score = 1e9f;
  chosen = nullptr;
  for (std::size_t i = 0; i < count; ++i) {
    float lo = 0;
    float hi = 0;
    if (!foothold_range(i, lo, hi)) continue;
    const GroundSegment& segment = profile.segments()[i];
    if (segment.height_at(lo) < stance_ground - s.edge_rise_m && short_tread(segment, s)) {
      // A step down: the toe stays on the tread where the tread holds the foot (it may still
      // hang over where the tread is shorter than the foot and its riser margin).
      hi = std::max(lo, std::min(hi, segment.to_s - half_length - s.step_down_toe_margin_m));
    }
    const float candidate = std::clamp(aim_s, lo, hi);
    if (length(horizontal(profile.at(candidate) + lateral - stance)) > reach) continue;
    if (std::fabs(profile.segments()[i].height_at(candidate) - stance_ground) > most_height)
      continue;
    float next_s = 0;
    const GroundSegment* next = nullptr;
    const bool has_next = stride_s <= 0 || (nearest(candidate + stride_s, next_s, next) &&
                                            reachable(candidate, next_s, lateral * -2.0f));
    const float score = std::fabs(std::clamp(choice_s, lo, hi) - choice_s) +
                        (has_next ? 0.0f : s.no_next_foothold_penalty_m);
    if (score < best_score) {
      best_score = score;
      chosen_s = candidate;
      chosen = &profile.segments()[i];
    }
  }
  return chosen != nullptr;
}

void StepController::clear_profile(Vec3& foot, float t, float height, float pitch) const {
  // Over the ground the profile knows, the swing foot (1) climbs during the lift to above the
  // highest ground between its start and its target, so that a step up is climbed by the time
  // the foot travels; (2) waits with its toe behind a riser it is not yet above (carried along
  // the straight path, the toe caught the nosing: 16 of 16 walks up 0.17 m risers fell); (3)
  // keeps its sole above the ground under it by the swing's clearance of the moment.
  const StepSettings& s = settings().step;
  const GroundProfile& profile = state_.profile;
  const Vec3 half = rig_.blueprint().bodies[slot(BodyPart::foot_l)].half_extents;
  // [m] the foot's half length along the line toward a riser: walked across it obliquely, the
  // toe's leading corner meets it sooner than the centre line does. (Not for the sole's clearance
  // below: kept over the longer span, feet going down a flight at 30° stepped off the nosings, 20
  // falls in 800 crossings against 2.)
  const float reach = half.z + profile.edge_lead();
  const Swing& swing = state_.swing;
  const float start_s = profile.along(swing.start);
  const float target_s = profile.along(swing.target);
  float at = profile.along(foot);
  const GroundProfile::Riser riser = profile.highest_riser(start_s + reach, target_s + reach);
  if (target_s > start_s && riser.found) {
    const float climbed = smoothstep(std::min(1.0f, t / swing.lift_s));
    const float lift = riser.top + half.y + s.riser_clearance_m - swing.start.y;
    foot.y = std::max(foot.y, swing.start.y + lift * climbed + height);
    if (foot.y - half.y < riser.top + s.riser_clearance_m) {
      const float most = riser.at - s.riser_clearance_m - reach;
      if (at > most) {
        foot = foot - profile.direction() * (at - most);
        at = most;
      }
    }
  }
  // The foot lags its target: the ground under the foot where it really is counts too (going
  // down, the heel of a foot behind its target caught the nosing it was leaving).
  const float actual = profile.along(rig_.body_state(kFeet[swing.leg]).position);
  const float heel_at = target_s > start_s ? std::min(at, actual) : at;
  // The sole is tilted as the foot is (`pitch` [m/m] along the line): a slope under a foot tilted
  // with it is no obstacle.
  const float under = profile.highest_above_sole(heel_at - half.z, at + half.z, at, pitch);
  if (std::isfinite(under)) foot.y = std::max(foot.y, under + half.y + height);
}

}  // namespace stagger::physics
