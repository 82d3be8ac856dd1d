#include "desktop.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>

#include "gpu.h"
#include "renderer.h"
#include "stagger/vr/offscreen.h"

// After Vulkan's headers, so that GLFW declares its Vulkan surface functions.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace stagger::vr {

namespace {

std::string g_glfw_error;  // GLFW reports errors through a callback; the latest one, for messages

void remember_glfw_error(int /*code*/, const char* text) {
  g_glfw_error = text;
}

constexpr float kEyeHeightM = 1.6f;  // [m] the desktop player's eyes over its feet

// The keys FrameInput::keys reports, by the names xdotool and X give them.
constexpr std::pair<int, const char*> kReportedKeys[] = {{GLFW_KEY_SPACE, "space"},
                                                         {GLFW_KEY_PERIOD, "period"},
                                                         {GLFW_KEY_RIGHT, "Right"},
                                                         {GLFW_KEY_LEFT_BRACKET, "bracketleft"},
                                                         {GLFW_KEY_RIGHT_BRACKET, "bracketright"}};

struct Camera {
  Vec3 position;
  float yaw = 0;    // [rad] about +Y; 0 looks along -Z
  float pitch = 0;  // [rad] up positive
  Quat orientation() const { return Quat::from_yaw(yaw) * Quat::from_axis_angle({1, 0, 0}, pitch); }
};

class Desktop final : public Frontend {
 public:
  Desktop(GLFWwindow* window, std::unique_ptr<GpuContext> gpu, VkSurfaceKHR surface,
          const SceneGeometry& geometry, const sim::SceneDescription& scene, bool flying)
      : window_(window),
        gpu_(std::move(gpu)),
        surface_(gpu_->instance, surface),
        geometry_(geometry),
        title_("Stagger: " + scene.name) {
    if (!gpu_->physical_device.getSurfaceSupportKHR(gpu_->queue_family, *surface_)) {
      throw std::runtime_error("the Vulkan device cannot present to this window");
    }
    create_swapchain();
    renderer_ = std::make_unique<Renderer>(*gpu_, geometry.meshes(), extent_, 1);
    pool_ = vk::raii::CommandPool(
        gpu_->device, vk::CommandPoolCreateInfo(vk::CommandPoolCreateFlagBits::eResetCommandBuffer,
                                                gpu_->queue_family));
    commands_ = vk::raii::CommandBuffers(
        gpu_->device, vk::CommandBufferAllocateInfo(*pool_, vk::CommandBufferLevel::ePrimary, 1));
    acquired_ = vk::raii::Semaphore(gpu_->device, vk::SemaphoreCreateInfo());
    done_ = vk::raii::Fence(gpu_->device, vk::FenceCreateInfo(vk::FenceCreateFlagBits::eSignaled));
    flying_ = flying;
    if (flying) {
      // The fly camera starts where the overview picture looks from.
      const EyeView start = overview_camera(scene, aspect());
      camera_.position = start.position;
      const Vec3 forward = start.orientation.rotate({0, 0, -1});
      camera_.yaw = std::atan2(-forward.x, -forward.z);
      camera_.pitch = std::asin(forward.y);
    } else {
      // In the player's body at the level's player start, looking its way (a camera's yaw 0
      // looks along -Z, a level's along +Z).
      camera_.position = scene.player_position + Vec3{0, kEyeHeightM, 0};
      camera_.yaw = scene.player_yaw_rad + kPi;
      camera_.pitch = 0;
    }
    glfwSetWindowUserPointer(window_, this);
    glfwSetScrollCallback(window_, [](GLFWwindow* w, double, double dy) {
      auto* self = static_cast<Desktop*>(glfwGetWindowUserPointer(w));
      self->reach_m_ = std::clamp(self->reach_m_ + 0.1f * static_cast<float>(dy), 0.3f, 2.0f);
    });
    // Keys as events, not polled state: a tap shorter than a frame still counts.
    glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int) {
      if (action == GLFW_RELEASE) return;
      auto* self = static_cast<Desktop*>(glfwGetWindowUserPointer(w));
      if (key == GLFW_KEY_ESCAPE) glfwSetWindowShouldClose(w, GLFW_TRUE);
      if (key == GLFW_KEY_F1 && action == GLFW_PRESS)
        self->toggle_overlay_ = !self->toggle_overlay_;
      if (key == GLFW_KEY_F && action == GLFW_PRESS) self->flying_ = !self->flying_;
      // A tap of Q or E is one flick of the turn stick, however short.
      if (key == GLFW_KEY_Q && action == GLFW_PRESS) self->turn_tap_ = -1;
      if (key == GLFW_KEY_E && action == GLFW_PRESS) self->turn_tap_ = 1;
      for (const auto& [code, name] : kReportedKeys) {
        if (code == key) self->keys_.emplace_back(name);
      }
    });
    last_ = std::chrono::steady_clock::now();
  }

  ~Desktop() override {
    gpu_->device.waitIdle();
    renderer_.reset();
    rendered_.clear();
    swapchain_.clear();
    surface_.clear();
    glfwDestroyWindow(window_);
    glfwTerminate();
  }

  void move_rig(Vec3 translation, float yaw_rad) override {
    if (flying_) return;  // the fly camera leaves the body where it is
    camera_.position = camera_.position + translation;
    camera_.yaw += yaw_rad;
  }

  bool begin_frame(FrameInput& input) override {
    glfwPollEvents();
    if (glfwWindowShouldClose(window_)) {
      end_reason_ = "window closed";
      return false;
    }
    const auto now = std::chrono::steady_clock::now();
    input.frame_s = std::min(0.1, std::chrono::duration<double>(now - last_).count());
    last_ = now;
    look(flying_);
    if (flying_) {
      fly(static_cast<float>(input.frame_s));
    } else {
      walk_keys(input);
    }
    input.toggle_overlay = toggle_overlay_;
    toggle_overlay_ = false;
    input.player_present = true;
    input.player_head = camera_.position;
    input.head_rotation = camera_.orientation();
    input.player_feet = camera_.position - Vec3{0, kEyeHeightM, 0};
    drive_hands(input);
    input.keys = std::move(keys_);
    keys_.clear();
    return true;
  }

  void set_status(const std::string& status) override {
    glfwSetWindowTitle(window_, (title_ + ": " + status).c_str());
  }

  void draw(const DrawFrame& frame, bool keep_pixels) override {
    if (gpu_->device.waitForFences(*done_, VK_TRUE, UINT64_MAX) != vk::Result::eSuccess)
      throw std::runtime_error("GPU hang");
    if (resize_pending_ && !recreate_swapchain()) return;  // (minimised: nothing to draw into)
    std::uint32_t image = 0;
    try {
      const auto [result, index] = swapchain_.acquireNextImage(UINT64_MAX, *acquired_);
      if (result == vk::Result::eSuboptimalKHR) resize_pending_ = true;
      image = index;
    } catch (const vk::OutOfDateKHRError&) {
      resize_pending_ = true;  // (the window changed size; the next frame draws at the new one)
      return;
    }
    gpu_->device.resetFences(*done_);
    renderer_->upload(frame);
    const vk::CommandBuffer cmd = *commands_[0];
    cmd.reset();
    cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
    renderer_->record(cmd, 0, view_projection(eye()));
    renderer_->record_blit(cmd, 0, images_[image], extent_, vk::ImageLayout::eUndefined,
                           vk::ImageLayout::ePresentSrcKHR);
    if (keep_pixels) renderer_->record_readback(cmd, 0);
    cmd.end();
    // One "rendered" semaphore per image: the presentation engine may still wait on the last
    // frame's when this one is submitted.
    const vk::Semaphore rendered = *rendered_[image];
    const vk::PipelineStageFlags wait_stage = vk::PipelineStageFlagBits::eTransfer;
    gpu_->queue.submit(vk::SubmitInfo(*acquired_, wait_stage, cmd, rendered), *done_);
    try {
      if (gpu_->queue.presentKHR(vk::PresentInfoKHR(rendered, *swapchain_, image)) ==
          vk::Result::eSuboptimalKHR)
        resize_pending_ = true;
    } catch (const vk::OutOfDateKHRError&) {
      resize_pending_ = true;
    }
    kept_pixels_ = kept_pixels_ || keep_pixels;
  }

  bool save_screenshot(const std::string& path) override {
    if (!kept_pixels_) return false;
    gpu_->device.waitIdle();
    return write_png(Image{static_cast<int>(extent_.width), static_cast<int>(extent_.height),
                           renderer_->pixels_rgb()},
                     path);
  }

  std::string end_reason() const override { return end_reason_; }
  std::string device() const override { return gpu_->device_name; }

 private:
  float aspect() const {
    return static_cast<float>(extent_.width) / static_cast<float>(extent_.height);
  }
  EyeView eye() const {
    return {camera_.position, camera_.orientation(), symmetric_fov(70.0f * kPi / 180.0f, aspect())};
  }

  // After a resize: a new swapchain and render targets of the window's new size; false while the
  // window has no area (minimised).
  bool recreate_swapchain() {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    if (w == 0 || h == 0) return false;
    gpu_->device.waitIdle();
    rendered_.clear();
    swapchain_.clear();
    create_swapchain();
    renderer_ = std::make_unique<Renderer>(*gpu_, geometry_.meshes(), extent_, 1);
    kept_pixels_ = false;
    resize_pending_ = false;
    return true;
  }

  void create_swapchain() {
    const vk::SurfaceCapabilitiesKHR caps =
        gpu_->physical_device.getSurfaceCapabilitiesKHR(*surface_);
    const auto formats = gpu_->physical_device.getSurfaceFormatsKHR(*surface_);
    vk::SurfaceFormatKHR format = formats.front();
    for (const auto& f : formats) {
      if (f.format == vk::Format::eB8G8R8A8Srgb || f.format == vk::Format::eR8G8B8A8Srgb)
        format = f;
    }
    extent_ = caps.currentExtent;
    if (extent_.width == UINT32_MAX) {
      int w = 0, h = 0;
      glfwGetFramebufferSize(window_, &w, &h);
      extent_ = vk::Extent2D(static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h));
    }
    std::uint32_t count = caps.minImageCount + 1;
    if (caps.maxImageCount > 0) count = std::min(count, caps.maxImageCount);
    const vk::SwapchainCreateInfoKHR info({}, *surface_, count, format.format, format.colorSpace,
                                          extent_, 1, vk::ImageUsageFlagBits::eTransferDst,
                                          vk::SharingMode::eExclusive, {}, caps.currentTransform,
                                          vk::CompositeAlphaFlagBitsKHR::eOpaque,
                                          vk::PresentModeKHR::eFifo, true);
    swapchain_ = vk::raii::SwapchainKHR(gpu_->device, info);
    images_ = swapchain_.getImages();
    for (std::size_t i = 0; i < images_.size(); ++i)
      rendered_.emplace_back(gpu_->device, vk::SemaphoreCreateInfo());
  }

  bool key(int k) const { return glfwGetKey(window_, k) == GLFW_PRESS; }

  // The right mouse button held turns the view (in the body, the head turns).
  void look(bool /*flying*/) {
    double x = 0, y = 0;
    glfwGetCursorPos(window_, &x, &y);
    if (glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS && looking_) {
      camera_.yaw -= 0.004f * static_cast<float>(x - cursor_x_);
      camera_.pitch =
          std::clamp(camera_.pitch - 0.004f * static_cast<float>(y - cursor_y_), -1.5f, 1.5f);
    }
    looking_ = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
    cursor_x_ = x;
    cursor_y_ = y;
  }

  // In the body, W A S D are the move stick and Q and E flick the turn stick.
  void walk_keys(FrameInput& input) {
    const auto axis = [this](int plus, int minus) {
      return (key(plus) ? 1.0f : 0.0f) - (key(minus) ? 1.0f : 0.0f);
    };
    input.move_stick = {axis(GLFW_KEY_D, GLFW_KEY_A), axis(GLFW_KEY_W, GLFW_KEY_S)};
    // A tap shows as the stick pushed for one frame and back the next.
    const float held = axis(GLFW_KEY_E, GLFW_KEY_Q);
    input.turn_stick = {turn_tap_ != 0 && !turn_tapped_ ? turn_tap_ : held, 0.0f};
    turn_tapped_ = turn_tap_ != 0 && !turn_tapped_;
    if (!turn_tapped_) turn_tap_ = 0;
  }

  // The fly camera (F toggles it): W A S D along the view, Q and E down and up, Shift faster.
  void fly(float dt) {
    const float speed = (key(GLFW_KEY_LEFT_SHIFT) ? 6.0f : 2.5f) * dt;
    const Quat heading = Quat::from_yaw(camera_.yaw);
    Vec3 move;
    if (key(GLFW_KEY_W)) move = move + heading.rotate({0, 0, -1});
    if (key(GLFW_KEY_S)) move = move + heading.rotate({0, 0, 1});
    if (key(GLFW_KEY_A)) move = move + heading.rotate({-1, 0, 0});
    if (key(GLFW_KEY_D)) move = move + heading.rotate({1, 0, 0});
    if (key(GLFW_KEY_E)) move = move + Vec3{0, 1, 0};
    if (key(GLFW_KEY_Q)) move = move + Vec3{0, -1, 0};
    if (length(move) > 0) camera_.position = camera_.position + normalized(move) * speed;
  }

  // The right hand goes where the cursor points, `reach_m_` from the eye (the wheel changes it),
  // while the left button is held; otherwise both hands rest as ghosts beside the camera.
  void drive_hands(FrameInput& input) {
    const Quat facing = camera_.orientation();
    for (int side = 0; side < 2; ++side) {
      TrackedHand& hand = input.hands[static_cast<std::size_t>(side)];
      hand.rotation = facing;
      hand.position =
          camera_.position + facing.rotate({side == 0 ? -0.25f : 0.25f, -0.35f, -0.45f});
      hand.tracked = false;
      hand.ghost_follows = true;
    }
    TrackedHand& right = input.hands[1];
    if (glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS) {
      double x = 0, y = 0;
      glfwGetCursorPos(window_, &x, &y);
      int w = 1, h = 1;
      glfwGetWindowSize(window_, &w, &h);
      const Fov fov = eye().fov;
      const float u = static_cast<float>(x) / static_cast<float>(w),
                  v = static_cast<float>(y) / static_cast<float>(h);
      const float tx = std::tan(fov.left) + u * (std::tan(fov.right) - std::tan(fov.left));
      const float ty = std::tan(fov.up) + v * (std::tan(fov.down) - std::tan(fov.up));
      const Vec3 ray = normalized(facing.rotate({tx, ty, -1}));
      right.position = camera_.position + ray * reach_m_;
      right.tracked = true;
      right.ghost_follows = false;
    }
    const double dt = std::max(1e-3, input.frame_s);
    right.velocity = right.tracked && right_was_tracked_
                         ? (right.position - last_right_) / static_cast<float>(dt)
                         : Vec3{};
    right_was_tracked_ = right.tracked;
    last_right_ = right.position;
  }

  GLFWwindow* window_;
  std::unique_ptr<GpuContext> gpu_;
  vk::raii::SurfaceKHR surface_;
  const SceneGeometry& geometry_;  // (the game's; it outlives the window)
  vk::raii::SwapchainKHR swapchain_{nullptr};
  std::vector<vk::Image> images_;
  vk::Extent2D extent_;
  std::unique_ptr<Renderer> renderer_;
  vk::raii::CommandPool pool_{nullptr};
  vk::raii::CommandBuffers commands_{nullptr};
  vk::raii::Semaphore acquired_{nullptr};
  std::vector<vk::raii::Semaphore> rendered_;  // per swapchain image
  vk::raii::Fence done_{nullptr};
  Camera camera_;
  std::chrono::steady_clock::time_point last_;
  double cursor_x_ = 0, cursor_y_ = 0;
  bool looking_ = false;
  bool flying_ = false;          // the fly camera (F) instead of the player's body
  float turn_tap_ = 0;           // Q (-1) or E (+1) pressed since the last frame
  bool turn_tapped_ = false;     // the tap was shown last frame: now the stick comes back
  bool toggle_overlay_ = false;  // F1 was pressed since the last frame
  float reach_m_ = 0.7f;
  bool right_was_tracked_ = false;
  Vec3 last_right_;
  std::string end_reason_ = "time";
  std::string title_;
  std::vector<std::string> keys_;  // pressed since the last frame (FrameInput::keys)
  bool kept_pixels_ = false;
  bool resize_pending_ = false;
};

}  // namespace

