#include "stagger/vr/offscreen.h"

#include <cmath>
#include <exception>

#include "draw_list.h"
#include "gpu.h"
#include "renderer.h"
#include "stagger/image/canvas.h"

namespace stagger::vr {

Result<Image> render_offscreen(const sim::Simulation& simulation, const EyeView& view,
                               const OffscreenSettings& settings) {
  try {
    const std::unique_ptr<GpuContext> gpu = create_gpu({}, false);
    const SceneGeometry geometry(simulation);
    const vk::Extent2D size(static_cast<std::uint32_t>(settings.width),
                            static_cast<std::uint32_t>(settings.height));
    Renderer renderer(*gpu, geometry.meshes(), size, 1);
    const BodyPoses now = geometry.poses(simulation);
    renderer.upload(geometry.frame(simulation, now, now, 1.0f, settings.overlay));
    submit_and_wait(*gpu, [&](vk::CommandBuffer cmd) {
      renderer.record(cmd, 0, view_projection(view));
      renderer.record_readback(cmd, 0);
    });
    return Image{settings.width, settings.height, renderer.pixels_rgb()};
  } catch (const std::exception& e) {
    return Error{std::string("cannot render offscreen: ") + e.what()};
  }
}

bool write_png(const Image& image, const std::string& path) {
  return image::write_png(image.width, image.height, image.rgb.data(), path);
}

EyeView overview_camera(const sim::SceneDescription& scene, float aspect) {
  const Vec3 forward{std::sin(scene.player_yaw_rad), 0, std::cos(scene.player_yaw_rad)};
  const Vec3 eye = scene.player_position - forward * 3.0f + Vec3{0, 2.5f, 0};
  const Vec3 target = scene.player_position + forward * 5.0f;
  return look_at(eye, target, symmetric_fov(70.0f * kPi / 180.0f, aspect));
}

}  // namespace stagger::vr
