#include "xr_frame_loop.h"

#include <algorithm>

#include "stagger/vr/offscreen.h"
#include "stagger/vr/view.h"

namespace stagger::vr {

namespace {

// Swapchain images come from xrWaitSwapchainImage in attachment layout and go back in it.
std::uint32_t acquire(const XrEyeSwapchain& s) {
  std::uint32_t index = 0;
  XrSwapchainImageAcquireInfo acquire{XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO};
  xr_check(xrAcquireSwapchainImage(s.handle, &acquire, &index), "xrAcquireSwapchainImage");
  XrSwapchainImageWaitInfo wait{XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO};
  wait.timeout = XR_INFINITE_DURATION;
  xr_check(xrWaitSwapchainImage(s.handle, &wait), "xrWaitSwapchainImage");
  return index;
}

void release(const XrEyeSwapchain& s) {
  XrSwapchainImageReleaseInfo release{XR_TYPE_SWAPCHAIN_IMAGE_RELEASE_INFO};
  xr_check(xrReleaseSwapchainImage(s.handle, &release), "xrReleaseSwapchainImage");
}

}  // namespace

XrFrameLoop::XrFrameLoop(const GpuContext& gpu, const std::vector<sim::MeshData>& meshes,
                         const XrFrameTarget& target)
    : gpu_(gpu), target_(target) {
  renderer_ = std::make_unique<Renderer>(gpu_, meshes, target_.session.swapchains.colour[0].size, 2,
                                         kFramesInFlight);
  pool_ = vk::raii::CommandPool(
      gpu_.device, vk::CommandPoolCreateInfo(vk::CommandPoolCreateFlagBits::eResetCommandBuffer,
                                             gpu_.queue_family));
  commands_ = vk::raii::CommandBuffers(
      gpu_.device, vk::CommandBufferAllocateInfo(*pool_, vk::CommandBufferLevel::ePrimary,
                                                 static_cast<std::uint32_t>(kFramesInFlight)));
  // Signalled at first: a slot not used yet has nothing to wait for.
  for (int i = 0; i < kFramesInFlight; ++i)
    done_.emplace_back(gpu_.device, vk::FenceCreateInfo(vk::FenceCreateFlagBits::eSignaled));
}

XrFrameLoop::~XrFrameLoop() {
  wait_idle();  // (the command buffers and the renderer's buffers go with this object)
}

void XrFrameLoop::wait_idle() const noexcept {
  std::vector<vk::Fence> fences;
  for (const vk::raii::Fence& f : done_) fences.push_back(*f);
  try {
    (void)gpu_.device.waitForFences(fences, VK_TRUE, UINT64_MAX);
  } catch (const vk::SystemError&) {
    // A lost device runs nothing any more: there is nothing left to wait for.
  }
}

std::size_t XrFrameLoop::take_slot() {
  const std::size_t slot = next_slot_;
  next_slot_ = (next_slot_ + 1) % done_.size();
  if (gpu_.device.waitForFences(*done_[slot], VK_TRUE, UINT64_MAX) != vk::Result::eSuccess)
    throw std::runtime_error("GPU hang");
  return slot;
}

void XrFrameLoop::wait_and_begin() {
  const XrSession session = target_.session.session;
  XrFrameWaitInfo wait{XR_TYPE_FRAME_WAIT_INFO};
  frame_ = {XR_TYPE_FRAME_STATE};
  xr_check(xrWaitFrame(session, &wait, &frame_), "xrWaitFrame");
  XrFrameBeginInfo begin{XR_TYPE_FRAME_BEGIN_INFO};
  xr_check(xrBeginFrame(session, &begin), "xrBeginFrame");  // (XR_FRAME_DISCARDED is a success)
  begun_ = true;
}

double XrFrameLoop::advance_clock() {
  const XrTime t = frame_.predictedDisplayTime;
  const double s = last_display_time_ > 0
                       ? static_cast<double>(t - last_display_time_) * 1e-9
                       : static_cast<double>(frame_.predictedDisplayPeriod) * 1e-9;
  last_display_time_ = t;
  return std::clamp(s, 0.0, 0.25);
}

bool XrFrameLoop::draw_and_end(const DrawFrame& frame, bool keep_pixels) {
  begun_ = false;
  ProjectionViews views{};
  bool drawn = false;
  try {
    drawn = frame_.shouldRender && render_views(frame, views, keep_pixels);
  } catch (const XrFailure& e) {
    if (e.result != XR_ERROR_SESSION_LOST) throw;
    return false;  // (a lost session takes its frame with it: no xrEndFrame)
  }
  XrCompositionLayerProjection layer{XR_TYPE_COMPOSITION_LAYER_PROJECTION};
  std::vector<XrCompositionLayerBaseHeader*> layers;
  if (drawn) {
    kept_pixels_ = kept_pixels_ || keep_pixels;
    layer.space = target_.session.base_space;
    layer.viewCount = static_cast<std::uint32_t>(views.size());
    layer.views = views.data();
    layers.push_back(reinterpret_cast<XrCompositionLayerBaseHeader*>(&layer));
  }
  const XrResult ended = end(layers);
  if (ended == XR_ERROR_SESSION_LOST) return false;
  xr_check(ended, "xrEndFrame");
  return true;
}

void XrFrameLoop::end_empty() {
  begun_ = false;
  xr_check(end({}), "xrEndFrame");
}

XrResult XrFrameLoop::end(const std::vector<XrCompositionLayerBaseHeader*>& layers) const {
  XrFrameEndInfo end{XR_TYPE_FRAME_END_INFO};
  end.displayTime = frame_.predictedDisplayTime;
  end.environmentBlendMode = target_.blend_mode;
  end.layerCount = static_cast<std::uint32_t>(layers.size());
  end.layers = layers.data();
  return xrEndFrame(target_.session.session, &end);
}

bool XrFrameLoop::save_screenshot(const std::string& path) {
  if (!kept_pixels_) return false;
  wait_idle();  // (the last frame's copy may still be running)
  const vk::Extent2D size = renderer_->size();
  return write_png(
      Image{static_cast<int>(size.width), static_cast<int>(size.height), renderer_->pixels_rgb()},
      path);
}

bool XrFrameLoop::locate_views(std::array<XrView, 2>& views) const {
  XrViewLocateInfo info{XR_TYPE_VIEW_LOCATE_INFO};
  info.viewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
  info.displayTime = frame_.predictedDisplayTime;
  info.space = target_.session.base_space;
  XrViewState state{XR_TYPE_VIEW_STATE};
  views.fill({XR_TYPE_VIEW});
  std::uint32_t count = 0;
  xr_check(xrLocateViews(target_.session.session, &info, &state, 2, &count, views.data()),
           "xrLocateViews");
  const XrViewStateFlags valid =
      XR_VIEW_STATE_POSITION_VALID_BIT | XR_VIEW_STATE_ORIENTATION_VALID_BIT;
  return count == 2 && (state.viewStateFlags & valid) == valid;
}

// Draws both eyes into the renderer's targets, copies them into the swapchains' images and fills
// the projection views; false when the views cannot be located this frame.
bool XrFrameLoop::render_views(const DrawFrame& frame, ProjectionViews& out, bool keep_pixels) {
  std::array<XrView, 2> views{};
  if (!locate_views(views)) return false;
  const std::size_t slot = take_slot();
  renderer_->upload(frame, static_cast<int>(slot));
  const vk::CommandBuffer cmd = *commands_[slot];
  cmd.reset();
  cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
  for (std::size_t eye = 0; eye < 2; ++eye) {
    out[eye] = record_eye(cmd, eye, views[eye], keep_pixels && eye == 0);
  }
  cmd.end();
  // (reset only now: a frame given up while recording, its session lost, leaves it signalled)
  gpu_.device.resetFences(*done_[slot]);
  gpu_.queue.submit(vk::SubmitInfo({}, {}, cmd), *done_[slot]);
  // Released once submitted: the runtime reads the images after this submission on the queue.
  const XrEyeSwapchains& chains = target_.session.swapchains;
  for (std::size_t eye = 0; eye < 2; ++eye) {
    release(chains.colour[eye]);
    if (chains.depth[eye].handle != XR_NULL_HANDLE) release(chains.depth[eye]);
  }
  return true;
}

// One eye: drawn, blitted into an acquired colour image, its depth copied into an acquired depth
// image (when there is a depth swapchain), and its projection view, with what the extensions add.
XrCompositionLayerProjectionView XrFrameLoop::record_eye(vk::CommandBuffer cmd, std::size_t eye,
                                                         const XrView& view, bool readback) {
  const XrEyeSwapchain& colour = target_.session.swapchains.colour[eye];
  const XrEyeSwapchain& depth = target_.session.swapchains.depth[eye];
  const EyeView seen{
      target_.rig.to_world(view.pose.position),
      target_.rig.to_world(view.pose.orientation),
      {view.fov.angleLeft, view.fov.angleRight, view.fov.angleUp, view.fov.angleDown}};
  const int target = static_cast<int>(eye);
  renderer_->record(cmd, target, view_projection(seen));
  const std::uint32_t image = acquire(colour);
  renderer_->record_blit(cmd, target, colour.images[image], colour.size,
                         vk::ImageLayout::eColorAttachmentOptimal,
                         vk::ImageLayout::eColorAttachmentOptimal);
  if (depth.handle != XR_NULL_HANDLE)
    record_depth_copy(cmd, target, depth.images[acquire(depth)], depth.size);
  if (readback) renderer_->record_readback(cmd, target);
  XrCompositionLayerProjectionView out{XR_TYPE_COMPOSITION_LAYER_PROJECTION_VIEW};
  out.pose = view.pose;
  out.fov = view.fov;
  out.subImage.swapchain = colour.handle;
  out.subImage.imageRect = {{0, 0},
                            {static_cast<std::int32_t>(colour.size.width),
                             static_cast<std::int32_t>(colour.size.height)}};
  target_.extensions.projection_view({eye, depth.handle}, out);
  return out;
}

void XrFrameLoop::record_depth_copy(vk::CommandBuffer cmd, int target, vk::Image dst,
                                    vk::Extent2D dst_size) const {
  // (a copy cannot scale: no more than both images hold, should the eyes' sizes differ)
  const vk::Extent2D size(std::min(dst_size.width, renderer_->size().width),
                          std::min(dst_size.height, renderer_->size().height));
  const auto depth = vk::ImageAspectFlagBits::eDepth;
  image_barrier(cmd, dst, vk::ImageLayout::eDepthStencilAttachmentOptimal,
                vk::ImageLayout::eTransferDstOptimal, depth);
  const vk::ImageSubresourceLayers layers(depth, 0, 0, 1);
  cmd.copyImage(renderer_->depth_image(target), vk::ImageLayout::eTransferSrcOptimal, dst,
                vk::ImageLayout::eTransferDstOptimal,
                vk::ImageCopy(layers, {0, 0, 0}, layers, {0, 0, 0}, vk::Extent3D(size, 1)));
  image_barrier(cmd, dst, vk::ImageLayout::eTransferDstOptimal,
                vk::ImageLayout::eDepthStencilAttachmentOptimal, depth);
}

}  // namespace stagger::vr
