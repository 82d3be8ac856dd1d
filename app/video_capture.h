#pragma once
// `--video OUT.mp4` of `stagger replay` and `stagger render`: a running simulation filmed from one
// camera, a frame at t = 0 and every 1/fps after, each rendered offscreen (a GPU, or lavapipe on
// the CPU: no display needed) and piped to ffmpeg (stagger/output/video.h).

#include <memory>
#include <string>

#include "stagger/core/result.h"
#include "stagger/output/video.h"
#include "stagger/sim/simulation.h"
#include "stagger/vr/offscreen.h"

namespace stagger::app {

class VideoCapture {
 public:
  /// Starts ffmpeg and the renderer, and films the simulation's present state as frame 0.
  /// `frames` is how many the video will have (its length times its rate).
  static Result<std::unique_ptr<VideoCapture>> start(const sim::Simulation& simulation,
                                                     const vr::EyeView& camera,
                                                     const output::VideoSettings& settings,
                                                     long frames, bool overlay,
                                                     const std::string& path);
  /// After every step: films the frames now due. After a failure it films nothing more.
  void after_step(const sim::Simulation& simulation);
  /// A frame could not be rendered or ffmpeg stopped; error() says which.
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  /// Ends the video: ffmpeg writes the file with the frames it has. Fails with the capture's
  /// error, or ffmpeg's.
  Result<void> finish();

  long frames_written() const { return writer_->frames(); }
  const std::string& codec() const { return writer_->codec(); }
  const std::string& device() const { return renderer_->device(); }

 private:
  VideoCapture(std::unique_ptr<vr::OffscreenRenderer> renderer,
               std::unique_ptr<output::VideoWriter> writer, const vr::EyeView& camera,
               const output::VideoSettings& settings, long frames);
  std::unique_ptr<vr::OffscreenRenderer> renderer_;
  std::unique_ptr<output::VideoWriter> writer_;
  vr::EyeView camera_;
  output::VideoSettings settings_;
  long frames_;    // in the finished video
  long next_ = 0;  // the next frame to film
  std::string error_;
};

}  // namespace stagger::app
