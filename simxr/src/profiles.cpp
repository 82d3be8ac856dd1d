#include "profiles.h"

#include <algorithm>

namespace stagger::simxr {
namespace {

void add_for(Profile& p, const char* hand, std::initializer_list<const char*> items) {
  for (const char* item : items)
    p.sources.push_back(std::string("/user/hand/") + hand + "/" + item);
}
void add_top(Profile& p, const char* top, std::initializer_list<const char*> items) {
  for (const char* item : items) p.sources.push_back(std::string(top) + "/" + item);
}
void add_both(Profile& p, std::initializer_list<const char*> items) {
  add_for(p, "left", items);
  add_for(p, "right", items);
}

std::vector<Profile> make_profiles() {
  std::vector<Profile> out;
  Profile simple{"/interaction_profiles/khr/simple_controller", "Simple Controller", {}, true};
  add_both(simple, {"input/select/click", "input/menu/click", "input/grip/pose", "input/aim/pose",
                    "output/haptic"});
  out.push_back(simple);

  Profile vive{"/interaction_profiles/htc/vive_controller", "Vive Controller", {}, true};
  add_both(vive,
           {"input/system/click", "input/squeeze/click", "input/menu/click", "input/trigger/click",
            "input/trigger/value", "input/trackpad/x", "input/trackpad/y", "input/trackpad/click",
            "input/trackpad/touch", "input/grip/pose", "input/aim/pose", "output/haptic"});
  out.push_back(vive);

  Profile touch{
      "/interaction_profiles/oculus/touch_controller", "Oculus Touch Controller", {}, true};
  add_for(touch, "left",
          {"input/x/click", "input/x/touch", "input/y/click", "input/y/touch", "input/menu/click"});
  add_for(
      touch, "right",
      {"input/a/click", "input/a/touch", "input/b/click", "input/b/touch", "input/system/click"});
  add_both(touch, {"input/squeeze/value", "input/trigger/value", "input/trigger/touch",
                   "input/thumbstick/x", "input/thumbstick/y", "input/thumbstick/click",
                   "input/thumbstick/touch", "input/thumbrest/touch", "input/grip/pose",
                   "input/aim/pose", "output/haptic"});
  out.push_back(touch);

  Profile index{"/interaction_profiles/valve/index_controller", "Index Controller", {}, true};
  add_both(index, {"input/system/click",   "input/system/touch",     "input/a/click",
                   "input/a/touch",        "input/b/click",          "input/b/touch",
                   "input/squeeze/value",  "input/squeeze/force",    "input/trigger/click",
                   "input/trigger/value",  "input/trigger/touch",    "input/thumbstick/x",
                   "input/thumbstick/y",   "input/thumbstick/click", "input/thumbstick/touch",
                   "input/trackpad/x",     "input/trackpad/y",       "input/trackpad/force",
                   "input/trackpad/touch", "input/grip/pose",        "input/aim/pose",
                   "output/haptic"});
  out.push_back(index);

  Profile wmr{
      "/interaction_profiles/microsoft/motion_controller", "Mixed Reality Controller", {}, true};
  add_both(wmr, {"input/menu/click", "input/squeeze/click", "input/trigger/value",
                 "input/thumbstick/x", "input/thumbstick/y", "input/thumbstick/click",
                 "input/trackpad/x", "input/trackpad/y", "input/trackpad/click",
                 "input/trackpad/touch", "input/grip/pose", "input/aim/pose", "output/haptic"});
  out.push_back(wmr);

  // Core profiles that are accepted in suggestions but never simulated.
  Profile daydream{
      "/interaction_profiles/google/daydream_controller", "Daydream Controller", {}, false};
  add_both(daydream,
           {"input/select/click", "input/trackpad/x", "input/trackpad/y", "input/trackpad/click",
            "input/trackpad/touch", "input/grip/pose", "input/aim/pose"});
  out.push_back(daydream);
  Profile vive_pro{"/interaction_profiles/htc/vive_pro", "Vive Pro", {}, false};
  add_top(vive_pro, "/user/head",
          {"input/system/click", "input/volume_up/click", "input/volume_down/click",
           "input/mute_mic/click"});
  out.push_back(vive_pro);
  Profile xbox{"/interaction_profiles/microsoft/xbox_controller", "Xbox Controller", {}, false};
  add_top(xbox, "/user/gamepad",
          {"input/menu/click",
           "input/view/click",
           "input/a/click",
           "input/b/click",
           "input/x/click",
           "input/y/click",
           "input/dpad_down/click",
           "input/dpad_right/click",
           "input/dpad_up/click",
           "input/dpad_left/click",
           "input/shoulder_left/click",
           "input/shoulder_right/click",
           "input/thumbstick_left/click",
           "input/thumbstick_right/click",
           "input/trigger_left/value",
           "input/trigger_right/value",
           "input/thumbstick_left/x",
           "input/thumbstick_left/y",
           "input/thumbstick_right/x",
           "input/thumbstick_right/y",
           "output/haptic_left",
           "output/haptic_right",
           "output/haptic_left_trigger",
           "output/haptic_right_trigger"});
  out.push_back(xbox);
  Profile go{"/interaction_profiles/oculus/go_controller", "Oculus Go Controller", {}, false};
  add_both(go, {"input/system/click", "input/trigger/click", "input/back/click", "input/trackpad/x",
                "input/trackpad/y", "input/trackpad/click", "input/trackpad/touch",
                "input/grip/pose", "input/aim/pose"});
  out.push_back(go);
  return out;
}

}  // namespace

const std::vector<Profile>& all_profiles() {
  static const std::vector<Profile> profiles = make_profiles();
  return profiles;
}

const Profile* find_profile(std::string_view path) {
  for (const Profile& p : all_profiles()) {
    if (p.path == path) return &p;
  }
  return nullptr;
}

const Profile* find_simulated_profile(std::string_view path) {
  const Profile* p = find_profile(path);
  return p != nullptr && p->simulated ? p : nullptr;
}

bool profile_accepts(const Profile& profile, std::string_view binding) {
  return std::any_of(profile.sources.begin(), profile.sources.end(), [&](const std::string& s) {
    if (s == binding) return true;
    // A parent path: the component path minus its last element, only below /input/.
    const std::size_t slash = s.rfind('/');
    return s.find("/input/") != std::string::npos &&
           std::string_view(s).substr(0, slash) == binding;
  });
}

SourceParts split_source(std::string_view path) {
  SourceParts parts;
  constexpr std::string_view kLeft = "/user/hand/left/";
  constexpr std::string_view kRight = "/user/hand/right/";
  std::string_view rest;
  if (path.substr(0, kLeft.size()) == kLeft) {
    parts.hand = 0;
    rest = path.substr(kLeft.size());
  } else if (path.substr(0, kRight.size()) == kRight) {
    parts.hand = 1;
    rest = path.substr(kRight.size());
  } else {
    return parts;
  }
  const std::size_t first = rest.find('/');
  if (first == std::string_view::npos) return parts;
  parts.output = rest.substr(0, first) == "output";
  rest = rest.substr(first + 1);
  const std::size_t second = rest.find('/');
  parts.identifier = std::string(rest.substr(0, second));
  if (second != std::string_view::npos) parts.component = std::string(rest.substr(second + 1));
  return parts;
}

}  // namespace stagger::simxr
