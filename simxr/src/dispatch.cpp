// Loader negotiation, xrGetInstanceProcAddr and the locking/error-recording wrapper around every
// entry point.
#include <cstring>
#include <string_view>

#include "api.h"
#include "loader_interface.h"
#include "state.h"

namespace stagger::simxr {

// The lock held by the current API call, so that xrWaitFrame can release it while it sleeps.
thread_local std::unique_lock<std::mutex>* g_call_lock = nullptr;

namespace {

template <std::size_t N>
struct Name {
  char text[N];
  constexpr Name(const char (&s)[N]) {  // NOLINT: implicit by design (template argument)
    for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
  }
};

std::string result_name(XrResult r);

void note_result(const char* function, XrResult result) {
  // The loader probes every function it knows; "unsupported" answers to it are not app errors.
  if (result >= 0 || result == XR_ERROR_FUNCTION_UNSUPPORTED) return;
  Runtime& rt = runtime();
  ++rt.errors[function][result_name(result)];
  ++rt.error_count;
  if (rt.log) log_info(std::string(function) + " -> " + result_name(result));
}

template <Name N, auto Fn>
struct Entry;

// One wrapper per entry point: takes the runtime lock and records errors returned to the app.
template <Name N, typename... Args, XrResult (*Fn)(Args...)>
struct Entry<N, Fn> {
  static XrResult XRAPI_CALL call(Args... args) {
    std::unique_lock<std::mutex> lock(runtime_mutex());
    std::unique_lock<std::mutex>* outer = g_call_lock;
    g_call_lock = &lock;
    const XrResult result = Fn(args...);
    g_call_lock = outer;
    note_result(N.text, result);
    return result;
  }
};

struct FunctionEntry {
  const char* name;
  PFN_xrVoidFunction function;
  const char* extension;  ///< nullptr for core functions
};

#define SIMXR_CORE_ENTRY(fn) \
  FunctionEntry{#fn, reinterpret_cast<PFN_xrVoidFunction>(&Entry<#fn, &api::fn>::call), nullptr},
#define SIMXR_EXT_ENTRY(fn, ext) \
  FunctionEntry{#fn, reinterpret_cast<PFN_xrVoidFunction>(&Entry<#fn, &api::fn>::call), ext},
#define SIMXR_CHECK_SIGNATURE(fn) \
  static_assert(std::is_same_v<decltype(&Entry<#fn, &api::fn>::call), PFN_##fn>);
#define SIMXR_CHECK_EXT_SIGNATURE(fn, ext) SIMXR_CHECK_SIGNATURE(fn)
SIMXR_CORE_FUNCTIONS(SIMXR_CHECK_SIGNATURE)
SIMXR_EXTENSION_FUNCTIONS(SIMXR_CHECK_EXT_SIGNATURE)

const FunctionEntry kFunctions[] = {SIMXR_CORE_FUNCTIONS(SIMXR_CORE_ENTRY)
                                        SIMXR_EXTENSION_FUNCTIONS(SIMXR_EXT_ENTRY)};

// A case of a switch over an OpenXR enum that returns the value's name, for the XR_LIST_ENUM_*
// lists of openxr_reflection.h.
#define SIMXR_NAME_CASE(name, value) \
  case name:                         \
    return #name;

std::string result_name(XrResult r) {
  switch (r) {
    XR_LIST_ENUM_XrResult(SIMXR_NAME_CASE);
    default:
      return (r < 0 ? "XR_UNKNOWN_FAILURE_" : "XR_UNKNOWN_SUCCESS_") +
             std::to_string(static_cast<int>(r));
  }
}

std::string structure_name(XrStructureType t) {
  switch (t) {
    XR_LIST_ENUM_XrStructureType(SIMXR_NAME_CASE);
    default:
      return "XR_UNKNOWN_STRUCTURE_TYPE_" + std::to_string(static_cast<int>(t));
  }
}

#undef SIMXR_NAME_CASE

void copy_string(char* out, std::size_t size, const std::string& s) {
  const std::size_t n = std::min(size - 1, s.size());
  std::memcpy(out, s.data(), n);
  out[n] = '\0';
}

// The ...ToString calls: `name` into the app's buffer of `size` bytes.
XrResult name_to_buffer(XrInstance instance, const std::string& name, char* buffer,
                        std::size_t size) {
  if (find<Instance>(instance) == nullptr) return XR_ERROR_HANDLE_INVALID;
  if (buffer == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  copy_string(buffer, size, name);
  return XR_SUCCESS;
}

}  // namespace

namespace api {

XrResult xrGetInstanceProcAddr(XrInstance instance, const char* name,
                               PFN_xrVoidFunction* function) {
  if (name == nullptr || function == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  *function = nullptr;
  const std::string_view wanted(name);
  const Instance* inst = nullptr;
  if (instance == XR_NULL_HANDLE) {
    // Without an instance only these three may be queried (spec 3.2).
    if (wanted != "xrEnumerateInstanceExtensionProperties" &&
        wanted != "xrEnumerateApiLayerProperties" && wanted != "xrCreateInstance") {
      return XR_ERROR_HANDLE_INVALID;
    }
  } else {
    inst = find<Instance>(instance);
    if (inst == nullptr) return XR_ERROR_HANDLE_INVALID;
  }
  for (const FunctionEntry& entry : kFunctions) {
    if (wanted != entry.name) continue;
    if (entry.extension != nullptr && (inst == nullptr || !inst->has(entry.extension))) {
      return XR_ERROR_FUNCTION_UNSUPPORTED;
    }
    *function = entry.function;
    return XR_SUCCESS;
  }
  return XR_ERROR_FUNCTION_UNSUPPORTED;
}

XrResult xrResultToString(XrInstance instance, XrResult value,
                          char buffer[XR_MAX_RESULT_STRING_SIZE]) {
  return name_to_buffer(instance, result_name(value), buffer, XR_MAX_RESULT_STRING_SIZE);
}

XrResult xrStructureTypeToString(XrInstance instance, XrStructureType value,
                                 char buffer[XR_MAX_STRUCTURE_NAME_SIZE]) {
  return name_to_buffer(instance, structure_name(value), buffer, XR_MAX_STRUCTURE_NAME_SIZE);
}

}  // namespace api
}  // namespace stagger::simxr

using stagger::simxr::XrNegotiateLoaderInfo;
using stagger::simxr::XrNegotiateRuntimeRequest;

// The one exported OpenXR symbol: the loader checks our interface and API versions and receives
// xrGetInstanceProcAddr, through which it finds everything else.
extern "C" __attribute__((visibility("default"))) XrResult xrNegotiateLoaderRuntimeInterface(
    const XrNegotiateLoaderInfo* loader_info, XrNegotiateRuntimeRequest* request) {
  using namespace stagger::simxr;
  if (loader_info == nullptr || request == nullptr) return XR_ERROR_INITIALIZATION_FAILED;
  if (loader_info->structType != XR_LOADER_INTERFACE_STRUCT_LOADER_INFO ||
      loader_info->structVersion != kLoaderInfoStructVersion ||
      loader_info->structSize != sizeof(XrNegotiateLoaderInfo)) {
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  if (request->structType != XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST ||
      request->structVersion != kRuntimeInfoStructVersion ||
      request->structSize != sizeof(XrNegotiateRuntimeRequest)) {
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  if (loader_info->minInterfaceVersion > kCurrentLoaderRuntimeVersion ||
      loader_info->maxInterfaceVersion < kCurrentLoaderRuntimeVersion) {
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  if (kApiVersion < loader_info->minApiVersion ||
      XR_VERSION_MAJOR(loader_info->maxApiVersion) < 1) {
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  request->runtimeInterfaceVersion = kCurrentLoaderRuntimeVersion;
  request->runtimeApiVersion = kApiVersion;
  request->getInstanceProcAddr = &Entry<"xrGetInstanceProcAddr", &api::xrGetInstanceProcAddr>::call;
  return XR_SUCCESS;
}
