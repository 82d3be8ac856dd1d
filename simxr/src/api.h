// The runtime's OpenXR entry points. They keep their spec names (so the X-macro lists below map a
// name to its implementation directly) but live in stagger::simxr::api and have hidden visibility;
// the loader reaches them only through xrGetInstanceProcAddr (dispatch.cpp).
//
// Debian's openxr_reflection.h (1.0.20) has no function list, so the 55 OpenXR 1.0 core functions
// are listed here; tests/xr_runtime checks this list against openxr.h.
#pragma once

#include "xr.h"

// clang-format off: one function a line (the formatter folds macro lists unreadably)
#define SIMXR_CORE_FUNCTIONS(_)             \
  _(xrGetInstanceProcAddr)                  \
  _(xrEnumerateApiLayerProperties)          \
  _(xrEnumerateInstanceExtensionProperties) \
  _(xrCreateInstance)                       \
  _(xrDestroyInstance)                      \
  _(xrGetInstanceProperties)                \
  _(xrPollEvent)                            \
  _(xrResultToString)                       \
  _(xrStructureTypeToString)                \
  _(xrGetSystem)                            \
  _(xrGetSystemProperties)                  \
  _(xrEnumerateEnvironmentBlendModes)       \
  _(xrCreateSession)                        \
  _(xrDestroySession)                       \
  _(xrEnumerateReferenceSpaces)             \
  _(xrCreateReferenceSpace)                 \
  _(xrGetReferenceSpaceBoundsRect)          \
  _(xrCreateActionSpace)                    \
  _(xrLocateSpace)                          \
  _(xrDestroySpace)                         \
  _(xrEnumerateViewConfigurations)          \
  _(xrGetViewConfigurationProperties)       \
  _(xrEnumerateViewConfigurationViews)      \
  _(xrEnumerateSwapchainFormats)            \
  _(xrCreateSwapchain)                      \
  _(xrDestroySwapchain)                     \
  _(xrEnumerateSwapchainImages)             \
  _(xrAcquireSwapchainImage)                \
  _(xrWaitSwapchainImage)                   \
  _(xrReleaseSwapchainImage)                \
  _(xrBeginSession)                         \
  _(xrEndSession)                           \
  _(xrRequestExitSession)                   \
  _(xrWaitFrame)                            \
  _(xrBeginFrame)                           \
  _(xrEndFrame)                             \
  _(xrLocateViews)                          \
  _(xrStringToPath)                         \
  _(xrPathToString)                         \
  _(xrCreateActionSet)                      \
  _(xrDestroyActionSet)                     \
  _(xrCreateAction)                         \
  _(xrDestroyAction)                        \
  _(xrSuggestInteractionProfileBindings)    \
  _(xrAttachSessionActionSets)              \
  _(xrGetCurrentInteractionProfile)         \
  _(xrGetActionStateBoolean)                \
  _(xrGetActionStateFloat)                  \
  _(xrGetActionStateVector2f)               \
  _(xrGetActionStatePose)                   \
  _(xrSyncActions)                          \
  _(xrEnumerateBoundSourcesForAction)       \
  _(xrGetInputSourceLocalizedName)          \
  _(xrApplyHapticFeedback)                  \
  _(xrStopHapticFeedback)
// clang-format on

#define SIMXR_EXTENSION_FUNCTIONS(_)                                             \
  _(xrCreateVulkanInstanceKHR, XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME)             \
  _(xrCreateVulkanDeviceKHR, XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME)               \
  _(xrGetVulkanGraphicsDevice2KHR, XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME)         \
  _(xrGetVulkanGraphicsRequirements2KHR, XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME)   \
  _(xrConvertTimespecTimeToTimeKHR, XR_KHR_CONVERT_TIMESPEC_TIME_EXTENSION_NAME) \
  _(xrConvertTimeToTimespecTimeKHR, XR_KHR_CONVERT_TIMESPEC_TIME_EXTENSION_NAME) \
  _(xrCreateHandTrackerEXT, XR_EXT_HAND_TRACKING_EXTENSION_NAME)                 \
  _(xrDestroyHandTrackerEXT, XR_EXT_HAND_TRACKING_EXTENSION_NAME)                \
  _(xrLocateHandJointsEXT, XR_EXT_HAND_TRACKING_EXTENSION_NAME)

namespace stagger::simxr::api {

XrResult xrGetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function);
XrResult xrEnumerateApiLayerProperties(uint32_t capacity, uint32_t* count,
                                       XrApiLayerProperties* properties);
