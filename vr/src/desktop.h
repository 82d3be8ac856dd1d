#pragma once
// Desktop mode: a GLFW window with the VR renderer, the player's body walked with W A S D (Q and
// E turn, the right mouse button looks; F switches to a fly camera) and a mouse-driven right hand
// (hold the left button and move to shove).

#include <memory>

#include "frontend.h"
#include "stagger/core/result.h"
#include "stagger/sim/scene.h"
#include "stagger/vr/play.h"

namespace stagger::vr {

/// Opens the window; fails with a sentence when there is no display or no Vulkan presentation.
Result<std::unique_ptr<Frontend>> create_desktop(const SceneGeometry& geometry,
                                                 const sim::SceneDescription& scene,
                                                 const PlaySettings& settings);

}  // namespace stagger::vr
