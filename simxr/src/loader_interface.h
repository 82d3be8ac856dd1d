// The runtime side of the loader/runtime negotiation (loader interface version 1). Debian's
// OpenXR 1.0.20 packages do not ship loader_interfaces.h, so the layout the 1.0.20 loader uses is
// declared here; it must match byte for byte.
#pragma once

#include <cstddef>

#include "xr.h"

namespace stagger::simxr {

enum XrLoaderInterfaceStructs : std::int32_t {
  XR_LOADER_INTERFACE_STRUCT_UNINTIALIZED = 0,
  XR_LOADER_INTERFACE_STRUCT_LOADER_INFO = 1,
  XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST = 2,
  XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST = 3,
  XR_LOADER_INTERFACE_STRUCT_API_LAYER_CREATE_INFO = 4,
  XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO = 5,
};

inline constexpr std::uint32_t kLoaderInfoStructVersion = 1;
inline constexpr std::uint32_t kRuntimeInfoStructVersion = 1;
inline constexpr std::uint32_t kCurrentLoaderRuntimeVersion = 1;

struct XrNegotiateLoaderInfo {
  XrLoaderInterfaceStructs structType;
  std::uint32_t structVersion;
  std::size_t structSize;
  std::uint32_t minInterfaceVersion;
  std::uint32_t maxInterfaceVersion;
  XrVersion minApiVersion;
  XrVersion maxApiVersion;
};

struct XrNegotiateRuntimeRequest {
  XrLoaderInterfaceStructs structType;
  std::uint32_t structVersion;
  std::size_t structSize;
  std::uint32_t runtimeInterfaceVersion;
  XrVersion runtimeApiVersion;
  PFN_xrGetInstanceProcAddr getInstanceProcAddr;
};

static_assert(sizeof(XrNegotiateLoaderInfo) == 40);
static_assert(sizeof(XrNegotiateRuntimeRequest) == 40);

}  // namespace stagger::simxr
