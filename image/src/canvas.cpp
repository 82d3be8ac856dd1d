#include "stagger/image/canvas.h"

#include <png.h>
#include <stb/stb_easy_font.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stagger::image {

Canvas::Canvas(int width, int height, Colour background)
    : width_(width),
      height_(height),
      pixels_(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3) {
  for (std::size_t i = 0; i < pixels_.size(); i += 3) {
    pixels_[i] = background.r;
    pixels_[i + 1] = background.g;
    pixels_[i + 2] = background.b;
  }
}

Colour Canvas::at(int x, int y) const {
  const std::uint8_t* p = row(y) + static_cast<std::size_t>(x) * 3;
  return {p[0], p[1], p[2]};
}

void Canvas::put(int x, int y, Colour c) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  std::uint8_t* p =
      pixels_.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) +
                        static_cast<std::size_t>(x)) *
                           3;
  p[0] = c.r;
  p[1] = c.g;
  p[2] = c.b;
}

void Canvas::rect(float x, float y, float w, float h, Colour c) {
  const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
  const int x1 = static_cast<int>(std::ceil(x + w)), y1 = static_cast<int>(std::ceil(y + h));
  for (int py = std::max(0, y0); py < std::min(height_, y1); ++py) {
    for (int px = std::max(0, x0); px < std::min(width_, x1); ++px) put(px, py, c);
  }
}

void Canvas::disc(float cx, float cy, float radius, Colour c) {
  const int r = static_cast<int>(std::ceil(radius));
  for (int dy = -r; dy <= r; ++dy) {
    for (int dx = -r; dx <= r; ++dx) {
      if (static_cast<float>(dx * dx + dy * dy) <= radius * radius) {
        put(static_cast<int>(std::lround(cx)) + dx, static_cast<int>(std::lround(cy)) + dy, c);
      }
    }
  }
}

void Canvas::line(float x0, float y0, float x1, float y1, Colour c, float thickness) {
  const float length = std::hypot(x1 - x0, y1 - y0);
  const int steps = std::max(1, static_cast<int>(std::ceil(length)));
  for (int i = 0; i <= steps; ++i) {
    const float u = static_cast<float>(i) / static_cast<float>(steps);
    disc(x0 + (x1 - x0) * u, y0 + (y1 - y0) * u, 0.5f * thickness, c);
  }
}

void Canvas::arrow(float x0, float y0, float x1, float y1, Colour c, float thickness,
                   bool both_ends, float head) {
  const float length = std::hypot(x1 - x0, y1 - y0);
  if (length < 1e-3f) return;
  const float ux = (x1 - x0) / length, uy = (y1 - y0) / length;
  // Shortened so that heads do not hide the points they join.
  const float inset = std::min(14.0f, 0.3f * length);
  const float ax = x0 + ux * (both_ends ? inset : 0.0f), ay = y0 + uy * (both_ends ? inset : 0.0f);
  const float bx = x1 - ux * inset, by = y1 - uy * inset;
  line(ax, ay, bx, by, c, thickness);
  const auto head_at = [&](float tx, float ty, float dx, float dy) {
    triangle(tx, ty, tx - dx * head - dy * 0.5f * head, ty - dy * head + dx * 0.5f * head,
             tx - dx * head + dy * 0.5f * head, ty - dy * head - dx * 0.5f * head, c);
  };
  head_at(bx, by, ux, uy);
  if (both_ends) head_at(ax, ay, -ux, -uy);
}

void Canvas::triangle(float x0, float y0, float x1, float y1, float x2, float y2, Colour c) {
  polygon({{x0, y0}, {x1, y1}, {x2, y2}}, c);
}

void Canvas::blend(int x, int y, Colour c, float opacity) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  const Colour under = at(x, y);
  const auto mix = [opacity](std::uint8_t a, std::uint8_t b) {
    return static_cast<std::uint8_t>(static_cast<float>(a) +
                                     (static_cast<float>(b) - static_cast<float>(a)) * opacity);
  };
  put(x, y, {mix(under.r, c.r), mix(under.g, c.g), mix(under.b, c.b)});
}

void Canvas::polygon(const std::vector<std::array<float, 2>>& points, Colour c, float opacity) {
  if (points.size() < 3) return;
  float top = 1e9f, bottom = -1e9f;
  for (const auto& p : points) top = std::min(top, p[1]), bottom = std::max(bottom, p[1]);
  std::vector<float> crossings;
  for (int y = std::max(0, static_cast<int>(std::floor(top)));
       y <= std::min(height_ - 1, static_cast<int>(std::ceil(bottom))); ++y) {
    const float sy = static_cast<float>(y) + 0.5f;
    crossings.clear();
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto& a = points[i];
      const auto& b = points[(i + 1) % points.size()];
      if ((a[1] <= sy && b[1] > sy) || (b[1] <= sy && a[1] > sy)) {
        crossings.push_back(a[0] + (sy - a[1]) / (b[1] - a[1]) * (b[0] - a[0]));
      }
    }
    std::sort(crossings.begin(), crossings.end());
    for (std::size_t i = 0; i + 1 < crossings.size(); i += 2) {
      for (int x = std::max(0, static_cast<int>(std::lround(crossings[i])));
           x < std::min(width_, static_cast<int>(std::lround(crossings[i + 1]))); ++x) {
        if (opacity >= 1.0f) {
          put(x, y, c);
        } else {
          blend(x, y, c, opacity);
        }
      }
    }
  }
}

void Canvas::outline(const std::vector<std::array<float, 2>>& points, Colour c) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& a = points[i];
    const auto& b = points[(i + 1) % points.size()];
    line(a[0], a[1], b[0], b[1], c, 1.0f);
  }
}

void Canvas::text(float x, float y, const std::string& text, Colour c, int scale) {
  // A dark shadow first keeps labels readable on light geometry.
  glyphs(x + 1.0f, y + 1.0f, text, {0, 0, 0}, scale);
  glyphs(x, y, text, c, scale);
}

void Canvas::glyphs(float x, float y, const std::string& text, Colour c, int scale) {
  // stb_easy_font writes quads (4 vertices of x, y, z floats and a 4-byte colour) at 1 px scale.
  static thread_local std::vector<char> buffer(1 << 16);
  std::string copy = text;
  unsigned char colour[4] = {c.r, c.g, c.b, 255};
  const int quads = stb_easy_font_print(0, 0, copy.data(), colour, buffer.data(),
                                        static_cast<int>(buffer.size()));
  const float s = static_cast<float>(scale);
  for (int q = 0; q < quads; ++q) {
    const auto* v = reinterpret_cast<const float*>(buffer.data() + q * 64);
    // Vertices 0 and 2 are opposite corners; each vertex is 16 bytes (4 floats).
    const float qx0 = v[0], qy0 = v[1], qx1 = v[8], qy1 = v[9];
    rect(x + qx0 * s, y + qy0 * s, (qx1 - qx0) * s, (qy1 - qy0) * s, c);
  }
}

bool write_png(int width, int height, const std::uint8_t* rgb, const std::string& path) {
  FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) return false;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  bool ok = png && info;
  if (ok && setjmp(png_jmpbuf(png))) ok = false;  // libpng reports errors by longjmp
  if (ok) {
    png_init_io(png, file);
    png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < height; ++y) {
      png_write_row(png, rgb + static_cast<std::size_t>(y) * static_cast<std::size_t>(width) * 3);
    }
    png_write_end(png, nullptr);
  }
  png_destroy_write_struct(png ? &png : nullptr, info ? &info : nullptr);
  return std::fclose(file) == 0 && ok;
}

}  // namespace stagger::image
