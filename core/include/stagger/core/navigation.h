#pragma once
// The navigation mesh's settings, one type from the level file (its `navigation` object) through
// the scene to the navmesh builder: Recast's agent and voxel sizes.

namespace stagger {

struct NavigationSettings {
  float agent_radius = 0.3f;    ///< [m] how far walkable ground keeps from walls and drops
  float drop_margin_m = 0.3f;   ///< [m] how much farther it keeps from drops (open sides)
  float agent_height = 1.8f;    ///< [m] the headroom an agent needs
  float max_climb = 0.2f;       ///< [m] the highest step an agent walks up or down
  float max_slope_deg = 45.0f;  ///< [deg] the steepest walkable slope
  float cell_size = 0.15f;      ///< [m] the voxel grid's cell, across
  float cell_height = 0.1f;     ///< [m] the voxel grid's cell, up
  bool operator==(const NavigationSettings&) const = default;
};

}  // namespace stagger
