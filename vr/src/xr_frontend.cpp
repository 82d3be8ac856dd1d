#include "xr_frontend.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "xr_common.h"
#include "xr_extension.h"
#include "xr_frame_loop.h"
#include "xr_rig.h"
#include "xr_session.h"
#include "xr_session_state.h"

namespace stagger::vr {

namespace {

constexpr double kWaitForHeadsetS =
    10.0;  // [s] xrGetSystem retried while the form factor is unavailable
constexpr double kWaitForSessionS =
    30.0;                           // [s] no session start this long after creation ends the game
constexpr double kRecoverS = 60.0;  // [s] after a session loss, how long to wait for the headset

using Clock = std::chrono::steady_clock;

bool longer_than(Clock::time_point start, double seconds) {
  return Clock::now() - start > std::chrono::duration<double>(seconds);
}

// The instance, with the extensions of the list (xr_extension.cpp) that the runtime offers.
struct InstanceChoice {
  XrInstance instance = XR_NULL_HANDLE;
  XrExtensions extensions;
};

std::vector<XrExtensionProperties> offered_extensions() {
  std::uint32_t count = 0;
  xr_check(xrEnumerateInstanceExtensionProperties(nullptr, 0, &count, nullptr),
           "xrEnumerateInstanceExtensionProperties");
  std::vector<XrExtensionProperties> offered(count, {XR_TYPE_EXTENSION_PROPERTIES});
  xr_check(xrEnumerateInstanceExtensionProperties(nullptr, count, &count, offered.data()),
           "xrEnumerateInstanceExtensionProperties");
  return offered;
}

InstanceChoice create_instance() {
  // The loader prints its own errors to stderr unless told not to; the game says one sentence.
  setenv("XR_LOADER_DEBUG", "none", /*overwrite=*/0);
  XrExtensions extensions(offered_extensions());
  const std::vector<const char*> enabled = extensions.names();
  XrInstanceCreateInfo info{XR_TYPE_INSTANCE_CREATE_INFO};
  std::strcpy(info.applicationInfo.applicationName, "stagger");
  info.applicationInfo.applicationVersion = 1;
  std::strcpy(info.applicationInfo.engineName, "stagger");
  info.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
  info.enabledExtensionCount = static_cast<std::uint32_t>(enabled.size());
  info.enabledExtensionNames = enabled.data();
  XrInstance instance = XR_NULL_HANDLE;
  xr_check(xrCreateInstance(&info, &instance), "xrCreateInstance");
  return {instance, std::move(extensions)};
}

// The head-mounted display's system; none while XR_ERROR_FORM_FACTOR_UNAVAILABLE asks to try
// again later (a headset not there yet). Any other failure throws.
std::optional<XrSystemId> find_system(XrInstance instance) {
  XrSystemGetInfo info{XR_TYPE_SYSTEM_GET_INFO};
  info.formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY;
  XrSystemId system = XR_NULL_SYSTEM_ID;
  const XrResult r = xrGetSystem(instance, &info, &system);
  if (r == XR_ERROR_FORM_FACTOR_UNAVAILABLE) return std::nullopt;
  xr_check(r, "xrGetSystem");
  return system;
}

XrSystemId get_system(XrInstance instance) {
  const auto start = Clock::now();
  bool said = false;
  for (;;) {
    if (const auto system = find_system(instance)) return *system;
    if (longer_than(start, kWaitForHeadsetS))
      xr_check(XR_ERROR_FORM_FACTOR_UNAVAILABLE, "xrGetSystem");
    if (!said)
      std::cerr << "stagger play: waiting for the headset (XR_ERROR_FORM_FACTOR_UNAVAILABLE)\n";
    said = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

// Opaque when offered (a see-through display may lack it: take what it has).
XrEnvironmentBlendMode choose_blend_mode(XrInstance instance, XrSystemId system) {
  std::uint32_t count = 0;
  xr_check(xrEnumerateEnvironmentBlendModes(
               instance, system, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, 0, &count, nullptr),
           "xrEnumerateEnvironmentBlendModes");
  std::vector<XrEnvironmentBlendMode> modes(count);
  xr_check(
      xrEnumerateEnvironmentBlendModes(instance, system, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO,
                                       count, &count, modes.data()),
      "xrEnumerateEnvironmentBlendModes");
  if (modes.empty())
    throw std::runtime_error("the OpenXR runtime offers no environment blend mode");
  return std::find(modes.begin(), modes.end(), XR_ENVIRONMENT_BLEND_MODE_OPAQUE) != modes.end()
             ? XR_ENVIRONMENT_BLEND_MODE_OPAQUE
             : modes.front();
}

// The game in VR: the instance and its system, the session's life (the state machine's status,
// a lost session replaced, leaving on our own), input each frame, and the frame loop.
class XrGame final : public Frontend {
 public:
  XrGame(XrInstance instance, XrExtensions extensions, const SceneGeometry& geometry,
         const sim::SceneDescription& scene)
      : instance_(instance), extensions_(std::move(extensions)) {
    system_ = get_system(instance_);
    gpu_ = extensions_.open_system({instance_, system_});
    // The player's -Z (forward) along the start's facing.
    rig_ = {scene.player_position, Quat::from_yaw(scene.player_yaw_rad + kPi),
            scene.player_position.y};
    blend_mode_ = choose_blend_mode(instance_, system_);
    try {
      create_session();
      frames_ = std::make_unique<XrFrameLoop>(
          *gpu_, geometry.meshes(), XrFrameTarget{session_, extensions_, rig_, blend_mode_});
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
    frames_.reset();
    gpu_.reset();
    xrDestroyInstance(instance_);
  }

  bool begin_frame(FrameInput& input) override {
    // A session can be lost between the event and the call: XR_ERROR_SESSION_LOST is a loss too.
    for (;;) {
      if (!wait_until_running()) return false;
      try {
        frames_->wait_and_begin();
        break;
      } catch (const XrFailure& e) {
        if (e.result != XR_ERROR_SESSION_LOST) throw;
        status_.loss_pending = true;
      }
    }
    if (std::exchange(status_.began, false)) frames_->restart_clock();
    input.frame_s = frames_->advance_clock();
    input.focused = status_.focused();
    read_head(input, frames_->display_time());
    read_hands(input, frames_->display_time());
    return true;
  }

  void draw(const DrawFrame& frame, bool keep_pixels) override {
    if (!frames_->begun()) return;
    // (on a loss, the next begin_frame makes a new session)
    if (!frames_->draw_and_end(frame, keep_pixels)) status_.loss_pending = true;
  }

  bool save_screenshot(const std::string& path) override { return frames_->save_screenshot(path); }

  void haptic_pulse(int side, float amplitude, double seconds) override {
    if (session_.input && status_.running)
      session_.input->haptic_pulse(side, amplitude, static_cast<XrDuration>(seconds * 1e9));
  }

  std::string end_reason() const override { return end_reason_; }
  std::string device() const override {
    return gpu_->device_name + " through OpenXR (" + runtime_name() + ")";
  }
  int session_restarts() const override { return restarts_; }
  int frames_in_flight() const override { return XrFrameLoop::kFramesInFlight; }

 private:
  std::string runtime_name() const {
    XrInstanceProperties properties{XR_TYPE_INSTANCE_PROPERTIES};
    if (XR_FAILED(xrGetInstanceProperties(instance_, &properties))) return "unknown runtime";
    return properties.runtimeName;
  }

  XrSessionSource session_source() { return {instance_, system_, *gpu_, extensions_}; }

  void create_session() {
    vr::create_session(session_source(), session_);
    status_.state = XR_SESSION_STATE_IDLE;
  }

  void destroy_session() {
    // The frames still in flight draw into the session's swapchains: they finish first.
    if (frames_) frames_->wait_idle();
    vr::destroy_session(session_source(), session_);
    status_.running = false;
    if (frames_) frames_->forget_frame();
  }

  void poll_events() {
    poll_session_events(instance_, session_.session, status_, [this] {
      if (session_.input) std::cerr << "stagger play: controllers: " << profile_text() << "\n";
    });
  }

  std::string profile_text() const {
    const std::string left = session_.input->current_profile(0);
    const std::string right = session_.input->current_profile(1);
    return "left " + (left.empty() ? std::string("none") : left) + ", right " +
           (right.empty() ? std::string("none") : right);
  }

  // Handles events until the session runs frames; false when the game must end.
  bool wait_until_running() {
    const auto start = Clock::now();
    for (;;) {
      poll_events();
      if (const auto reason = status_.end_reason()) {
        end_reason_ = *reason;
        return false;
      }
      if (status_.loss_pending && !recover_session()) return false;
      if (status_.running) return true;
      // Before the first start the runtime may never come; later, IDLE is a headset taken off.
      if (!status_.ever_ran && longer_than(start, kWaitForSessionS)) {
        end_reason_ = "the OpenXR runtime never started the session";
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(status_.ever_ran ? 20 : 5));
    }
  }

  // LOSS_PENDING (or XR_ERROR_SESSION_LOST): the session can no longer work, a device unplugged.
  // Destroy it (no xrEndSession), wait for the same system to answer again, make a new session.
  bool recover_session() {
    status_.loss_pending = false;
    destroy_session();
    std::cerr
        << "stagger play: the XR session was lost; waiting for the headset to start a new one\n";
    const auto start = Clock::now();
    for (;;) {
      try {
        if (const auto system = find_system(instance_)) {
          // Another headset would need another Vulkan device: that is a new game, not a restart.
          if (*system != system_) {
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
      if (longer_than(start, kRecoverS)) {
        end_reason_ = "the XR session was lost and could not be started again";
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
  }

  // Leaving on our own (time is up): ask to exit and keep ending frames until the runtime stops
  // the session (STOPPING → xrEndSession → IDLE → EXITING).
  void leave() {
    if (session_.session == XR_NULL_HANDLE || status_.exiting) return;
    if (frames_->begun()) draw(DrawFrame{}, false);
    if (!status_.running)
      return;  // (not running: nothing to stop; the session is simply destroyed)
    bool requested = false;
    for (int i = 0; i < 1000 && !status_.exiting && !status_.loss_pending && !status_.instance_lost;
         ++i) {
      if (status_.running && !requested) {
        xr_check(xrRequestExitSession(session_.session), "xrRequestExitSession");
        requested = true;
      }
      poll_events();
      if (!status_.running) {
        requested = false;  // (should READY come again, ask again)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      frames_->wait_and_begin();
      frames_->end_empty();
    }
  }

  void move_rig(Vec3 translation, float yaw_rad) override {
    // Turn the tracking space about the head (it stays where it is), then move it.
    const Quat turn = Quat::from_yaw(yaw_rad);
    rig_.origin = last_head_ + turn.rotate(rig_.origin - last_head_) + translation;
    rig_.rotation = turn * rig_.rotation;
    rig_.floor_y += translation.y;
  }

  void read_head(FrameInput& input, XrTime t) {
    XrSpaceLocation head{XR_TYPE_SPACE_LOCATION};
    xr_check(xrLocateSpace(session_.view_space, session_.base_space, t, &head), "xrLocateSpace");
    if (!(head.locationFlags & XR_SPACE_LOCATION_POSITION_VALID_BIT)) return;
    input.player_present = true;
    input.player_head = rig_.to_world(head.pose.position);
    input.head_rotation = rig_.to_world(head.pose.orientation);
    input.player_feet = {input.player_head.x, rig_.floor_y, input.player_head.z};
    last_head_ = input.player_head;
  }

  // Controllers first; the extensions' frame hooks (hand tracking) for the hands they leave.
  void read_hands(FrameInput& input, XrTime t) {
    const std::array<ControllerState, 2> controllers = session_.input->read(session_.base_space, t);
    XrFrameContext frame{session_.base_space, t, rig_, {}};
    for (std::size_t side = 0; side < 2; ++side) {
      const ControllerState& c = controllers[side];
      frame.controller_drives[side] = c.active && c.position_valid && c.orientation_valid;
      if (frame.controller_drives[side]) input.hands[side] = rig_.hand(c.grip, c.velocity);
    }
    read_sticks(controllers, input);
    extensions_.frame_input(frame, input);
  }

  // The move and turn actions from whichever hand they are bound to (the one pushed further,
  // should both hands have one), as the game's sticks.
  static void read_sticks(const std::array<ControllerState, 2>& controllers, FrameInput& input) {
    auto stick = [](XrVector2f v) {
      auto axis = [](float a) { return std::isfinite(a) ? std::clamp(a, -1.0f, 1.0f) : 0.0f; };
      return std::array<float, 2>{axis(v.x), axis(v.y)};
    };
    auto further = [](XrVector2f a, XrVector2f b) {
      return a.x * a.x + a.y * a.y >= b.x * b.x + b.y * b.y ? a : b;
    };
    const ControllerState& left = controllers[0];
    const ControllerState& right = controllers[1];
    input.move_stick = stick(further(left.move, right.move));
    input.turn_stick = stick(further(left.turn, right.turn));
    input.move_click = left.move_click || right.move_click;
    input.turn_click = left.turn_click || right.turn_click;
  }

  XrInstance instance_;
  XrExtensions extensions_;
  XrSystemId system_ = XR_NULL_SYSTEM_ID;
  std::unique_ptr<GpuContext> gpu_;
  XrRig rig_;
  Vec3 last_head_;  // [m] world, as last read: the pivot of turns
  XrEnvironmentBlendMode blend_mode_ = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
  XrSessionParts session_;
  XrSessionStatus status_;
  std::unique_ptr<XrFrameLoop> frames_;
  int restarts_ = 0;
  std::string end_reason_ = "time";
};

}  // namespace

Result<std::unique_ptr<Frontend>> create_xr(const SceneGeometry& geometry,
                                            const sim::SceneDescription& scene,
                                            const PlaySettings& /*settings*/) {
  std::optional<InstanceChoice> choice;
  try {
    choice.emplace(create_instance());
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
    auto game =
        std::make_unique<XrGame>(choice->instance, std::move(choice->extensions), geometry, scene);
    return std::unique_ptr<Frontend>(std::move(game));
  } catch (const std::exception& e) {
    // (the XrGame constructor did not finish, so its destructor will not destroy the instance)
    xrDestroyInstance(choice->instance);
    return Error{std::string("cannot start VR: ") + e.what()};
  }
}

}  // namespace stagger::vr
