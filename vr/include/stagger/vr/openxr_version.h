#pragma once
// The OpenXR version this library was built against, for `stagger --version` and bug reports.
// OpenXR's headers stay in vr/src.

#include <string>

namespace stagger::vr {

/// The OpenXR SDK version as `MAJOR.MINOR.PATCH` (for example `1.0.20`), from
/// XR_CURRENT_API_VERSION in the openxr.h the vr library was compiled with. The headers and the
/// loader are released together as one SDK, so this is also the loader version the build linked.
std::string openxr_version();

}  // namespace stagger::vr
