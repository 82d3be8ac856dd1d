#include "xr_session.h"

#include <algorithm>
#include <string>

namespace stagger::vr {

namespace {

constexpr XrViewConfigurationType kStereo = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;

// STAGE (origin on the floor) when there is one; LOCAL (origin at the head) otherwise, then the
// floor is guessed 1.6 m below the start.
void create_spaces(XrSessionParts& parts) {
  std::uint32_t count = 0;
  xr_check(xrEnumerateReferenceSpaces(parts.session, 0, &count, nullptr),
           "xrEnumerateReferenceSpaces");
  std::vector<XrReferenceSpaceType> types(count);
  xr_check(xrEnumerateReferenceSpaces(parts.session, count, &count, types.data()),
           "xrEnumerateReferenceSpaces");
  const bool stage =
      std::find(types.begin(), types.end(), XR_REFERENCE_SPACE_TYPE_STAGE) != types.end();
  XrReferenceSpaceCreateInfo info{XR_TYPE_REFERENCE_SPACE_CREATE_INFO};
  info.referenceSpaceType = stage ? XR_REFERENCE_SPACE_TYPE_STAGE : XR_REFERENCE_SPACE_TYPE_LOCAL;
  info.poseInReferenceSpace.orientation.w = 1.0f;
  if (!stage) info.poseInReferenceSpace.position.y = -1.6f;
  xr_check(xrCreateReferenceSpace(parts.session, &info, &parts.base_space),
           "xrCreateReferenceSpace");
  info.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_VIEW;
  info.poseInReferenceSpace.position.y = 0;
  xr_check(xrCreateReferenceSpace(parts.session, &info, &parts.view_space),
           "xrCreateReferenceSpace");
}

std::vector<XrViewConfigurationView> stereo_views(const XrSessionSource& source) {
  std::uint32_t count = 0;
  xr_check(xrEnumerateViewConfigurationViews(source.instance, source.system, kStereo, 0, &count,
                                             nullptr),
           "xrEnumerateViewConfigurationViews");
  std::vector<XrViewConfigurationView> views(count, {XR_TYPE_VIEW_CONFIGURATION_VIEW});
  xr_check(xrEnumerateViewConfigurationViews(source.instance, source.system, kStereo, count, &count,
                                             views.data()),
           "xrEnumerateViewConfigurationViews");
  if (views.size() != 2)
    throw std::runtime_error("the OpenXR runtime's stereo view has " +
                             std::to_string(views.size()) + " views");
  return views;
}

std::vector<std::int64_t> swapchain_formats(XrSession session) {
  std::uint32_t count = 0;
  xr_check(xrEnumerateSwapchainFormats(session, 0, &count, nullptr), "xrEnumerateSwapchainFormats");
  std::vector<std::int64_t> formats(count);
  xr_check(xrEnumerateSwapchainFormats(session, count, &count, formats.data()),
           "xrEnumerateSwapchainFormats");
  return formats;
}

// sRGB colour first (the renderer's target is sRGB, so a blit keeps the picture as it is).
std::int64_t colour_format(const std::vector<std::int64_t>& formats) {
  for (std::int64_t f : {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM,
                         VK_FORMAT_B8G8R8A8_UNORM}) {
    if (std::find(formats.begin(), formats.end(), f) != formats.end()) return f;
  }
  throw std::runtime_error("the OpenXR runtime offers no 8-bit RGBA swapchain format");
}

XrEyeSwapchain make_swapchain(const XrSessionSource& source, XrSession session, std::int64_t format,
                              vk::Extent2D size, XrSwapchainUsageFlags usage) {
  XrSwapchainCreateInfo info{XR_TYPE_SWAPCHAIN_CREATE_INFO};
  info.usageFlags = usage;
  info.format = format;
  info.sampleCount = 1;
  info.width = size.width;
  info.height = size.height;
  info.faceCount = 1;
  info.arraySize = 1;
  info.mipCount = 1;
  XrEyeSwapchain s;
  s.size = size;
  xr_check(xrCreateSwapchain(session, &info, &s.handle), "xrCreateSwapchain");
  s.images = source.extensions.swapchain_images(s.handle);
  return s;
}

// Per eye the recommended size; the renderer copies into them, so they take transfers.
void create_swapchains(const XrSessionSource& source, XrSessionParts& parts) {
  const std::vector<XrViewConfigurationView> views = stereo_views(source);
  const std::vector<std::int64_t> formats = swapchain_formats(parts.session);
  const std::int64_t colour = colour_format(formats);
  const bool depth =
      std::find(formats.begin(), formats.end(), VK_FORMAT_D32_SFLOAT) != formats.end();
  for (std::size_t eye = 0; eye < 2; ++eye) {
    const vk::Extent2D size(views[eye].recommendedImageRectWidth,
                            views[eye].recommendedImageRectHeight);
    parts.swapchains.colour[eye] = make_swapchain(
        source, parts.session, colour, size,
        XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT | XR_SWAPCHAIN_USAGE_TRANSFER_DST_BIT);
    if (depth) {
      parts.swapchains.depth[eye] = make_swapchain(
          source, parts.session, VK_FORMAT_D32_SFLOAT, size,
          XR_SWAPCHAIN_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | XR_SWAPCHAIN_USAGE_TRANSFER_DST_BIT);
    }
  }
}

}  // namespace

void create_session(const XrSessionSource& source, XrSessionParts& parts) {
  XrSessionCreateInfo info{XR_TYPE_SESSION_CREATE_INFO};
  info.systemId = source.system;
  source.extensions.session_info(source.gpu, info);  // (the graphics binding)
  xr_check(xrCreateSession(source.instance, &info, &parts.session), "xrCreateSession");
  create_spaces(parts);
  parts.input = std::make_unique<XrInput>(source.instance);
  parts.input->attach(parts.session);
  source.extensions.session_created({source.instance, parts.session});
  create_swapchains(source, parts);
}

void destroy_session(const XrSessionSource& source, XrSessionParts& parts) {
  source.gpu.device.waitIdle();
  for (auto* chains : {&parts.swapchains.colour, &parts.swapchains.depth}) {
    for (XrEyeSwapchain& s : *chains) {
      if (s.handle != XR_NULL_HANDLE) xrDestroySwapchain(s.handle);
      s = XrEyeSwapchain{};
    }
  }
  source.extensions.session_destroyed();
  parts.input.reset();
  for (XrSpace* space : {&parts.base_space, &parts.view_space}) {
    if (*space != XR_NULL_HANDLE) xrDestroySpace(*space);
    *space = XR_NULL_HANDLE;
  }
  if (parts.session != XR_NULL_HANDLE) xrDestroySession(parts.session);
  parts.session = XR_NULL_HANDLE;
}

}  // namespace stagger::vr
