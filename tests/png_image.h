#pragma once
// Reads a PNG back for pixel checks (stb_image, from Debian's libstb-dev).

#include <cstdint>
#include <string>
#include <vector>

namespace stagger::test {

struct PngImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;  ///< rows top to bottom, 3 bytes a pixel
  const std::uint8_t* at(int x, int y) const {
    return &rgb[(static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                 static_cast<std::size_t>(x)) *
                3];
  }
};

/// Empty (width 0) when the file cannot be read.
PngImage read_png(const std::string& path);

}  // namespace stagger::test
