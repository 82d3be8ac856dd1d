#include "stagger/vr/offscreen.h"

#include <cmath>
#include <exception>

#include "draw_list.h"
#include "gpu.h"
#include "renderer.h"
#include "stagger/image/canvas.h"

namespace stagger::vr {

struct OffscreenRenderer::Parts {
  std::unique_ptr<GpuContext> gpu;
  SceneGeometry geometry;
  std::unique_ptr<Renderer> renderer;
  OffscreenSettings settings;
};

OffscreenRenderer::OffscreenRenderer(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}

OffscreenRenderer::~OffscreenRenderer() {
  if (parts_ && parts_->gpu) parts_->gpu->device.waitIdle();
}

Result<std::unique_ptr<OffscreenRenderer>> OffscreenRenderer::create(
    const sim::Simulation& simulation, const OffscreenSettings& settings) {
  try {
    auto parts = std::make_unique<Parts>(
        Parts{create_gpu({}, false), SceneGeometry(simulation), nullptr, settings});
    const vk::Extent2D size(static_cast<std::uint32_t>(settings.width),
                            static_cast<std::uint32_t>(settings.height));
    parts->renderer = std::make_unique<Renderer>(*parts->gpu, parts->geometry.meshes(), size, 1);
    return std::unique_ptr<OffscreenRenderer>(new OffscreenRenderer(std::move(parts)));
  } catch (const std::exception& e) {
    return Error{std::string("cannot render offscreen: ") + e.what()};
  }
}

Result<Image> OffscreenRenderer::render(const sim::Simulation& simulation, const EyeView& view) {
  try {
    const BodyPoses now = parts_->geometry.poses(simulation);
    parts_->renderer->upload(
        parts_->geometry.frame(simulation, now, now, 1.0f, parts_->settings.overlay));
    submit_and_wait(*parts_->gpu, [&](vk::CommandBuffer cmd) {
      parts_->renderer->record(cmd, 0, view_projection(view));
      parts_->renderer->record_readback(cmd, 0);
    });
    return Image{parts_->settings.width, parts_->settings.height, parts_->renderer->pixels_rgb()};
  } catch (const std::exception& e) {
    return Error{std::string("cannot render offscreen: ") + e.what()};
  }
}

const std::string& OffscreenRenderer::device() const {
  return parts_->gpu->device_name;
}

Result<Image> render_offscreen(const sim::Simulation& simulation, const EyeView& view,
                               const OffscreenSettings& settings) {
  auto renderer = OffscreenRenderer::create(simulation, settings);
  if (!renderer) return Error{renderer.error()};
  return renderer.value()->render(simulation, view);
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
