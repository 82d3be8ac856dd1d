// XR_KHR_composition_layer_depth, when the runtime offers it: the depth of each eye goes with its
// projection view, so the compositor can reproject with it.
//   instance: enabled when offered;
//   session:  room for the two depth-info structs (they are chained to the frame's layer and must
//             live until xrEndFrame);
//   frame:    each projection view whose eye has a depth swapchain gets its depth info chained.
// The depth swapchains themselves do not depend on it: they are made whenever the runtime lists
// D32_SFLOAT, and the depth is copied into them every frame (xr_frame_loop.cpp).

#include "stagger/vr/view.h"
#include "xr_extension.h"

namespace stagger::vr {

extern const XrExtension kXrKhrCompositionLayerDepth;  // (listed in xr_extension.cpp)

namespace {

using DepthInfos = std::array<XrCompositionLayerDepthInfoKHR, 2>;

void session_created(XrExtensionState& state, const XrSessionContext&) {
  state.emplace<DepthInfos>();
}

void session_destroyed(XrExtensionState& state) {
  state.reset();
}

void projection_view(XrExtensionState& state, const XrViewContext& view,
                     XrCompositionLayerProjectionView& out) {
  auto* infos = state.get<DepthInfos>();
  if (infos == nullptr || view.depth == XR_NULL_HANDLE) return;
  XrCompositionLayerDepthInfoKHR& info = (*infos)[view.eye];
  info = {XR_TYPE_COMPOSITION_LAYER_DEPTH_INFO_KHR, out.next};
  info.subImage.swapchain = view.depth;
  info.subImage.imageRect = out.subImage.imageRect;  // (the depth image is the colour's size)
  info.minDepth = 0;
  info.maxDepth = 1;
  info.nearZ = kNearM;
  info.farZ = kFarM;
  out.next = &info;
}

}  // namespace

const XrExtension kXrKhrCompositionLayerDepth{
    .name = XR_KHR_COMPOSITION_LAYER_DEPTH_EXTENSION_NAME,
    .session_created = session_created,
    .session_destroyed = session_destroyed,
    .projection_view = projection_view,
};

}  // namespace stagger::vr
