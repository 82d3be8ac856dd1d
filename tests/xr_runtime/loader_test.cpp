// The runtime as the Khronos loader sees it: negotiation, functions, extensions, system, paths.
#include <fstream>
#include <set>
#include <sstream>

#include "xr_test_util.h"

// LeakSanitizer (sanitizer builds only): Debian's OpenXR loader 1.0.20 leaks a few objects per
// xrCreateInstance; those leaks are not ours.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libopenxr_loader.so\n";
}

namespace stagger::simxr::test {
namespace {

// Before any test: the loader must find the runtime and Vulkan must use lavapipe, also in child
// processes (hello_xr), whatever ctest passed in.
const bool kEnvironmentSet = [] {
  set_environment();
  return true;
}();

// Every OpenXR 1.0 core function, read from the installed openxr.h (the 1.0 section ends where the
// first extension, XR_KHR_android_thread_settings or composition_layer_cube, begins).
std::vector<std::string> core_function_names() {
  std::ifstream file(STAGGER_OPENXR_H);
  std::stringstream text;
  text << file.rdbuf();
  const std::string all = text.str();
  const std::size_t begin = all.find("#define XR_VERSION_1_0 1");
  const std::size_t end = all.find("#define XR_KHR_composition_layer_cube 1");
  EXPECT_NE(begin, std::string::npos);
  EXPECT_NE(end, std::string::npos);
  const std::string core = all.substr(begin, end - begin);
  std::vector<std::string> names;
  // Every `typedef XrResult (XRAPI_PTR *PFN_xrName)(...)` of the core section. (A plain scan: GCC
  // 12 warns inside <regex> under the sanitizers, and warnings are errors.)
  const std::string prefix = "typedef XrResult (XRAPI_PTR *PFN_";
  for (std::size_t at = core.find(prefix); at != std::string::npos;
       at = core.find(prefix, at + 1)) {
    const std::size_t name = at + prefix.size();
    const std::size_t close = core.find(')', name);
    if (close != std::string::npos && core.compare(name, 2, "xr") == 0)
      names.push_back(core.substr(name, close - name));
  }
  return names;
}

TEST(XrRuntimeLoader, EveryCoreFunctionIsProvided) {
  const std::vector<std::string> names = core_function_names();
  EXPECT_EQ(names.size(), 55u);
  XrInstance instance = create_instance({});
  for (const std::string& name : names) {
    PFN_xrVoidFunction f = nullptr;
    EXPECT_EQ(xrGetInstanceProcAddr(instance, name.c_str(), &f), XR_SUCCESS) << name;
    EXPECT_NE(f, nullptr) << name;
  }
  xrDestroyInstance(instance);
}

TEST(XrRuntimeLoader, AdvertisesItsExtensions) {
  set_environment();
  uint32_t count = 0;
  ASSERT_EQ(xrEnumerateInstanceExtensionProperties(nullptr, 0, &count, nullptr), XR_SUCCESS);
  std::vector<XrExtensionProperties> props(count, {XR_TYPE_EXTENSION_PROPERTIES});
  ASSERT_EQ(xrEnumerateInstanceExtensionProperties(nullptr, count, &count, props.data()),
            XR_SUCCESS);
  std::set<std::string> names;
  for (const auto& p : props) names.insert(p.extensionName);
  for (const char* e :
       {XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME, XR_MND_HEADLESS_EXTENSION_NAME,
        XR_KHR_CONVERT_TIMESPEC_TIME_EXTENSION_NAME, XR_EXT_HAND_TRACKING_EXTENSION_NAME}) {
    EXPECT_EQ(names.count(e), 1u) << e;
  }
  EXPECT_EQ(names.count("XR_KHR_vulkan_enable"), 0u);
}

TEST(XrRuntimeLoader, InstanceWithEachExtension) {
  for (const char* e : {XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME, XR_MND_HEADLESS_EXTENSION_NAME,
                        XR_KHR_CONVERT_TIMESPEC_TIME_EXTENSION_NAME,
                        XR_EXT_HAND_TRACKING_EXTENSION_NAME, XR_EXT_DEBUG_UTILS_EXTENSION_NAME}) {
    XrInstance instance = create_instance({e});
    ASSERT_NE(instance, XR_NULL_HANDLE) << e;
    XrInstanceProperties props{XR_TYPE_INSTANCE_PROPERTIES};
    EXPECT_EQ(xrGetInstanceProperties(instance, &props), XR_SUCCESS);
    EXPECT_STREQ(props.runtimeName, "Stagger SimXR");
    xrDestroyInstance(instance);
  }
  XrResult result = XR_SUCCESS;
  XrInstance none = create_instance({"XR_KHR_vulkan_enable"}, &result);
  EXPECT_EQ(result, XR_ERROR_EXTENSION_NOT_PRESENT);
  EXPECT_EQ(none, XR_NULL_HANDLE);
}

TEST(XrRuntimeLoader, ExtensionFunctionsOnlyWhenEnabled) {
  XrInstance plain = create_instance({});
  PFN_xrVoidFunction f = nullptr;
  EXPECT_EQ(xrGetInstanceProcAddr(plain, "xrCreateHandTrackerEXT", &f),
            XR_ERROR_FUNCTION_UNSUPPORTED);
  EXPECT_EQ(f, nullptr);
  EXPECT_EQ(xrGetInstanceProcAddr(plain, "xrNoSuchFunction", &f), XR_ERROR_FUNCTION_UNSUPPORTED);
  EXPECT_EQ(f, nullptr);
  xrDestroyInstance(plain);
  XrInstance with =
      create_instance({XR_EXT_HAND_TRACKING_EXTENSION_NAME, XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME});
  for (const char* name :
       {"xrCreateHandTrackerEXT", "xrDestroyHandTrackerEXT", "xrLocateHandJointsEXT",
        "xrCreateVulkanInstanceKHR", "xrCreateVulkanDeviceKHR", "xrGetVulkanGraphicsDevice2KHR",
        "xrGetVulkanGraphicsRequirements2KHR"}) {
    EXPECT_NE(proc<PFN_xrVoidFunction>(with, name), nullptr) << name;
  }
  xrDestroyInstance(with);
}

TEST(XrRuntimeLoader, FormFactorUnavailableThenAvailable) {
  Control control;
  control.fresh(R"({"display_hz": 0, "form_factor_unavailable_calls": 2})");
  XrInstance instance = create_instance({XR_MND_HEADLESS_EXTENSION_NAME});
  XrSystemGetInfo info{XR_TYPE_SYSTEM_GET_INFO};
  info.formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY;
  XrSystemId system = XR_NULL_SYSTEM_ID;
  EXPECT_EQ(xrGetSystem(instance, &info, &system), XR_ERROR_FORM_FACTOR_UNAVAILABLE);
  EXPECT_EQ(xrGetSystem(instance, &info, &system), XR_ERROR_FORM_FACTOR_UNAVAILABLE);
  EXPECT_EQ(xrGetSystem(instance, &info, &system), XR_SUCCESS);
  EXPECT_NE(system, XR_NULL_SYSTEM_ID);
  info.formFactor = XR_FORM_FACTOR_HANDHELD_DISPLAY;
  EXPECT_EQ(xrGetSystem(instance, &info, &system), XR_ERROR_FORM_FACTOR_UNSUPPORTED);
  xrDestroyInstance(instance);
}

TEST(XrRuntimeLoader, SystemAndViewConfiguration) {
  Control control;
  control.fresh(R"({"display_hz": 0, "view_size": [320, 200]})");
  XrInstance instance = create_instance({XR_EXT_HAND_TRACKING_EXTENSION_NAME});
  const XrSystemId system = get_system(instance);
  XrSystemHandTrackingPropertiesEXT hand{XR_TYPE_SYSTEM_HAND_TRACKING_PROPERTIES_EXT};
  XrSystemProperties props{XR_TYPE_SYSTEM_PROPERTIES, &hand};
  ASSERT_EQ(xrGetSystemProperties(instance, system, &props), XR_SUCCESS);
  EXPECT_EQ(hand.supportsHandTracking, XR_TRUE);
  EXPECT_EQ(props.trackingProperties.positionTracking, XR_TRUE);
  uint32_t count = 0;
  ASSERT_EQ(xrEnumerateViewConfigurationViews(
                instance, system, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, 0, &count, nullptr),
            XR_SUCCESS);
  ASSERT_EQ(count, 2u);
  std::vector<XrViewConfigurationView> views(2, {XR_TYPE_VIEW_CONFIGURATION_VIEW});
  ASSERT_EQ(
      xrEnumerateViewConfigurationViews(instance, system, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO,
                                        2, &count, views.data()),
      XR_SUCCESS);
  EXPECT_EQ(views[0].recommendedImageRectWidth, 320u);
  EXPECT_EQ(views[1].recommendedImageRectHeight, 200u);
  XrEnvironmentBlendMode mode{};
  ASSERT_EQ(xrEnumerateEnvironmentBlendModes(
                instance, system, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, 1, &count, &mode),
            XR_SUCCESS);
  EXPECT_EQ(mode, XR_ENVIRONMENT_BLEND_MODE_OPAQUE);
  EXPECT_EQ(xrEnumerateViewConfigurationViews(
                instance, system, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_MONO, 0, &count, nullptr),
            XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED);
  char buffer[XR_MAX_RESULT_STRING_SIZE];
  ASSERT_EQ(xrResultToString(instance, XR_ERROR_SESSION_LOST, buffer), XR_SUCCESS);
  EXPECT_STREQ(buffer, "XR_ERROR_SESSION_LOST");
  char type_name[XR_MAX_STRUCTURE_NAME_SIZE];
  ASSERT_EQ(xrStructureTypeToString(instance, XR_TYPE_SPACE_VELOCITY, type_name), XR_SUCCESS);
  EXPECT_STREQ(type_name, "XR_TYPE_SPACE_VELOCITY");
  xrDestroyInstance(instance);
}

TEST(XrRuntimeLoader, PathsRoundTripAndRejectBadSyntax) {
  XrInstance instance = create_instance({});
  const XrPath p = path(instance, "/user/hand/left/input/trigger/value");
  char buffer[XR_MAX_PATH_LENGTH];
  uint32_t count = 0;
  ASSERT_EQ(xrPathToString(instance, p, sizeof buffer, &count, buffer), XR_SUCCESS);
  EXPECT_STREQ(buffer, "/user/hand/left/input/trigger/value");
  EXPECT_EQ(count, std::strlen(buffer) + 1);
  XrPath bad = XR_NULL_PATH;
  EXPECT_EQ(xrStringToPath(instance, "/user/Hand", &bad), XR_ERROR_PATH_FORMAT_INVALID);
  EXPECT_EQ(xrStringToPath(instance, "/user/hand/", &bad), XR_ERROR_PATH_FORMAT_INVALID);
  EXPECT_EQ(xrStringToPath(instance, "user", &bad), XR_ERROR_PATH_FORMAT_INVALID);
  EXPECT_EQ(xrPathToString(instance, 999999, sizeof buffer, &count, buffer), XR_ERROR_PATH_INVALID);
  xrDestroyInstance(instance);
}

TEST(XrRuntimeLoader, TimespecConversionIsMonotonicClock) {
  XrInstance instance = create_instance({XR_KHR_CONVERT_TIMESPEC_TIME_EXTENSION_NAME});
  auto to_time =
      proc<PFN_xrConvertTimespecTimeToTimeKHR>(instance, "xrConvertTimespecTimeToTimeKHR");
  auto to_timespec =
      proc<PFN_xrConvertTimeToTimespecTimeKHR>(instance, "xrConvertTimeToTimespecTimeKHR");
  timespec ts{1234, 567};
  XrTime t = 0;
  ASSERT_EQ(to_time(instance, &ts, &t), XR_SUCCESS);
  EXPECT_EQ(t, 1234000000567);
  timespec back{};
  ASSERT_EQ(to_timespec(instance, t, &back), XR_SUCCESS);
  EXPECT_EQ(back.tv_sec, 1234);
  EXPECT_EQ(back.tv_nsec, 567);
  xrDestroyInstance(instance);
}

}  // namespace
}  // namespace stagger::simxr::test