XrResult xrEnumerateInstanceExtensionProperties(const char* layer, uint32_t capacity,
                                                uint32_t* count, XrExtensionProperties* properties);
XrResult xrCreateInstance(const XrInstanceCreateInfo* info, XrInstance* instance);
XrResult xrDestroyInstance(XrInstance instance);
XrResult xrGetInstanceProperties(XrInstance instance, XrInstanceProperties* properties);
XrResult xrPollEvent(XrInstance instance, XrEventDataBuffer* event);
XrResult xrResultToString(XrInstance instance, XrResult value,
                          char buffer[XR_MAX_RESULT_STRING_SIZE]);
XrResult xrStructureTypeToString(XrInstance instance, XrStructureType value,
                                 char buffer[XR_MAX_STRUCTURE_NAME_SIZE]);
XrResult xrGetSystem(XrInstance instance, const XrSystemGetInfo* info, XrSystemId* system);
XrResult xrGetSystemProperties(XrInstance instance, XrSystemId system,
                               XrSystemProperties* properties);
XrResult xrEnumerateEnvironmentBlendModes(XrInstance instance, XrSystemId system,
                                          XrViewConfigurationType type, uint32_t capacity,
                                          uint32_t* count, XrEnvironmentBlendMode* modes);
XrResult xrCreateSession(XrInstance instance, const XrSessionCreateInfo* info, XrSession* session);
XrResult xrDestroySession(XrSession session);
XrResult xrEnumerateReferenceSpaces(XrSession session, uint32_t capacity, uint32_t* count,
                                    XrReferenceSpaceType* spaces);
XrResult xrCreateReferenceSpace(XrSession session, const XrReferenceSpaceCreateInfo* info,
                                XrSpace* space);
XrResult xrGetReferenceSpaceBoundsRect(XrSession session, XrReferenceSpaceType type,
                                       XrExtent2Df* bounds);
XrResult xrCreateActionSpace(XrSession session, const XrActionSpaceCreateInfo* info,
                             XrSpace* space);
XrResult xrLocateSpace(XrSpace space, XrSpace base, XrTime time, XrSpaceLocation* location);
XrResult xrDestroySpace(XrSpace space);
XrResult xrEnumerateViewConfigurations(XrInstance instance, XrSystemId system, uint32_t capacity,
                                       uint32_t* count, XrViewConfigurationType* types);
XrResult xrGetViewConfigurationProperties(XrInstance instance, XrSystemId system,
                                          XrViewConfigurationType type,
                                          XrViewConfigurationProperties* properties);
XrResult xrEnumerateViewConfigurationViews(XrInstance instance, XrSystemId system,
                                           XrViewConfigurationType type, uint32_t capacity,
                                           uint32_t* count, XrViewConfigurationView* views);
XrResult xrEnumerateSwapchainFormats(XrSession session, uint32_t capacity, uint32_t* count,
                                     int64_t* formats);
XrResult xrCreateSwapchain(XrSession session, const XrSwapchainCreateInfo* info,
                           XrSwapchain* swapchain);
XrResult xrDestroySwapchain(XrSwapchain swapchain);
XrResult xrEnumerateSwapchainImages(XrSwapchain swapchain, uint32_t capacity, uint32_t* count,
                                    XrSwapchainImageBaseHeader* images);
XrResult xrAcquireSwapchainImage(XrSwapchain swapchain, const XrSwapchainImageAcquireInfo* info,
                                 uint32_t* index);
XrResult xrWaitSwapchainImage(XrSwapchain swapchain, const XrSwapchainImageWaitInfo* info);
XrResult xrReleaseSwapchainImage(XrSwapchain swapchain, const XrSwapchainImageReleaseInfo* info);
XrResult xrBeginSession(XrSession session, const XrSessionBeginInfo* info);
XrResult xrEndSession(XrSession session);
XrResult xrRequestExitSession(XrSession session);
XrResult xrWaitFrame(XrSession session, const XrFrameWaitInfo* info, XrFrameState* state);
XrResult xrBeginFrame(XrSession session, const XrFrameBeginInfo* info);
XrResult xrEndFrame(XrSession session, const XrFrameEndInfo* info);
XrResult xrLocateViews(XrSession session, const XrViewLocateInfo* info, XrViewState* state,
                       uint32_t capacity, uint32_t* count, XrView* views);
XrResult xrStringToPath(XrInstance instance, const char* string, XrPath* path);
XrResult xrPathToString(XrInstance instance, XrPath path, uint32_t capacity, uint32_t* count,
                        char* buffer);
XrResult xrCreateActionSet(XrInstance instance, const XrActionSetCreateInfo* info,
                           XrActionSet* set);
