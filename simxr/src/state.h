// The runtime's whole state: one process-wide Runtime guarded by one mutex, and the objects behind
// the OpenXR handles. Every API entry point and every control-API call takes the lock
// (dispatch.cpp, control.cpp), so the code below never locks again.
#pragma once

#include <array>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "script.h"
#include "xr.h"

namespace stagger::simxr {

enum class Kind { Instance, Session, Space, ActionSet, Action, Swapchain, HandTracker };

struct Object {
  Kind kind;
  std::uint64_t id = 0;
  std::uint64_t parent = 0;  ///< destroying the parent destroys this
  explicit Object(Kind k) : kind(k) {}
  virtual ~Object() = default;
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
};

struct Binding {
  std::uint64_t action = 0;
  XrPath path = XR_NULL_PATH;
};

struct Instance : Object {
  static constexpr Kind kKind = Kind::Instance;
  Instance() : Object(kKind) {}
  std::set<std::string> extensions;
  std::string application_name;
  bool vulkan_requirements_queried = false;
  std::deque<XrEventDataBuffer> events;
  std::map<XrPath, std::vector<Binding>> suggested;  ///< per interaction profile
  PFN_vkGetInstanceProcAddr vk_get_instance_proc_addr =
      nullptr;  ///< from xrCreateVulkanInstanceKHR
  VkInstance vk_instance = VK_NULL_HANDLE;
  bool has(const char* extension) const { return extensions.count(extension) != 0; }
};

/// Current value of one action for one subaction path (or XR_NULL_PATH = all).
struct ActionValue {
  bool active = false;
  bool boolean = false;
  float scalar = 0.0f;
  XrVector2f vector{};
  bool changed = false;
  XrTime last_change = 0;
};

/// A host-visible buffer the projection views are copied into, grown on demand.
struct StagingBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  void* mapped = nullptr;
};

/// [frames] how far the simulated compositor may lag: the readbacks of this many frames may be
/// pending at once, so an application that reuses a frame's resources too early (two frames in
/// flight without waiting) does so while the GPU still uses them, where validation sees it.
constexpr std::size_t kReadbacksInFlight = 2;

/// A copy of the submitted projection views into a staging buffer, submitted on the app's queue
/// at xrEndFrame and finished (waited for, read into Runtime::view_images) only when someone
/// needs it or a newer frame needs its buffer, as a compositor reads frames without holding the
/// application up.
struct PendingReadback {
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  std::size_t staging = 0;  ///< which of VulkanBinding::staging
  struct View {
    VkDeviceSize offset = 0;  ///< [bytes] in the staging buffer
    std::uint32_t width = 0, height = 0;
    bool bgra = false;  ///< stored blue first: swapped to RGBA when read
  };
  std::vector<View> views;
};

struct VulkanBinding {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  std::uint32_t queue_family = 0;
  std::uint32_t queue_index = 0;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  std::array<StagingBuffer, kReadbacksInFlight> staging{};  ///< used in turn
  std::size_t next_staging = 0;
  std::deque<PendingReadback> readbacks;  ///< oldest first
};

struct Session : Object {
  static constexpr Kind kKind = Kind::Session;
  Session() : Object(kKind) {}
  XrSessionState state = XR_SESSION_STATE_IDLE;         ///< as delivered by xrPollEvent
  XrSessionState queued_state = XR_SESSION_STATE_IDLE;  ///< after all queued events
  bool running = false;
  bool exit_requested = false;
  bool loss_pending = false;  ///< LOSS_PENDING delivered
  bool lost = false;
  int loss_countdown = 0;               ///< xrWaitFrame calls left before SESSION_LOST
  std::optional<VulkanBinding> vulkan;  ///< nullopt: headless
  XrViewConfigurationType view_configuration = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
  // Frame loop
  int waited_frames = 0;  ///< xrWaitFrame calls not yet matched by xrBeginFrame
  /// Frames ended since xrBeginSession, until the session is FOCUSED: a session with graphics is
  /// SYNCHRONIZED only once the app's frame loop has ended a frame (as real runtimes do), then
  /// VISIBLE and FOCUSED a frame later. -1: not counting.
  int frames_to_focus = -1;
  bool frame_begun = false;
  XrTime last_display_time = 0;
  XrTime next_wake_ns = 0;
  // Input
  std::vector<std::uint64_t> attached_sets;
  bool profile_event_sent = false;
  XrPath current_profile = XR_NULL_PATH;
  std::map<std::pair<std::uint64_t, XrPath>, ActionValue> action_values;
  std::map<std::pair<std::uint64_t, XrPath>, bool> hysteresis;  ///< bool-from-float latches
  std::set<std::uint64_t> synced_sets;  ///< action sets active in the last xrSyncActions
  XrPosef local_origin{};               ///< LOCAL space in STAGE, fixed at creation
};

