// Instance, system, view configuration, path and time functions.
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "api.h"
#include "state.h"

namespace stagger::simxr {
namespace {

struct ExtensionInfo {
  const char* name;
  uint32_t version;
};
// XR_EXT_debug_utils is implemented by the loader, so it is not advertised here.
constexpr ExtensionInfo kExtensions[] = {
    {XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME, XR_KHR_vulkan_enable2_SPEC_VERSION},
    {XR_MND_HEADLESS_EXTENSION_NAME, XR_MND_headless_SPEC_VERSION},
    {XR_KHR_CONVERT_TIMESPEC_TIME_EXTENSION_NAME, XR_KHR_convert_timespec_time_SPEC_VERSION},
    {XR_EXT_HAND_TRACKING_EXTENSION_NAME, XR_EXT_hand_tracking_SPEC_VERSION},
};

bool extension_supported(const char* name) {
  for (const ExtensionInfo& e : kExtensions) {
    if (std::strcmp(e.name, name) == 0) return true;
  }
  return false;
}

void copy_string(char* out, std::size_t size, const char* s) {
  std::strncpy(out, s, size - 1);
  out[size - 1] = '\0';
}

// Capture and summary outputs are read at every xrCreateInstance (so one test process can change
// them); the script only at the first one, so that its frame and time events are not replayed.
void load_outputs() {
  Runtime& rt = runtime();
  rt.capture_frame.reset();
  rt.capture_path.clear();
  if (const char* capture = std::getenv("STAGGER_SIMXR_CAPTURE");
      capture != nullptr && *capture != '\0') {
    const std::string spec(capture);
    const std::size_t colon = spec.find(':');
    char* end = nullptr;
    const unsigned long long frame = std::strtoull(spec.c_str(), &end, 10);
    if (colon == std::string::npos || end != spec.c_str() + colon || colon + 1 >= spec.size()) {
      log_error("STAGGER_SIMXR_CAPTURE=\"" + spec + "\" must be FRAME:/path/file.png; ignored");
    } else {
      rt.capture_frame = frame;
      rt.capture_path = spec.substr(colon + 1);
    }
  }
  const char* summary = std::getenv("STAGGER_SIMXR_SUMMARY");
  rt.summary_path = summary != nullptr ? summary : "";
}

XrResult load_script_from_environment() {
  Runtime& rt = runtime();
  if (rt.env_script_loaded) return rt.env_script_error ? XR_ERROR_RUNTIME_FAILURE : XR_SUCCESS;
  rt.env_script_loaded = true;
  const char* path = std::getenv("STAGGER_SIMXR_SCRIPT");
  if (path == nullptr || *path == '\0') return XR_SUCCESS;
  std::ifstream file(path);
  std::string error;
  if (!file) {
    error = "cannot open the file";
  } else {
    std::stringstream text;
    text << file.rdbuf();
    if (auto script = parse_script(text.str(), error)) {
      apply_script(*script, true);
      return XR_SUCCESS;
    }
  }
  rt.env_script_error = std::string("STAGGER_SIMXR_SCRIPT ") + path + ": " + error;
  return XR_ERROR_RUNTIME_FAILURE;
}

// The checks of the calls about a view configuration of the system: the instance, the system,
// then the one configuration it has (primary stereo).
XrResult check_stereo(XrInstance instance, XrSystemId system, XrViewConfigurationType type) {
  XrResult result = XR_SUCCESS;
  if (checked_system(instance, system, result) == nullptr) return result;
  if (type != XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO)
    return XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;
  return XR_SUCCESS;
}

}  // namespace

Instance* checked_system(XrInstance instance, XrSystemId system, XrResult& result) {
  Instance* inst = find<Instance>(instance);
  if (inst == nullptr) {
    result = XR_ERROR_HANDLE_INVALID;
  } else if (system != kSystemId) {
    result = XR_ERROR_SYSTEM_INVALID;
    inst = nullptr;
  }
  return inst;
}

namespace api {

XrResult xrEnumerateApiLayerProperties(uint32_t capacity, uint32_t* count,
                                       XrApiLayerProperties* properties) {
  return two_call(capacity, count, properties, 0, [](XrApiLayerProperties&, std::size_t) {});
}

XrResult xrEnumerateInstanceExtensionProperties(const char* layer, uint32_t capacity,
                                                uint32_t* count,
                                                XrExtensionProperties* properties) {
  if (layer != nullptr) return XR_ERROR_API_LAYER_NOT_PRESENT;
  const std::size_t n = std::size(kExtensions);
  if (properties != nullptr) {
    for (uint32_t i = 0; i < std::min<std::size_t>(capacity, n); ++i) {
      if (properties[i].type != XR_TYPE_EXTENSION_PROPERTIES) return XR_ERROR_VALIDATION_FAILURE;
    }
  }
  return two_call(capacity, count, properties, n, [](XrExtensionProperties& p, std::size_t i) {
    copy_string(p.extensionName, XR_MAX_EXTENSION_NAME_SIZE, kExtensions[i].name);
    p.extensionVersion = kExtensions[i].version;
  });
}

XrResult xrCreateInstance(const XrInstanceCreateInfo* info, XrInstance* instance) {
  if (info == nullptr || instance == nullptr || info->type != XR_TYPE_INSTANCE_CREATE_INFO) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  const XrVersion api = info->applicationInfo.apiVersion;
  if (XR_VERSION_MAJOR(api) != 1 || XR_VERSION_MINOR(api) != 0)
    return XR_ERROR_API_VERSION_UNSUPPORTED;
  if (info->applicationInfo.applicationName[0] == '\0') return XR_ERROR_NAME_INVALID;
  for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
    if (info->enabledExtensionNames == nullptr || info->enabledExtensionNames[i] == nullptr) {
      return XR_ERROR_VALIDATION_FAILURE;
    }
    if (!extension_supported(info->enabledExtensionNames[i])) return XR_ERROR_EXTENSION_NOT_PRESENT;
  }
  load_outputs();
  if (load_script_from_environment() != XR_SUCCESS) {
    log_error(*runtime().env_script_error);
    return XR_ERROR_RUNTIME_FAILURE;
  }
  Instance& inst = add_object<Instance>(0);
  for (uint32_t i = 0; i < info->enabledExtensionCount; ++i)
    inst.extensions.insert(info->enabledExtensionNames[i]);
  inst.application_name = info->applicationInfo.applicationName;
  *instance = to_handle<XrInstance>(inst.id);
  return XR_SUCCESS;
}

XrResult xrDestroyInstance(XrInstance instance) {
  const XrResult result = destroy_handle<Instance>(instance);
  if (result == XR_SUCCESS) write_summary();
  return result;
}

XrResult xrGetInstanceProperties(XrInstance instance, XrInstanceProperties* properties) {
  if (find<Instance>(instance) == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (properties == nullptr || properties->type != XR_TYPE_INSTANCE_PROPERTIES)
    return XR_ERROR_VALIDATION_FAILURE;
  properties->runtimeVersion = XR_MAKE_VERSION(0, 1, 0);
  copy_string(properties->runtimeName, XR_MAX_RUNTIME_NAME_SIZE, "Stagger SimXR");
  return XR_SUCCESS;
}

XrResult xrPollEvent(XrInstance instance, XrEventDataBuffer* event) {
  Instance* inst = find<Instance>(instance);
  if (inst == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (event == nullptr || event->type != XR_TYPE_EVENT_DATA_BUFFER)
    return XR_ERROR_VALIDATION_FAILURE;
  pump();
  if (inst->events.empty()) return XR_EVENT_UNAVAILABLE;
  *event = inst->events.front();
  inst->events.pop_front();
  if (event->type == XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED) {
    // The session is in the state the application has been told about.
    const auto* change = reinterpret_cast<const XrEventDataSessionStateChanged*>(event);
    if (Session* session = find<Session>(change->session)) {
      session->state = change->state;
      if (change->state == XR_SESSION_STATE_LOSS_PENDING) {
        session->loss_pending = true;
        session->loss_countdown = 3;
      }
      runtime().states_seen.push_back(state_name(change->state));
      pump();  // a new state may make derived events due (profile changed once focused)
    }
  }
  return XR_SUCCESS;
}

XrResult xrGetSystem(XrInstance instance, const XrSystemGetInfo* info, XrSystemId* system) {
  const Instance* inst = find<Instance>(instance);
  if (XrResult r = check_args(inst, info, XR_TYPE_SYSTEM_GET_INFO, system); r < 0) return r;
  if (info->formFactor == XR_FORM_FACTOR_HANDHELD_DISPLAY) return XR_ERROR_FORM_FACTOR_UNSUPPORTED;
  if (info->formFactor != XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY) return XR_ERROR_VALIDATION_FAILURE;
  Runtime& rt = runtime();
  if (rt.form_factor_unavailable_left > 0) {
    --rt.form_factor_unavailable_left;  // "headset not plugged in yet", then it appears
    return XR_ERROR_FORM_FACTOR_UNAVAILABLE;
  }
  *system = kSystemId;
  return XR_SUCCESS;
}

XrResult xrGetSystemProperties(XrInstance instance, XrSystemId system,
                               XrSystemProperties* properties) {
  XrResult result = XR_SUCCESS;
  Instance* inst = checked_system(instance, system, result);
  if (inst == nullptr) return result;
  if (properties == nullptr || properties->type != XR_TYPE_SYSTEM_PROPERTIES)
    return XR_ERROR_VALIDATION_FAILURE;
  properties->systemId = kSystemId;
  properties->vendorId = 0x5354;
  copy_string(properties->systemName, XR_MAX_SYSTEM_NAME_SIZE, "Stagger SimXR HMD");
  properties->graphicsProperties = {4096, 4096, XR_MIN_COMPOSITION_LAYERS_SUPPORTED};
  properties->trackingProperties = {XR_TRUE, XR_TRUE};
  for (auto* next = static_cast<XrBaseOutStructure*>(properties->next); next != nullptr;
       next = next->next) {
    if (next->type == XR_TYPE_SYSTEM_HAND_TRACKING_PROPERTIES_EXT &&
        inst->has(XR_EXT_HAND_TRACKING_EXTENSION_NAME)) {
      reinterpret_cast<XrSystemHandTrackingPropertiesEXT*>(next)->supportsHandTracking =
          runtime().script.hand_tracking ? XR_TRUE : XR_FALSE;
    }
  }
  return XR_SUCCESS;
}

XrResult xrEnumerateEnvironmentBlendModes(XrInstance instance, XrSystemId system,
                                          XrViewConfigurationType type, uint32_t capacity,
                                          uint32_t* count, XrEnvironmentBlendMode* modes) {
  if (XrResult r = check_stereo(instance, system, type); r < 0) return r;
  return two_call(capacity, count, modes, 1, [](XrEnvironmentBlendMode& m, std::size_t) {
    m = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
  });
}

XrResult xrEnumerateViewConfigurations(XrInstance instance, XrSystemId system, uint32_t capacity,
                                       uint32_t* count, XrViewConfigurationType* types) {
  XrResult result = XR_SUCCESS;
  if (checked_system(instance, system, result) == nullptr) return result;
  return two_call(capacity, count, types, 1, [](XrViewConfigurationType& t, std::size_t) {
    t = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
  });
}

XrResult xrGetViewConfigurationProperties(XrInstance instance, XrSystemId system,
                                          XrViewConfigurationType type,
                                          XrViewConfigurationProperties* properties) {
  XrResult result = XR_SUCCESS;
  if (checked_system(instance, system, result) == nullptr) return result;
  if (properties == nullptr || properties->type != XR_TYPE_VIEW_CONFIGURATION_PROPERTIES) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (type != XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO)
    return XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED;
  properties->viewConfigurationType = type;
  properties->fovMutable = XR_TRUE;
  return XR_SUCCESS;
}

XrResult xrEnumerateViewConfigurationViews(XrInstance instance, XrSystemId system,
                                           XrViewConfigurationType type, uint32_t capacity,
                                           uint32_t* count, XrViewConfigurationView* views) {
  if (XrResult r = check_stereo(instance, system, type); r < 0) return r;
  if (views != nullptr) {
    for (uint32_t i = 0; i < std::min(capacity, 2u); ++i) {
      if (views[i].type != XR_TYPE_VIEW_CONFIGURATION_VIEW) return XR_ERROR_VALIDATION_FAILURE;
    }
  }
  const Script& s = runtime().script;
  return two_call(capacity, count, views, 2, [&](XrViewConfigurationView& v, std::size_t) {
    v.recommendedImageRectWidth = s.view_width;
    v.maxImageRectWidth = 4096;
    v.recommendedImageRectHeight = s.view_height;
    v.maxImageRectHeight = 4096;
    v.recommendedSwapchainSampleCount = 1;
    v.maxSwapchainSampleCount = 1;
  });
}

XrResult xrStringToPath(XrInstance instance, const char* string, XrPath* path) {
  if (find<Instance>(instance) == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (string == nullptr || path == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  if (!valid_path_syntax(string)) return XR_ERROR_PATH_FORMAT_INVALID;
  *path = intern_path(string);
  return XR_SUCCESS;
}

XrResult xrPathToString(XrInstance instance, XrPath path, uint32_t capacity, uint32_t* count,
                        char* buffer) {
  if (find<Instance>(instance) == nullptr) return XR_ERROR_HANDLE_INVALID;
  const std::string* s = path_string(path);
  if (s == nullptr) return XR_ERROR_PATH_INVALID;
  return two_call(capacity, count, buffer, s->size() + 1,
                  [&](char& c, std::size_t i) { c = i < s->size() ? (*s)[i] : '\0'; });
}

XrResult xrConvertTimespecTimeToTimeKHR(XrInstance instance, const struct timespec* timespec_time,
                                        XrTime* time) {
  if (find<Instance>(instance) == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (timespec_time == nullptr || time == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  const XrTime t = static_cast<XrTime>(timespec_time->tv_sec) * 1000000000 + timespec_time->tv_nsec;
  if (t <= 0) return XR_ERROR_TIME_INVALID;
  *time = t;  // XrTime is CLOCK_MONOTONIC in nanoseconds
  return XR_SUCCESS;
}

XrResult xrConvertTimeToTimespecTimeKHR(XrInstance instance, XrTime time,
                                        struct timespec* timespec_time) {
  if (find<Instance>(instance) == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (timespec_time == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  if (time <= 0) return XR_ERROR_TIME_INVALID;
  timespec_time->tv_sec = static_cast<time_t>(time / 1000000000);
  timespec_time->tv_nsec = static_cast<long>(time % 1000000000);
  return XR_SUCCESS;
}

}  // namespace api
}  // namespace stagger::simxr
