#include "stagger/output/video.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <vector>

extern char** environ;

namespace stagger::output {

namespace {

const char* const kFfmpeg = "ffmpeg";
const std::string kMissing =
    "making a video needs ffmpeg, which was not found on PATH (Debian: apt-get install ffmpeg)";

struct Spawned {
  pid_t pid = -1;
  int fd = -1;  // our end of the pipe
};

// Starts ffmpeg with `args`, its standard input (`to_child`) or output (else) a pipe to us, in its
// own process group (Ctrl-C reaches only Stagger) and with SIGPIPE at its default.
Result<Spawned> spawn_ffmpeg(const std::vector<std::string>& args, bool to_child) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Error{std::string("no pipe: ") + std::strerror(errno)};
  const int child_end = to_child ? fds[0] : fds[1];
  const int our_end = to_child ? fds[1] : fds[0];
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, child_end, to_child ? STDIN_FILENO : STDOUT_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(kFfmpeg));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  Spawned s;
  const int failed = posix_spawnp(&s.pid, kFfmpeg, &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(child_end);
  if (failed != 0) {
    ::close(our_end);
    if (failed == ENOENT) return Error{kMissing};
    return Error{std::string("cannot start ffmpeg: ") + std::strerror(failed)};
  }
  s.fd = our_end;
  return s;
}

// Waits for a child; its exit code, or -1 when a signal ended it.
int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// `libx264` when this ffmpeg has it (Debian's does), else `mpeg4` (every ffmpeg has that).
Result<std::string> pick_codec() {
  auto listing = spawn_ffmpeg({"-hide_banner", "-encoders"}, false);
  if (!listing) return Error{listing.error()};
  std::string text;
  std::array<char, 4096> buffer{};
  for (;;) {
    const ssize_t n = ::read(listing.value().fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer.data(), static_cast<std::size_t>(n));
  }
  ::close(listing.value().fd);
  if (wait_for(listing.value().pid) != 0)
    return Error{"ffmpeg -encoders failed: this ffmpeg cannot be used"};
  return std::string(text.find(" libx264 ") != std::string::npos ? "libx264" : "mpeg4");
}

std::string number_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace

Result<std::unique_ptr<VideoWriter>> VideoWriter::open(const std::string& path,
                                                       const VideoSettings& settings) {
  if (settings.width % 2 != 0 || settings.height % 2 != 0) {
    return Error{"a video's width and height must be even (4:2:0 chroma halves them), not " +
                 std::to_string(settings.width) + " x " + std::to_string(settings.height)};
  }
  auto codec = pick_codec();
  if (!codec) return Error{codec.error()};
  std::vector<std::string> args = {
      "-hide_banner",
      "-loglevel",
      "error",
      "-nostats",
      "-y",
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgb24",
      "-s",
      std::to_string(settings.width) + "x" + std::to_string(settings.height),
      "-r",
      number_text(settings.fps),
      "-i",
      "-",
      "-an",
      "-c:v",
      codec.value(),
      "-pix_fmt",
      "yuv420p"};
  if (codec.value() == "mpeg4") {
    args.insert(args.end(), {"-q:v", "3"});  // (its default quality is poor)
  } else {
    // A third less encoding time than the default `medium` for these flat-shaded frames, and no
    // larger a file.
    args.insert(args.end(), {"-preset", "veryfast"});
  }
  // A name that starts with '-' would read as an option.
  args.push_back(!path.empty() && path[0] == '-' ? "./" + path : path);
  // A write to a pipe whose reader has gone must fail with EPIPE, not end the process.
  ::signal(SIGPIPE, SIG_IGN);
  auto child = spawn_ffmpeg(args, true);
  if (!child) return Error{child.error()};
  return std::unique_ptr<VideoWriter>(
      new VideoWriter(child.value().pid, child.value().fd, settings, codec.value()));
}

VideoWriter::VideoWriter(pid_t child, int pipe, const VideoSettings& settings, std::string codec)
    : child_(child), pipe_(pipe), settings_(settings), codec_(std::move(codec)) {}

VideoWriter::~VideoWriter() {
  if (pipe_ >= 0) (void)finish();
}

Result<void> VideoWriter::write_frame(const std::uint8_t* rgb) {
  if (pipe_ < 0) return Error{"the video is already finished"};
  std::size_t left =
      static_cast<std::size_t>(settings_.width) * static_cast<std::size_t>(settings_.height) * 3;
  while (left > 0) {
    const ssize_t n = ::write(pipe_, rgb, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error{"ffmpeg stopped taking frames (its message, if any, is above)"};
    rgb += n;
    left -= static_cast<std::size_t>(n);
  }
  ++frames_;
  return {};
}

Result<void> VideoWriter::finish() {
  if (pipe_ < 0) return Error{"the video is already finished"};
  ::close(pipe_);
  pipe_ = -1;
  const int code = wait_for(child_);
  if (code != 0) {
    return Error{"ffmpeg failed to write the video (exit " + std::to_string(code) +
                 "; its message, if any, is above)"};
  }
  return {};
}

}  // namespace stagger::output
