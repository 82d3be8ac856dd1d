// Interaction profiles the runtime simulates, with the input/output paths the OpenXR 1.0 spec
// lists for each (chapter 6.4), and the rules to resolve a binding path to a component.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace stagger::simxr {

struct Profile {
  std::string path;                  ///< /interaction_profiles/...
  std::string display_name;          ///< for xrGetInputSourceLocalizedName
  std::vector<std::string> sources;  ///< full component paths: /user/hand/left/input/trigger/value
  bool simulated =
      false;  ///< the runtime can make it the active profile (else only bindings are checked)
};

/// Every OpenXR 1.0 core profile (bindings for all of them are accepted); nullptr for an unknown
/// path.
const Profile* find_profile(std::string_view path);
const std::vector<Profile>& all_profiles();
/// One of the five simulated profiles (simple, touch, index, vive, Windows Mixed Reality);
/// nullptr otherwise.
const Profile* find_simulated_profile(std::string_view path);

/// Whether `binding` is a component path of the profile or the parent of one (…/input/trigger).
bool profile_accepts(const Profile& profile, std::string_view binding);

/// A binding path split into its parts:
/// /user/hand/<hand>/<input|output>/<identifier>[/<component>].
struct SourceParts {
  int hand = -1;  ///< 0 left, 1 right, -1 not a hand
  bool output = false;
  std::string identifier;  ///< trigger, grip, haptic ...
  std::string component;   ///< value, click, pose, ...; empty for a parent path
};
SourceParts split_source(std::string_view path);

}  // namespace stagger::simxr
