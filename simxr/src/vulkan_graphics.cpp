// XR_KHR_vulkan_enable2: Vulkan instance/device creation for the application, swapchains whose
// images live on the application's device, and readback of submitted images. The runtime calls
// Vulkan through the process's Vulkan loader (libvulkan), which dispatches on the app's handles.
// The app's queue is used only inside xrAcquireSwapchainImage (initial layout) and xrEndFrame
// (readback), as the extension allows. The readback is not waited for in xrEndFrame: as a
// compositor would, the runtime lets the application go on while the GPU finishes the frame.
#include <algorithm>
#include <cstring>
#include <functional>

#include "api.h"
#include "state.h"

namespace stagger::simxr {
namespace {

constexpr uint32_t kImagesPerSwapchain = 3;
constexpr VkFormat kOfferedFormats[] = {VK_FORMAT_R8G8B8A8_SRGB,  VK_FORMAT_B8G8R8A8_SRGB,
                                        VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM,
                                        VK_FORMAT_D32_SFLOAT,     VK_FORMAT_D24_UNORM_S8_UINT,
                                        VK_FORMAT_D16_UNORM};

bool is_depth(VkFormat f) {
  return f == VK_FORMAT_D32_SFLOAT || f == VK_FORMAT_D24_UNORM_S8_UINT || f == VK_FORMAT_D16_UNORM;
}

VkImageAspectFlags aspect_of(VkFormat f) {
  if (f == VK_FORMAT_D24_UNORM_S8_UINT)
    return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
  return is_depth(f) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

VkImageLayout attachment_layout(VkFormat f) {
  return is_depth(f) ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
                     : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
}

std::vector<VkFormat> supported_formats(VkPhysicalDevice physical) {
  std::vector<VkFormat> out;
  for (VkFormat f : kOfferedFormats) {
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(physical, f, &props);
    const VkFormatFeatureFlags need = is_depth(f) ? VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT
                                                  : VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT;
    if ((props.optimalTilingFeatures & need) == need) out.push_back(f);
  }
  return out;
}

std::optional<uint32_t> memory_type(VkPhysicalDevice physical, uint32_t bits,
                                    VkMemoryPropertyFlags wanted) {
  VkPhysicalDeviceMemoryProperties props{};
  vkGetPhysicalDeviceMemoryProperties(physical, &props);
  for (uint32_t i = 0; i < props.memoryTypeCount; ++i) {
    if ((bits & (1u << i)) != 0 && (props.memoryTypes[i].propertyFlags & wanted) == wanted)
      return i;
  }
  return std::nullopt;
}

struct Submitted {
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
};

// Records commands into a one-shot command buffer and submits it on the app's queue, with a fence
// to wait on; nullopt (and nothing left behind) when that fails.
std::optional<Submitted> submit(VulkanBinding& vk,
                                const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBufferAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  alloc.commandPool = vk.pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  Submitted s;
  if (vkAllocateCommandBuffers(vk.device, &alloc, &s.cmd) != VK_SUCCESS) return std::nullopt;
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vkBeginCommandBuffer(s.cmd, &begin);
  record(s.cmd);
  vkEndCommandBuffer(s.cmd);
  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  VkSubmitInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  info.commandBufferCount = 1;
  info.pCommandBuffers = &s.cmd;
  if (vkCreateFence(vk.device, &fence_info, nullptr, &s.fence) == VK_SUCCESS &&
      vkQueueSubmit(vk.queue, 1, &info, s.fence) == VK_SUCCESS) {
    return s;
  }
  if (s.fence != VK_NULL_HANDLE) vkDestroyFence(vk.device, s.fence, nullptr);
  vkFreeCommandBuffers(vk.device, vk.pool, 1, &s.cmd);
  log_error("Vulkan submit on the application's queue failed");
  return std::nullopt;
}

// Waits for a submission and frees what it held; false when the wait failed.
bool finish(VulkanBinding& vk, const Submitted& s) {
  const bool ok = vkWaitForFences(vk.device, 1, &s.fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS;
  vkDestroyFence(vk.device, s.fence, nullptr);
  vkFreeCommandBuffers(vk.device, vk.pool, 1, &s.cmd);
  if (!ok) log_error("waiting for the application's queue failed");
  return ok;
}

bool submit_and_wait(VulkanBinding& vk, const std::function<void(VkCommandBuffer)>& record) {
  const auto submitted = submit(vk, record);
  return submitted && finish(vk, *submitted);
}

void barrier(VkCommandBuffer cmd, VkImage image, VkFormat format, VkImageLayout from,
             VkImageLayout to, uint32_t layers, uint32_t mips) {
  VkImageMemoryBarrier b{};
  b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {aspect_of(format), 0, mips, 0, layers};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                       0, 0, nullptr, 0, nullptr, 1, &b);
}

void destroy_staging(VkDevice device, StagingBuffer& staging) {
  if (staging.buffer != VK_NULL_HANDLE) {
    vkDestroyBuffer(device, staging.buffer, nullptr);
    vkFreeMemory(device, staging.memory, nullptr);
  }
  staging = StagingBuffer{};
}

bool ensure_staging(VulkanBinding& vk, StagingBuffer& staging, VkDeviceSize size) {
  if (staging.size >= size) return true;
  destroy_staging(vk.device, staging);
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (vkCreateBuffer(vk.device, &info, nullptr, &staging.buffer) != VK_SUCCESS) return false;
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(vk.device, staging.buffer, &req);
  const auto type =
      memory_type(vk.physical_device, req.memoryTypeBits,
                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  VkMemoryAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = type.value_or(0);
  if (!type || vkAllocateMemory(vk.device, &alloc, nullptr, &staging.memory) != VK_SUCCESS) {
    vkDestroyBuffer(vk.device, staging.buffer, nullptr);
    staging.buffer = VK_NULL_HANDLE;
    return false;
  }
  vkBindBufferMemory(vk.device, staging.buffer, staging.memory, 0);
  vkMapMemory(vk.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &staging.mapped);
  staging.size = size;
  return true;
}

// Waits for the oldest pending readback; its images become runtime().view_images.
void finish_oldest(VulkanBinding& vk) {
  const PendingReadback pending = std::move(vk.readbacks.front());
  vk.readbacks.pop_front();
  if (!finish(vk, {pending.cmd, pending.fence})) return;
  Runtime& rt = runtime();
  if (rt.view_images.size() < pending.views.size()) rt.view_images.resize(pending.views.size());
  for (std::size_t i = 0; i < pending.views.size(); ++i) {
    const PendingReadback::View& v = pending.views[i];
    ViewImage& out = rt.view_images[i];
    out.width = v.width;
    out.height = v.height;
    const std::size_t bytes = static_cast<std::size_t>(out.width) * out.height * 4;
    const auto* src =
        static_cast<const std::uint8_t*>(vk.staging[pending.staging].mapped) + v.offset;
    out.rgba.assign(src, src + bytes);
    if (v.bgra) {
      for (std::size_t p = 0; p < bytes; p += 4) std::swap(out.rgba[p], out.rgba[p + 2]);
    }
  }
}

// For the calls whose system id comes inside `info`: the error for an `info` that cannot be used,
// where a dead instance is still reported first.
XrResult unusable_info(XrInstance instance) {
  return find<Instance>(instance) == nullptr ? XR_ERROR_HANDLE_INVALID
                                             : XR_ERROR_VALIDATION_FAILURE;
}

XrResult create_images(Swapchain& sc, VulkanBinding& vk) {
  const XrSwapchainCreateInfo& ci = sc.info;
  VkImageCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = sc.format;
  info.extent = {ci.width, ci.height, 1};
  info.mipLevels = ci.mipCount;
  info.arrayLayers = ci.arraySize;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  // The usage the app asked for, and only what the runtime itself needs on top: the attachment
  // bit of the layout images are handed out in, transfer source for readback, sampled for a
  // compositor. (An app that blits into an image without asking for TRANSFER_DST must fail here
  // as it would on a real runtime, under the Vulkan validation layer.)
  info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
               (sc.depth ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
                         : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
  if ((ci.usageFlags & XR_SWAPCHAIN_USAGE_TRANSFER_DST_BIT) != 0)
    info.usage |= VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  if ((ci.usageFlags & XR_SWAPCHAIN_USAGE_INPUT_ATTACHMENT_BIT_KHR) != 0) {
    info.usage |= VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
  }
  // sRGB formats cannot be storage images; an app asking for that gets the image without it.
  const bool srgb = sc.format == VK_FORMAT_R8G8B8A8_SRGB || sc.format == VK_FORMAT_B8G8R8A8_SRGB;
  if ((ci.usageFlags & XR_SWAPCHAIN_USAGE_UNORDERED_ACCESS_BIT) != 0 && !srgb) {
    info.usage |= VK_IMAGE_USAGE_STORAGE_BIT;
  }
  if ((ci.usageFlags & XR_SWAPCHAIN_USAGE_MUTABLE_FORMAT_BIT) != 0)
    info.flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  const uint32_t count =
      (ci.createFlags & XR_SWAPCHAIN_CREATE_STATIC_IMAGE_BIT) != 0 ? 1 : kImagesPerSwapchain;
  for (uint32_t i = 0; i < count; ++i) {
    VkImage image = VK_NULL_HANDLE;
    if (vkCreateImage(vk.device, &info, nullptr, &image) != VK_SUCCESS)
      return XR_ERROR_RUNTIME_FAILURE;
    sc.images.push_back(image);
    VkMemoryRequirements req{};
    vkGetImageMemoryRequirements(vk.device, image, &req);
    auto type =
        memory_type(vk.physical_device, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (!type) type = memory_type(vk.physical_device, req.memoryTypeBits, 0);
    VkMemoryAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = type.value_or(0);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    if (!type || vkAllocateMemory(vk.device, &alloc, nullptr, &memory) != VK_SUCCESS) {
      return XR_ERROR_RUNTIME_FAILURE;
    }
    sc.memories.push_back(memory);
    vkBindImageMemory(vk.device, image, memory, 0);
  }
  return XR_SUCCESS;
}

}  // namespace

XrResult create_session_graphics(Session& session, const XrGraphicsBindingVulkanKHR& binding) {
  if (binding.instance == VK_NULL_HANDLE || binding.physicalDevice == VK_NULL_HANDLE ||
      binding.device == VK_NULL_HANDLE) {
    return XR_ERROR_GRAPHICS_DEVICE_INVALID;
  }
  VulkanBinding vk;
  vk.instance = binding.instance;
  vk.physical_device = binding.physicalDevice;
  vk.device = binding.device;
  vk.queue_family = binding.queueFamilyIndex;
  vk.queue_index = binding.queueIndex;
  vkGetDeviceQueue(vk.device, vk.queue_family, vk.queue_index, &vk.queue);
  if (vk.queue == VK_NULL_HANDLE) return XR_ERROR_GRAPHICS_DEVICE_INVALID;
  VkCommandPoolCreateInfo pool{};
  pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool.flags =
      VK_COMMAND_POOL_CREATE_TRANSIENT_BIT | VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = vk.queue_family;
  if (vkCreateCommandPool(vk.device, &pool, nullptr, &vk.pool) != VK_SUCCESS)
    return XR_ERROR_RUNTIME_FAILURE;
  session.vulkan = vk;
  return XR_SUCCESS;
}

void destroy_session_graphics(Session& session) {
  if (!session.vulkan) return;
  finish_readback(session);
  VulkanBinding& vk = *session.vulkan;
  for (StagingBuffer& staging : vk.staging) destroy_staging(vk.device, staging);
  vkDestroyCommandPool(vk.device, vk.pool, nullptr);
  session.vulkan.reset();
}

void destroy_swapchain_resources(Swapchain& sc) {
  Session* session = find_object<Session>(sc.session);
  if (session == nullptr || !session->vulkan) return;
  finish_readback(*session);  // (its copy may still read these images)
  const VkDevice device = session->vulkan->device;
  for (VkImage image : sc.images) vkDestroyImage(device, image, nullptr);
  for (VkDeviceMemory memory : sc.memories) vkFreeMemory(device, memory, nullptr);
  sc.images.clear();
  sc.memories.clear();
}

void capture_projection_views(Session& session, const XrCompositionLayerProjection& layer) {
  VulkanBinding& vk = *session.vulkan;
  // The staging buffer this copy takes turns with: the frame that used it last is finished first.
  if (vk.readbacks.size() >= kReadbacksInFlight) finish_oldest(vk);
  const std::size_t slot = vk.next_staging;
  StagingBuffer& staging = vk.staging[slot];
  struct Copy {
    const Swapchain* swapchain;
    XrSwapchainSubImage sub;
    VkDeviceSize offset;
  };
  std::vector<Copy> copies;
  VkDeviceSize total = 0;
  for (uint32_t i = 0; i < layer.viewCount; ++i) {
    const XrSwapchainSubImage& sub = layer.views[i].subImage;
    const Swapchain* sc = find<Swapchain>(sub.swapchain);
    if (sc == nullptr || sc->depth) return;
    copies.push_back({sc, sub, total});
    total += static_cast<VkDeviceSize>(sub.imageRect.extent.width) *
             static_cast<VkDeviceSize>(sub.imageRect.extent.height) * 4;
  }
  if (!ensure_staging(vk, staging, total)) return;
  const auto submitted = submit(vk, [&](VkCommandBuffer cmd) {
    for (const Copy& c : copies) {
      const VkImage image =
          c.swapchain->images[static_cast<std::size_t>(c.swapchain->last_released)];
      const VkImageLayout layout = attachment_layout(c.swapchain->format);
      const uint32_t layers = c.swapchain->info.arraySize;
      const uint32_t mips = c.swapchain->info.mipCount;
      barrier(cmd, image, c.swapchain->format, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, layers,
              mips);
      VkBufferImageCopy region{};
      region.bufferOffset = c.offset;
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, c.sub.imageArrayIndex, 1};
      region.imageOffset = {c.sub.imageRect.offset.x, c.sub.imageRect.offset.y, 0};
      region.imageExtent = {static_cast<uint32_t>(c.sub.imageRect.extent.width),
                            static_cast<uint32_t>(c.sub.imageRect.extent.height), 1};
      vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging.buffer, 1,
                             &region);
      barrier(cmd, image, c.swapchain->format, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, layout, layers,
              mips);
    }
    // The copies' writes made visible to the host before it reads the staging buffer (a fence
    // wait alone does not do that).
    VkBufferMemoryBarrier to_host{};
    to_host.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    to_host.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_host.buffer = staging.buffer;
    to_host.offset = 0;
    to_host.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                         nullptr, 1, &to_host, 0, nullptr);
  });
  if (!submitted) return;
  PendingReadback pending{submitted->cmd, submitted->fence, slot, {}};
  for (const Copy& c : copies) {
    const VkFormat f = c.swapchain->format;
    pending.views.push_back({c.offset, static_cast<uint32_t>(c.sub.imageRect.extent.width),
                             static_cast<uint32_t>(c.sub.imageRect.extent.height),
                             f == VK_FORMAT_B8G8R8A8_SRGB || f == VK_FORMAT_B8G8R8A8_UNORM});
  }
  vk.readbacks.push_back(std::move(pending));
  vk.next_staging = (slot + 1) % kReadbacksInFlight;
}

void finish_readback(Session& session) {
  if (!session.vulkan) return;
  while (!session.vulkan->readbacks.empty()) finish_oldest(*session.vulkan);
}

void finish_readbacks() {
  for (auto& [id, object] : runtime().objects) {
    if (object->kind == Kind::Session) finish_readback(static_cast<Session&>(*object));
  }
}

namespace api {

XrResult xrGetVulkanGraphicsRequirements2KHR(XrInstance instance, XrSystemId system,
                                             XrGraphicsRequirementsVulkanKHR* requirements) {
  XrResult result = XR_SUCCESS;
  Instance* inst = checked_system(instance, system, result);
  if (inst == nullptr) return result;
  if (requirements == nullptr || requirements->type != XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN2_KHR) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  requirements->minApiVersionSupported = XR_MAKE_VERSION(1, 0, 0);
  requirements->maxApiVersionSupported = XR_MAKE_VERSION(1, 3, 0);
  inst->vulkan_requirements_queried = true;
  return XR_SUCCESS;
}

XrResult xrCreateVulkanInstanceKHR(XrInstance instance, const XrVulkanInstanceCreateInfoKHR* info,
                                   VkInstance* vk_instance, VkResult* vk_result) {
  if (info == nullptr || vk_instance == nullptr || vk_result == nullptr ||
      info->type != XR_TYPE_VULKAN_INSTANCE_CREATE_INFO_KHR ||
      info->pfnGetInstanceProcAddr == nullptr || info->vulkanCreateInfo == nullptr) {
    return unusable_info(instance);
  }
  XrResult result = XR_SUCCESS;
  Instance* inst = checked_system(instance, info->systemId, result);
  if (inst == nullptr) return result;
  if (info->createFlags != 0) return XR_ERROR_VALIDATION_FAILURE;
  const auto create = reinterpret_cast<PFN_vkCreateInstance>(
      info->pfnGetInstanceProcAddr(nullptr, "vkCreateInstance"));
  if (create == nullptr) return XR_ERROR_RUNTIME_FAILURE;
  // The runtime needs no instance extensions: it shares the app's device in-process.
  *vk_result = create(info->vulkanCreateInfo, info->vulkanAllocator, vk_instance);
  if (*vk_result == VK_SUCCESS) {
    inst->vk_get_instance_proc_addr = info->pfnGetInstanceProcAddr;
    inst->vk_instance = *vk_instance;
  }
  return XR_SUCCESS;
}

XrResult xrGetVulkanGraphicsDevice2KHR(XrInstance instance,
                                       const XrVulkanGraphicsDeviceGetInfoKHR* info,
                                       VkPhysicalDevice* physical_device) {
  if (info == nullptr || physical_device == nullptr ||
      info->type != XR_TYPE_VULKAN_GRAPHICS_DEVICE_GET_INFO_KHR ||
      info->vulkanInstance == VK_NULL_HANDLE) {
    return unusable_info(instance);
  }
  XrResult result = XR_SUCCESS;
  if (checked_system(instance, info->systemId, result) == nullptr) return result;
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(info->vulkanInstance, &count, nullptr);
  if (count == 0) {
    log_error("xrGetVulkanGraphicsDevice2KHR: the Vulkan instance has no physical device");
    return XR_ERROR_RUNTIME_FAILURE;
  }
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(info->vulkanInstance, &count, devices.data());
  *physical_device = devices[0];  // the first one (lavapipe under VK_ICD_FILENAMES in tests)
  return XR_SUCCESS;
}

XrResult xrCreateVulkanDeviceKHR(XrInstance instance, const XrVulkanDeviceCreateInfoKHR* info,
                                 VkDevice* device, VkResult* vk_result) {
  if (info == nullptr || device == nullptr || vk_result == nullptr ||
      info->type != XR_TYPE_VULKAN_DEVICE_CREATE_INFO_KHR ||
      info->pfnGetInstanceProcAddr == nullptr || info->vulkanCreateInfo == nullptr ||
      info->vulkanPhysicalDevice == VK_NULL_HANDLE) {
    return unusable_info(instance);
  }
  XrResult result = XR_SUCCESS;
  Instance* inst = checked_system(instance, info->systemId, result);
  if (inst == nullptr) return result;
  if (info->createFlags != 0) return XR_ERROR_VALIDATION_FAILURE;
  auto create = PFN_vkCreateDevice{nullptr};
  if (inst->vk_instance != VK_NULL_HANDLE) {
    create = reinterpret_cast<PFN_vkCreateDevice>(
        info->pfnGetInstanceProcAddr(inst->vk_instance, "vkCreateDevice"));
  }
  if (create == nullptr) create = &vkCreateDevice;
  *vk_result =
      create(info->vulkanPhysicalDevice, info->vulkanCreateInfo, info->vulkanAllocator, device);
  return XR_SUCCESS;
}

XrResult xrEnumerateSwapchainFormats(XrSession session, uint32_t capacity, uint32_t* count,
                                     int64_t* formats) {
  Session* s = find<Session>(session);
  if (s == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (XrResult r = session_status(*s); r < 0) return r;
  // A headless session (XR_MND_headless) has no formats.
  const std::vector<VkFormat> list =
      s->vulkan ? supported_formats(s->vulkan->physical_device) : std::vector<VkFormat>{};
  const XrResult r = two_call(capacity, count, formats, list.size(),
                              [&](int64_t& f, std::size_t i) { f = list[i]; });
  return r == XR_SUCCESS ? success_of(*s) : r;
}

XrResult xrCreateSwapchain(XrSession session, const XrSwapchainCreateInfo* info,
                           XrSwapchain* swapchain) {
  Session* s = find<Session>(session);
  if (XrResult r = check_args(s, info, XR_TYPE_SWAPCHAIN_CREATE_INFO, swapchain); r < 0) return r;
  if (XrResult r = session_status(*s); r < 0) return r;
  if (!s->vulkan) return XR_ERROR_SWAPCHAIN_FORMAT_UNSUPPORTED;  // headless: no formats at all
  if ((info->createFlags & XR_SWAPCHAIN_CREATE_PROTECTED_CONTENT_BIT) != 0)
    return XR_ERROR_FEATURE_UNSUPPORTED;
  if (info->faceCount != 1 && info->faceCount != 6) return XR_ERROR_VALIDATION_FAILURE;
  if (info->faceCount == 6 || info->sampleCount != 1) return XR_ERROR_FEATURE_UNSUPPORTED;
  if (info->width == 0 || info->height == 0 || info->arraySize == 0 || info->mipCount == 0) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (info->width > 4096 || info->height > 4096) return XR_ERROR_SIZE_INSUFFICIENT;
  const std::vector<VkFormat> list = supported_formats(s->vulkan->physical_device);
  const auto format = static_cast<VkFormat>(info->format);
  if (std::find(list.begin(), list.end(), format) == list.end())
    return XR_ERROR_SWAPCHAIN_FORMAT_UNSUPPORTED;
  Swapchain& sc = add_object<Swapchain>(s->id);
  sc.session = s->id;
  sc.info = *info;
  sc.info.next = nullptr;
  sc.format = format;
  sc.depth = is_depth(format);
  if (XrResult r = create_images(sc, *s->vulkan); r != XR_SUCCESS) {
    log_error("xrCreateSwapchain: Vulkan image creation failed");
    destroy_object(sc.id);
    return r;
  }
  *swapchain = to_handle<XrSwapchain>(sc.id);
  return success_of(*s);
}

XrResult xrDestroySwapchain(XrSwapchain swapchain) {
  return destroy_handle<Swapchain>(swapchain);
}

XrResult xrEnumerateSwapchainImages(XrSwapchain swapchain, uint32_t capacity, uint32_t* count,
                                    XrSwapchainImageBaseHeader* images) {
  Swapchain* sc = find<Swapchain>(swapchain);
  if (sc == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (count == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  auto* vk_images = reinterpret_cast<XrSwapchainImageVulkanKHR*>(images);
  if (vk_images != nullptr) {
    for (uint32_t i = 0; i < std::min<std::size_t>(capacity, sc->images.size()); ++i) {
      if (vk_images[i].type != XR_TYPE_SWAPCHAIN_IMAGE_VULKAN_KHR)
        return XR_ERROR_VALIDATION_FAILURE;
    }
  }
  return two_call(
      capacity, count, vk_images, sc->images.size(),
      [&](XrSwapchainImageVulkanKHR& out, std::size_t i) { out.image = sc->images[i]; });
}

XrResult xrAcquireSwapchainImage(XrSwapchain swapchain, const XrSwapchainImageAcquireInfo* info,
                                 uint32_t* index) {
  Swapchain* sc = find<Swapchain>(swapchain);
  if (sc == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (index == nullptr || (info != nullptr && info->type != XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  Session& session = *find_object<Session>(sc->session);
  if (XrResult r = session_status(session); r < 0) return r;
  if (sc->acquired.size() >= sc->images.size()) return XR_ERROR_CALL_ORDER_INVALID;
  const bool is_static = (sc->info.createFlags & XR_SWAPCHAIN_CREATE_STATIC_IMAGE_BIT) != 0;
  if (is_static && sc->last_released >= 0) return XR_ERROR_CALL_ORDER_INVALID;
  if (!sc->transitioned) {
    // New images go to the attachment layout once, before the app first sees them (enable2 spec).
    const bool ok = submit_and_wait(*session.vulkan, [&](VkCommandBuffer cmd) {
      for (VkImage image : sc->images) {
        barrier(cmd, image, sc->format, VK_IMAGE_LAYOUT_UNDEFINED, attachment_layout(sc->format),
                sc->info.arraySize, sc->info.mipCount);
      }
    });
    if (!ok) return XR_ERROR_RUNTIME_FAILURE;
    sc->transitioned = true;
  }
  *index = sc->next_index;
  sc->acquired.push_back(sc->next_index);
  sc->next_index = (sc->next_index + 1) % static_cast<uint32_t>(sc->images.size());
  return success_of(session);
}

XrResult xrWaitSwapchainImage(XrSwapchain swapchain, const XrSwapchainImageWaitInfo* info) {
  Swapchain* sc = find<Swapchain>(swapchain);
  if (sc == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || info->type != XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO)
    return XR_ERROR_VALIDATION_FAILURE;
  const Session& session = *find_object<Session>(sc->session);
  if (XrResult r = session_status(session); r < 0) return r;
  if (sc->acquired.empty() || sc->front_waited) return XR_ERROR_CALL_ORDER_INVALID;
  sc->front_waited = true;  // images are ready at once: the runtime never reads them asynchronously
  return success_of(session);
}

XrResult xrReleaseSwapchainImage(XrSwapchain swapchain, const XrSwapchainImageReleaseInfo* info) {
  Swapchain* sc = find<Swapchain>(swapchain);
  if (sc == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info != nullptr && info->type != XR_TYPE_SWAPCHAIN_IMAGE_RELEASE_INFO)
    return XR_ERROR_VALIDATION_FAILURE;
  const Session& session = *find_object<Session>(sc->session);
  if (XrResult r = session_status(session); r < 0) return r;
  if (sc->acquired.empty() || !sc->front_waited) return XR_ERROR_CALL_ORDER_INVALID;
  sc->last_released = sc->acquired.front();
  sc->acquired.pop_front();
  sc->front_waited = false;
  return success_of(session);
}

}  // namespace api
}  // namespace stagger::simxr
