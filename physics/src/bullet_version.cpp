#include "stagger/physics/bullet_version.h"

#include <LinearMath/btScalar.h>

namespace stagger::physics {

std::string bullet_version() {
  // BT_BULLET_VERSION is MAJOR * 100 + MINOR (324 for 3.24).
  constexpr int kMinorDigits = 100;
  const int version = btGetVersion();
  const int minor = version % kMinorDigits;
  return std::to_string(version / kMinorDigits) + (minor < 10 ? ".0" : ".") + std::to_string(minor);
}

}  // namespace stagger::physics
