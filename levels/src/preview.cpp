#include "stagger/levels/preview.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "stagger/image/canvas.h"

namespace stagger::levels {
namespace {

using image::Canvas;
using image::Colour;

// Map area: the left square of the picture; the legend sits to its right.
struct MapView {
  float scale = 1;  // pixels per metre
  float min_x = 0;  // world x at the map's left edge
  float min_z = 0;  // world z at the map's top edge
  int left = 0, top = 0;
  std::array<float, 2> at(Vec3 p) const {
    return {static_cast<float>(left) + (p.x - min_x) * scale,
            static_cast<float>(top) + (p.z - min_z) * scale};
  }
};

std::vector<std::array<float, 2>> hull(std::vector<std::array<float, 2>> p) {
  std::sort(p.begin(), p.end());
  if (p.size() < 3) return p;
  std::vector<std::array<float, 2>> h(2 * p.size());
  std::size_t k = 0;
  const auto turn = [](const auto& o, const auto& a, const auto& b) {
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  };
  for (std::size_t i = 0; i < p.size(); ++i) {
    while (k >= 2 && turn(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  for (std::size_t i = p.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && turn(h[k - 2], h[k - 1], p[i - 1]) <= 0) --k;
    h[k++] = p[i - 1];
  }
  h.resize(k - 1);
  return h;
}

struct Footprint {
  std::vector<Vec3> corners;  // world points whose top-down hull is drawn
  float top = 0;              // [m] highest point, for the shade
};

std::vector<Footprint> footprints(const Level& level, const std::vector<TriangleMesh>& meshes) {
  std::vector<Footprint> out;
  for (const BoxGeometry& b : level.boxes) {
    const Quat r = Quat::from_euler_xyz(
        {deg_to_rad(b.rotation_deg.x), deg_to_rad(b.rotation_deg.y), deg_to_rad(b.rotation_deg.z)});
    Footprint f;
    f.top = -1e9f;
    for (int i = 0; i < 8; ++i) {
      const Vec3 c{(i & 1 ? 0.5f : -0.5f) * b.size.x, (i & 2 ? 0.5f : -0.5f) * b.size.y,
                   (i & 4 ? 0.5f : -0.5f) * b.size.z};
      const Vec3 p = b.center + r.rotate(c);
      f.corners.push_back(p);
      f.top = std::max(f.top, p.y);
    }
    out.push_back(f);
  }
  for (const TriangleMesh& m : meshes) {
    for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
      Footprint f;
      f.top = -1e9f;
      for (std::size_t k = 0; k < 3; ++k) {
        const Vec3 p = m.vertices[m.indices[t + k]];
        f.corners.push_back(p);
        f.top = std::max(f.top, p.y);
      }
      out.push_back(f);
    }
  }
  return out;
}

Colour height_shade(float top, float low, float high) {
  const float u = high > low ? std::clamp((top - low) / (high - low), 0.0f, 1.0f) : 0.0f;
  const auto mix = [u](int a, int b) {
    return static_cast<std::uint8_t>(static_cast<float>(a) +
                                     (static_cast<float>(b) - static_cast<float>(a)) * u);
  };
  return {mix(70, 225), mix(80, 215), mix(95, 170)};  // slate (low) to sand (high)
}

// One colour per route mode, for the map and its legend alike; never the enemies' red or the
// player's green.
constexpr Colour kLoopRoute{60, 160, 240};      // blue
constexpr Colour kPingPongRoute{240, 170, 40};  // orange
Colour route_colour(RouteMode mode) {
  return mode == RouteMode::ping_pong ? kPingPongRoute : kLoopRoute;
}
constexpr Colour kBackground{28, 30, 36};
constexpr Colour kText{240, 240, 240};
constexpr Colour kEnemy{250, 60, 60};
constexpr Colour kPlayer{80, 240, 120};
constexpr Colour kNavmesh{90, 200, 255};

std::string one_decimal(float v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f", static_cast<double>(v));
  return text;
}

void draw_routes(Canvas& c, const Level& level, const MapView& view) {
  for (const Route& route : level.routes) {
    const Colour colour = route_colour(route.mode);
    const std::size_t n = route.points.size();
    for (std::size_t i = 0; i + 1 < n || (route.mode == RouteMode::loop && n > 2 && i < n); ++i) {
      const auto a = view.at(route.points[i].position);
      const auto b = view.at(route.points[(i + 1) % n].position);
      c.arrow(a[0], a[1], b[0], b[1], colour, 3.0f, route.mode == RouteMode::ping_pong, 12.0f);
    }
    for (std::size_t i = 0; i < n; ++i) {
      const auto p = view.at(route.points[i].position);
      c.disc(p[0], p[1], 11.0f, colour);
      c.text(p[0] - 4.0f * static_cast<float>(std::to_string(i).size()), p[1] - 6.0f,
             std::to_string(i), {0, 0, 0}, 2);
      if (route.points[i].wait_s > 0)
        c.text(p[0] + 14.0f, p[1] - 4.0f, "wait " + one_decimal(route.points[i].wait_s) + " s",
               kText, 1);
    }
    if (n > 0) {
      const auto p = view.at(route.points[0].position);
      c.text(p[0] + 14.0f, p[1] + 8.0f,
             route.name + (route.mode == RouteMode::loop ? " (loop)" : " (ping-pong)"), colour, 2);
    }
  }
}

void draw_actors(Canvas& c, const Level& level, const MapView& view) {
  for (const EnemySpawn& e : level.enemies) {
    const auto p = view.at(e.position);
    const float yaw = deg_to_rad(e.yaw_deg);
    c.disc(p[0], p[1], 9.0f, kEnemy);
    c.line(p[0], p[1], p[0] + 22.0f * std::sin(yaw), p[1] + 22.0f * std::cos(yaw), kEnemy, 3.0f);
    c.text(p[0] + 12.0f, p[1] - 18.0f, e.name, kEnemy, 1);
  }
  const auto p = view.at(level.player.position);
  const float yaw = deg_to_rad(level.player.yaw_deg);
  const float fx = std::sin(yaw), fz = std::cos(yaw);
  c.triangle(p[0] + 18.0f * fx, p[1] + 18.0f * fz, p[0] - 10.0f * fx + 9.0f * fz,
             p[1] - 10.0f * fz - 9.0f * fx, p[0] - 10.0f * fx - 9.0f * fz,
             p[1] - 10.0f * fz + 9.0f * fx, kPlayer);
  c.text(p[0] + 14.0f, p[1] + 10.0f, "player", kPlayer, 1);
}

void draw_legend(Canvas& c, const Level& level, const MapView& view, float low, float high,
                 bool with_navmesh) {
  const float left =
      static_cast<float>(c.height()) + 10.0f;  // the map is a square as tall as the picture
  float y = 20.0f;
  c.text(left, y, level.name.empty() ? "level" : level.name, kText, 3);
  y += 40.0f;
  c.text(left, y, "height", kText, 2);
  y += 22.0f;
  for (int i = 0; i <= 4; ++i) {
    const float h = low + (high - low) * static_cast<float>(i) / 4.0f;
    c.rect(left, y, 28.0f, 16.0f, height_shade(h, low, high));
    c.text(left + 36.0f, y + 2.0f, one_decimal(h) + " m", kText, 1);
    y += 20.0f;
  }
  y += 14.0f;
  c.arrow(left, y, left + 60.0f, y, route_colour(RouteMode::loop), 3.0f, false, 10.0f);
  c.text(left + 70.0f, y - 5.0f, "loop route", kText, 1);
  y += 26.0f;
  c.arrow(left, y, left + 60.0f, y, route_colour(RouteMode::ping_pong), 3.0f, true, 10.0f);
  c.text(left + 70.0f, y - 5.0f, "ping-pong route", kText, 1);
  y += 26.0f;
  c.disc(left + 10.0f, y, 9.0f, route_colour(RouteMode::loop));
  c.text(left + 6.0f, y - 6.0f, "0", {0, 0, 0}, 2);
  c.text(left + 30.0f, y - 5.0f, "route point, in order", kText, 1);
  y += 28.0f;
  c.disc(left + 10.0f, y, 9.0f, kEnemy);
  c.line(left + 10.0f, y, left + 32.0f, y, kEnemy, 3.0f);
  c.text(left + 40.0f, y - 5.0f, "enemy spawn, facing", kText, 1);
  y += 28.0f;
  c.triangle(left + 28.0f, y, left, y - 9.0f, left, y + 9.0f, kPlayer);
  c.text(left + 40.0f, y - 5.0f, "player start, facing", kText, 1);
  if (with_navmesh) {
    y += 26.0f;
    c.polygon(
        {{left, y - 8.0f}, {left + 28.0f, y - 8.0f}, {left + 28.0f, y + 8.0f}, {left, y + 8.0f}},
        kNavmesh, 0.35f);
    c.text(left + 40.0f, y - 5.0f, "navmesh (walkable)", kText, 1);
  }
  y += 40.0f;
  // Scale bar: a round length near a fifth of the map.
  const float target = static_cast<float>(c.height()) / 5.0f / view.scale;
  float metres = 1;
  for (float candidate : {1.0f, 2.0f, 5.0f, 10.0f, 20.0f, 50.0f, 100.0f, 200.0f}) {
    if (candidate <= target) metres = candidate;
  }
  const float px = metres * view.scale;
  c.rect(left, y, px, 6.0f, kText);
  c.rect(left, y - 6.0f, 2.0f, 18.0f, kText);
  c.rect(left + px - 2.0f, y - 6.0f, 2.0f, 18.0f, kText);
  c.text(left, y + 14.0f, one_decimal(metres) + " m", kText, 2);
  c.text(left, static_cast<float>(c.height()) - 24.0f, "top view: +X right, +Z down", kText, 1);
}

}  // namespace

PreviewImage render_preview(const Level& level, const std::vector<TriangleMesh>& mesh_triangles,
                            const PreviewSettings& settings) {
  const int width = std::max(400, settings.size_px);
  const int height = width * 3 / 4;
  Canvas canvas(width, height, kBackground);
  const std::vector<Footprint> shapes = footprints(level, mesh_triangles);

  // Bounds of everything drawn, with a margin; the map is a square as tall as the picture.
  float min_x = 1e9f, max_x = -1e9f, min_z = 1e9f, max_z = -1e9f, low = 1e9f, high = -1e9f;
  const auto include = [&](Vec3 p) {
    min_x = std::min(min_x, p.x), max_x = std::max(max_x, p.x), min_z = std::min(min_z, p.z),
    max_z = std::max(max_z, p.z);
  };
  for (const Footprint& f : shapes) {
    for (Vec3 p : f.corners) include(p);
    low = std::min(low, f.top);
    high = std::max(high, f.top);
  }
  for (const Route& r : level.routes)
    for (const RoutePoint& p : r.points) include(p.position);
  for (const EnemySpawn& e : level.enemies) include(e.position);
  include(level.player.position);
  const float span = std::max({max_x - min_x, max_z - min_z, 1.0f}) * 1.08f;
  MapView view;
  view.scale = static_cast<float>(height) / span;
  view.min_x = 0.5f * (min_x + max_x) - 0.5f * span;
  view.min_z = 0.5f * (min_z + max_z) - 0.5f * span;

  std::vector<const Footprint*> order;
  for (const Footprint& f : shapes) order.push_back(&f);
  std::stable_sort(order.begin(), order.end(),
                   [](const Footprint* a, const Footprint* b) { return a->top < b->top; });
  for (const Footprint* f : order) {
    std::vector<std::array<float, 2>> points;
    for (Vec3 p : f->corners) points.push_back(view.at(p));
    const auto outline = hull(points);
    canvas.polygon(outline, height_shade(f->top, low, high));
    canvas.outline(outline, {20, 20, 24});
  }
  for (const auto& tri : settings.navmesh_triangles) {
    canvas.polygon({view.at(tri[0]), view.at(tri[1]), view.at(tri[2])}, kNavmesh, 0.35f);
  }
  draw_routes(canvas, level, view);
  draw_actors(canvas, level, view);
  draw_legend(canvas, level, view, low, high, !settings.navmesh_triangles.empty());
  PreviewImage image;
  image.width = canvas.width();
  image.height = canvas.height();
  image.rgb.assign(canvas.row(0), canvas.row(0) + static_cast<std::size_t>(width) *
                                                      static_cast<std::size_t>(height) * 3);
  const auto player = view.at(level.player.position);
  image.player_px = {static_cast<int>(std::lround(player[0])),
                     static_cast<int>(std::lround(player[1]))};
  return image;
}

Result<bool> write_preview_png(const Level& level, const std::vector<TriangleMesh>& mesh_triangles,
                               const std::string& path, const PreviewSettings& settings) {
  const PreviewImage image = render_preview(level, mesh_triangles, settings);
  if (!image::write_png(image.width, image.height, image.rgb.data(), path))
    return Error{path + ": cannot write the PNG file"};
  return true;
}

}  // namespace stagger::levels
