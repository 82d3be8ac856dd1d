#pragma once
// The navigation mesh of a level, built with Recast from its static triangles and queried with
// Detour (both PRIVATE to ai/). Settings and results are plain data in core's math types.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "stagger/core/math.h"
#include "stagger/core/navigation.h"
#include "stagger/core/result.h"

namespace stagger::ai {

/// Recast settings in world units (defaults: docs/design.md, Level format).

/// Walkable geometry: triangles in world space, wound counter-clockwise seen from above for
/// upward faces (glTF's and OBJ's convention).
struct NavmeshInput {
  std::vector<Vec3> vertices;
  std::vector<std::uint32_t> indices;
  void add(const std::vector<Vec3>& v, const std::vector<std::uint32_t>& i);
  /// A box's 12 triangles, wound outward.
  void add_box(Vec3 center, Vec3 half_extents, Quat rotation);
};

class Navmesh {
 public:
  /// Builds a single-tile navmesh; fails with the stage that failed (or "nothing walkable").
  static Result<std::shared_ptr<Navmesh>> build(const NavmeshInput& input,
                                                const NavigationSettings& settings);
  ~Navmesh();
  Navmesh(const Navmesh&) = delete;
  Navmesh& operator=(const Navmesh&) = delete;

  struct Nearest {
    bool found = false;
    Vec3 point;              ///< [m] on the navmesh
    float horizontal_m = 0;  ///< [m] from the query point
    float vertical_m = 0;    ///< [m]
  };
  /// The nearest navmesh point within `half_extents` of `p`.
  Nearest nearest(Vec3 p, Vec3 half_extents) const;

  /// Slides from `from` (on the navmesh) toward `to` along the surface, stopping at walls and
  /// edges the way a walker would; nothing found at `from` (within 0.5 m across, 1 m up or down)
  /// gives `found = false`.
  Nearest slide(Vec3 from, Vec3 to) const;

  /// Horizontal distance from the navmesh point nearest `p` to the navmesh's edge (a wall, a
  /// block, a drop; already `agent_radius` from the obstacle itself), at most `max_m`. Negative
  /// when `p` is not on the navmesh.
  float distance_to_edge(Vec3 p, float max_m) const;

  enum class PathKind { complete, partial, none };
  /// A path between the navmesh points nearest to `from` and `to` (within 1 m horizontally and
  /// 2 m vertically); `partial` when the end cannot be reached.
  PathKind path(Vec3 from, Vec3 to) const;

  /// [m] how far a walker goes, across, from the navmesh point nearest `from` to the one nearest
  /// `to` along the shortest path (the straight distance across where there is no whole path).
  float path_length(Vec3 from, Vec3 to) const;

  /// Whether a walker at the navmesh point nearest `from` sees `to` [m] across the navmesh: the
  /// straight line between them crosses no edge (a wall, a drop).
  bool in_sight(Vec3 from, Vec3 to) const;
  /// The point `distance_m` [m] (across) along the shortest path from the navmesh point nearest
  /// `from` to the one nearest `to`, round its corners (at most its first three); its end where
  /// the path is shorter; none without a whole path.
  std::optional<Vec3> along_path(Vec3 from, Vec3 to, float distance_m) const;

  /// Disables every polygon not connected to one under a seed (within `half_extents`): table
  /// tops, wall tops and other islands nobody can walk to. Returns how many were disabled.
  int remove_islands(const std::vector<Vec3>& seeds, Vec3 half_extents);

  /// The settings it was built with (its agent radius is how far it keeps from walls and drops).
  const NavigationSettings& settings() const;

  int polygon_count() const;           ///< all polygons, disabled ones included
  int walkable_polygon_count() const;  ///< polygons left after remove_islands
  /// The walkable navmesh as triangles (its detail mesh), for pictures.
  std::vector<std::array<Vec3, 3>> triangles() const;

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  explicit Navmesh(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace stagger::ai
