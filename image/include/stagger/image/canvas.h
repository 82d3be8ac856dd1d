#pragma once
// A small RGB raster for pictures (level previews, plots): filled shapes, thick lines, arrows and
// text (stb's easy font, scaled). Coordinates are pixels, y down. write_png also saves rendered
// frames.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace stagger::image {

struct Colour {
  std::uint8_t r = 0, g = 0, b = 0;
};

class Canvas {
 public:
  Canvas(int width, int height, Colour background);
  int width() const { return width_; }
  int height() const { return height_; }
  const std::uint8_t* row(int y) const {
    return pixels_.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) * 3;
  }
  Colour at(int x, int y) const;

  void rect(float x, float y, float w, float h, Colour c);
  void disc(float cx, float cy, float radius, Colour c);
  void line(float x0, float y0, float x1, float y1, Colour c, float thickness);
  /// A line with an arrowhead at its end (and at its start when `both_ends`).
  void arrow(float x0, float y0, float x1, float y1, Colour c, float thickness, bool both_ends,
             float head);
  void triangle(float x0, float y0, float x1, float y1, float x2, float y2, Colour c);
  /// Fills a simple polygon (even-odd rule); `opacity` below 1 blends it over what is there.
  void polygon(const std::vector<std::array<float, 2>>& points, Colour c, float opacity = 1.0f);
  void outline(const std::vector<std::array<float, 2>>& points, Colour c);
  /// Text from its top-left corner; `scale` 1 is 7 px tall capitals.
  void text(float x, float y, const std::string& text, Colour c, int scale);

 private:
  void put(int x, int y, Colour c);
  void blend(int x, int y, Colour c, float opacity);
  void glyphs(float x, float y, const std::string& text, Colour c, int scale);
  int width_;
  int height_;
  std::vector<std::uint8_t> pixels_;
};

/// Writes `height` rows of `width` RGB pixels (3 bytes each) as a PNG; false if it cannot.
bool write_png(int width, int height, const std::uint8_t* rgb, const std::string& path);
inline bool write_png(const Canvas& canvas, const std::string& path) {
  return write_png(canvas.width(), canvas.height(), canvas.row(0), path);
}

}  // namespace stagger::image
