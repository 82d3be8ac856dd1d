#pragma once
// One OpenXR session and what is made on it: the spaces, the input's action set, the extensions'
// session parts and the eyes' swapchains. They are made and destroyed together: a lost session
// is replaced whole, on the same instance and Vulkan device.

#include <array>
#include <memory>
#include <vector>

#include "gpu.h"
#include "xr_common.h"
#include "xr_extension.h"
#include "xr_input.h"

namespace stagger::vr {

struct XrEyeSwapchain {
  XrSwapchain handle = XR_NULL_HANDLE;
  vk::Extent2D size;
  std::vector<vk::Image> images;
};

/// Per eye (left, right): colour always; depth when the runtime lists D32_SFLOAT (the depth is
/// copied in every frame; XR_KHR_composition_layer_depth decides whether it is submitted).
struct XrEyeSwapchains {
  std::array<XrEyeSwapchain, 2> colour{};
  std::array<XrEyeSwapchain, 2> depth{};
};

struct XrSessionParts {
  XrSession session = XR_NULL_HANDLE;
  XrSpace base_space = XR_NULL_HANDLE;  ///< STAGE (origin on the floor), else LOCAL lowered 1.6 m
  XrSpace view_space = XR_NULL_HANDLE;  ///< the head
  std::unique_ptr<XrInput> input;
  XrEyeSwapchains swapchains;
};

/// Where the session is made: the instance, its system, the device it draws with, and the
/// extensions whose session hooks run.
struct XrSessionSource {
  XrInstance instance = XR_NULL_HANDLE;
  XrSystemId system = XR_NULL_SYSTEM_ID;
  const GpuContext& gpu;
  XrExtensions& extensions;
};

/// Makes a session and its parts into `parts`, in place: after a failure, what was made is there
/// for `destroy_session`.
void create_session(const XrSessionSource& source, XrSessionParts& parts);
/// Destroys what `parts` holds, once the GPU is done with the swapchains' images; no
/// xrEndSession (that is the state machine's, at STOPPING).
void destroy_session(const XrSessionSource& source, XrSessionParts& parts);

}  // namespace stagger::vr
