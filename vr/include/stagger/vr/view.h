#pragma once
// Eyes and cameras: a pose and an (asymmetric, as OpenXR gives it) field of view, and the
// matrices the renderer draws with. Vulkan's clip space: x right, y down, depth 0 (near) to 1.

#include <array>
#include <optional>

#include "stagger/core/math.h"

namespace stagger::vr {

/// Column-major 4×4 matrix (m[column * 4 + row]), as GLSL reads it.
struct Mat4 {
  std::array<float, 16> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  float& at(int row, int column) { return m[static_cast<std::size_t>(column * 4 + row)]; }
  float at(int row, int column) const { return m[static_cast<std::size_t>(column * 4 + row)]; }
};
Mat4 operator*(const Mat4& a, const Mat4& b);

/// Half-angles of a view frustum [rad]: left and down negative, right and up positive.
struct Fov {
  float left = -0.785f;
  float right = 0.785f;
  float up = 0.785f;
  float down = -0.785f;
};

/// A symmetric field of view of `vertical_rad` for an image of `aspect` (width / height).
Fov symmetric_fov(float vertical_rad, float aspect);

/// One eye or camera: it looks along its local -Z with +Y up (OpenXR's view convention).
struct EyeView {
  Vec3 position;  ///< [m]
  Quat orientation;
  Fov fov;
};

/// A camera at `eye` looking at `target`, with +Y up.
EyeView look_at(Vec3 eye, Vec3 target, Fov fov);

inline constexpr float kNearM = 0.05f;  ///< [m] near clipping plane
inline constexpr float kFarM = 200.0f;  ///< [m] far clipping plane

/// World → clip space for `view`.
Mat4 view_projection(const EyeView& view);

/// Where a world point lands in a `width` × `height` image of `view`, in pixels (x right, y
/// down); nothing when it is behind the eye.
std::optional<std::array<float, 2>> project(const EyeView& view, Vec3 world, int width, int height);

}  // namespace stagger::vr
