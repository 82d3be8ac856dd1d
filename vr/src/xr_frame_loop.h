#pragma once
// The frames of a running session: xrWaitFrame and xrBeginFrame, then both eyes drawn into the
// session's swapchains and xrEndFrame with one projection layer (or none, when the runtime does
// not want the frame drawn or the views cannot be located). The extensions' projection-view
// hooks add to each eye's view. Which state lets frames run is the state machine's
// (xr_session_state.h); this only runs them.
//
// Two frames are in flight: each frame records into one of two slots (command buffer, fence,
// the renderer's per-frame buffers) and does not wait for the GPU after submitting; before a
// slot is recorded again, its fence (the frame two before) is waited for. No semaphore is needed:
// the runtime reads a released swapchain image on our queue, after our submission, and
// xrWaitSwapchainImage hands an image back only once the compositor is done reading it.

#include <memory>
#include <string>
#include <vector>

#include "draw_list.h"
#include "renderer.h"
#include "xr_extension.h"
#include "xr_rig.h"
#include "xr_session.h"

namespace stagger::vr {

/// What the frames are drawn for: the frontend's, alive as long as the loop (the session in
/// `session` is replaced after a loss).
struct XrFrameTarget {
  const XrSessionParts& session;
  XrExtensions& extensions;
  const XrRig& rig;
  XrEnvironmentBlendMode blend_mode;
};

class XrFrameLoop {
 public:
  /// Frames whose GPU work may run while the next one is recorded.
  static constexpr int kFramesInFlight = 2;

  /// The renderer draws at the left eye's swapchain size.
  XrFrameLoop(const GpuContext& gpu, const std::vector<sim::MeshData>& meshes,
              const XrFrameTarget& target);
  ~XrFrameLoop();
  XrFrameLoop(const XrFrameLoop&) = delete;
  XrFrameLoop& operator=(const XrFrameLoop&) = delete;

  /// xrWaitFrame, then xrBeginFrame (XR_FRAME_DISCARDED is a success). Throws XrFailure.
  void wait_and_begin();
  /// A frame is begun and not yet ended.
  bool begun() const { return begun_; }
  /// The session went away: no frame is begun any more.
  void forget_frame() { begun_ = false; }
  XrTime display_time() const { return frame_.predictedDisplayTime; }

  /// [s] the game time this frame advances: its display time since the last frame's, one
  /// display period after a restart; 0 to 0.25 s.
  double advance_clock();
  /// The next frame is the first of a run (after xrBeginSession).
  void restart_clock() { last_display_time_ = 0; }

  /// Draws `frame` (with `keep_pixels`, the left eye is also read back) and ends the frame;
  /// false when the session was lost on the way (XR_ERROR_SESSION_LOST).
  bool draw_and_end(const DrawFrame& frame, bool keep_pixels);
  /// Ends the begun frame with no layer (leaving). Throws XrFailure.
  void end_empty();

  /// The left eye of the last frame drawn with `keep_pixels`, as a PNG; false if none.
  bool save_screenshot(const std::string& path);

  /// Waits until the GPU has finished every frame submitted (before the session's swapchains
  /// are destroyed: xrDestroySwapchain requires it). A lost device has nothing to wait for.
  void wait_idle() const noexcept;

 private:
  using ProjectionViews = std::array<XrCompositionLayerProjectionView, 2>;
  bool locate_views(std::array<XrView, 2>& views) const;
  bool render_views(const DrawFrame& frame, ProjectionViews& out, bool keep_pixels);
  XrCompositionLayerProjectionView record_eye(vk::CommandBuffer cmd, std::size_t eye,
                                              const XrView& view, bool readback);
  void record_depth_copy(vk::CommandBuffer cmd, int target, vk::Image dst,
                         vk::Extent2D dst_size) const;
  /// The slot of the frame about to be recorded, once the GPU is done with its last use.
  std::size_t take_slot();
  XrResult end(const std::vector<XrCompositionLayerBaseHeader*>& layers) const;

  const GpuContext& gpu_;
  XrFrameTarget target_;
  vk::raii::CommandPool pool_{nullptr};
  vk::raii::CommandBuffers commands_{nullptr};  // one per slot
  std::vector<vk::raii::Fence> done_;           // one per slot: signalled when its frame is done
  std::size_t next_slot_ = 0;
  std::unique_ptr<Renderer> renderer_;  // (made first, destroyed first)
  XrFrameState frame_{XR_TYPE_FRAME_STATE};
  bool begun_ = false;
  XrTime last_display_time_ = 0;
  bool kept_pixels_ = false;
};

}  // namespace stagger::vr
