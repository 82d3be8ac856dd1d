#include "video_capture.h"

#include <cmath>
#include <cstdint>

namespace stagger::app {

Result<std::unique_ptr<VideoCapture>> VideoCapture::start(const sim::Simulation& simulation,
                                                          const vr::EyeView& camera,
                                                          const output::VideoSettings& settings,
                                                          long frames, bool overlay,
                                                          const std::string& path) {
  // ffmpeg first: without it there is nothing to render for.
  auto writer = output::VideoWriter::open(path, settings);
  if (!writer) return Error{writer.error()};
  auto renderer =
      vr::OffscreenRenderer::create(simulation, {settings.width, settings.height, overlay});
  if (!renderer) return Error{renderer.error()};
  std::unique_ptr<VideoCapture> capture(new VideoCapture(
      std::move(renderer).value(), std::move(writer).value(), camera, settings, frames));
  capture->after_step(simulation);
  return capture;
}

VideoCapture::VideoCapture(std::unique_ptr<vr::OffscreenRenderer> renderer,
                           std::unique_ptr<output::VideoWriter> writer, const vr::EyeView& camera,
                           const output::VideoSettings& settings, long frames)
    : renderer_(std::move(renderer)),
      writer_(std::move(writer)),
      camera_(camera),
      settings_(settings),
      frames_(frames) {}

void VideoCapture::after_step(const sim::Simulation& simulation) {
  const physics::World& world = simulation.scene().world();
  const auto steps_per_frame = static_cast<double>(world.settings().physics_hz) / settings_.fps;
  // Frame k shows t = k / fps: the state after the step nearest that time.
  while (!failed() && next_ < frames_ &&
         std::llround(static_cast<double>(next_) * steps_per_frame) <=
             static_cast<long long>(world.step_count())) {
    const auto image = renderer_->render(simulation, camera_);
    if (!image) {
      error_ = image.error();
      return;
    }
    const auto written = writer_->write_frame(image.value().rgb.data());
    if (!written) {
      error_ = written.error();
      return;
    }
    ++next_;
  }
}

Result<void> VideoCapture::finish() {
  auto ended = writer_->finish();
  if (failed()) return Error{error_};
  return ended;
}

}  // namespace stagger::app
