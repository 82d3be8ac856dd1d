#include "stagger/vr/view.h"

#include <cmath>

namespace stagger::vr {

Mat4 operator*(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int row = 0; row < 4; ++row) {
    for (int column = 0; column < 4; ++column) {
      float sum = 0;
      for (int k = 0; k < 4; ++k) sum += a.at(row, k) * b.at(k, column);
      r.at(row, column) = sum;
    }
  }
  return r;
}

Fov symmetric_fov(float vertical_rad, float aspect) {
  const float up = std::tan(0.5f * vertical_rad);
  const float right = std::atan(up * aspect);
  return {-right, right, 0.5f * vertical_rad, -0.5f * vertical_rad};
}

EyeView look_at(Vec3 eye, Vec3 target, Fov fov) {
  // Yaw about +Y, then pitch about the camera's X, so the horizon stays level.
  const Vec3 forward = normalized(target - eye);
  const float yaw = std::atan2(-forward.x, -forward.z);
  const float pitch = std::asin(std::fmax(-1.0f, std::fmin(1.0f, forward.y)));
  const Quat q = Quat::from_axis_angle({0, 1, 0}, yaw) * Quat::from_axis_angle({1, 0, 0}, pitch);
  return {eye, q, fov};
}

namespace {

// The inverse of the eye's pose: world → eye space.
Mat4 view_matrix(const EyeView& view) {
  const Quat inverse = view.orientation.conjugate();
  Mat4 r;
  const Vec3 axes[3] = {inverse.rotate({1, 0, 0}), inverse.rotate({0, 1, 0}),
                        inverse.rotate({0, 0, 1})};
  for (int column = 0; column < 3; ++column) {
    const Vec3 a = axes[column];
    r.at(0, column) = a.x;
    r.at(1, column) = a.y;
    r.at(2, column) = a.z;
  }
  const Vec3 t = inverse.rotate(view.position * -1.0f);
  r.at(0, 3) = t.x;
  r.at(1, 3) = t.y;
  r.at(2, 3) = t.z;
  return r;
}

// Perspective from the tangents of the half-angles. A point (x, y, z) in eye space, z < 0, lands
// at tan = x / -z; Vulkan's y points down, and depth runs 0 at the near plane to 1 at the far.
Mat4 projection_matrix(const Fov& fov) {
  const float l = std::tan(fov.left), r = std::tan(fov.right);
  const float u = std::tan(fov.up), d = std::tan(fov.down);
  Mat4 p;
  p.m.fill(0);
  p.at(0, 0) = 2.0f / (r - l);
  p.at(0, 2) = (r + l) / (r - l);
  p.at(1, 1) = -2.0f / (u - d);
  p.at(1, 2) = -(u + d) / (u - d);
  p.at(2, 2) = -kFarM / (kFarM - kNearM);
  p.at(2, 3) = -kFarM * kNearM / (kFarM - kNearM);
  p.at(3, 2) = -1.0f;
  return p;
}

}  // namespace

Mat4 view_projection(const EyeView& view) {
  return projection_matrix(view.fov) * view_matrix(view);
}

std::optional<std::array<float, 2>> project(const EyeView& view, Vec3 world, int width,
                                            int height) {
  const Mat4 m = view_projection(view);
  const float v[4] = {world.x, world.y, world.z, 1.0f};
  float clip[4] = {};
  for (int row = 0; row < 4; ++row) {
    for (int k = 0; k < 4; ++k) clip[row] += m.at(row, k) * v[k];
  }
  if (clip[3] <= kNearM) return std::nullopt;
  const float x = clip[0] / clip[3], y = clip[1] / clip[3];
  return std::array<float, 2>{(x * 0.5f + 0.5f) * static_cast<float>(width),
                              (y * 0.5f + 0.5f) * static_cast<float>(height)};
}

}  // namespace stagger::vr
