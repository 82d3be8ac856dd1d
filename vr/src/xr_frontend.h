#pragma once
// VR through OpenXR (1.0, Debian's loader) with XR_KHR_vulkan_enable2: instance, system, the
// Vulkan device through the runtime, session and its states (LOSS_PENDING re-creates the session,
// EXITING ends the game), stereo colour and depth swapchains, the frame loop, input and haptics.

#include <memory>

#include "frontend.h"
#include "stagger/core/result.h"
#include "stagger/sim/scene.h"
#include "stagger/vr/play.h"

namespace stagger::vr {

/// Starts VR; fails with one sentence when no OpenXR runtime answers or it cannot draw with Vulkan.
Result<std::unique_ptr<Frontend>> create_xr(const SceneGeometry& geometry,
                                            const sim::SceneDescription& scene,
                                            const PlaySettings& settings);

}  // namespace stagger::vr
