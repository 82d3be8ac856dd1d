// Action-system helpers shared with the session code (actions.cpp).
#pragma once

#include "state.h"

namespace stagger::simxr {

/// The interaction profile the session uses: the scripted one if the application suggested
/// bindings for it, else the first suggested of touch, index, vive, WMR, simple; XR_NULL_PATH if
/// none.
XrPath resolve_profile(const Instance& instance);

/// Pose of an action space's action in STAGE (grip or aim of the bound hand); nullopt when the
/// action is inactive (unbound, not synced, not focused).
std::optional<HandPose> action_pose(const Session& session, const Action& action, XrPath subaction,
                                    XrTime time);

}  // namespace stagger::simxr
