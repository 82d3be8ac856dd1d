#pragma once
// What a running simulation looks like, as data the renderer uploads: the meshes it needs (built
// once per scene), the level's instances, and per frame every moving body placed between its
// last two physics states (rendering interpolates; docs/design.md, Conventions) plus the debug
// overlay's lines. No Vulkan here: this is shared by every way of drawing (offscreen, desktop, VR).

#include <utility>
#include <vector>

#include "stagger/sim/shape_mesh.h"
#include "stagger/sim/simulation.h"

namespace stagger::vr {

/// One instance as the mesh vertex shader reads it (vertex binding 1, four vec4).
struct GpuInstance {
  float translation[4];  ///< [m] xyz
  float rotation[4];     ///< quaternion x, y, z, w
  float scale[4];        ///< per-axis scale of the unit mesh
  float colour[4];       ///< linear RGB; alpha 2 draws the floor checker
};

struct DrawItem {
  int mesh = 0;  ///< index into SceneGeometry::meshes()
  GpuInstance instance{};
};

/// A vertex of the debug overlay's line list.
struct LineVertex {
  float position[4];  ///< [m] xyz
  float colour[4];    ///< linear RGBA
};

struct DrawFrame {
  std::vector<DrawItem> items;
  std::vector<LineVertex> lines;
};

/// Where every moving body is after one physics step, in SceneGeometry's order.
using BodyPoses = std::vector<std::pair<Vec3, Quat>>;

class SceneGeometry {
 public:
  /// Reads the scene's level and moving bodies (enemies' parts and physics hands that exist now).
  explicit SceneGeometry(const sim::Simulation& simulation);

  const std::vector<sim::MeshData>& meshes() const { return meshes_; }
  /// The moving bodies' poses now.
  BodyPoses poses(const sim::Simulation& simulation) const;
  /// The frame `alpha` (0..1) of the way from `before` to `after`; with the overlay's lines
  /// (centres of mass, feet midpoints, balance state, navigation, patrol routes) if `overlay`.
  DrawFrame frame(const sim::Simulation& simulation, const BodyPoses& before,
                  const BodyPoses& after, float alpha, bool overlay) const;
  /// Closes in the edges of the view: an opaque ring `kVignetteDistanceM` in front of the head
  /// [m, world] turned with it, clear within `inner_radius_m` [m] of the view's centre. `red`: a
  /// hit's flash; otherwise a dark comfort ring while the stick moves the player.
  void add_vignette(DrawFrame& frame, Vec3 head, Quat head_rotation, float inner_radius_m,
                    bool red) const;
  static constexpr float kVignetteDistanceM = 0.2f;

 private:
  int mesh_for(const physics::BodySettings& shape);
  void add_level(const sim::SceneDescription& scene);
  void add_overlay(const sim::Simulation& simulation, DrawFrame& frame) const;

  std::vector<sim::MeshData> meshes_;
  std::vector<std::pair<physics::BodySettings, int>> shape_meshes_;
  std::vector<DrawItem> level_;
  std::vector<sim::ShapedBody> bodies_;
  std::vector<int> body_mesh_;
  std::vector<Vec3> body_scale_;
  int ring_mesh_ = 0;  // the vignette: an annulus of inner radius 1 m in the XY plane
};

}  // namespace stagger::vr
