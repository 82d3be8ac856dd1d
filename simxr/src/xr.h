// One place that includes the OpenXR and Vulkan headers with the platform macros the runtime needs.
#pragma once

#include <time.h>
#include <vulkan/vulkan.h>

#define XR_USE_GRAPHICS_API_VULKAN 1
#define XR_USE_TIMESPEC 1
// The runtime implements these functions itself; the loader's prototypes must not be visible.
#define XR_NO_PROTOTYPES 1
#include <openxr/openxr.h>
#include <openxr/openxr_platform.h>
#include <openxr/openxr_reflection.h>

#include <cstdint>

namespace stagger::simxr {

// Handles are opaque ids; the runtime never hands out pointers.
template <typename Handle>
Handle to_handle(std::uint64_t id) {
  return reinterpret_cast<Handle>(static_cast<std::uintptr_t>(id));
}
template <typename Handle>
std::uint64_t from_handle(Handle handle) {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(handle));
}

}  // namespace stagger::simxr
