#include "ground_profile.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stagger::physics {
namespace {

// [m/m] how far a plane with this normal rises per metre along the horizontal `direction`.
float rise_along(Vec3 normal, Vec3 direction) {
  return -(normal.x * direction.x + normal.z * direction.z) / normal.y;
}

// Ground steeper than this is a wall or a riser, not a surface a foot stands on.
constexpr float kMinStandingNormalY = 0.5f;
// [m/m] slopes closer than this are one plane (about 2°).
constexpr float kSlopeTolerance = 0.035f;
// [m/m] the edge lead is looked for within this much per metre beside the line: edges crossing
// it up to 60° from square (tan 60°).
constexpr float kMostLeadPerMetre = 1.732f;
// [-] the edge lead's bisections stop at this share of the profile's edge precision.
constexpr float kLeadPrecisionShare = 0.25f;

}  // namespace

GroundProfile::Sample GroundProfile::probe(const RagdollRig& rig, float s, float near_y,
                                           float beside) const {
  // A column fixed at the origin's height saw a flight up only as far as its top reached (0.4 m
  // above the swing foot: two risers of 0.17 m). Climbing step over step, that left one riser
  // ahead of the stance foot, too few to be a flight: the stairs' speed cap came and went, and
  // bodies climbed a stairwell's flights at up to 1 m/s and tripped on them.
  const Vec3 left{direction_.z, 0, -direction_.x};
  Vec3 column = origin_ + direction_ * s + left * beside;
  column.y += near_y - first_ground_y_;
  const GroundHit hit = rig.probe_ground(column, probe_above_m_, probe_below_m_);
  Sample sample;
  if (!hit.hit || hit.normal.y < kMinStandingNormalY) return sample;
  sample.hit = true;
  sample.height = hit.point.y;
  sample.normal = hit.normal;
  sample.slope = rise_along(hit.normal, direction_);
  return sample;
}

bool GroundProfile::continues(const Sample& last, const Sample& next, float step) const {
  // A kink (the foot or the top of a ramp) starts a segment too, with no edge between.
  if (!last.hit || !next.hit) return false;
  return std::fabs(next.height - (last.height + last.slope * step)) <= 0.5f * edge_rise_m_ &&
         std::fabs(next.slope - last.slope) <= kSlopeTolerance;
}

float GroundProfile::locate_edge(const RagdollRig& rig, float on_s, const Sample& on, float off_s,
                                 float precision, float beside) const {
  // Bisection: `on_s` continues the segment, `off_s` does not.
  while (std::fabs(off_s - on_s) > precision) {
    const float mid = 0.5f * (on_s + off_s);
    (continues(on, probe(rig, mid, on.height, beside), mid - on_s) ? on_s : off_s) = mid;
  }
  return 0.5f * (on_s + off_s);
}

float GroundProfile::measure_edge_lead(const RagdollRig& rig, float beside) const {
  // The first edge between two segments that meet, looked for on the line beside within the
  // window either side of where it crosses this one. Stairs' edges run parallel: one tells the
  // angle of all.
  const float window = kMostLeadPerMetre * beside;
  for (std::size_t i = 1; i < segments_.size(); ++i) {
    const GroundSegment& before = segments_[i - 1];
    const GroundSegment& after = segments_[i];
    if (before.to_s < after.from_s || std::fabs(rise_before(i)) <= edge_rise_m_) continue;
    const float on_s = std::max(before.from_s, after.from_s - window);
    const float off_s = std::min(after.to_s, after.from_s + window);
    // Beside the line each end must lie on its own segment's plane; where one does not (the edge
    // there is past the window, or the ground beside is other ground), the next edge is tried:
    // taken as the most lead, a profile on a straight flight would hold no foot on a short tread.
    const auto on_plane = [&](const Sample& sample, const GroundSegment& g, float at) {
      return sample.hit && std::fabs(sample.height - g.height_at(at)) <= 0.5f * edge_rise_m_;
    };
    const Sample on_beside = probe(rig, on_s, before.height_at(on_s), beside);
    if (!on_plane(on_beside, before, on_s) ||
        !on_plane(probe(rig, off_s, after.height_at(off_s), beside), after, off_s)) {
      continue;
    }
    // Both lines bisected finer than the profile's edges: on edges square to the line (the lead
    // a few millimetres) the profile's own precision would read as a lead.
    const float fine = kLeadPrecisionShare * precision_m_;
    const float here =
        locate_edge(rig, on_s, probe(rig, on_s, before.height_at(on_s)), off_s, fine);
    const float there = locate_edge(rig, on_s, on_beside, off_s, fine, beside);
    // A lead within the precision the edges themselves are located to is none: edges this near
    // square to the line (within about 10° for a 5 cm half width) are walked as square ones.
    const float lead = std::fabs(there - here);
    return lead < precision_m_ ? 0.0f : lead;
  }
  return 0.0f;
}

