#pragma once
// The renderer (Vulkan-Hpp): instanced lit meshes with depth, and the debug overlay's lines,
// drawn into its own colour + depth targets (one per eye in VR, one on the desktop and offscreen).
// A finished target is in TRANSFER_SRC_OPTIMAL, ready to be blitted into a swapchain image or
// copied back to the host. Meshes are uploaded once; instances and lines once per frame, into
// one of `frame_slots` sets of buffers, so that a frame can be uploaded while the GPU still draws
// the one before it from another set.

#include <cstdint>
#include <vector>

#include "draw_list.h"
#include "gpu.h"
#include "stagger/vr/view.h"

namespace stagger::vr {

class Renderer {
 public:
  static constexpr vk::Format kColourFormat = vk::Format::eR8G8B8A8Srgb;
  static constexpr vk::Format kDepthFormat = vk::Format::eD32Sfloat;

  Renderer(const GpuContext& gpu, const std::vector<sim::MeshData>& meshes, vk::Extent2D size,
           int targets, int frame_slots = 1);

  vk::Extent2D size() const { return size_; }
  vk::Image colour_image(int target) const {
    return *targets_[static_cast<std::size_t>(target)].colour.image;
  }
  vk::Image depth_image(int target) const {
    return *targets_[static_cast<std::size_t>(target)].depth.image;
  }

  /// Copies the frame's instances and lines into the buffers of `slot` (0 .. frame_slots - 1),
  /// before recording; the submission that last read that slot must have finished.
  void upload(const DrawFrame& frame, int slot = 0);
  /// Records drawing the frame last uploaded, seen through `view`, into `target`.
  void record(vk::CommandBuffer cmd, int target, const Mat4& view_projection);
  /// Records a blit of `target` into `dst` (a swapchain image of `dst_size`), taking it from
  /// `dst_from` to `dst_to`.
  void record_blit(vk::CommandBuffer cmd, int target, vk::Image dst, vk::Extent2D dst_size,
                   vk::ImageLayout dst_from, vk::ImageLayout dst_to) const;
  /// Records a copy of `target` into the host readback buffer; `pixels_rgb` reads it once the
  /// submission has finished.
  void record_readback(vk::CommandBuffer cmd, int target);
  std::vector<std::uint8_t> pixels_rgb() const;

 private:
  struct Target {
    GpuImage colour;
    GpuImage depth;
    vk::raii::Framebuffer framebuffer{nullptr};
  };
  struct MeshRange {
    std::uint32_t first_index = 0;
    std::uint32_t index_count = 0;
    std::int32_t vertex_offset = 0;
  };
  void create_render_pass();
  void create_pipelines();
  vk::raii::Pipeline create_pipeline(const std::uint32_t* vert, std::size_t vert_bytes,
                                     const std::uint32_t* frag, std::size_t frag_bytes, bool lines);
  void upload_meshes(const std::vector<sim::MeshData>& meshes);
  void reserve(HostBuffer& buffer, vk::DeviceSize bytes, vk::BufferUsageFlags usage);

  const GpuContext& gpu_;
  vk::Extent2D size_;
  vk::raii::RenderPass render_pass_{nullptr};
  vk::raii::PipelineLayout layout_{nullptr};
  vk::raii::Pipeline mesh_pipeline_{nullptr};
  vk::raii::Pipeline line_pipeline_{nullptr};
  std::vector<Target> targets_;
  HostBuffer vertices_;
  HostBuffer indices_;
  std::vector<MeshRange> meshes_;
  struct FrameBuffers {
    HostBuffer instances;
    HostBuffer lines;
  };
  std::vector<FrameBuffers> slots_;
  std::size_t slot_ = 0;  ///< the slot last uploaded
  HostBuffer readback_;
  std::vector<int> item_meshes_;
  std::uint32_t line_vertices_ = 0;
};

}  // namespace stagger::vr