XrResult xrDestroyActionSet(XrActionSet set);
XrResult xrCreateAction(XrActionSet set, const XrActionCreateInfo* info, XrAction* action);
XrResult xrDestroyAction(XrAction action);
XrResult xrSuggestInteractionProfileBindings(XrInstance instance,
                                             const XrInteractionProfileSuggestedBinding* suggested);
XrResult xrAttachSessionActionSets(XrSession session, const XrSessionActionSetsAttachInfo* info);
XrResult xrGetCurrentInteractionProfile(XrSession session, XrPath top_level,
                                        XrInteractionProfileState* profile);
XrResult xrGetActionStateBoolean(XrSession session, const XrActionStateGetInfo* info,
                                 XrActionStateBoolean* state);
XrResult xrGetActionStateFloat(XrSession session, const XrActionStateGetInfo* info,
                               XrActionStateFloat* state);
XrResult xrGetActionStateVector2f(XrSession session, const XrActionStateGetInfo* info,
                                  XrActionStateVector2f* state);
XrResult xrGetActionStatePose(XrSession session, const XrActionStateGetInfo* info,
                              XrActionStatePose* state);
XrResult xrSyncActions(XrSession session, const XrActionsSyncInfo* info);
XrResult xrEnumerateBoundSourcesForAction(XrSession session,
                                          const XrBoundSourcesForActionEnumerateInfo* info,
                                          uint32_t capacity, uint32_t* count, XrPath* sources);
XrResult xrGetInputSourceLocalizedName(XrSession session,
                                       const XrInputSourceLocalizedNameGetInfo* info,
                                       uint32_t capacity, uint32_t* count, char* buffer);
XrResult xrApplyHapticFeedback(XrSession session, const XrHapticActionInfo* info,
                               const XrHapticBaseHeader* feedback);
XrResult xrStopHapticFeedback(XrSession session, const XrHapticActionInfo* info);

XrResult xrCreateVulkanInstanceKHR(XrInstance instance, const XrVulkanInstanceCreateInfoKHR* info,
                                   VkInstance* vk_instance, VkResult* vk_result);
XrResult xrCreateVulkanDeviceKHR(XrInstance instance, const XrVulkanDeviceCreateInfoKHR* info,
                                 VkDevice* device, VkResult* vk_result);
XrResult xrGetVulkanGraphicsDevice2KHR(XrInstance instance,
                                       const XrVulkanGraphicsDeviceGetInfoKHR* info,
                                       VkPhysicalDevice* physical_device);
XrResult xrGetVulkanGraphicsRequirements2KHR(XrInstance instance, XrSystemId system,
                                             XrGraphicsRequirementsVulkanKHR* requirements);
XrResult xrConvertTimespecTimeToTimeKHR(XrInstance instance, const struct timespec* timespec_time,
                                        XrTime* time);
XrResult xrConvertTimeToTimespecTimeKHR(XrInstance instance, XrTime time,
                                        struct timespec* timespec_time);
XrResult xrCreateHandTrackerEXT(XrSession session, const XrHandTrackerCreateInfoEXT* info,
                                XrHandTrackerEXT* tracker);
XrResult xrDestroyHandTrackerEXT(XrHandTrackerEXT tracker);
XrResult xrLocateHandJointsEXT(XrHandTrackerEXT tracker, const XrHandJointsLocateInfoEXT* info,
                               XrHandJointLocationsEXT* locations);

}  // namespace stagger::simxr::api

namespace stagger::simxr {

inline constexpr XrSystemId kSystemId = 1;
inline constexpr XrVersion kApiVersion = XR_MAKE_VERSION(1, 0, 20);

/// Status of a session for calls that must honour LOSS_PENDING / SESSION_LOST: XR_SUCCESS,
/// XR_SESSION_LOSS_PENDING or XR_ERROR_SESSION_LOST.
XrResult session_status(const struct Session& session);
/// The success code to return from a session call: XR_SESSION_LOSS_PENDING once loss is pending.
XrResult success_of(const struct Session& session);

/// Two-call idiom helper: writes count, checks capacity.
template <typename T, typename Fill>
XrResult two_call(uint32_t capacity, uint32_t* count, T* out, std::size_t n, Fill fill) {
  if (count == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  *count = static_cast<uint32_t>(n);
  if (capacity == 0) return XR_SUCCESS;
  if (capacity < n) return XR_ERROR_SIZE_INSUFFICIENT;
  if (out == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  for (std::size_t i = 0; i < n; ++i) fill(out[i], i);
  return XR_SUCCESS;
}

}  // namespace stagger::simxr
