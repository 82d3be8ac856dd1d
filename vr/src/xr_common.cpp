#include "xr_common.h"

#include <openxr/openxr_reflection.h>

namespace stagger::vr {

std::string result_name(XrResult result) {
  switch (result) {
#define STAGGER_XR_RESULT_CASE(name, value) \
  case name:                                \
    return #name;
    XR_LIST_ENUM_XrResult(STAGGER_XR_RESULT_CASE)
#undef STAGGER_XR_RESULT_CASE
            default : return "XrResult " +
                      std::to_string(static_cast<int>(result));
  }
}

}  // namespace stagger::vr
