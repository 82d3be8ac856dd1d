#include "gpu.h"

#include <dlfcn.h>
#include <link.h>

#include <stdexcept>
#include <string>

namespace stagger::vr {

std::uint32_t GpuContext::memory_type(std::uint32_t type_bits,
                                      vk::MemoryPropertyFlags wanted) const {
  const vk::PhysicalDeviceMemoryProperties properties = physical_device.getMemoryProperties();
  for (std::uint32_t i = 0; i < properties.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) && (properties.memoryTypes[i].propertyFlags & wanted) == wanted)
      return i;
  }
  throw std::runtime_error("the GPU has no memory type for a buffer or image");
}

// LeakSanitizer scans every loaded library's memory at exit. The Vulkan loader unloads a driver
// when the last instance goes, and whatever the driver's globals pointed at then reads as leaked
// (lavapipe: 112 bytes, reported against an unknown module). Preloading the driver makes the
// report go away, so it is not ours; under the sanitizers the drivers simply stay loaded.
void pin_vulkan_drivers() {
#if defined(__SANITIZE_ADDRESS__)
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void*) -> int {
        const std::string name = info->dlpi_name != nullptr ? info->dlpi_name : "";
        if (name.find("libvulkan_") != std::string::npos)
          dlopen(name.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
        return 0;
      },
      nullptr);
#endif
}

std::uint32_t graphics_queue_family(const vk::raii::PhysicalDevice& device) {
  const auto families = device.getQueueFamilyProperties();
  for (std::uint32_t i = 0; i < families.size(); ++i) {
    if (families[i].queueFlags & vk::QueueFlagBits::eGraphics) return i;
  }
  throw std::runtime_error("the GPU has no graphics queue");
}

std::unique_ptr<GpuContext> create_gpu(const std::vector<const char*>& instance_extensions,
                                       bool swapchain) {
  auto gpu = std::make_unique<GpuContext>();
  const vk::ApplicationInfo app("stagger", 1, "stagger", 1, VK_API_VERSION_1_1);
  const vk::InstanceCreateInfo instance_info({}, &app, {}, instance_extensions);
  gpu->instance = vk::raii::Instance(gpu->context, instance_info);
  pin_vulkan_drivers();
  vk::raii::PhysicalDevices devices(gpu->instance);
  if (devices.empty())
    throw std::runtime_error("no Vulkan device (is mesa-vulkan-drivers installed?)");
  // A real GPU when there is one; lavapipe (a CPU device) otherwise.
  std::size_t chosen = 0;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const auto type = devices[i].getProperties().deviceType;
    if (type == vk::PhysicalDeviceType::eDiscreteGpu ||
        type == vk::PhysicalDeviceType::eIntegratedGpu) {
      chosen = i;
      break;
    }
  }
  gpu->physical_device = std::move(devices[chosen]);
  gpu->device_name = gpu->physical_device.getProperties().deviceName.data();
  gpu->queue_family = graphics_queue_family(gpu->physical_device);
  const float priority = 1.0f;
  const vk::DeviceQueueCreateInfo queue_info({}, gpu->queue_family, 1, &priority);
  std::vector<const char*> device_extensions;
  if (swapchain) device_extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  const vk::DeviceCreateInfo device_info({}, queue_info, {}, device_extensions);
  gpu->device = vk::raii::Device(gpu->physical_device, device_info);
  gpu->queue = vk::raii::Queue(gpu->device, gpu->queue_family, 0);
  return gpu;
}

HostBuffer create_host_buffer(const GpuContext& gpu, vk::DeviceSize size,
                              vk::BufferUsageFlags usage) {
  HostBuffer b;
  b.size = size;
  b.buffer = vk::raii::Buffer(gpu.device, vk::BufferCreateInfo({}, size, usage));
  const vk::MemoryRequirements needs = b.buffer.getMemoryRequirements();
  const auto host =
      vk::MemoryPropertyFlagBits::eHostVisible | vk::MemoryPropertyFlagBits::eHostCoherent;
  b.memory = vk::raii::DeviceMemory(
      gpu.device, vk::MemoryAllocateInfo(needs.size, gpu.memory_type(needs.memoryTypeBits, host)));
  b.buffer.bindMemory(*b.memory, 0);
  b.mapped = b.memory.mapMemory(0, size);
  return b;
}

GpuImage create_image(const GpuContext& gpu, vk::Extent2D size, vk::Format format,
                      vk::ImageUsageFlags usage, vk::ImageAspectFlags aspect) {
  GpuImage img;
  const vk::ImageCreateInfo info({}, vk::ImageType::e2D, format, vk::Extent3D(size, 1), 1, 1,
                                 vk::SampleCountFlagBits::e1, vk::ImageTiling::eOptimal, usage);
  img.image = vk::raii::Image(gpu.device, info);
  const vk::MemoryRequirements needs = img.image.getMemoryRequirements();
  img.memory = vk::raii::DeviceMemory(
      gpu.device, vk::MemoryAllocateInfo(
                      needs.size, gpu.memory_type(needs.memoryTypeBits,
                                                  vk::MemoryPropertyFlagBits::eDeviceLocal)));
  img.image.bindMemory(*img.memory, 0);
  img.view = vk::raii::ImageView(
      gpu.device, vk::ImageViewCreateInfo({}, *img.image, vk::ImageViewType::e2D, format, {},
                                          vk::ImageSubresourceRange(aspect, 0, 1, 0, 1)));
  return img;
}

void image_barrier(vk::CommandBuffer cmd, vk::Image image, vk::ImageLayout from, vk::ImageLayout to,
                   vk::ImageAspectFlags aspect) {
  const auto all = vk::AccessFlagBits::eMemoryRead | vk::AccessFlagBits::eMemoryWrite;
  const vk::ImageMemoryBarrier barrier(all, all, from, to, VK_QUEUE_FAMILY_IGNORED,
                                       VK_QUEUE_FAMILY_IGNORED, image,
                                       vk::ImageSubresourceRange(aspect, 0, 1, 0, 1));
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eAllCommands,
                      vk::PipelineStageFlagBits::eAllCommands, {}, {}, {}, barrier);
}

void submit_and_wait(const GpuContext& gpu, const std::function<void(vk::CommandBuffer)>& record) {
  const vk::raii::CommandPool pool(
      gpu.device,
      vk::CommandPoolCreateInfo(vk::CommandPoolCreateFlagBits::eTransient, gpu.queue_family));
  vk::raii::CommandBuffers buffers(
      gpu.device, vk::CommandBufferAllocateInfo(*pool, vk::CommandBufferLevel::ePrimary, 1));
  const vk::CommandBuffer cmd = *buffers[0];
  cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
  record(cmd);
  cmd.end();
  const vk::raii::Fence fence(gpu.device, vk::FenceCreateInfo());
  gpu.queue.submit(vk::SubmitInfo({}, {}, cmd), *fence);
  if (gpu.device.waitForFences(*fence, VK_TRUE, UINT64_MAX) != vk::Result::eSuccess) {
    throw std::runtime_error("the GPU did not finish a submission");
  }
}

}  // namespace stagger::vr