Result<std::unique_ptr<Frontend>> create_desktop(const SceneGeometry& geometry,
                                                 const sim::SceneDescription& scene,
                                                 const PlaySettings& settings) {
  glfwSetErrorCallback(remember_glfw_error);
  if (glfwInit() != GLFW_TRUE)
    return Error{"no display to open a window on (" + g_glfw_error + ")"};
  if (glfwVulkanSupported() != GLFW_TRUE) {
    glfwTerminate();
    return Error{"the display has no Vulkan presentation support"};
  }
  std::uint32_t count = 0;
  const char** names = glfwGetRequiredInstanceExtensions(&count);
  const std::vector<const char*> extensions(names, names + count);
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  GLFWwindow* window = glfwCreateWindow(settings.width, settings.height,
                                        ("Stagger: " + scene.name).c_str(), nullptr, nullptr);
  if (window == nullptr) {
    glfwTerminate();
    return Error{"cannot open a window (" + g_glfw_error + ")"};
  }
  try {
    std::unique_ptr<GpuContext> gpu = create_gpu(extensions, true);
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    if (glfwCreateWindowSurface(static_cast<VkInstance>(*gpu->instance), window, nullptr,
                                &surface) != VK_SUCCESS) {
      throw std::runtime_error("cannot make a Vulkan surface for the window");
    }
    return std::unique_ptr<Frontend>(std::make_unique<Desktop>(
        window, std::move(gpu), surface, geometry, scene, settings.start_flying));
  } catch (const std::exception& e) {
    glfwDestroyWindow(window);
    glfwTerminate();
    return Error{std::string("cannot draw in a window: ") + e.what()};
  }
}

}  // namespace stagger::vr
