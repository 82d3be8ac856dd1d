#include "xr_frontend.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <thread>
#include <vector>

#include "gpu.h"
#include "renderer.h"
#include "stagger/vr/offscreen.h"
#include "xr_common.h"
#include "xr_hand_tracking.h"
#include "xr_input.h"

namespace stagger::vr {

namespace {

constexpr double kWaitForHeadsetS =
    10.0;  // [s] xrGetSystem retried while the form factor is unavailable
constexpr double kWaitForSessionS =
    30.0;                           // [s] no session start this long after creation ends the game
constexpr double kRecoverS = 60.0;  // [s] after a session loss, how long to wait for the headset

Vec3 to_vec(const XrVector3f& v) {
  return {v.x, v.y, v.z};
}
Quat to_quat(const XrQuaternionf& q) {
  return {q.w, q.x, q.y, q.z};
}

// The instance with the extensions the game uses, if the runtime has them.
struct InstanceChoice {
  XrInstance instance = XR_NULL_HANDLE;
  bool hand_tracking = false;
  bool depth_layers = false;
};

InstanceChoice create_instance() {
  // The loader prints its own errors to stderr unless told not to; the game says one sentence.
  setenv("XR_LOADER_DEBUG", "none", /*overwrite=*/0);
  std::uint32_t count = 0;
  xr_check(xrEnumerateInstanceExtensionProperties(nullptr, 0, &count, nullptr),
           "xrEnumerateInstanceExtensionProperties");
  std::vector<XrExtensionProperties> available(count, {XR_TYPE_EXTENSION_PROPERTIES});
  xr_check(xrEnumerateInstanceExtensionProperties(nullptr, count, &count, available.data()),
           "xrEnumerateInstanceExtensionProperties");
  auto has = [&](const char* name) {
    return std::any_of(available.begin(), available.end(), [&](const XrExtensionProperties& p) {
      return std::strcmp(p.extensionName, name) == 0;
    });
  };
  if (!has(XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME))
    throw std::runtime_error(
        "the OpenXR runtime cannot draw with Vulkan (no XR_KHR_vulkan_enable2)");
  InstanceChoice choice;
  std::vector<const char*> enabled{XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME};
  choice.hand_tracking = has(XrHandTracking::kExtension);
  if (choice.hand_tracking) enabled.push_back(XrHandTracking::kExtension);
  choice.depth_layers = has(XR_KHR_COMPOSITION_LAYER_DEPTH_EXTENSION_NAME);
  if (choice.depth_layers) enabled.push_back(XR_KHR_COMPOSITION_LAYER_DEPTH_EXTENSION_NAME);
  XrInstanceCreateInfo info{XR_TYPE_INSTANCE_CREATE_INFO};
  std::strcpy(info.applicationInfo.applicationName, "stagger");
  info.applicationInfo.applicationVersion = 1;
  std::strcpy(info.applicationInfo.engineName, "stagger");
  info.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
  info.enabledExtensionCount = static_cast<std::uint32_t>(enabled.size());
  info.enabledExtensionNames = enabled.data();
  xr_check(xrCreateInstance(&info, &choice.instance), "xrCreateInstance");
  return choice;
}

// A headset may not be there yet: XR_ERROR_FORM_FACTOR_UNAVAILABLE asks to try again later.
XrSystemId get_system(XrInstance instance) {
  XrSystemGetInfo info{XR_TYPE_SYSTEM_GET_INFO};
  info.formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY;
  const auto start = std::chrono::steady_clock::now();
  bool said = false;
  for (;;) {
    XrSystemId system = XR_NULL_SYSTEM_ID;
    const XrResult r = xrGetSystem(instance, &info, &system);
    if (r != XR_ERROR_FORM_FACTOR_UNAVAILABLE) {
      xr_check(r, "xrGetSystem");
      return system;
    }
    if (std::chrono::steady_clock::now() - start > std::chrono::duration<double>(kWaitForHeadsetS))
      xr_check(r, "xrGetSystem");
    if (!said)
      std::cerr << "stagger play: waiting for the headset (XR_ERROR_FORM_FACTOR_UNAVAILABLE)\n";
    said = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

// The Vulkan instance and device made through the runtime, which adds what it needs (enable2).
std::unique_ptr<GpuContext> create_xr_gpu(XrInstance instance, XrSystemId system) {
  auto requirements_fn = xr_function<PFN_xrGetVulkanGraphicsRequirements2KHR>(
      instance, "xrGetVulkanGraphicsRequirements2KHR");
  auto create_instance_fn =
      xr_function<PFN_xrCreateVulkanInstanceKHR>(instance, "xrCreateVulkanInstanceKHR");
  auto device_fn =
      xr_function<PFN_xrGetVulkanGraphicsDevice2KHR>(instance, "xrGetVulkanGraphicsDevice2KHR");
  auto create_device_fn =
      xr_function<PFN_xrCreateVulkanDeviceKHR>(instance, "xrCreateVulkanDeviceKHR");
  XrGraphicsRequirementsVulkan2KHR requirements{XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN2_KHR};
  xr_check(requirements_fn(instance, system, &requirements), "xrGetVulkanGraphicsRequirements2KHR");
  // Vulkan 1.1 when the runtime allows it, within its range (hello_xr's hard-coded 1.0 is a known
  // bug).
  const XrVersion wanted = std::clamp<XrVersion>(
      XR_MAKE_VERSION(1, 1, 0), requirements.minApiVersionSupported,
      std::max(requirements.minApiVersionSupported, requirements.maxApiVersionSupported));
  const std::uint32_t api =
      VK_MAKE_API_VERSION(0, XR_VERSION_MAJOR(wanted), XR_VERSION_MINOR(wanted), 0);

  auto gpu = std::make_unique<GpuContext>();
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "stagger";
  app.apiVersion = api;
  VkInstanceCreateInfo vk_instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  vk_instance_info.pApplicationInfo = &app;
  XrVulkanInstanceCreateInfoKHR instance_info{XR_TYPE_VULKAN_INSTANCE_CREATE_INFO_KHR};
  instance_info.systemId = system;
  instance_info.pfnGetInstanceProcAddr = &vkGetInstanceProcAddr;
  instance_info.vulkanCreateInfo = &vk_instance_info;
  VkInstance vk_instance = VK_NULL_HANDLE;
  VkResult vk_result = VK_SUCCESS;
  xr_check(create_instance_fn(instance, &instance_info, &vk_instance, &vk_result),
           "xrCreateVulkanInstanceKHR");
  if (vk_result != VK_SUCCESS)
    throw std::runtime_error("the runtime could not make a Vulkan instance: " +
                             vk::to_string(vk::Result(vk_result)));
  gpu->instance = vk::raii::Instance(gpu->context, vk_instance);
  pin_vulkan_drivers();

  XrVulkanGraphicsDeviceGetInfoKHR device_get{XR_TYPE_VULKAN_GRAPHICS_DEVICE_GET_INFO_KHR};
  device_get.systemId = system;
  device_get.vulkanInstance = vk_instance;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  xr_check(device_fn(instance, &device_get, &physical), "xrGetVulkanGraphicsDevice2KHR");
  gpu->physical_device = vk::raii::PhysicalDevice(gpu->instance, physical);
  gpu->device_name = gpu->physical_device.getProperties().deviceName.data();
  gpu->queue_family = graphics_queue_family(gpu->physical_device);

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = gpu->queue_family;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo vk_device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  vk_device_info.queueCreateInfoCount = 1;
  vk_device_info.pQueueCreateInfos = &queue;
  XrVulkanDeviceCreateInfoKHR device_info{XR_TYPE_VULKAN_DEVICE_CREATE_INFO_KHR};
  device_info.systemId = system;
  device_info.pfnGetInstanceProcAddr = &vkGetInstanceProcAddr;
  device_info.vulkanPhysicalDevice = physical;
  device_info.vulkanCreateInfo = &vk_device_info;
  VkDevice vk_device = VK_NULL_HANDLE;
  xr_check(create_device_fn(instance, &device_info, &vk_device, &vk_result),
           "xrCreateVulkanDeviceKHR");
  if (vk_result != VK_SUCCESS)
    throw std::runtime_error("the runtime could not make a Vulkan device: " +
                             vk::to_string(vk::Result(vk_result)));
  gpu->device = vk::raii::Device(gpu->physical_device, vk_device);
  gpu->queue = vk::raii::Queue(gpu->device, gpu->queue_family, 0);
  return gpu;
}

struct Swapchain {
  XrSwapchain handle = XR_NULL_HANDLE;
  vk::Extent2D size;
  std::vector<vk::Image> images;
};

class XrGame final : public Frontend {
 public:
  XrGame(InstanceChoice choice, const SceneGeometry& geometry, const sim::SceneDescription& scene)
      : instance_(choice.instance),
        hand_tracking_(choice.hand_tracking),
        depth_layers_(choice.depth_layers) {
    system_ = get_system(instance_);
    hand_tracking_ = hand_tracking_ && XrHandTracking::supported(instance_, system_);
    gpu_ = create_xr_gpu(instance_, system_);
    rig_origin_ = scene.player_position;
    rig_rotation_ = Quat::from_yaw(scene.player_yaw_rad +
                                   kPi);  // the player's -Z (forward) along the start's facing
    floor_y_ = scene.player_position.y;
    choose_blend_mode();
    try {
      create_session();
      renderer_ = std::make_unique<Renderer>(*gpu_, geometry.meshes(), colour_[0].size, 2);
      pool_ = vk::raii::CommandPool(
          gpu_->device,
          vk::CommandPoolCreateInfo(vk::CommandPoolCreateFlagBits::eResetCommandBuffer,
                                    gpu_->queue_family));
      commands_ = vk::raii::CommandBuffers(
          gpu_->device, vk::CommandBufferAllocateInfo(*pool_, vk::CommandBufferLevel::ePrimary, 1));
      done_ = vk::raii::Fence(gpu_->device, vk::FenceCreateInfo());
    } catch (...) {
      // The session's swapchains live on our Vulkan device: they go before it does.
      destroy_session();
      throw;
    }
  }

  ~XrGame() override {
    try {
      leave();
    } catch (const std::exception& e) {
      std::cerr << "stagger play: while leaving VR: " << e.what() << "\n";
    }
    destroy_session();
    renderer_.reset();
    commands_.clear();
    pool_.clear();
    done_.clear();
    gpu_.reset();
    xrDestroyInstance(instance_);
  }

  bool begin_frame(FrameInput& input) override {
    // A session can be lost between the event and the call: XR_ERROR_SESSION_LOST is a loss too.
    for (;;) {
      if (!wait_until_running()) return false;
      try {
        XrFrameWaitInfo wait{XR_TYPE_FRAME_WAIT_INFO};
        frame_state_ = {XR_TYPE_FRAME_STATE};
        xr_check(xrWaitFrame(session_, &wait, &frame_state_), "xrWaitFrame");
        XrFrameBeginInfo begin{XR_TYPE_FRAME_BEGIN_INFO};
        xr_check(xrBeginFrame(session_, &begin),
                 "xrBeginFrame");  // (XR_FRAME_DISCARDED is a success)
        break;
      } catch (const XrFailure& e) {
        if (e.result != XR_ERROR_SESSION_LOST) throw;
        loss_pending_ = true;
      }
    }
    frame_begun_ = true;
    const XrTime t = frame_state_.predictedDisplayTime;
    input.frame_s = last_display_time_ > 0
                        ? static_cast<double>(t - last_display_time_) * 1e-9
                        : static_cast<double>(frame_state_.predictedDisplayPeriod) * 1e-9;
    input.frame_s = std::clamp(input.frame_s, 0.0, 0.25);
    last_display_time_ = t;
    input.focused = state_ == XR_SESSION_STATE_FOCUSED;
    read_head(input, t);
    read_hands(input, t);
    return true;
  }

  void draw(const DrawFrame& frame, bool keep_pixels) override {
    if (!frame_begun_) return;
    frame_begun_ = false;
    std::array<XrCompositionLayerProjectionView, 2> views{};
    std::array<XrCompositionLayerDepthInfoKHR, 2> depth_infos{};
    XrCompositionLayerProjection layer{XR_TYPE_COMPOSITION_LAYER_PROJECTION};
    std::vector<XrCompositionLayerBaseHeader*> layers;
    bool drawn = false;
    try {
      drawn = frame_state_.shouldRender && render_views(frame, views, depth_infos, keep_pixels);
    } catch (const XrFailure& e) {
      if (e.result != XR_ERROR_SESSION_LOST) throw;
      loss_pending_ = true;  // (the next begin_frame makes a new session)
      return;
    }
    if (drawn) {
      kept_pixels_ = kept_pixels_ || keep_pixels;
      layer.space = base_space_;
      layer.viewCount = static_cast<std::uint32_t>(views.size());
      layer.views = views.data();
      layers.push_back(reinterpret_cast<XrCompositionLayerBaseHeader*>(&layer));
    }
    XrFrameEndInfo end{XR_TYPE_FRAME_END_INFO};
    end.displayTime = frame_state_.predictedDisplayTime;
    end.environmentBlendMode = blend_mode_;
    end.layerCount = static_cast<std::uint32_t>(layers.size());
    end.layers = layers.data();
    const XrResult ended = xrEndFrame(session_, &end);
    if (ended == XR_ERROR_SESSION_LOST) {
      loss_pending_ = true;  // (the next begin_frame makes a new session)
      return;
    }
    xr_check(ended, "xrEndFrame");
  }

  bool save_screenshot(const std::string& path) override {
    if (!kept_pixels_) return false;
    const vk::Extent2D size = renderer_->size();
    return write_png(
        Image{static_cast<int>(size.width), static_cast<int>(size.height), renderer_->pixels_rgb()},
        path);
  }

  void haptic_pulse(int side, float amplitude, double seconds) override {
    if (input_ && running_)
      input_->haptic_pulse(side, amplitude, static_cast<XrDuration>(seconds * 1e9));
  }

  std::string end_reason() const override { return end_reason_; }
  std::string device() const override {
    return gpu_->device_name + " through OpenXR (" + runtime_name() + ")";
  }
  int session_restarts() const override { return restarts_; }

 private:
  std::string runtime_name() const {
    XrInstanceProperties properties{XR_TYPE_INSTANCE_PROPERTIES};
    if (XR_FAILED(xrGetInstanceProperties(instance_, &properties))) return "unknown runtime";
    return properties.runtimeName;
  }

  void choose_blend_mode() {
    std::uint32_t count = 0;
    xr_check(xrEnumerateEnvironmentBlendModes(
                 instance_, system_, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, 0, &count, nullptr),
             "xrEnumerateEnvironmentBlendModes");
    std::vector<XrEnvironmentBlendMode> modes(count);
    xr_check(xrEnumerateEnvironmentBlendModes(instance_, system_,
                                              XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, count,
                                              &count, modes.data()),
             "xrEnumerateEnvironmentBlendModes");
    if (modes.empty())
      throw std::runtime_error("the OpenXR runtime offers no environment blend mode");
    // Opaque when offered (a see-through display may lack it: take what it has).
    blend_mode_ =
        std::find(modes.begin(), modes.end(), XR_ENVIRONMENT_BLEND_MODE_OPAQUE) != modes.end()
            ? XR_ENVIRONMENT_BLEND_MODE_OPAQUE
            : modes.front();
  }

  void create_session() {
    XrGraphicsBindingVulkan2KHR binding{XR_TYPE_GRAPHICS_BINDING_VULKAN2_KHR};
    binding.instance = static_cast<VkInstance>(*gpu_->instance);
    binding.physicalDevice = static_cast<VkPhysicalDevice>(*gpu_->physical_device);
    binding.device = static_cast<VkDevice>(*gpu_->device);
    binding.queueFamilyIndex = gpu_->queue_family;
    binding.queueIndex = 0;
    XrSessionCreateInfo info{XR_TYPE_SESSION_CREATE_INFO, &binding};
    info.systemId = system_;
    xr_check(xrCreateSession(instance_, &info, &session_), "xrCreateSession");
    state_ = XR_SESSION_STATE_IDLE;
    create_spaces();
    input_ = std::make_unique<XrInput>(instance_);
    input_->attach(session_);
    if (hand_tracking_) hands_ = std::make_unique<XrHandTracking>(instance_, session_);
    create_swapchains();
  }

  void create_spaces() {
    std::uint32_t count = 0;
    xr_check(xrEnumerateReferenceSpaces(session_, 0, &count, nullptr),
             "xrEnumerateReferenceSpaces");
    std::vector<XrReferenceSpaceType> types(count);
    xr_check(xrEnumerateReferenceSpaces(session_, count, &count, types.data()),
             "xrEnumerateReferenceSpaces");
    // STAGE (origin on the floor) when there is one; LOCAL (origin at the head) otherwise, then
    // the floor is guessed 1.6 m below the start.
    const bool stage =
        std::find(types.begin(), types.end(), XR_REFERENCE_SPACE_TYPE_STAGE) != types.end();
    XrReferenceSpaceCreateInfo info{XR_TYPE_REFERENCE_SPACE_CREATE_INFO};
    info.referenceSpaceType = stage ? XR_REFERENCE_SPACE_TYPE_STAGE : XR_REFERENCE_SPACE_TYPE_LOCAL;
    info.poseInReferenceSpace.orientation.w = 1.0f;
    if (!stage) info.poseInReferenceSpace.position.y = -1.6f;
    xr_check(xrCreateReferenceSpace(session_, &info, &base_space_), "xrCreateReferenceSpace");
    info.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_VIEW;
    info.poseInReferenceSpace.position.y = 0;
    xr_check(xrCreateReferenceSpace(session_, &info, &view_space_), "xrCreateReferenceSpace");
  }

  std::vector<std::int64_t> swapchain_formats() const {
    std::uint32_t count = 0;
    xr_check(xrEnumerateSwapchainFormats(session_, 0, &count, nullptr),
             "xrEnumerateSwapchainFormats");
    std::vector<std::int64_t> formats(count);
    xr_check(xrEnumerateSwapchainFormats(session_, count, &count, formats.data()),
             "xrEnumerateSwapchainFormats");
    return formats;
  }

  Swapchain make_swapchain(std::int64_t format, vk::Extent2D size,
                           XrSwapchainUsageFlags usage) const {
    XrSwapchainCreateInfo info{XR_TYPE_SWAPCHAIN_CREATE_INFO};
    info.usageFlags = usage;
    info.format = format;
    info.sampleCount = 1;
    info.width = size.width;
    info.height = size.height;
    info.faceCount = 1;
    info.arraySize = 1;
    info.mipCount = 1;
    Swapchain s;
    s.size = size;
    xr_check(xrCreateSwapchain(session_, &info, &s.handle), "xrCreateSwapchain");
    std::uint32_t count = 0;
    xr_check(xrEnumerateSwapchainImages(s.handle, 0, &count, nullptr),
             "xrEnumerateSwapchainImages");
    std::vector<XrSwapchainImageVulkan2KHR> images(count, {XR_TYPE_SWAPCHAIN_IMAGE_VULKAN2_KHR});
    xr_check(
        xrEnumerateSwapchainImages(s.handle, count, &count,
                                   reinterpret_cast<XrSwapchainImageBaseHeader*>(images.data())),
        "xrEnumerateSwapchainImages");
    for (const auto& image : images) s.images.emplace_back(image.image);
    return s;
  }

  void create_swapchains() {
    std::uint32_t count = 0;
    xr_check(xrEnumerateViewConfigurationViews(
                 instance_, system_, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, 0, &count, nullptr),
             "xrEnumerateViewConfigurationViews");
    std::vector<XrViewConfigurationView> config(count, {XR_TYPE_VIEW_CONFIGURATION_VIEW});
    xr_check(xrEnumerateViewConfigurationViews(instance_, system_,
                                               XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, count,
                                               &count, config.data()),
             "xrEnumerateViewConfigurationViews");
    if (config.size() != 2)
      throw std::runtime_error("the OpenXR runtime's stereo view has " +
                               std::to_string(config.size()) + " views");
    const std::vector<std::int64_t> formats = swapchain_formats();
    // sRGB colour (the renderer's target is sRGB, so a blit keeps the picture as it is).
    const std::int64_t preferred[] = {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB,
                                      VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM};
    std::int64_t colour = 0;
    for (std::int64_t f : preferred) {
      if (colour == 0 && std::find(formats.begin(), formats.end(), f) != formats.end()) colour = f;
    }
    if (colour == 0)
      throw std::runtime_error("the OpenXR runtime offers no 8-bit RGBA swapchain format");
    const bool depth =
        std::find(formats.begin(), formats.end(), VK_FORMAT_D32_SFLOAT) != formats.end();
    for (std::size_t eye = 0; eye < 2; ++eye) {
      const vk::Extent2D size(config[eye].recommendedImageRectWidth,
                              config[eye].recommendedImageRectHeight);
      colour_[eye] = make_swapchain(
          colour, size,
          XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT | XR_SWAPCHAIN_USAGE_TRANSFER_DST_BIT);
      if (depth) {
        depth_[eye] = make_swapchain(
            VK_FORMAT_D32_SFLOAT, size,
            XR_SWAPCHAIN_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | XR_SWAPCHAIN_USAGE_TRANSFER_DST_BIT);
      }
    }
  }

  void destroy_session() {
    if (gpu_) gpu_->device.waitIdle();
    for (auto* chains : {&colour_, &depth_}) {
      for (Swapchain& s : *chains) {
        if (s.handle != XR_NULL_HANDLE) xrDestroySwapchain(s.handle);
        s = Swapchain{};
      }
    }
    hands_.reset();
    input_.reset();
    for (XrSpace* space : {&base_space_, &view_space_}) {
      if (*space != XR_NULL_HANDLE) xrDestroySpace(*space);
      *space = XR_NULL_HANDLE;
    }
    if (session_ != XR_NULL_HANDLE) xrDestroySession(session_);
    session_ = XR_NULL_HANDLE;
    running_ = false;
    frame_begun_ = false;
  }

  void poll_events() {
    XrEventDataBuffer event{XR_TYPE_EVENT_DATA_BUFFER};
    for (;;) {
      const XrResult polled = xrPollEvent(instance_, &event);
      if (polled == XR_ERROR_INSTANCE_LOST) {
        instance_lost_ = true;
        return;
      }
      if (xr_check(polled, "xrPollEvent") != XR_SUCCESS) return;  // XR_EVENT_UNAVAILABLE
      switch (event.type) {
        case XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED: {
          const auto& changed = *reinterpret_cast<const XrEventDataSessionStateChanged*>(&event);
          if (changed.session == session_) on_state(changed.state);
          break;
        }
        case XR_TYPE_EVENT_DATA_INSTANCE_LOSS_PENDING:
          instance_lost_ = true;
          break;
        case XR_TYPE_EVENT_DATA_INTERACTION_PROFILE_CHANGED:
          if (input_) std::cerr << "stagger play: controllers: " << profile_text() << "\n";
          break;
        default:
          break;  // (EVENTS_LOST, REFERENCE_SPACE_CHANGE_PENDING: the poses read next frame are
                  // already right)
      }
      event = {XR_TYPE_EVENT_DATA_BUFFER};
    }
  }

  std::string profile_text() const {
    const std::string left = input_->current_profile(0), right = input_->current_profile(1);
    return "left " + (left.empty() ? std::string("none") : left) + ", right " +
           (right.empty() ? std::string("none") : right);
  }

  void on_state(XrSessionState state) {
    state_ = state;
    switch (state) {
      case XR_SESSION_STATE_READY: {
        XrSessionBeginInfo begin{XR_TYPE_SESSION_BEGIN_INFO};
        begin.primaryViewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
        xr_check(xrBeginSession(session_, &begin), "xrBeginSession");
        running_ = true;
        ever_ran_ = true;
        last_display_time_ = 0;  // (the first frame after a pause or a new session is one period)
        break;
      }
      case XR_SESSION_STATE_STOPPING:
        xr_check(xrEndSession(session_), "xrEndSession");
        running_ = false;
        break;
      case XR_SESSION_STATE_EXITING:
        exiting_ = true;
        break;
      case XR_SESSION_STATE_LOSS_PENDING:
        loss_pending_ = true;
        break;
      default:
        break;
    }
  }

  // Handles events until the session runs frames; false when the game must end.
  bool wait_until_running() {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
      poll_events();
      if (exiting_) {
        end_reason_ = "session exited";
        return false;
      }
      if (instance_lost_) {
        end_reason_ = "OpenXR instance lost";
        return false;
      }
      if (loss_pending_ && !recover_session()) return false;
      if (running_) return true;
      // Before the first start the runtime may never come; later, IDLE is a headset taken off.
      if (!ever_ran_ && std::chrono::steady_clock::now() - start >
                            std::chrono::duration<double>(kWaitForSessionS)) {
        end_reason_ = "the OpenXR runtime never started the session";
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(ever_ran_ ? 20 : 5));
    }
  }

  // LOSS_PENDING (or XR_ERROR_SESSION_LOST): the session can no longer work, a device unplugged.
  // Destroy it (no xrEndSession), wait for the same system to answer again, make a new session.
  bool recover_session() {
    loss_pending_ = false;
    destroy_session();
    std::cerr
        << "stagger play: the XR session was lost; waiting for the headset to start a new one\n";
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
      try {
        XrSystemGetInfo info{XR_TYPE_SYSTEM_GET_INFO};
        info.formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY;
        XrSystemId system = XR_NULL_SYSTEM_ID;
        const XrResult r = xrGetSystem(instance_, &info, &system);
        if (r != XR_ERROR_FORM_FACTOR_UNAVAILABLE) {
          xr_check(r, "xrGetSystem");
          // Another headset would need another Vulkan device: that is a new game, not a restart.
          if (system != system_) {
            end_reason_ = "the headset changed after the session was lost";
            return false;
          }
          create_session();
          ++restarts_;
          std::cerr << "stagger play: started a new XR session\n";
          return true;
        }
      } catch (const XrFailure& e) {
        destroy_session();
        if (e.result == XR_ERROR_INSTANCE_LOST) {
          end_reason_ = "OpenXR instance lost";
          return false;
        }
      }
      if (std::chrono::steady_clock::now() - start > std::chrono::duration<double>(kRecoverS)) {
        end_reason_ = "the XR session was lost and could not be started again";
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
  }

  // Leaving on our own (time is up): ask to exit and keep ending frames until the runtime stops
  // the session (STOPPING → xrEndSession → IDLE → EXITING).
  void leave() {
    if (session_ == XR_NULL_HANDLE || exiting_) return;
    if (frame_begun_) draw(DrawFrame{}, false);
    if (!running_) return;  // (not running: nothing to stop; the session is simply destroyed)
    bool requested = false;
    for (int i = 0; i < 1000 && !exiting_ && !loss_pending_ && !instance_lost_; ++i) {
      if (running_ && !requested) {
        xr_check(xrRequestExitSession(session_), "xrRequestExitSession");
        requested = true;
      }
      poll_events();
      if (!running_) {
        requested = false;  // (should READY come again, ask again)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      XrFrameWaitInfo wait{XR_TYPE_FRAME_WAIT_INFO};
      frame_state_ = {XR_TYPE_FRAME_STATE};
      xr_check(xrWaitFrame(session_, &wait, &frame_state_), "xrWaitFrame");
      XrFrameBeginInfo begin{XR_TYPE_FRAME_BEGIN_INFO};
      xr_check(xrBeginFrame(session_, &begin), "xrBeginFrame");
      XrFrameEndInfo end{XR_TYPE_FRAME_END_INFO};
      end.displayTime = frame_state_.predictedDisplayTime;
      end.environmentBlendMode = blend_mode_;
      xr_check(xrEndFrame(session_, &end), "xrEndFrame");
    }
  }

  Vec3 to_world(const XrVector3f& p) const { return rig_origin_ + rig_rotation_.rotate(to_vec(p)); }
  Quat to_world(const XrQuaternionf& q) const { return rig_rotation_ * to_quat(q); }

  void read_head(FrameInput& input, XrTime t) const {
    XrSpaceLocation head{XR_TYPE_SPACE_LOCATION};
    xr_check(xrLocateSpace(view_space_, base_space_, t, &head), "xrLocateSpace");
    if (!(head.locationFlags & XR_SPACE_LOCATION_POSITION_VALID_BIT)) return;
    input.player_present = true;
    input.player_head = to_world(head.pose.position);
    input.player_feet = {input.player_head.x, floor_y_, input.player_head.z};
  }

  // Controllers first; a tracked hand (XR_EXT_hand_tracking) where no controller is active.
  void read_hands(FrameInput& input, XrTime t) {
    const std::array<ControllerState, 2> controllers = input_->read(base_space_, t);
    for (std::size_t side = 0; side < 2; ++side) {
      const ControllerState& c = controllers[side];
      TrackedHand& hand = input.hands[side];
      if (c.active && c.position_valid && c.orientation_valid) {
        hand = {true,
                false,
                to_world(c.grip.position),
                to_world(c.grip.orientation),
                rig_rotation_.rotate(to_vec(c.velocity)),
                {}};
      } else if (hands_ && input.focused) {
        if (const auto palm = hands_->palm(static_cast<int>(side), base_space_, t)) {
          hand = {true,
                  false,
                  to_world(palm->pose.position),
                  to_world(palm->pose.orientation),
                  rig_rotation_.rotate(to_vec(palm->velocity)),
                  {}};
          for (const auto& joint : palm->fingers) {
            hand.finger_joints.push_back(joint ? std::optional(to_world(*joint)) : std::nullopt);
          }
        }
      }
    }
  }

  bool locate_views(std::array<XrView, 2>& views) const {
    XrViewLocateInfo info{XR_TYPE_VIEW_LOCATE_INFO};
    info.viewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
    info.displayTime = frame_state_.predictedDisplayTime;
    info.space = base_space_;
    XrViewState state{XR_TYPE_VIEW_STATE};
    views.fill({XR_TYPE_VIEW});
    std::uint32_t count = 0;
    xr_check(xrLocateViews(session_, &info, &state, 2, &count, views.data()), "xrLocateViews");
    const XrViewStateFlags valid =
        XR_VIEW_STATE_POSITION_VALID_BIT | XR_VIEW_STATE_ORIENTATION_VALID_BIT;
    return count == 2 && (state.viewStateFlags & valid) == valid;
  }

  std::uint32_t acquire(const Swapchain& s) const {
    std::uint32_t index = 0;
    XrSwapchainImageAcquireInfo acquire{XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO};
    xr_check(xrAcquireSwapchainImage(s.handle, &acquire, &index), "xrAcquireSwapchainImage");
    XrSwapchainImageWaitInfo wait{XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO};
    wait.timeout = XR_INFINITE_DURATION;
    xr_check(xrWaitSwapchainImage(s.handle, &wait), "xrWaitSwapchainImage");
    return index;
  }

  static void release(const Swapchain& s) {
    XrSwapchainImageReleaseInfo release{XR_TYPE_SWAPCHAIN_IMAGE_RELEASE_INFO};
    xr_check(xrReleaseSwapchainImage(s.handle, &release), "xrReleaseSwapchainImage");
  }

  // Draws both eyes into the renderer's targets, copies them into the swapchains' images and
  // fills the projection views; false when the views cannot be located this frame.
  bool render_views(const DrawFrame& frame, std::array<XrCompositionLayerProjectionView, 2>& out,
                    std::array<XrCompositionLayerDepthInfoKHR, 2>& depth_infos, bool keep_pixels) {
    std::array<XrView, 2> views{};
    if (!locate_views(views)) return false;
    renderer_->upload(frame);
    const vk::CommandBuffer cmd = *commands_[0];
    cmd.reset();
    cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
    for (std::size_t eye = 0; eye < 2; ++eye) {
      const EyeView view{to_world(views[eye].pose.position),
                         to_world(views[eye].pose.orientation),
                         {views[eye].fov.angleLeft, views[eye].fov.angleRight,
                          views[eye].fov.angleUp, views[eye].fov.angleDown}};
      const int target = static_cast<int>(eye);
      renderer_->record(cmd, target, view_projection(view));
      // Swapchain images come from xrWaitSwapchainImage in attachment layout and go back in it.
      const std::uint32_t colour = acquire(colour_[eye]);
      renderer_->record_blit(cmd, target, colour_[eye].images[colour], colour_[eye].size,
                             vk::ImageLayout::eColorAttachmentOptimal,
                             vk::ImageLayout::eColorAttachmentOptimal);
      if (depth_[eye].handle != XR_NULL_HANDLE)
        record_depth_copy(cmd, target, depth_[eye].images[acquire(depth_[eye])], depth_[eye].size);
      if (keep_pixels && eye == 0) renderer_->record_readback(cmd, target);
      out[eye] = {XR_TYPE_COMPOSITION_LAYER_PROJECTION_VIEW};
      out[eye].pose = views[eye].pose;
      out[eye].fov = views[eye].fov;
      out[eye].subImage.swapchain = colour_[eye].handle;
      out[eye].subImage.imageRect = {{0, 0},
                                     {static_cast<std::int32_t>(colour_[eye].size.width),
                                      static_cast<std::int32_t>(colour_[eye].size.height)}};
      if (depth_[eye].handle != XR_NULL_HANDLE && depth_layers_) {
        depth_infos[eye] = {XR_TYPE_COMPOSITION_LAYER_DEPTH_INFO_KHR};
        depth_infos[eye].subImage.swapchain = depth_[eye].handle;
        depth_infos[eye].subImage.imageRect = out[eye].subImage.imageRect;
        depth_infos[eye].minDepth = 0;
        depth_infos[eye].maxDepth = 1;
        depth_infos[eye].nearZ = kNearM;
        depth_infos[eye].farZ = kFarM;
        out[eye].next = &depth_infos[eye];
      }
    }
    cmd.end();
    gpu_->queue.submit(vk::SubmitInfo({}, {}, cmd), *done_);
    if (gpu_->device.waitForFences(*done_, VK_TRUE, UINT64_MAX) != vk::Result::eSuccess)
      throw std::runtime_error("GPU hang");
    gpu_->device.resetFences(*done_);
    for (std::size_t eye = 0; eye < 2; ++eye) {
      release(colour_[eye]);
      if (depth_[eye].handle != XR_NULL_HANDLE) release(depth_[eye]);
    }
    return true;
  }

  void record_depth_copy(vk::CommandBuffer cmd, int target, vk::Image dst,
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

  XrInstance instance_;
  bool hand_tracking_;
  bool depth_layers_ = false;
  XrSystemId system_ = XR_NULL_SYSTEM_ID;
  std::unique_ptr<GpuContext> gpu_;
  XrEnvironmentBlendMode blend_mode_ = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
  XrSession session_ = XR_NULL_HANDLE;
  XrSessionState state_ = XR_SESSION_STATE_UNKNOWN;
  bool running_ = false;
  bool ever_ran_ = false;
  bool exiting_ = false;
  bool loss_pending_ = false;
  bool instance_lost_ = false;
  XrSpace base_space_ = XR_NULL_HANDLE;
  XrSpace view_space_ = XR_NULL_HANDLE;
  std::array<Swapchain, 2> colour_{};
  std::array<Swapchain, 2> depth_{};
  std::unique_ptr<XrInput> input_;
  std::unique_ptr<XrHandTracking> hands_;
  std::unique_ptr<Renderer> renderer_;
  vk::raii::CommandPool pool_{nullptr};
  vk::raii::CommandBuffers commands_{nullptr};
  vk::raii::Fence done_{nullptr};
  XrFrameState frame_state_{XR_TYPE_FRAME_STATE};
  bool frame_begun_ = false;
  XrTime last_display_time_ = 0;
  Vec3 rig_origin_;
  Quat rig_rotation_;
  float floor_y_ = 0;
  int restarts_ = 0;
  std::string end_reason_ = "time";
  bool kept_pixels_ = false;
};

}  // namespace

Result<std::unique_ptr<Frontend>> create_xr(const SceneGeometry& geometry,
                                            const sim::SceneDescription& scene,
                                            const PlaySettings& /*settings*/) {
  InstanceChoice choice;
  try {
    choice = create_instance();
  } catch (const XrFailure& e) {
    if (e.result == XR_ERROR_RUNTIME_UNAVAILABLE || e.result == XR_ERROR_RUNTIME_FAILURE) {
      return Error{"no OpenXR runtime is available (" + result_name(e.result) +
                   "): start one (SteamVR, Monado) or play with --mode desktop"};
    }
    return Error{std::string("cannot start OpenXR: ") + e.what()};
  } catch (const std::exception& e) {
    return Error{std::string("cannot start OpenXR: ") + e.what()};
  }
  try {
    auto game = std::make_unique<XrGame>(choice, geometry, scene);
    return std::unique_ptr<Frontend>(std::move(game));
  } catch (const std::exception& e) {
    // (the XrGame constructor did not finish, so its destructor will not destroy the instance)
    xrDestroyInstance(choice.instance);
    return Error{std::string("cannot start VR: ") + e.what()};
  }
}

}  // namespace stagger::vr
