// Observability: the summary JSON, PNG captures and stderr logging.
#include <png.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "state.h"

namespace stagger::simxr {

namespace {
// One write per line, so that lines from other threads (the app's) cannot split ours.
void write_line(const std::string& line) {
  const std::string text = line + "\n";
  std::fwrite(text.data(), 1, text.size(), stderr);
}
}  // namespace

void log_error(const std::string& message) {
  write_line("stagger_simxr: error: " + message);
}

void log_info(const std::string& message) {
  if (runtime().log) write_line("stagger_simxr: " + message);
}

void write_summary() {
  const Runtime& rt = runtime();
  if (rt.summary_path.empty()) return;
  nlohmann::json j;
  j["frames_submitted"] = rt.frames_submitted;
  j["frames_total"] = rt.frames_total;
  j["sessions_created"] = rt.sessions_created;
  j["session_states"] = rt.states_seen;
  j["interaction_profile"] = rt.profile_used;
  nlohmann::json haptics = nlohmann::json::array();
  for (const HapticRecord& h : rt.haptics) {
    haptics.push_back({{"time_s", h.time_s},
                       {"hand", h.hand == 0   ? "left"
                                : h.hand == 1 ? "right"
                                              : "none"},
                       {"amplitude", h.amplitude},
                       {"duration_ns", h.duration_ns},
                       {"frequency_hz", h.frequency_hz},
                       {"delivered", h.delivered}});
  }
  j["haptics"] = haptics;
  nlohmann::json errors = nlohmann::json::array();
  for (const auto& [function, results] : rt.errors) {
    for (const auto& [result, count] : results) {
      errors.push_back({{"function", function}, {"result", result}, {"count", count}});
    }
  }
  j["errors"] = errors;
  std::ofstream out(rt.summary_path);
  if (!out) {
    log_error("cannot write the summary " + rt.summary_path);
    return;
  }
  out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

bool write_png_rgb(const std::string& path, const ViewImage& image) {
  FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return false;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  if (png == nullptr || info == nullptr ||
      setjmp(png_jmpbuf(png))) {  // NOLINT: libpng's error model
    png_destroy_write_struct(&png, &info);
    std::fclose(file);
    return false;
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, image.width, image.height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  std::vector<png_byte> row(static_cast<std::size_t>(image.width) * 3);
  for (std::uint32_t y = 0; y < image.height; ++y) {
    const std::uint8_t* src = image.rgba.data() + static_cast<std::size_t>(y) * image.width * 4;
    for (std::uint32_t x = 0; x < image.width; ++x) {
      row[x * 3 + 0] = src[x * 4 + 0];
      row[x * 3 + 1] = src[x * 4 + 1];
      row[x * 3 + 2] = src[x * 4 + 2];
    }
    png_write_row(png, row.data());
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  std::fclose(file);
  return true;
}

}  // namespace stagger::simxr
