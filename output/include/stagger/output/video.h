#pragma once
// `--video OUT.mp4` (`stagger replay`, `stagger render`): frames into a video file through an
// `ffmpeg` child process. Raw 8-bit RGB frames go down a pipe to its standard input; it encodes
// them with H.264 (libx264, 4:2:0 chroma) when it has that encoder, else with MPEG-4 part 2, into
// the container the file's extension names. ffmpeg runs in its own process group, so that Ctrl-C
// stops only Stagger, which then closes the pipe: ffmpeg finishes the file with the frames it has.
// ffmpeg is looked for on PATH; without it no video can be made, and opening says so.

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

#include "stagger/core/result.h"

namespace stagger::output {

struct VideoSettings {
  int width = 1280;  ///< [px] even (4:2:0 chroma halves both axes)
  int height = 720;  ///< [px] even
  double fps = 30;   ///< [frames/s]
};

class VideoWriter {
 public:
  /// Starts ffmpeg writing `path` (replacing it). Errors: no ffmpeg on PATH, an odd size, or
  /// ffmpeg cannot be started.
  static Result<std::unique_ptr<VideoWriter>> open(const std::string& path,
                                                   const VideoSettings& settings);
  /// Without `finish`: closes the pipe and waits for ffmpeg, which writes the frames it has.
  ~VideoWriter();
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  /// One frame: width × height × 3 bytes, rows top to bottom. Fails when ffmpeg has stopped.
  Result<void> write_frame(const std::uint8_t* rgb);
  /// Closes the pipe and waits for ffmpeg to write the file; fails when it exits with an error.
  Result<void> finish();

  long frames() const { return frames_; }
  /// The encoder ffmpeg uses: `libx264` or `mpeg4`.
  const std::string& codec() const { return codec_; }

 private:
  VideoWriter(pid_t child, int pipe, const VideoSettings& settings, std::string codec);
  pid_t child_;
  int pipe_;  // ffmpeg's standard input; -1 once closed
  VideoSettings settings_;
  std::string codec_;
  long frames_ = 0;
};

}  // namespace stagger::output
