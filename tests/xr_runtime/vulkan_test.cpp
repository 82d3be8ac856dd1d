// XR_KHR_vulkan_enable2 on lavapipe: Vulkan instance/device through the runtime, swapchains on the
// app's device, a cleared image submitted in a projection layer and read back (control API + PNG).
#include <link.h>
#include <png.h>

#include <cstdio>

#include "xr_test_util.h"

namespace stagger::simxr::test {
namespace {

constexpr uint32_t kWidth = 64;
constexpr uint32_t kHeight = 48;

struct Vulkan {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  uint32_t family = 0;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
};

// LeakSanitizer reads the globals of a Vulkan driver that the loader unloads with the last
// instance as leaked (lavapipe: 128 bytes, against an unknown module, with or without Stagger's
// code loaded). Under the sanitizers the drivers stay loaded, as in the game (vr/src/gpu.cpp).
void keep_vulkan_drivers_loaded() {
#if defined(__SANITIZE_ADDRESS__)
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void*) -> int {
        if (info->dlpi_name != nullptr && std::strstr(info->dlpi_name, "libvulkan_") != nullptr) {
          dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
        }
        return 0;
      },
      nullptr);
#endif
}

void create_vulkan(XrInstance xr, XrSystemId system, Vulkan& vk) {
  auto create_instance_fn = proc<PFN_xrCreateVulkanInstanceKHR>(xr, "xrCreateVulkanInstanceKHR");
  auto get_device = proc<PFN_xrGetVulkanGraphicsDevice2KHR>(xr, "xrGetVulkanGraphicsDevice2KHR");
  auto create_device = proc<PFN_xrCreateVulkanDeviceKHR>(xr, "xrCreateVulkanDeviceKHR");
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "stagger_xr_runtime_tests";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo vk_info{};
  vk_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  vk_info.pApplicationInfo = &app;
  XrVulkanInstanceCreateInfoKHR info{XR_TYPE_VULKAN_INSTANCE_CREATE_INFO_KHR};
  info.systemId = system;
  info.pfnGetInstanceProcAddr = &vkGetInstanceProcAddr;
  info.vulkanCreateInfo = &vk_info;
  VkResult vk_result = VK_ERROR_UNKNOWN;
  ASSERT_EQ(create_instance_fn(xr, &info, &vk.instance, &vk_result), XR_SUCCESS);
  ASSERT_EQ(vk_result, VK_SUCCESS);
  keep_vulkan_drivers_loaded();
  XrVulkanGraphicsDeviceGetInfoKHR get{XR_TYPE_VULKAN_GRAPHICS_DEVICE_GET_INFO_KHR};
  get.systemId = system;
  get.vulkanInstance = vk.instance;
  ASSERT_EQ(get_device(xr, &get, &vk.physical), XR_SUCCESS);
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(vk.physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(vk.physical, &count, families.data());
  for (uint32_t i = 0; i < count; ++i) {
    if ((families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0) {
      vk.family = i;
      break;
    }
  }
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = vk.family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{};
  device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  XrVulkanDeviceCreateInfoKHR xr_device{XR_TYPE_VULKAN_DEVICE_CREATE_INFO_KHR};
  xr_device.systemId = system;
  xr_device.pfnGetInstanceProcAddr = &vkGetInstanceProcAddr;
  xr_device.vulkanPhysicalDevice = vk.physical;
  xr_device.vulkanCreateInfo = &device_info;
  ASSERT_EQ(create_device(xr, &xr_device, &vk.device, &vk_result), XR_SUCCESS);
  ASSERT_EQ(vk_result, VK_SUCCESS);
  vkGetDeviceQueue(vk.device, vk.family, 0, &vk.queue);
  VkCommandPoolCreateInfo pool{};
  pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool.queueFamilyIndex = vk.family;
  ASSERT_EQ(vkCreateCommandPool(vk.device, &pool, nullptr, &vk.pool), VK_SUCCESS);
}

XrSwapchain make_swapchain(XrSession session, VkFormat format, XrSwapchainUsageFlags usage) {
  XrSwapchainCreateInfo info{XR_TYPE_SWAPCHAIN_CREATE_INFO};
  info.usageFlags = usage;
  info.format = format;
  info.sampleCount = 1;
  info.width = kWidth;
  info.height = kHeight;
  info.faceCount = 1;
  info.arraySize = 1;
  info.mipCount = 1;
  XrSwapchain swapchain = XR_NULL_HANDLE;
  EXPECT_EQ(xrCreateSwapchain(session, &info, &swapchain), XR_SUCCESS);
  return swapchain;
}

std::vector<VkImage> images_of(XrSwapchain swapchain) {
  uint32_t count = 0;
  EXPECT_EQ(xrEnumerateSwapchainImages(swapchain, 0, &count, nullptr), XR_SUCCESS);
  std::vector<XrSwapchainImageVulkan2KHR> images(count, {XR_TYPE_SWAPCHAIN_IMAGE_VULKAN2_KHR});
  EXPECT_EQ(
      xrEnumerateSwapchainImages(swapchain, count, &count,
                                 reinterpret_cast<XrSwapchainImageBaseHeader*>(images.data())),
      XR_SUCCESS);
  std::vector<VkImage> out;
  for (const auto& i : images) out.push_back(i.image);
  return out;
}

uint32_t acquire(XrSwapchain swapchain) {
  uint32_t index = 0;
  EXPECT_EQ(xrAcquireSwapchainImage(swapchain, nullptr, &index), XR_SUCCESS);
  XrSwapchainImageWaitInfo wait{XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO};
  wait.timeout = XR_INFINITE_DURATION;
  EXPECT_EQ(xrWaitSwapchainImage(swapchain, &wait), XR_SUCCESS);
  return index;
}

void transition(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to) {
  VkImageMemoryBarrier b{};
  b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                       0, 0, nullptr, 0, nullptr, 1, &b);
}

// Clears swapchain images (in COLOR_ATTACHMENT_OPTIMAL, as the runtime hands them out) and waits.
void clear_images(const Vulkan& vk,
                  const std::vector<std::pair<VkImage, VkClearColorValue>>& clears) {
  VkCommandBufferAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  alloc.commandPool = vk.pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_EQ(vkAllocateCommandBuffers(vk.device, &alloc, &cmd), VK_SUCCESS);
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  vkBeginCommandBuffer(cmd, &begin);
  for (const auto& [image, colour] : clears) {
    transition(cmd, image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &colour, 1, &range);
    transition(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  }
  vkEndCommandBuffer(cmd);
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  ASSERT_EQ(vkQueueSubmit(vk.queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
  vkQueueWaitIdle(vk.queue);
  vkFreeCommandBuffers(vk.device, vk.pool, 1, &cmd);
}

/// Reads an 8-bit RGB PNG; returns its pixels (RGB) and size.
std::vector<uint8_t> read_png(const std::string& path, uint32_t& width, uint32_t& height) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_file(&image, path.c_str()) == 0) return {};
  image.format = PNG_FORMAT_RGB;
  std::vector<uint8_t> pixels(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr) == 0) return {};
  width = image.width;
  height = image.height;
  return pixels;
}

TEST(XrRuntimeVulkan, GraphicsRequirementsMustBeQueried) {
  Control control;
  control.fresh();
  XrInstance instance = create_instance({XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME});
  XrGraphicsBindingVulkan2KHR binding{XR_TYPE_GRAPHICS_BINDING_VULKAN2_KHR};
  XrSessionCreateInfo info{XR_TYPE_SESSION_CREATE_INFO, &binding};
  info.systemId = get_system(instance);
  XrSession session = XR_NULL_HANDLE;
  EXPECT_EQ(xrCreateSession(instance, &info, &session),
            XR_ERROR_GRAPHICS_REQUIREMENTS_CALL_MISSING);
  xrDestroyInstance(instance);
}

TEST(XrRuntimeVulkan, ClearedImageIsSubmittedAndReadBack) {
  Control control;
  control.fresh();
  const std::string png_path = ::testing::TempDir() + "simxr_capture_left.png";
  std::remove(png_path.c_str());
  // (the third frame ended from here: two empty ones come before the session is VISIBLE)
  const std::string capture =
      std::to_string(control.stagger_simxr_frames_total() + 3) + ":" + png_path;
  setenv("STAGGER_SIMXR_CAPTURE", capture.c_str(), 1);
  // The whole Vulkan path also runs under the core validation layer, which must stay silent.
  const std::string validation_file = ::testing::TempDir() + "simxr_vulkan_core_validation.txt";
  CoreValidation validation(validation_file);
  XrInstance xr = create_instance({XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME});
  unsetenv("STAGGER_SIMXR_CAPTURE");
  const XrSystemId system = get_system(xr);
  auto requirements_fn =
      proc<PFN_xrGetVulkanGraphicsRequirements2KHR>(xr, "xrGetVulkanGraphicsRequirements2KHR");
  XrGraphicsRequirementsVulkan2KHR requirements{XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN2_KHR};
  ASSERT_EQ(requirements_fn(xr, system, &requirements), XR_SUCCESS);
  EXPECT_EQ(requirements.minApiVersionSupported, XR_MAKE_VERSION(1, 0, 0));
  Vulkan vk;
  ASSERT_NO_FATAL_FAILURE(create_vulkan(xr, system, vk));

  XrGraphicsBindingVulkan2KHR binding{XR_TYPE_GRAPHICS_BINDING_VULKAN2_KHR};
  binding.instance = vk.instance;
  binding.physicalDevice = vk.physical;
  binding.device = vk.device;
  binding.queueFamilyIndex = vk.family;
  binding.queueIndex = 0;
  XrSessionCreateInfo session_info{XR_TYPE_SESSION_CREATE_INFO, &binding};
  session_info.systemId = system;
  XrSession session = XR_NULL_HANDLE;
  ASSERT_EQ(xrCreateSession(xr, &session_info, &session), XR_SUCCESS);

  uint32_t count = 0;
  ASSERT_EQ(xrEnumerateSwapchainFormats(session, 0, &count, nullptr), XR_SUCCESS);
  std::vector<int64_t> formats(count);
  ASSERT_EQ(xrEnumerateSwapchainFormats(session, count, &count, formats.data()), XR_SUCCESS);
  for (VkFormat f : {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM,
                     VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM}) {
    EXPECT_NE(std::find(formats.begin(), formats.end(), f), formats.end()) << f;
  }

  poll_states(xr);
  begin_session(session);
  // A session with graphics is SYNCHRONIZED only after its first ended frame, FOCUSED a frame
  // later.
  EXPECT_TRUE(poll_states(xr).empty());
  for (int i = 0; i < 2; ++i) {
    XrFrameState empty{XR_TYPE_FRAME_STATE};
    ASSERT_EQ(xrWaitFrame(session, nullptr, &empty), XR_SUCCESS);
    EXPECT_EQ(empty.shouldRender, XR_FALSE);
    ASSERT_EQ(xrBeginFrame(session, nullptr), XR_SUCCESS);
    XrFrameEndInfo end{XR_TYPE_FRAME_END_INFO};
    end.displayTime = empty.predictedDisplayTime;
    end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
    ASSERT_EQ(xrEndFrame(session, &end), XR_SUCCESS);
    const std::vector<XrSessionState> states = poll_states(xr);
    ASSERT_FALSE(states.empty());
    EXPECT_EQ(states.back(), i == 0 ? XR_SESSION_STATE_SYNCHRONIZED : XR_SESSION_STATE_FOCUSED);
  }
  const XrSpace local = reference_space(session, XR_REFERENCE_SPACE_TYPE_LOCAL);
  ASSERT_NE(local, XR_NULL_HANDLE);

  const XrSwapchainUsageFlags colour_usage =
      XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT | XR_SWAPCHAIN_USAGE_TRANSFER_DST_BIT;
  XrSwapchain left = make_swapchain(session, VK_FORMAT_R8G8B8A8_SRGB, colour_usage);
  XrSwapchain right = make_swapchain(session, VK_FORMAT_B8G8R8A8_UNORM, colour_usage);
  XrSwapchain depth = make_swapchain(session, VK_FORMAT_D32_SFLOAT,
                                     XR_SWAPCHAIN_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
  const std::vector<VkImage> left_images = images_of(left);
  const std::vector<VkImage> right_images = images_of(right);
  EXPECT_EQ(left_images.size(), 3u);

  XrFrameState frame{XR_TYPE_FRAME_STATE};
  ASSERT_EQ(xrWaitFrame(session, nullptr, &frame), XR_SUCCESS);
  EXPECT_EQ(frame.shouldRender, XR_TRUE);
  ASSERT_EQ(xrBeginFrame(session, nullptr), XR_SUCCESS);
  const uint32_t li = acquire(left);
  const uint32_t ri = acquire(right);
  acquire(depth);
  clear_images(vk, {{left_images[li], VkClearColorValue{{1.0f, 0.0f, 0.0f, 1.0f}}},
                    {right_images[ri], VkClearColorValue{{0.0f, 0.5f, 1.0f, 1.0f}}}});

  XrViewLocateInfo locate{XR_TYPE_VIEW_LOCATE_INFO};
  locate.viewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
  locate.displayTime = frame.predictedDisplayTime;
  locate.space = local;
  XrViewState view_state{XR_TYPE_VIEW_STATE};
  std::vector<XrView> views(2, {XR_TYPE_VIEW});
  ASSERT_EQ(xrLocateViews(session, &locate, &view_state, 2, &count, views.data()), XR_SUCCESS);
  std::vector<XrCompositionLayerProjectionView> projection(
      2, {XR_TYPE_COMPOSITION_LAYER_PROJECTION_VIEW});
  for (uint32_t i = 0; i < 2; ++i) {
    projection[i].pose = views[i].pose;
    projection[i].fov = views[i].fov;
    projection[i].subImage.swapchain = i == 0 ? left : right;
    projection[i].subImage.imageRect = {
        {0, 0}, {static_cast<int32_t>(kWidth), static_cast<int32_t>(kHeight)}};
  }
  XrCompositionLayerProjection layer{XR_TYPE_COMPOSITION_LAYER_PROJECTION};
  layer.space = local;
  layer.viewCount = 2;
  layer.views = projection.data();
  const XrCompositionLayerBaseHeader* layers[] = {
      reinterpret_cast<XrCompositionLayerBaseHeader*>(&layer)};
  XrFrameEndInfo end{XR_TYPE_FRAME_END_INFO};
  end.displayTime = frame.predictedDisplayTime;
  end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
  end.layerCount = 1;
  end.layers = layers;
  EXPECT_EQ(xrEndFrame(session, &end), XR_ERROR_LAYER_INVALID);  // images still acquired
  XrSwapchainImageReleaseInfo release{XR_TYPE_SWAPCHAIN_IMAGE_RELEASE_INFO};
  ASSERT_EQ(xrReleaseSwapchainImage(left, &release), XR_SUCCESS);
  ASSERT_EQ(xrReleaseSwapchainImage(right, &release), XR_SUCCESS);
  ASSERT_EQ(xrReleaseSwapchainImage(depth, &release), XR_SUCCESS);
  EXPECT_EQ(xrReleaseSwapchainImage(depth, &release), XR_ERROR_CALL_ORDER_INVALID);
  projection[1].subImage.imageRect.extent.width = kWidth + 1;
  EXPECT_EQ(xrEndFrame(session, &end), XR_ERROR_SWAPCHAIN_RECT_INVALID);
  projection[1].subImage.imageRect.extent.width = kWidth;
  ASSERT_EQ(xrEndFrame(session, &end), XR_SUCCESS);
  EXPECT_EQ(control.stagger_simxr_frames_submitted(), 1u);

  // Control API readback: RGBA bytes as stored (sRGB-encoded for the SRGB format; 1.0 -> 255).
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba(kWidth * kHeight * 4);
  ASSERT_EQ(control.stagger_simxr_read_view_image(0, &width, &height, rgba.data(), rgba.size()),
            rgba.size());
  EXPECT_EQ(width, kWidth);
  EXPECT_EQ(height, kHeight);
  EXPECT_EQ(rgba[0], 255);
  EXPECT_EQ(rgba[1], 0);
  EXPECT_EQ(rgba[2], 0);
  EXPECT_EQ(rgba[rgba.size() - 1], 255);
  ASSERT_EQ(control.stagger_simxr_read_view_image(1, &width, &height, rgba.data(), rgba.size()),
            rgba.size());
  EXPECT_EQ(rgba[0], 0);
  EXPECT_NEAR(rgba[1], 128, 1);  // B8G8R8A8 comes back as RGBA
  EXPECT_EQ(rgba[2], 255);

  // The PNG capture of the first frame: the left eye, RGB.
  std::vector<uint8_t> png = read_png(png_path, width, height);
  ASSERT_EQ(png.size(), kWidth * kHeight * 3u) << png_path;
  EXPECT_EQ(png[0], 255);
  EXPECT_EQ(png[1], 0);
  EXPECT_EQ(png[(kWidth * kHeight - 1) * 3], 255);

  EXPECT_EQ(xrDestroySwapchain(left), XR_SUCCESS);
  EXPECT_EQ(xrDestroySwapchain(right), XR_SUCCESS);
  EXPECT_EQ(xrDestroySession(session), XR_SUCCESS);
  EXPECT_EQ(xrDestroyInstance(xr), XR_SUCCESS);  // also destroys the depth swapchain
  vkDestroyCommandPool(vk.device, vk.pool, nullptr);
  vkDestroyDevice(vk.device, nullptr);
  vkDestroyInstance(vk.instance, nullptr);
  EXPECT_EQ(read_file(validation_file), "");
}

}  // namespace
}  // namespace stagger::simxr::test
