#pragma once
// XR_EXT_hand_tracking, when the runtime offers it and the system tracks hands: one tracker per
// hand; each frame the 26 joints at the display time. The palm drives the physics hand when no
// controller is active. Its hooks (kXrExtHandTracking, xr_hand_tracking.cpp):
//   instance: enabled when offered; kept only when XrSystemHandTrackingPropertiesEXT says so;
//   session:  the two trackers made after the input, destroyed before it;
//   frame:    the palm and finger joints of each hand no controller drives, while focused.

#include <array>
#include <optional>
#include <vector>

#include "xr_common.h"

namespace stagger::vr {

struct TrackedPalm {
  XrPosef pose{};
  XrVector3f velocity{};  ///< [m/s] zero when the runtime gives none
  float radius_m = 0;     ///< [m] the palm joint's radius
  /// The finger joints, thumb metacarpal to little tip (every joint but palm and wrist), always
  /// in that order; a joint without a valid position has none.
  std::vector<std::optional<XrVector3f>> fingers;
};

class XrHandTracking {
 public:
  static constexpr const char* kExtension = XR_EXT_HAND_TRACKING_EXTENSION_NAME;
  /// Whether the system can track hands (XrSystemHandTrackingPropertiesEXT).
  static bool supported(XrInstance instance, XrSystemId system);

  XrHandTracking(XrInstance instance, XrSession session);
  ~XrHandTracking();
  XrHandTracking(const XrHandTracking&) = delete;
  XrHandTracking& operator=(const XrHandTracking&) = delete;

  /// Finger joints per hand that `palm` returns at most.
  static constexpr int kFingerJoints = XR_HAND_JOINT_COUNT_EXT - 2;
  /// The palm and fingers of a hand (0 left, 1 right) at `time` in `base`, when the runtime tracks
  /// it.
  std::optional<TrackedPalm> palm(int side, XrSpace base, XrTime time) const;

 private:
  PFN_xrCreateHandTrackerEXT create_ = nullptr;
  PFN_xrDestroyHandTrackerEXT destroy_ = nullptr;
  PFN_xrLocateHandJointsEXT locate_ = nullptr;
  std::array<XrHandTrackerEXT, 2> trackers_{XR_NULL_HANDLE, XR_NULL_HANDLE};
};

}  // namespace stagger::vr
