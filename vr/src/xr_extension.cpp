#include "xr_extension.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace stagger::vr {

// Each defined in its own file.
extern const XrExtension kXrKhrVulkanEnable2;          // xr_vulkan_enable2.cpp
extern const XrExtension kXrExtHandTracking;           // xr_hand_tracking.cpp
extern const XrExtension kXrKhrCompositionLayerDepth;  // xr_composition_layer_depth.cpp

namespace {

// The one list: every extension the game uses, in the order the instance enables them and their
// hooks run.
constexpr std::array kExtensions{&kXrKhrVulkanEnable2, &kXrExtHandTracking,
                                 &kXrKhrCompositionLayerDepth};

bool offers(const std::vector<XrExtensionProperties>& offered, const char* name) {
  return std::any_of(offered.begin(), offered.end(), [&](const XrExtensionProperties& p) {
    return std::strcmp(p.extensionName, name) == 0;
  });
}

}  // namespace

XrExtensions::XrExtensions(const std::vector<XrExtensionProperties>& offered) {
  for (const XrExtension* extension : kExtensions) {
    if (offers(offered, extension->name)) {
      enabled_.push_back({extension, {}});
    } else if (extension->missing != nullptr) {
      throw std::runtime_error(extension->missing);
    }
  }
}

std::vector<const char*> XrExtensions::names() const {
  std::vector<const char*> names;
  for (const Enabled& e : enabled_) names.push_back(e.hooks->name);
  return names;
}

template <auto Hook, typename... Args>
void XrExtensions::each(Args&&... args) {
  for (Enabled& e : enabled_) {
    if (e.hooks->*Hook) (e.hooks->*Hook)(e.state, args...);
  }
}

template <auto Hook>
XrExtensions::Enabled& XrExtensions::only(const char* what) {
  const auto found = std::find_if(enabled_.begin(), enabled_.end(),
                                  [](const Enabled& e) { return e.hooks->*Hook != nullptr; });
  if (found == enabled_.end())
    throw std::logic_error(std::string("no enabled OpenXR extension gives ") + what);
  return *found;
}

std::unique_ptr<GpuContext> XrExtensions::open_system(const XrSystemContext& system) {
  // (a system that cannot use an extension takes it out of every later walk)
  std::erase_if(enabled_, [&](Enabled& e) {
    return e.hooks->system != nullptr && !e.hooks->system(e.state, system);
  });
  Enabled& graphics = only<&XrExtension::graphics>("a Vulkan device");
  return graphics.hooks->graphics(graphics.state, system);
}

void XrExtensions::session_info(const GpuContext& gpu, XrSessionCreateInfo& info) {
  each<&XrExtension::session_info>(gpu, info);
}

void XrExtensions::session_created(const XrSessionContext& session) {
  each<&XrExtension::session_created>(session);
}

std::vector<vk::Image> XrExtensions::swapchain_images(XrSwapchain swapchain) {
  Enabled& graphics = only<&XrExtension::swapchain_images>("swapchain images");
  return graphics.hooks->swapchain_images(graphics.state, swapchain);
}

void XrExtensions::session_destroyed() {
  // Reverse order: what was made last on the session goes first.
  for (auto e = enabled_.rbegin(); e != enabled_.rend(); ++e) {
    if (e->hooks->session_destroyed) e->hooks->session_destroyed(e->state);
  }
}

void XrExtensions::frame_input(const XrFrameContext& frame, FrameInput& input) {
  each<&XrExtension::frame_input>(frame, input);
}

void XrExtensions::projection_view(const XrViewContext& view,
                                   XrCompositionLayerProjectionView& out) {
  each<&XrExtension::projection_view>(view, out);
}

}  // namespace stagger::vr