struct Space : Object {
  static constexpr Kind kKind = Kind::Space;
  Space() : Object(kKind) {}
  std::uint64_t session = 0;
  XrReferenceSpaceType reference = XR_REFERENCE_SPACE_TYPE_MAX_ENUM;  ///< MAX_ENUM: an action space
  std::uint64_t action = 0;
  XrPath subaction = XR_NULL_PATH;
  XrPosef offset{};  ///< pose of the space in its reference / action pose
};

struct ActionSet : Object {
  static constexpr Kind kKind = Kind::ActionSet;
  ActionSet() : Object(kKind) {}
  std::string name, localized_name;
  std::uint32_t priority = 0;
  bool attached = false;
};

struct Action : Object {
  static constexpr Kind kKind = Kind::Action;
  Action() : Object(kKind) {}
  std::string name, localized_name;
  XrActionType type = XR_ACTION_TYPE_BOOLEAN_INPUT;
  std::vector<XrPath> subactions;
};

struct Swapchain : Object {
  static constexpr Kind kKind = Kind::Swapchain;
  Swapchain() : Object(kKind) {}
  std::uint64_t session = 0;
  XrSwapchainCreateInfo info{};
  VkFormat format = VK_FORMAT_UNDEFINED;
  bool depth = false;
  std::vector<VkImage> images;
  std::vector<VkDeviceMemory> memories;
  bool transitioned = false;  ///< initial layout transition done (needs the queue, so lazy)
  std::deque<std::uint32_t> acquired;  ///< acquired, in order; front may be waited
  bool front_waited = false;
  std::uint32_t next_index = 0;
  std::int64_t last_released = -1;
};

struct HandTracker : Object {
  static constexpr Kind kKind = Kind::HandTracker;
  HandTracker() : Object(kKind) {}
  std::uint64_t session = 0;
  int hand = 0;
};

/// An input on its way to its value (`HandState::inputs`), from where it was.
struct InputRamp {
  XrVector2f from{};
  XrTime start = 0;         ///< [ns] when it leaves `from`
  XrDuration duration = 0;  ///< [ns] how long it takes to arrive
};

struct HandState {
  XrPosef pose{};
  XrVector3f linear_velocity{};
  XrVector3f angular_velocity{};
  Tracking tracking = Tracking::Tracked;
  std::vector<PathPoint> path;               ///< scripted path in progress (empty: static pose)
  std::map<std::string, XrVector2f> inputs;  ///< by identifier; where a ramp ends
  std::map<std::string, InputRamp> ramps;    ///< inputs still ramping (script `ramp_s`)
};

struct HapticRecord {
  double time_s = 0.0;
  int hand = -1;
  float amplitude = 0.0f;
  std::int64_t duration_ns = 0;
  float frequency_hz = 0.0f;
  bool delivered = false;
};

struct ViewImage {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgba;
};

/// A script or control-API event waiting for its time or frame.
struct PendingEvent {
  ScriptEvent event;
  bool done = false;
};

struct Runtime {
  std::unordered_map<std::uint64_t, std::unique_ptr<Object>> objects;
  std::uint64_t next_id = 0x100;

  // Settings (from the script or the control API)
  Script script;
  std::optional<std::string> env_script_error;
  bool env_script_loaded = false;
  std::optional<XrTime> script_origin;  ///< XrTime of script t = 0
  bool origin_at_first_begin = true;    ///< env script: t counts from the first xrBeginSession
  std::vector<PendingEvent> pending;
  double display_hz = 90.0;
  std::string active_profile = "/interaction_profiles/oculus/touch_controller";
  std::uint32_t form_factor_unavailable_left = 0;

  // Simulated devices
  std::array<HandState, 2> hands{};
  XrVector3f head_position{0.0f, 1.6f, 0.0f};
  float head_yaw_rad = 0.0f;

  // Paths (shared by all instances; XrPath = index + 1)
  std::vector<std::string> path_strings;
  std::unordered_map<std::string, XrPath> path_ids;

  // Observability
  std::uint64_t frames_total = 0;      ///< successful xrEndFrame calls since load
  std::uint64_t frames_submitted = 0;  ///< ... with at least one layer
  std::uint32_t sessions_created = 0;
  std::vector<std::string> states_seen;
  std::vector<HapticRecord> haptics;
  std::map<std::string, std::map<std::string, std::uint32_t>>
      errors;  ///< function -> result -> count
  std::uint32_t error_count = 0;
  std::vector<ViewImage> view_images;
  std::string profile_used;
  std::optional<std::uint64_t> capture_frame;
  std::string capture_path;
  std::string summary_path;
  bool log = false;
};

Runtime& runtime();
std::mutex& runtime_mutex();

