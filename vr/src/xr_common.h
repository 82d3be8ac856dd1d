#pragma once
// OpenXR for vr/src only: the headers with Vulkan enabled, result names, and a check that turns
// a failed call into an exception naming the call. Success codes (XR_SESSION_NOT_FOCUSED,
// XR_SESSION_LOSS_PENDING, XR_FRAME_DISCARDED, ...) are not failures.

#include <vulkan/vulkan.h>

#include <stdexcept>
#include <string>
#define XR_USE_GRAPHICS_API_VULKAN
#include <openxr/openxr.h>
#include <openxr/openxr_platform.h>

namespace stagger::vr {

/// `XR_ERROR_RUNTIME_UNAVAILABLE`, ... (works without an instance).
std::string result_name(XrResult result);

struct XrFailure : std::runtime_error {
  XrFailure(const std::string& call, XrResult r)
      : std::runtime_error(call + " failed: " + result_name(r)), result(r) {}
  XrResult result;
};

/// Throws XrFailure when `result` is an error; returns it otherwise (it may be a success code).
inline XrResult xr_check(XrResult result, const char* call) {
  if (XR_FAILED(result)) throw XrFailure(call, result);
  return result;
}

/// An extension function of `instance`; throws when the runtime does not provide it.
template <typename Function>
Function xr_function(XrInstance instance, const char* name) {
  PFN_xrVoidFunction f = nullptr;
  xr_check(xrGetInstanceProcAddr(instance, name, &f), name);
  if (f == nullptr) throw std::runtime_error(std::string("the OpenXR runtime has no ") + name);
  return reinterpret_cast<Function>(f);
}

}  // namespace stagger::vr
