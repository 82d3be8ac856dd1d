#pragma once
// The ground along a line, probed once and kept: the surfaces a step's foot may land on.
//
// A swing re-aims its foot every physics step; probing the ground at each new aim costs probes
// and couples the aim to the probe (the foot moves, the probe moves, the aim moves: the
// oscillation of the wall-walking spider). The profile is built once, along the swing foot's
// line from behind its start to beyond its longest step, and read until the aim leaves the
// line or the line turns: a cache of surfaces, not of heights, so a foot moving along a slope
// still reads the slope.
//
//   1. probe at a fixed spacing along the line, each probe's column placed as high above the
//      ground found last as the first one was above the origin's ground (a flight is followed
//      up or down to the end of the look ahead);
//   2. cut the probes into segments where the ground leaves the plane of the one before (a step's
//      edge), locating each edge by bisection;
//   3. find the first edge again on a line beside this one, a foot's half width away: where the
//      edges cross the line obliquely (stairs walked across), a foot's leading corner meets each
//      edge sooner than its centre line does, by that much (the edge lead);
//   4. answer queries from the segments: the edges and the steepest slope over a stretch, the
//      highest ground above a tilted sole, the first riser, the segments themselves.

#include <vector>

#include "stagger/physics/locomotion.h"
#include "stagger/physics/ragdoll_rig.h"

namespace stagger::physics {

/// A stretch of the profile on one plane.
struct GroundSegment {
  float from_s = 0;  ///< [m] along the line, where it starts ...
  float to_s = 0;    ///< [m] ... and ends
  float height = 0;  ///< [m] the ground's height at from_s
  float slope = 0;   ///< [m/m] rise per metre along the line
  Vec3 normal{0, 1, 0};
  float height_at(float s) const { return height + slope * (s - from_s); }
};

class GroundProfile {
 public:
  /// Probes the ground along `direction` (horizontal, unit) through `origin`, from `from_s` to
  /// `to_s` metres along it.
  void build(const RagdollRig& rig, Vec3 origin, Vec3 direction, float from_s, float to_s);

  /// [m] along the line, of a point's horizontal projection.
  float along(Vec3 point) const { return dot(horizontal(point - origin_), direction_); }
  /// [m] a point's horizontal distance from the line.
  float off_line(Vec3 point) const;
  /// Whether a foot at `point` facing `direction` can be placed from this profile: on the line
  /// to within `lateral_m`, turned from it by at most `turn_rad`, within its range.
  bool covers(Vec3 point, Vec3 direction, float lateral_m, float turn_rad) const;
  /// The point on the line at `s` (at height 0).
  Vec3 at(float s) const { return origin_ + direction_ * s; }
  Vec3 direction() const { return direction_; }

  const std::vector<GroundSegment>& segments() const { return segments_; }
  /// [m] how much sooner along the line a foot's corner, a half width beside its centre, meets
  /// the profile's edges than its centre line does: 0 where they cross the line square.
  float edge_lead() const { return edge_lead_m_; }
  /// [m] how high the ground between `from_s` and `to_s` reaches above a plane through height 0
  /// at `at_s` rising `pitch` [m/m] along the line: the lift a tilted sole needs to clear it
  /// (-infinity over gaps only).
  float highest_above_sole(float from_s, float to_s, float at_s, float pitch) const;
  /// A step up: an edge where the ground ahead is higher by more than the edge rise.
  struct Riser {
    bool found = false;
    float at = 0;   ///< [m] along the line
    float top = 0;  ///< [m] the ground's height beyond it
  };
  /// [m/m] the steepest rise or fall along the line between `from_s` and `to_s`.
  float steepest(float from_s, float to_s) const;
  /// The segment that holds `s` along the line (the first of two that meet there); null over a
  /// gap or beyond the ends.
  const GroundSegment* segment_at(float s) const;
  /// [m] the lowest ground between `from_s` and `to_s` (infinity where there is none).
  float lowest(float from_s, float to_s) const;
  /// The edges (steps up or down by more than the edge rise, or gaps) between `from_s` and `to_s`.
  int edges_between(float from_s, float to_s) const;
  /// The highest riser between `from_s` and `to_s` (the first of equal ones).
  Riser highest_riser(float from_s, float to_s) const;

 private:
  struct Sample {
    bool hit = false;
    float height = 0;
    float slope = 0;
    Vec3 normal{0, 1, 0};
  };
  /// The ground at `s` along the line, `beside` metres to its left, probed in a column that
  /// follows the ground: as the origin's is to the first ground found, so is this one to the
  /// ground `near_y` [m] found nearby.
  Sample probe(const RagdollRig& rig, float s, float near_y, float beside = 0) const;
  /// Whether `next` (at `step` metres on) continues the plane of `last`.
  bool continues(const Sample& last, const Sample& next, float step) const;
  /// [m] along the line, where the ground stops continuing `on` between `on_s` and `off_s`, to
  /// within `precision` [m], `beside` metres to the line's left.
  float locate_edge(const RagdollRig& rig, float on_s, const Sample& on, float off_s,
                    float precision, float beside = 0) const;
  /// [m] the first edge's lead `beside` metres from the line (step 3).
  float measure_edge_lead(const RagdollRig& rig, float beside) const;
  /// [m] how far segment `i` starts above where segment `i - 1` ends (infinity over a gap).
  float rise_before(std::size_t i) const;

  bool built_ = false;
  Vec3 origin_;
  Vec3 direction_{0, 0, 1};
  float from_s_ = 0;
  float to_s_ = 0;
  float edge_rise_m_ = 0.04f;
  float precision_m_ = 0.01f;
  float probe_above_m_ = 0.4f;
  float probe_below_m_ = 0.8f;
  float first_ground_y_ = 0;  ///< [m] the first ground found, under the origin's column
  float edge_lead_m_ = 0;
  std::vector<GroundSegment> segments_;
};

}  // namespace stagger::physics
