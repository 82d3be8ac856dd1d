#pragma once
// The Vulkan device the renderer draws with, and small helpers for buffers, images and one-off
// command buffers. Made three ways: for offscreen rendering, for a desktop window (with the
// window system's instance extensions and a swapchain), and through OpenXR (xr_vulkan_enable2.cpp).
// Vulkan types stay inside vr/src.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>
#include <vulkan/vulkan_raii.hpp>

namespace stagger::vr {

struct GpuContext {
  vk::raii::Context context;
  vk::raii::Instance instance{nullptr};
  vk::raii::PhysicalDevice physical_device{nullptr};
  vk::raii::Device device{nullptr};
  vk::raii::Queue queue{nullptr};
  std::uint32_t queue_family = 0;
  std::string device_name;

  /// A memory type among `type_bits` with all of `wanted`; throws when there is none.
  std::uint32_t memory_type(std::uint32_t type_bits, vk::MemoryPropertyFlags wanted) const;
};

/// Under AddressSanitizer: keeps the Vulkan drivers loaded for the life of the process (see
/// gpu.cpp).
void pin_vulkan_drivers();

/// The first graphics queue family of a physical device; throws when it has none.
std::uint32_t graphics_queue_family(const vk::raii::PhysicalDevice& device);

/// A device for the renderer alone: `instance_extensions` (a window system's, or none) and, for a
/// window, the swapchain device extension. Throws vk::SystemError or std::runtime_error.
std::unique_ptr<GpuContext> create_gpu(const std::vector<const char*>& instance_extensions,
                                       bool swapchain);

/// A buffer in host-visible, coherent memory, mapped for its whole life.
struct HostBuffer {
  vk::raii::Buffer buffer{nullptr};
  vk::raii::DeviceMemory memory{nullptr};
  void* mapped = nullptr;
  vk::DeviceSize size = 0;
};
HostBuffer create_host_buffer(const GpuContext& gpu, vk::DeviceSize size,
                              vk::BufferUsageFlags usage);

struct GpuImage {
  vk::raii::Image image{nullptr};
  vk::raii::DeviceMemory memory{nullptr};
  vk::raii::ImageView view{nullptr};
};
GpuImage create_image(const GpuContext& gpu, vk::Extent2D size, vk::Format format,
                      vk::ImageUsageFlags usage, vk::ImageAspectFlags aspect);

/// Records a layout transition of a whole image (one mip, one layer), with conservative stages.
void image_barrier(vk::CommandBuffer cmd, vk::Image image, vk::ImageLayout from, vk::ImageLayout to,
                   vk::ImageAspectFlags aspect = vk::ImageAspectFlagBits::eColor);

/// Records with `record` into a fresh command buffer, submits it and waits for it.
void submit_and_wait(const GpuContext& gpu, const std::function<void(vk::CommandBuffer)>& record);

}  // namespace stagger::vr
