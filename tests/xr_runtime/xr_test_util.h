// Helpers for the simulated-runtime tests: environment, the control API reached through dlopen (as
// an application test would), instance/session creation through the real loader, event pumping.
#pragma once

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <time.h>
#include <vulkan/vulkan.h>

#define XR_USE_GRAPHICS_API_VULKAN  // (as vr/src/xr_common.h has it: a test may include both)
#define XR_USE_TIMESPEC 1
#include <openxr/openxr.h>
#include <openxr/openxr_platform.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "stagger/simxr/control.h"

namespace stagger::simxr::test {

/// Points the loader at the runtime and Vulkan at lavapipe (ctest also sets both).
inline void set_environment() {
  setenv("XR_RUNTIME_JSON", STAGGER_SIMXR_MANIFEST, 0);
  setenv("VK_ICD_FILENAMES", STAGGER_LAVAPIPE_ICD, 0);
}

/// The control API of the runtime the loader loads: the same file, so dlopen returns the same
/// object (and loads it early when a test needs it before xrCreateInstance).
struct Control {
  void* library = nullptr;
  template <typename F>
  F get(const char* name) {
    void* symbol = dlsym(library, name);
    EXPECT_NE(symbol, nullptr) << name;
    return reinterpret_cast<F>(symbol);
  }
#define SIMXR_FN(name) decltype(&::name) name = nullptr;
  SIMXR_FN(stagger_simxr_load_script)
  SIMXR_FN(stagger_simxr_reset)
  SIMXR_FN(stagger_simxr_set_hand_pose)
  SIMXR_FN(stagger_simxr_set_hand_velocity)
  SIMXR_FN(stagger_simxr_set_hand_tracking)
  SIMXR_FN(stagger_simxr_set_input)
  SIMXR_FN(stagger_simxr_set_interaction_profile)
  SIMXR_FN(stagger_simxr_queue_event)
  SIMXR_FN(stagger_simxr_set_display_hz)
  SIMXR_FN(stagger_simxr_haptic_count)
  SIMXR_FN(stagger_simxr_get_haptic)
  SIMXR_FN(stagger_simxr_clear_haptics)
  SIMXR_FN(stagger_simxr_frames_submitted)
  SIMXR_FN(stagger_simxr_frames_total)
  SIMXR_FN(stagger_simxr_sessions_created)
  SIMXR_FN(stagger_simxr_read_view_image)
#undef SIMXR_FN
  Control() {
    library = dlopen(STAGGER_SIMXR_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    EXPECT_NE(library, nullptr) << dlerror();
#define SIMXR_GET(name) name = get<decltype(name)>(#name);
    SIMXR_GET(stagger_simxr_load_script)
    SIMXR_GET(stagger_simxr_reset)
    SIMXR_GET(stagger_simxr_set_hand_pose)
    SIMXR_GET(stagger_simxr_set_hand_velocity)
    SIMXR_GET(stagger_simxr_set_hand_tracking)
    SIMXR_GET(stagger_simxr_set_input)
    SIMXR_GET(stagger_simxr_set_interaction_profile)
    SIMXR_GET(stagger_simxr_queue_event)
    SIMXR_GET(stagger_simxr_set_display_hz)
    SIMXR_GET(stagger_simxr_haptic_count)
    SIMXR_GET(stagger_simxr_get_haptic)
    SIMXR_GET(stagger_simxr_clear_haptics)
    SIMXR_GET(stagger_simxr_frames_submitted)
    SIMXR_GET(stagger_simxr_frames_total)
    SIMXR_GET(stagger_simxr_sessions_created)
    SIMXR_GET(stagger_simxr_read_view_image)
#undef SIMXR_GET
  }
  ~Control() {
    if (library != nullptr) dlclose(library);
  }
  Control(const Control&) = delete;
  Control& operator=(const Control&) = delete;

  /// Fresh simulation state with no pacing, then the given script (JSON) if any.
  void fresh(const std::string& script = "{\"display_hz\": 0}") {
    stagger_simxr_reset();
    char error[512] = {};
    ASSERT_EQ(stagger_simxr_load_script(script.c_str(), error, sizeof error), 0) << error;
  }
};

inline XrInstance create_instance(const std::vector<const char*>& extensions,
                                  XrResult* result = nullptr) {
  set_environment();
  XrInstanceCreateInfo info{XR_TYPE_INSTANCE_CREATE_INFO};
  std::strcpy(info.applicationInfo.applicationName, "stagger_xr_runtime_tests");
  info.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.enabledExtensionNames = extensions.data();
  XrInstance instance = XR_NULL_HANDLE;
  const XrResult r = xrCreateInstance(&info, &instance);
  if (result != nullptr) {
    *result = r;
  } else {
    EXPECT_EQ(r, XR_SUCCESS);
  }
  return instance;
}

/// What `create` (xrGetSystem, xrCreateSession, ...) gives for `info` under `parent`: a null
/// handle (and a failed check) when the runtime refuses.
template <typename Out, typename Parent, typename Info>
Out created(XrResult (*create)(Parent, const Info*, Out*), Parent parent, const Info& info) {
  Out out{};
  EXPECT_EQ(create(parent, &info, &out), XR_SUCCESS);
  return out;
}

inline XrSystemId get_system(XrInstance instance) {
  XrSystemGetInfo info{XR_TYPE_SYSTEM_GET_INFO};
  info.formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY;
  return created(xrGetSystem, instance, info);
}

inline XrSession create_headless_session(XrInstance instance, XrSystemId system) {
  XrSessionCreateInfo info{XR_TYPE_SESSION_CREATE_INFO};
  info.systemId = system;
  return created(xrCreateSession, instance, info);
}

/// A reference space of `type` at its origin.
inline XrSpace reference_space(XrSession session, XrReferenceSpaceType type) {
  XrReferenceSpaceCreateInfo info{XR_TYPE_REFERENCE_SPACE_CREATE_INFO};
  info.referenceSpaceType = type;
  info.poseInReferenceSpace.orientation.w = 1.0f;
  return created(xrCreateReferenceSpace, session, info);
}

template <typename F>
F proc(XrInstance instance, const char* name) {
  PFN_xrVoidFunction f = nullptr;
  EXPECT_EQ(xrGetInstanceProcAddr(instance, name, &f), XR_SUCCESS) << name;
  return reinterpret_cast<F>(f);
}

inline XrPath path(XrInstance instance, const char* s) {
  XrPath p = XR_NULL_PATH;
  EXPECT_EQ(xrStringToPath(instance, s, &p), XR_SUCCESS) << s;
  return p;
}

/// Polls all queued events; returns the session states seen, in order.
inline std::vector<XrSessionState> poll_states(XrInstance instance,
                                               int* profile_changes = nullptr) {
  std::vector<XrSessionState> states;
  XrEventDataBuffer event{XR_TYPE_EVENT_DATA_BUFFER};
  while (xrPollEvent(instance, &event) == XR_SUCCESS) {
    if (event.type == XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED) {
      states.push_back(reinterpret_cast<XrEventDataSessionStateChanged*>(&event)->state);
    } else if (event.type == XR_TYPE_EVENT_DATA_INTERACTION_PROFILE_CHANGED &&
               profile_changes != nullptr) {
      ++*profile_changes;
    }
    event = XrEventDataBuffer{XR_TYPE_EVENT_DATA_BUFFER};
  }
  return states;
}

inline void begin_session(XrSession session) {
  XrSessionBeginInfo info{XR_TYPE_SESSION_BEGIN_INFO};
  info.primaryViewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
  ASSERT_EQ(xrBeginSession(session, &info), XR_SUCCESS);
}

/// One empty frame (no layers); returns the xrEndFrame result.
inline XrResult empty_frame(XrSession session, XrFrameState* out_state = nullptr) {
  XrFrameState state{XR_TYPE_FRAME_STATE};
  XrResult r = xrWaitFrame(session, nullptr, &state);
  if (XR_FAILED(r)) return r;
  r = xrBeginFrame(session, nullptr);
  if (XR_FAILED(r)) return r;
  XrFrameEndInfo end{XR_TYPE_FRAME_END_INFO};
  end.displayTime = state.predictedDisplayTime;
  end.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
  if (out_state != nullptr) *out_state = state;
  return xrEndFrame(session, &end);
}

/// CLOCK_MONOTONIC [ns], which is the runtime's XrTime.
inline XrTime monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<XrTime>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

inline XrTime now_xr(XrInstance instance) {
  auto convert =
      proc<PFN_xrConvertTimespecTimeToTimeKHR>(instance, "xrConvertTimespecTimeToTimeKHR");
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  XrTime t = 0;
  EXPECT_EQ(convert(instance, &ts, &t), XR_SUCCESS);
  return t;
}

/// Enables XR_APILAYER_LUNARG_core_validation writing text to `file` for instances created in
/// scope.
struct CoreValidation {
  explicit CoreValidation(const std::string& file) {
    std::remove(file.c_str());
    setenv("XR_ENABLE_API_LAYERS", "XR_APILAYER_LUNARG_core_validation", 1);
    setenv("XR_CORE_VALIDATION_EXPORT_TYPE", "text", 1);
    setenv("XR_CORE_VALIDATION_FILE_NAME", file.c_str(), 1);
  }
  ~CoreValidation() {
    unsetenv("XR_ENABLE_API_LAYERS");
    unsetenv("XR_CORE_VALIDATION_EXPORT_TYPE");
    unsetenv("XR_CORE_VALIDATION_FILE_NAME");
  }
  CoreValidation(const CoreValidation&) = delete;
  CoreValidation& operator=(const CoreValidation&) = delete;
};

inline std::string read_file(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return {};
  std::string out;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) out.append(buffer, n);
  std::fclose(f);
  return out;
}

/// Headless instance + system + session, begun and FOCUSED.
struct HeadlessSession {
  XrInstance instance = XR_NULL_HANDLE;
  XrSystemId system = XR_NULL_SYSTEM_ID;
  XrSession session = XR_NULL_HANDLE;
  explicit HeadlessSession(std::vector<const char*> extra = {}) {
    std::vector<const char*> ext{XR_MND_HEADLESS_EXTENSION_NAME,
                                 XR_KHR_CONVERT_TIMESPEC_TIME_EXTENSION_NAME};
    ext.insert(ext.end(), extra.begin(), extra.end());
    instance = create_instance(ext);
    system = get_system(instance);
    session = create_headless_session(instance, system);
  }
  void run_to_focused() {
    poll_states(instance);
    begin_session(session);
    poll_states(instance);
  }
  ~HeadlessSession() {
    if (instance != XR_NULL_HANDLE) xrDestroyInstance(instance);
  }
  HeadlessSession(const HeadlessSession&) = delete;
  HeadlessSession& operator=(const HeadlessSession&) = delete;
};

}  // namespace stagger::simxr::test
