#pragma once
// The OpenXR extension seam. Each extension the game uses is one file that defines one
// XrExtension: its name and a small struct of hooks, one per point of the instance's, the
// session's and the frame's life where it has something to do. xr_extension.cpp lists them all
// (kExtensions, the one list); the frontend calls the hooks only through XrExtensions, which
// walks that list. How to add one: docs/vr.md, OpenXR extensions.

#include <any>
#include <array>
#include <memory>
#include <vector>

#include "frontend.h"
#include "gpu.h"
#include "xr_common.h"
#include "xr_rig.h"

namespace stagger::vr {

/// What an extension keeps between its hooks (hand trackers, structs chained to a call that must
/// outlive it). One per extension, alive as long as the instance; empty until a hook makes it.
class XrExtensionState {
 public:
  template <typename T, typename... Args>
  T& emplace(Args&&... args) {
    auto made = std::make_shared<T>(std::forward<Args>(args)...);
    value_ = made;
    return *made;
  }
  /// What `emplace<T>` made, or null (nothing yet, reset, or another type).
  template <typename T>
  T* get() const {
    const auto* held = std::any_cast<std::shared_ptr<T>>(&value_);
    return held ? held->get() : nullptr;
  }
  void reset() { value_.reset(); }

 private:
  std::any value_;
};

/// What the instance hooks see, once xrGetSystem has answered.
struct XrSystemContext {
  XrInstance instance = XR_NULL_HANDLE;
  XrSystemId system = XR_NULL_SYSTEM_ID;
};

/// What the session hooks see: a session whose spaces and input exist (swapchains come after).
struct XrSessionContext {
  XrInstance instance = XR_NULL_HANDLE;
  XrSession session = XR_NULL_HANDLE;
};

/// What the frame's input hook sees: the poses are read for `time` in `base_space`.
struct XrFrameContext {
  XrSpace base_space = XR_NULL_HANDLE;
  XrTime time = 0;
  const XrRig& rig;
  std::array<bool, 2> controller_drives{};  ///< a controller drives this hand (left, right)
};

/// What the projection-view hook sees of one eye's images.
struct XrViewContext {
  std::size_t eye = 0;                 ///< 0 left, 1 right
  XrSwapchain depth = XR_NULL_HANDLE;  ///< the eye's depth swapchain, when the runtime has one
};

/// One extension: its name and its hooks. A null hook has nothing to do at that point. The
/// frontend calls each hook of every enabled extension in the list's order (session_destroyed in
/// the reverse order). Hooks report failures by throwing, as the frontend's own calls do.
struct XrExtension {
  // ---- Instance
  const char* name = nullptr;  ///< added to the instance's enabled extensions
  /// Null: optional, enabled only when the runtime offers it. Otherwise required, and the
  /// sentence the game fails with when the runtime does not offer it.
  const char* missing = nullptr;
  /// After xrGetSystem: false when this system cannot use the extension after all (it stays
  /// enabled on the instance, and none of its other hooks runs).
  bool (*system)(XrExtensionState&, const XrSystemContext&) = nullptr;
  /// After every `system` hook: the Vulkan device the game draws with (the graphics extension
  /// makes it through the runtime; exactly one enabled extension has this hook).
  std::unique_ptr<GpuContext> (*graphics)(XrExtensionState&, const XrSystemContext&) = nullptr;

  // ---- Session
  /// Before xrCreateSession: chains structs to its create info (the graphics binding); they live
  /// in the state.
  void (*session_info)(XrExtensionState&, const GpuContext&, XrSessionCreateInfo&) = nullptr;
  /// After the session, its spaces and its input are made, before its swapchains.
  void (*session_created)(XrExtensionState&, const XrSessionContext&) = nullptr;
  /// A new swapchain's images (the graphics extension's image type; one extension has this hook).
  std::vector<vk::Image> (*swapchain_images)(XrExtensionState&, XrSwapchain) = nullptr;
  /// After the session's swapchains are destroyed, before its input, spaces and the session.
  void (*session_destroyed)(XrExtensionState&) = nullptr;

  // ---- Frame
  /// After the controllers are read: the hands that no controller drives.
  void (*frame_input)(XrExtensionState&, const XrFrameContext&, FrameInput&) = nullptr;
  /// Each projection view of the frame's layer, once filled: chains structs to it (they live in
  /// the state until xrEndFrame).
  void (*projection_view)(XrExtensionState&, const XrViewContext&,
                          XrCompositionLayerProjectionView&) = nullptr;
};

/// The extensions of one instance: those of the list the runtime offers, each with its state.
class XrExtensions {
 public:
  /// Chooses from the list by the runtime's extensions; throws the `missing` sentence of a
  /// required one that is not offered.
  explicit XrExtensions(const std::vector<XrExtensionProperties>& offered);

  /// The names for XrInstanceCreateInfo, in the list's order.
  std::vector<const char*> names() const;

  // Instance: the `system` hooks (dropping the extensions that say no), then `graphics`.
  std::unique_ptr<GpuContext> open_system(const XrSystemContext& system);

  // Session
  void session_info(const GpuContext& gpu, XrSessionCreateInfo& info);
  void session_created(const XrSessionContext& session);
  std::vector<vk::Image> swapchain_images(XrSwapchain swapchain);
  void session_destroyed();

  // Frame
  void frame_input(const XrFrameContext& frame, FrameInput& input);
  void projection_view(const XrViewContext& view, XrCompositionLayerProjectionView& out);

 private:
  struct Enabled {
    const XrExtension* hooks;
    XrExtensionState state;
  };
  /// Calls `Hook` of every enabled extension that has it, in the list's order.
  template <auto Hook, typename... Args>
  void each(Args&&... args);
  /// The one enabled extension with `Hook` (the graphics extension); throws when none has it.
  template <auto Hook>
  Enabled& only(const char* what);

  std::vector<Enabled> enabled_;
};

}  // namespace stagger::vr