/// Typed lookup of an object: nullptr when `id` is not a live object of T's kind.
template <typename T>
T* find_object(std::uint64_t id) {
  auto it = runtime().objects.find(id);
  if (it == runtime().objects.end() || it->second->kind != T::kKind) return nullptr;
  return static_cast<T*>(it->second.get());
}
/// The object behind a handle (a Session for an XrSession, ...), as find_object.
template <typename T, typename Handle>
T* find(Handle h) {
  return find_object<T>(from_handle(h));
}
/// The checks a call that reads a structure and writes a result starts with, in the order the
/// runtime reports them: XR_ERROR_HANDLE_INVALID without the object behind the call's handle, then
/// XR_ERROR_VALIDATION_FAILURE without an `info` of `type` or an `out` to write to.
template <typename Info, typename Out>
XrResult check_args(const Object* object, const Info* info, XrStructureType type, const Out* out) {
  if (object == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (info == nullptr || out == nullptr || info->type != type) return XR_ERROR_VALIDATION_FAILURE;
  return XR_SUCCESS;
}

/// Registers a new object under a fresh id and returns it.
template <typename T>
T& add_object(std::uint64_t parent) {
  auto object = std::make_unique<T>();
  object->id = runtime().next_id++;
  object->parent = parent;
  T& ref = *object;
  runtime().objects.emplace(ref.id, std::move(object));
  return ref;
}
/// Destroys an object and, first, everything created from it.
void destroy_object(std::uint64_t id);
/// An xrDestroy* call for an object that holds nothing else to release: the handle's object and
/// everything created from it go.
template <typename T, typename Handle>
XrResult destroy_handle(Handle h) {
  T* object = find<T>(h);
  if (object == nullptr) return XR_ERROR_HANDLE_INVALID;
  destroy_object(object->id);
  return XR_SUCCESS;
}
Instance& instance_of(const Object& object);
/// The instance behind `instance` for a call about `system`: nullptr, with `result` set to
/// XR_ERROR_HANDLE_INVALID or XR_ERROR_SYSTEM_INVALID, when either is not live.
Instance* checked_system(XrInstance instance, XrSystemId system, XrResult& result);

// Clock: XrTime is CLOCK_MONOTONIC in nanoseconds.
XrTime now_ns();
/// Script time [s] of an XrTime; nullopt before the script clock started.
std::optional<double> script_time(XrTime t);

// Paths
XrPath intern_path(const std::string& s);
const std::string* path_string(XrPath p);
bool valid_path_syntax(const char* s);

// Events and state machine (session.cpp)
void queue_state(Session& session, XrSessionState state);
void queue_event(Instance& instance, const XrEventDataBuffer& event);
/// Applies due script/control events and derived events (profile changed). Called on most calls.
void pump();

// Settings
void reset_simulation();
void apply_script(const Script& script, bool origin_at_first_begin);
const char* state_name(XrSessionState s);

// Hands and poses (spaces.cpp)
struct HandPose {
  XrPosef pose{};
  XrVector3f linear_velocity{}, angular_velocity{};
  Tracking tracking = Tracking::Tracked;
};
HandPose hand_pose_at(int hand, XrTime time);
/// An input's value (x, y) at a time: where it is set to, or on its way there along a ramp.
XrVector2f input_value(int hand, const std::string& identifier, XrTime time);
/// Sets an input to `value`, at once or (`ramp_ns` > 0) linearly from where it is at `start`.
void set_input(int hand, const std::string& identifier, XrVector2f value, XrTime start,
               XrDuration ramp_ns);
/// A space's pose and velocity in STAGE at a time, with XrSpaceLocationFlags/XrSpaceVelocityFlags.
struct SpaceState {
  XrPosef pose{};
  XrSpaceLocationFlags flags = 0;
  XrVector3f linear_velocity{}, angular_velocity{};  ///< [m/s], [rad/s] in STAGE
  XrSpaceVelocityFlags velocity_flags = 0;
};
SpaceState locate_in_stage(const Space& space, XrTime time);
XrPosef head_pose();

// Output (output.cpp)
void write_summary();
bool write_png_rgb(const std::string& path, const ViewImage& image);
void log_error(const std::string& message);
void log_info(const std::string& message);

// Vulkan (vulkan_graphics.cpp)
void destroy_swapchain_resources(Swapchain& swapchain);
void destroy_session_graphics(Session& session);
/// Starts copying the last released image of each projection view; `finish_readback` puts them
/// into runtime().view_images.
void capture_projection_views(Session& session, const XrCompositionLayerProjection& layer);
/// Waits for the session's pending copies, if any, and stores the newest one's images in
/// runtime().view_images.
void finish_readback(Session& session);
/// finish_readback for every live session (before view_images is read).
void finish_readbacks();
XrResult create_session_graphics(Session& session, const XrGraphicsBindingVulkanKHR& binding);

}  // namespace stagger::simxr
