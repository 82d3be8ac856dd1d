#pragma once
// `stagger preview`: a top-down picture of a level for designers. Geometry shaded by height,
// routes as numbered points with arrows (a loop closes its ring; ping-pong legs point both ways),
// wait times, enemy spawns with their facing, the player start, a legend and a scale bar.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "stagger/core/result.h"
#include "stagger/levels/level.h"
#include "stagger/levels/mesh.h"

namespace stagger::levels {

struct PreviewSettings {
  int size_px = 1024;  ///< width of the picture; the height is 3/4 of it
  /// The navmesh, drawn over the geometry when given (ai builds it; see sim/reachability.h).
  std::vector<std::array<Vec3, 3>> navmesh_triangles;
};

struct PreviewImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;   ///< row by row, 3 bytes a pixel
  std::array<int, 2> player_px{};  ///< where the player start was drawn
};

/// Draws the level (with the placed mesh triangles, one per `level.meshes`).
PreviewImage render_preview(const Level& level, const std::vector<TriangleMesh>& mesh_triangles,
                            const PreviewSettings& settings = {});

/// Draws the level to a PNG file.
Result<bool> write_preview_png(const Level& level, const std::vector<TriangleMesh>& mesh_triangles,
                               const std::string& path, const PreviewSettings& settings = {});

}  // namespace stagger::levels
