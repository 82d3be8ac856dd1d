// XR_KHR_vulkan_enable2 (required): the game draws with Vulkan, on the instance and device the
// runtime makes for it (the runtime adds the Vulkan extensions it needs to our create infos).
//   instance: after the system, the graphics requirements first, then instance, physical device
//             and device through the runtime;
//   session:  the XrGraphicsBindingVulkan2KHR chained to XrSessionCreateInfo; a swapchain's
//             images as XrSwapchainImageVulkan2KHR;
//   frame:    nothing (images are handed out and released in attachment layout, as enable2 says).

#include <algorithm>

#include "xr_extension.h"

namespace stagger::vr {

extern const XrExtension kXrKhrVulkanEnable2;  // (listed in xr_extension.cpp)

namespace {

// The enable2 functions, all looked up before the first is called.
struct Enable2 {
  explicit Enable2(XrInstance instance)
      : requirements(xr_function<PFN_xrGetVulkanGraphicsRequirements2KHR>(
            instance, "xrGetVulkanGraphicsRequirements2KHR")),
        create_instance(
            xr_function<PFN_xrCreateVulkanInstanceKHR>(instance, "xrCreateVulkanInstanceKHR")),
        physical_device(xr_function<PFN_xrGetVulkanGraphicsDevice2KHR>(
            instance, "xrGetVulkanGraphicsDevice2KHR")),
        create_device(
            xr_function<PFN_xrCreateVulkanDeviceKHR>(instance, "xrCreateVulkanDeviceKHR")) {}
  PFN_xrGetVulkanGraphicsRequirements2KHR requirements;
  PFN_xrCreateVulkanInstanceKHR create_instance;
  PFN_xrGetVulkanGraphicsDevice2KHR physical_device;
  PFN_xrCreateVulkanDeviceKHR create_device;
};

// Vulkan 1.1 when the runtime allows it, within its range (hello_xr's hard-coded 1.0 is a known
// bug). xrGetVulkanGraphicsRequirements2KHR must come before anything else graphic.
std::uint32_t vulkan_api(const XrSystemContext& xr, const Enable2& fn) {
  XrGraphicsRequirementsVulkan2KHR requirements{XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN2_KHR};
  xr_check(fn.requirements(xr.instance, xr.system, &requirements),
           "xrGetVulkanGraphicsRequirements2KHR");
  const XrVersion wanted = std::clamp<XrVersion>(
      XR_MAKE_VERSION(1, 1, 0), requirements.minApiVersionSupported,
      std::max(requirements.minApiVersionSupported, requirements.maxApiVersionSupported));
  return VK_MAKE_API_VERSION(0, XR_VERSION_MAJOR(wanted), XR_VERSION_MINOR(wanted), 0);
}

// xrCreateVulkanInstanceKHR and xrCreateVulkanDeviceKHR alike: the runtime adds what it needs to
// our Vulkan create info (so it calls Vulkan through our vkGetInstanceProcAddr) and answers
// twice, with its own result and with Vulkan's for the object it tried to make.
template <typename Handle, typename Create, typename Info>
Handle make_through_runtime(XrInstance instance, Create create, Info& info, const char* call,
                            const char* what) {
  info.pfnGetInstanceProcAddr = &vkGetInstanceProcAddr;
  Handle made = VK_NULL_HANDLE;
  VkResult vk_result = VK_SUCCESS;
  xr_check(create(instance, &info, &made, &vk_result), call);
  if (vk_result != VK_SUCCESS)
    throw std::runtime_error(std::string("the runtime could not make a Vulkan ") + what + ": " +
                             vk::to_string(vk::Result(vk_result)));
  return made;
}

void create_instance(const XrSystemContext& xr, const Enable2& fn, std::uint32_t api,
                     GpuContext& gpu) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "stagger";
  app.apiVersion = api;
  VkInstanceCreateInfo vk_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  vk_info.pApplicationInfo = &app;
  XrVulkanInstanceCreateInfoKHR info{XR_TYPE_VULKAN_INSTANCE_CREATE_INFO_KHR};
  info.systemId = xr.system;
  info.vulkanCreateInfo = &vk_info;
  gpu.instance = vk::raii::Instance(
      gpu.context, make_through_runtime<VkInstance>(xr.instance, fn.create_instance, info,
                                                    "xrCreateVulkanInstanceKHR", "instance"));
  pin_vulkan_drivers();
}

void pick_physical_device(const XrSystemContext& xr, const Enable2& fn, GpuContext& gpu) {
  XrVulkanGraphicsDeviceGetInfoKHR info{XR_TYPE_VULKAN_GRAPHICS_DEVICE_GET_INFO_KHR};
  info.systemId = xr.system;
  info.vulkanInstance = static_cast<VkInstance>(*gpu.instance);
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  xr_check(fn.physical_device(xr.instance, &info, &physical), "xrGetVulkanGraphicsDevice2KHR");
  gpu.physical_device = vk::raii::PhysicalDevice(gpu.instance, physical);
  gpu.device_name = gpu.physical_device.getProperties().deviceName.data();
  gpu.queue_family = graphics_queue_family(gpu.physical_device);
}

void create_device(const XrSystemContext& xr, const Enable2& fn, GpuContext& gpu) {
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = gpu.queue_family;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo vk_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  vk_info.queueCreateInfoCount = 1;
  vk_info.pQueueCreateInfos = &queue;
  XrVulkanDeviceCreateInfoKHR info{XR_TYPE_VULKAN_DEVICE_CREATE_INFO_KHR};
  info.systemId = xr.system;
  info.vulkanPhysicalDevice = static_cast<VkPhysicalDevice>(*gpu.physical_device);
  info.vulkanCreateInfo = &vk_info;
  gpu.device = vk::raii::Device(
      gpu.physical_device, make_through_runtime<VkDevice>(xr.instance, fn.create_device, info,
                                                          "xrCreateVulkanDeviceKHR", "device"));
  gpu.queue = vk::raii::Queue(gpu.device, gpu.queue_family, 0);
}

std::unique_ptr<GpuContext> graphics(XrExtensionState&, const XrSystemContext& xr) {
  const Enable2 fn(xr.instance);
  const std::uint32_t api = vulkan_api(xr, fn);
  auto gpu = std::make_unique<GpuContext>();
  create_instance(xr, fn, api, *gpu);
  pick_physical_device(xr, fn, *gpu);
  create_device(xr, fn, *gpu);
  return gpu;
}

void session_info(XrExtensionState& state, const GpuContext& gpu, XrSessionCreateInfo& info) {
  auto& binding = state.emplace<XrGraphicsBindingVulkan2KHR>();
  binding = {XR_TYPE_GRAPHICS_BINDING_VULKAN2_KHR, info.next};
  binding.instance = static_cast<VkInstance>(*gpu.instance);
  binding.physicalDevice = static_cast<VkPhysicalDevice>(*gpu.physical_device);
  binding.device = static_cast<VkDevice>(*gpu.device);
  binding.queueFamilyIndex = gpu.queue_family;
  binding.queueIndex = 0;
  info.next = &binding;
}

std::vector<vk::Image> swapchain_images(XrExtensionState&, XrSwapchain swapchain) {
  std::uint32_t count = 0;
  xr_check(xrEnumerateSwapchainImages(swapchain, 0, &count, nullptr), "xrEnumerateSwapchainImages");
  std::vector<XrSwapchainImageVulkan2KHR> images(count, {XR_TYPE_SWAPCHAIN_IMAGE_VULKAN2_KHR});
  xr_check(xrEnumerateSwapchainImages(swapchain, count, &count,
                                      reinterpret_cast<XrSwapchainImageBaseHeader*>(images.data())),
           "xrEnumerateSwapchainImages");
  std::vector<vk::Image> out;
  for (const auto& image : images) out.emplace_back(image.image);
  return out;
}

}  // namespace

const XrExtension kXrKhrVulkanEnable2{
    .name = XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME,
    .missing = "the OpenXR runtime cannot draw with Vulkan (no XR_KHR_vulkan_enable2)",
    .graphics = graphics,
    .session_info = session_info,
    .swapchain_images = swapchain_images,
};

}  // namespace stagger::vr
