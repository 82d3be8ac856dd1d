#include "stagger/vr/openxr_version.h"

#include <openxr/openxr.h>

namespace stagger::vr {

std::string openxr_version() {
  constexpr XrVersion kVersion = XR_CURRENT_API_VERSION;
  return std::to_string(XR_VERSION_MAJOR(kVersion)) + "." +
         std::to_string(XR_VERSION_MINOR(kVersion)) + "." +
         std::to_string(XR_VERSION_PATCH(kVersion));
}

}  // namespace stagger::vr
