#pragma once
// Levels exported from Blender as .gltf/.glb (docs/design.md, glTF levels); load_level() dispatches
// here.

#include <string>

#include "stagger/levels/load.h"

namespace stagger::levels {

LoadResult load_gltf_level(const std::string& path);

}  // namespace stagger::levels
