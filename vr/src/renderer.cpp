#include "renderer.h"

#include <cstring>

// SPIR-V compiled at build time from vr/shaders/ by glslangValidator (vr/CMakeLists.txt).
#include "line_frag.h"
#include "line_vert.h"
#include "mesh_frag.h"
#include "mesh_vert.h"

namespace stagger::vr {

namespace {

struct MeshVertex {
  float position[3];
  float normal[3];
};

// The sky: what the clear colour shows where no geometry is (linear).
constexpr vk::ClearColorValue kSky{std::array<float, 4>{0.32f, 0.45f, 0.62f, 1.0f}};

}  // namespace

Renderer::Renderer(const GpuContext& gpu, const std::vector<sim::MeshData>& meshes,
                   vk::Extent2D size, int targets, int frame_slots)
    : gpu_(gpu), size_(size), slots_(static_cast<std::size_t>(frame_slots)) {
  create_render_pass();
  create_pipelines();
  for (int i = 0; i < targets; ++i) {
    Target t;
    t.colour = create_image(
        gpu, size, kColourFormat,
        vk::ImageUsageFlagBits::eColorAttachment | vk::ImageUsageFlagBits::eTransferSrc,
        vk::ImageAspectFlagBits::eColor);
    t.depth = create_image(
        gpu, size, kDepthFormat,
        vk::ImageUsageFlagBits::eDepthStencilAttachment | vk::ImageUsageFlagBits::eTransferSrc,
        vk::ImageAspectFlagBits::eDepth);
    const std::array<vk::ImageView, 2> views{*t.colour.view, *t.depth.view};
    t.framebuffer = vk::raii::Framebuffer(
        gpu.device,
        vk::FramebufferCreateInfo({}, *render_pass_, views, size.width, size.height, 1));
    targets_.push_back(std::move(t));
  }
  upload_meshes(meshes);
}

void Renderer::create_render_pass() {
  const std::array<vk::AttachmentDescription, 2> attachments{
      vk::AttachmentDescription({}, kColourFormat, vk::SampleCountFlagBits::e1,
                                vk::AttachmentLoadOp::eClear, vk::AttachmentStoreOp::eStore,
                                vk::AttachmentLoadOp::eDontCare, vk::AttachmentStoreOp::eDontCare,
                                vk::ImageLayout::eUndefined, vk::ImageLayout::eTransferSrcOptimal),
      // Depth is kept: VR hands it to the runtime next to the colour.
      vk::AttachmentDescription({}, kDepthFormat, vk::SampleCountFlagBits::e1,
                                vk::AttachmentLoadOp::eClear, vk::AttachmentStoreOp::eStore,
                                vk::AttachmentLoadOp::eDontCare, vk::AttachmentStoreOp::eDontCare,
                                vk::ImageLayout::eUndefined, vk::ImageLayout::eTransferSrcOptimal)};
  const vk::AttachmentReference colour_ref(0, vk::ImageLayout::eColorAttachmentOptimal);
  const vk::AttachmentReference depth_ref(1, vk::ImageLayout::eDepthStencilAttachmentOptimal);
  const vk::SubpassDescription subpass({}, vk::PipelineBindPoint::eGraphics, {}, colour_ref, {},
                                       &depth_ref);
  // Earlier transfers out of the targets finish before drawing; drawing finishes before the
  // transfers that follow.
  const auto draw_stages = vk::PipelineStageFlagBits::eColorAttachmentOutput |
                           vk::PipelineStageFlagBits::eEarlyFragmentTests |
                           vk::PipelineStageFlagBits::eLateFragmentTests;
  const auto draw_access =
      vk::AccessFlagBits::eColorAttachmentWrite | vk::AccessFlagBits::eDepthStencilAttachmentWrite;
  const std::array<vk::SubpassDependency, 2> dependencies{
      vk::SubpassDependency(VK_SUBPASS_EXTERNAL, 0, vk::PipelineStageFlagBits::eTransfer,
                            draw_stages, vk::AccessFlagBits::eTransferRead, draw_access),
      vk::SubpassDependency(0, VK_SUBPASS_EXTERNAL, draw_stages,
                            vk::PipelineStageFlagBits::eTransfer, draw_access,
                            vk::AccessFlagBits::eTransferRead)};
  render_pass_ = vk::raii::RenderPass(
      gpu_.device, vk::RenderPassCreateInfo({}, attachments, subpass, dependencies));
}

void Renderer::create_pipelines() {
  const vk::PushConstantRange push(vk::ShaderStageFlagBits::eVertex, 0, sizeof(Mat4));
  layout_ = vk::raii::PipelineLayout(gpu_.device, vk::PipelineLayoutCreateInfo({}, {}, push));
  mesh_pipeline_ =
      create_pipeline(mesh_vert, sizeof(mesh_vert), mesh_frag, sizeof(mesh_frag), false);
  line_pipeline_ =
      create_pipeline(line_vert, sizeof(line_vert), line_frag, sizeof(line_frag), true);
}

vk::raii::Pipeline Renderer::create_pipeline(const std::uint32_t* vert, std::size_t vert_bytes,
                                             const std::uint32_t* frag, std::size_t frag_bytes,
                                             bool lines) {
  const vk::raii::ShaderModule vs(gpu_.device, vk::ShaderModuleCreateInfo({}, vert_bytes, vert));
  const vk::raii::ShaderModule fs(gpu_.device, vk::ShaderModuleCreateInfo({}, frag_bytes, frag));
  const std::array<vk::PipelineShaderStageCreateInfo, 2> stages{
      vk::PipelineShaderStageCreateInfo({}, vk::ShaderStageFlagBits::eVertex, *vs, "main"),
      vk::PipelineShaderStageCreateInfo({}, vk::ShaderStageFlagBits::eFragment, *fs, "main")};
  std::vector<vk::VertexInputBindingDescription> bindings;
  std::vector<vk::VertexInputAttributeDescription> attributes;
  if (lines) {
    bindings.emplace_back(0, static_cast<std::uint32_t>(sizeof(LineVertex)),
                          vk::VertexInputRate::eVertex);
    attributes.emplace_back(0, 0, vk::Format::eR32G32B32A32Sfloat, 0);
    attributes.emplace_back(1, 0, vk::Format::eR32G32B32A32Sfloat, 16);
  } else {
    bindings.emplace_back(0, static_cast<std::uint32_t>(sizeof(MeshVertex)),
                          vk::VertexInputRate::eVertex);
    bindings.emplace_back(1, static_cast<std::uint32_t>(sizeof(GpuInstance)),
                          vk::VertexInputRate::eInstance);
    attributes.emplace_back(0, 0, vk::Format::eR32G32B32Sfloat, 0);
    attributes.emplace_back(1, 0, vk::Format::eR32G32B32Sfloat, 12);
    for (std::uint32_t i = 0; i < 4; ++i)
      attributes.emplace_back(2 + i, 1, vk::Format::eR32G32B32A32Sfloat, 16 * i);
  }
  const vk::PipelineVertexInputStateCreateInfo vertex_input({}, bindings, attributes);
  const vk::PipelineInputAssemblyStateCreateInfo assembly(
      {}, lines ? vk::PrimitiveTopology::eLineList : vk::PrimitiveTopology::eTriangleList);
  const vk::Viewport viewport(0, 0, static_cast<float>(size_.width),
                              static_cast<float>(size_.height), 0, 1);
  const vk::Rect2D scissor({0, 0}, size_);
  const vk::PipelineViewportStateCreateInfo viewport_state({}, viewport, scissor);
  // No culling: level meshes come from files whose winding we do not control; the fragment
  // shader lights back faces with the flipped normal.
  const vk::PipelineRasterizationStateCreateInfo raster(
      {}, false, false, vk::PolygonMode::eFill, vk::CullModeFlagBits::eNone,
      vk::FrontFace::eClockwise, false, 0, 0, 0, 1.0f);
  const vk::PipelineMultisampleStateCreateInfo multisample({}, vk::SampleCountFlagBits::e1);
  // The overlay draws over everything, so it shows through walls and bodies.
  const vk::PipelineDepthStencilStateCreateInfo depth({}, !lines, !lines, vk::CompareOp::eLess);
  const vk::PipelineColorBlendAttachmentState blend(
      false, {}, {}, {}, {}, {}, {},
      vk::ColorComponentFlagBits::eR | vk::ColorComponentFlagBits::eG |
          vk::ColorComponentFlagBits::eB | vk::ColorComponentFlagBits::eA);
  const vk::PipelineColorBlendStateCreateInfo blend_state({}, false, vk::LogicOp::eCopy, blend);
  const vk::GraphicsPipelineCreateInfo info({}, stages, &vertex_input, &assembly, nullptr,
                                            &viewport_state, &raster, &multisample, &depth,
                                            &blend_state, nullptr, *layout_, *render_pass_, 0);
  return vk::raii::Pipeline(gpu_.device, nullptr, info);
}

void Renderer::upload_meshes(const std::vector<sim::MeshData>& meshes) {
  std::vector<MeshVertex> vertices;
  std::vector<std::uint32_t> indices;
  for (const sim::MeshData& m : meshes) {
    meshes_.push_back({static_cast<std::uint32_t>(indices.size()),
                       static_cast<std::uint32_t>(m.indices.size()),
                       static_cast<std::int32_t>(vertices.size())});
    for (std::size_t i = 0; i < m.positions.size(); ++i) {
      const Vec3 p = m.positions[i], n = m.normals[i];
      vertices.push_back({{p.x, p.y, p.z}, {n.x, n.y, n.z}});
    }
    indices.insert(indices.end(), m.indices.begin(), m.indices.end());
  }
  reserve(vertices_, vertices.size() * sizeof(MeshVertex), vk::BufferUsageFlagBits::eVertexBuffer);
  std::memcpy(vertices_.mapped, vertices.data(), vertices.size() * sizeof(MeshVertex));
  reserve(indices_, indices.size() * sizeof(std::uint32_t), vk::BufferUsageFlagBits::eIndexBuffer);
  std::memcpy(indices_.mapped, indices.data(), indices.size() * sizeof(std::uint32_t));
}

void Renderer::reserve(HostBuffer& buffer, vk::DeviceSize bytes, vk::BufferUsageFlags usage) {
  if (buffer.size >= bytes && buffer.size > 0) return;
  vk::DeviceSize size = 4096;
  while (size < bytes) size *= 2;
  buffer = create_host_buffer(gpu_, size, usage);
}

void Renderer::upload(const DrawFrame& frame, int slot) {
  slot_ = static_cast<std::size_t>(slot);
  FrameBuffers& buffers = slots_.at(slot_);
  reserve(buffers.instances, frame.items.size() * sizeof(GpuInstance),
          vk::BufferUsageFlagBits::eVertexBuffer);
  auto* out = static_cast<GpuInstance*>(buffers.instances.mapped);
  item_meshes_.clear();
  for (std::size_t i = 0; i < frame.items.size(); ++i) {
    out[i] = frame.items[i].instance;
    item_meshes_.push_back(frame.items[i].mesh);
  }
  reserve(buffers.lines, frame.lines.size() * sizeof(LineVertex),
          vk::BufferUsageFlagBits::eVertexBuffer);
  if (!frame.lines.empty())
    std::memcpy(buffers.lines.mapped, frame.lines.data(), frame.lines.size() * sizeof(LineVertex));
  line_vertices_ = static_cast<std::uint32_t>(frame.lines.size());
}

void Renderer::record(vk::CommandBuffer cmd, int target, const Mat4& view_projection) {
  const std::array<vk::ClearValue, 2> clear{vk::ClearValue(kSky),
                                            vk::ClearValue(vk::ClearDepthStencilValue(1.0f, 0))};
  const Target& t = targets_[static_cast<std::size_t>(target)];
  const FrameBuffers& buffers = slots_[slot_];
  cmd.beginRenderPass(
      vk::RenderPassBeginInfo(*render_pass_, *t.framebuffer, vk::Rect2D({0, 0}, size_), clear),
      vk::SubpassContents::eInline);
  cmd.pushConstants<Mat4>(*layout_, vk::ShaderStageFlagBits::eVertex, 0, view_projection);
  cmd.bindPipeline(vk::PipelineBindPoint::eGraphics, *mesh_pipeline_);
  cmd.bindVertexBuffers(0, {*vertices_.buffer, *buffers.instances.buffer}, {0, 0});
  cmd.bindIndexBuffer(*indices_.buffer, 0, vk::IndexType::eUint32);
  for (std::size_t i = 0; i < item_meshes_.size(); ++i) {
    const MeshRange& m = meshes_[static_cast<std::size_t>(item_meshes_[i])];
    cmd.drawIndexed(m.index_count, 1, m.first_index, m.vertex_offset,
                    static_cast<std::uint32_t>(i));
  }
  if (line_vertices_ > 0) {
    cmd.bindPipeline(vk::PipelineBindPoint::eGraphics, *line_pipeline_);
    cmd.bindVertexBuffers(0, {*buffers.lines.buffer}, {0});
    cmd.draw(line_vertices_, 1, 0, 0);
  }
  cmd.endRenderPass();
}

void Renderer::record_blit(vk::CommandBuffer cmd, int target, vk::Image dst, vk::Extent2D dst_size,
                           vk::ImageLayout dst_from, vk::ImageLayout dst_to) const {
  image_barrier(cmd, dst, dst_from, vk::ImageLayout::eTransferDstOptimal);
  const vk::ImageSubresourceLayers layers(vk::ImageAspectFlagBits::eColor, 0, 0, 1);
  const std::array<vk::Offset3D, 2> from{
      vk::Offset3D(0, 0, 0),
      vk::Offset3D(static_cast<int>(size_.width), static_cast<int>(size_.height), 1)};
  const std::array<vk::Offset3D, 2> to{
      vk::Offset3D(0, 0, 0),
      vk::Offset3D(static_cast<int>(dst_size.width), static_cast<int>(dst_size.height), 1)};
  cmd.blitImage(colour_image(target), vk::ImageLayout::eTransferSrcOptimal, dst,
                vk::ImageLayout::eTransferDstOptimal, vk::ImageBlit(layers, from, layers, to),
                vk::Filter::eLinear);
  image_barrier(cmd, dst, vk::ImageLayout::eTransferDstOptimal, dst_to);
}

void Renderer::record_readback(vk::CommandBuffer cmd, int target) {
  reserve(readback_, static_cast<vk::DeviceSize>(size_.width) * size_.height * 4,
          vk::BufferUsageFlagBits::eTransferDst);
  // With frames in flight an earlier frame's copy into the same buffer may not have finished:
  // this one writes after it.
  const vk::BufferMemoryBarrier after_last(
      vk::AccessFlagBits::eTransferWrite, vk::AccessFlagBits::eTransferWrite,
      VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED, *readback_.buffer, 0, VK_WHOLE_SIZE);
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eTransfer,
                      {}, {}, after_last, {});
  const vk::BufferImageCopy region(
      0, 0, 0, vk::ImageSubresourceLayers(vk::ImageAspectFlagBits::eColor, 0, 0, 1), {0, 0, 0},
      vk::Extent3D(size_, 1));
  cmd.copyImageToBuffer(colour_image(target), vk::ImageLayout::eTransferSrcOptimal,
                        *readback_.buffer, region);
  const vk::BufferMemoryBarrier to_host(
      vk::AccessFlagBits::eTransferWrite, vk::AccessFlagBits::eHostRead, VK_QUEUE_FAMILY_IGNORED,
      VK_QUEUE_FAMILY_IGNORED, *readback_.buffer, 0, VK_WHOLE_SIZE);
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eHost, {},
                      {}, to_host, {});
}

std::vector<std::uint8_t> Renderer::pixels_rgb() const {
  // The target is sRGB-encoded RGBA8: its bytes are what a PNG stores.
  const std::size_t count = static_cast<std::size_t>(size_.width) * size_.height;
  std::vector<std::uint8_t> rgb(count * 3);
  const auto* rgba = static_cast<const std::uint8_t*>(readback_.mapped);
  for (std::size_t i = 0; i < count; ++i) std::memcpy(&rgb[i * 3], &rgba[i * 4], 3);
  return rgb;
}

}  // namespace stagger::vr
