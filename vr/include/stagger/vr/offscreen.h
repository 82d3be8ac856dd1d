#pragma once
// A frame of a simulation rendered from a given camera into memory (and so to a PNG), on the
// first Vulkan device there is: a GPU, or Mesa's lavapipe on the CPU (CI, no display needed).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stagger/core/result.h"
#include "stagger/sim/simulation.h"
#include "stagger/vr/view.h"

namespace stagger::vr {

/// 8-bit sRGB pixels, rows top to bottom, 3 bytes each.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;
  const std::uint8_t* at(int x, int y) const {
    return &rgb[(static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                 static_cast<std::size_t>(x)) *
                3];
  }
};

struct OffscreenSettings {
  int width = 960;       ///< [px]
  int height = 540;      ///< [px]
  bool overlay = false;  ///< draw the debug overlay (centres of mass, feet, navigation, routes)
};

/// The simulation as it is now, seen through `view`. Fails with a sentence when no Vulkan
/// device can be had.
Result<Image> render_offscreen(const sim::Simulation& simulation, const EyeView& view,
                               const OffscreenSettings& settings);

/// Frame after frame of one simulation (a video's): the Vulkan device, the renderer and the
/// meshes are made once, so each frame costs only its drawing and its copy back to memory.
/// Draws the bodies the simulation had when this was made.
class OffscreenRenderer {
 public:
  /// Fails with a sentence when no Vulkan device can be had.
  static Result<std::unique_ptr<OffscreenRenderer>> create(const sim::Simulation& simulation,
                                                           const OffscreenSettings& settings);
  ~OffscreenRenderer();
  OffscreenRenderer(const OffscreenRenderer&) = delete;
  OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

  /// The simulation as it is now, seen through `view`; fails with a sentence on a device error.
  Result<Image> render(const sim::Simulation& simulation, const EyeView& view);
  /// The Vulkan device it draws with.
  const std::string& device() const;

 private:
  struct Parts;
  explicit OffscreenRenderer(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
};

/// Writes an image as a PNG; false if it cannot.
bool write_png(const Image& image, const std::string& path);

/// A camera that shows a level's player start and what lies ahead of it: 3 m behind and 2.5 m
/// above the start, looking 5 m ahead, with a 70° vertical field of view for `aspect`.
EyeView overview_camera(const sim::SceneDescription& scene, float aspect);

}  // namespace stagger::vr