void GroundProfile::build(const RagdollRig& rig, Vec3 origin, Vec3 direction, float from_s,
                          float to_s) {
  const StepSettings& settings = rig.settings().step;
  origin_ = origin;
  direction_ = normalized(horizontal(direction));
  from_s_ = from_s;
  to_s_ = to_s;
  edge_rise_m_ = settings.edge_rise_m;
  precision_m_ = settings.edge_precision_m;
  probe_above_m_ = settings.probe_above_m;
  probe_below_m_ = settings.probe_below_m;
  segments_.clear();
  built_ = true;

  const float spacing = settings.profile_spacing_m;
  const int count = std::max(2, static_cast<int>(std::ceil((to_s - from_s) / spacing)) + 1);
  Sample last;
  float last_s = from_s;
  bool open = false;
  first_ground_y_ = origin.y;
  for (int i = 0; i < count; ++i) {
    const float s = std::min(to_s, from_s + spacing * static_cast<float>(i));
    // `last` holds the ground found last (none yet: the column stands at the origin's height).
    const Sample next = probe(rig, s, last.hit ? last.height : first_ground_y_);
    if (next.hit && !last.hit) first_ground_y_ = next.height;
    if (open && continues(last, next, s - last_s)) {
      segments_.back().to_s = s;
    } else {
      // An edge (or a gap) between last_s and s: the segment before ends where it stops, the
      // next one starts there.
      float edge = s;
      if (open) {
        edge = locate_edge(rig, last_s, last, s, precision_m_);
        segments_.back().to_s = edge;
      }
      open = next.hit;
      if (open) {
        const float start = i == 0 ? s : edge;
        segments_.push_back(
            {start, s, next.height + next.slope * (start - s), next.slope, next.normal});
      }
    }
    if (next.hit) {
      last = next;
      last_s = s;
    }
  }
  edge_lead_m_ =
      measure_edge_lead(rig, rig.blueprint().bodies[slot(BodyPart::foot_l)].half_extents.x);
}

float GroundProfile::off_line(Vec3 point) const {
  const Vec3 d = horizontal(point - origin_);
  return length(d - direction_ * dot(d, direction_));
}

bool GroundProfile::covers(Vec3 point, Vec3 direction, float lateral_m, float turn_rad) const {
  if (!built_) return false;
  const float s = along(point);
  if (s < from_s_ || s > to_s_) return false;
  if (off_line(point) > lateral_m) return false;
  return dot(normalized(horizontal(direction)), direction_) >= std::cos(turn_rad);
}

float GroundProfile::highest_above_sole(float from_s, float to_s, float at_s, float pitch) const {
  // Linear within a segment: the most is at one of its ends.
  float top = -std::numeric_limits<float>::infinity();
  for (const GroundSegment& g : segments_) {
    const float a = std::max(from_s, g.from_s);
    const float b = std::min(to_s, g.to_s);
    if (a > b) continue;
    top = std::max({top, g.height_at(a) - pitch * (a - at_s), g.height_at(b) - pitch * (b - at_s)});
  }
  return top;
}

float GroundProfile::steepest(float from_s, float to_s) const {
  float most = 0;
  for (const GroundSegment& g : segments_) {
    if (g.to_s >= from_s && g.from_s <= to_s) most = std::max(most, std::fabs(g.slope));
  }
  return most;
}

const GroundSegment* GroundProfile::segment_at(float s) const {
  for (const GroundSegment& g : segments_) {
    if (g.from_s <= s && s <= g.to_s) return &g;
  }
  return nullptr;
}

float GroundProfile::lowest(float from_s, float to_s) const {
  float low = std::numeric_limits<float>::infinity();
  for (const GroundSegment& g : segments_) {
    if (g.to_s < from_s || g.from_s > to_s) continue;
    const float a = std::max(from_s, g.from_s);
    const float b = std::min(to_s, g.to_s);
    low = std::min({low, g.height_at(a), g.height_at(b)});
  }
  return low;
}

float GroundProfile::rise_before(std::size_t i) const {
  const GroundSegment& before = segments_[i - 1];
  const GroundSegment& after = segments_[i];
  if (before.to_s < after.from_s) return std::numeric_limits<float>::infinity();  // a gap
  return after.height - before.height_at(before.to_s);
}

int GroundProfile::edges_between(float from_s, float to_s) const {
  int edges = 0;
  for (std::size_t i = 1; i < segments_.size(); ++i) {
    const float at = segments_[i].from_s;
    if (at >= from_s && at <= to_s && std::fabs(rise_before(i)) > edge_rise_m_) ++edges;
  }
  return edges;
}

GroundProfile::Riser GroundProfile::highest_riser(float from_s, float to_s) const {
  Riser riser;
  for (std::size_t i = 1; i < segments_.size(); ++i) {
    const GroundSegment& after = segments_[i];
    if (after.from_s < from_s || after.from_s > to_s) continue;
    const float rise = rise_before(i);
    if (std::isinf(rise) || rise <= edge_rise_m_) continue;
    if (!riser.found || after.height > riser.top) riser = {true, after.from_s, after.height};
  }
  return riser;
}

}  // namespace stagger::physics
