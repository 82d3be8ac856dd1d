#pragma once
// The navigation checks of `stagger check`: the level's navmesh is built,
// and every patrol point, spawn and the player start must stand on it (within 0.5 m across and
// 1 m up or down), and every leg of a route must be a complete path.

#include <memory>
#include <string>
#include <vector>

#include "stagger/ai/navmesh.h"
#include "stagger/levels/load.h"

namespace stagger::sim {

struct LevelNavigation {
  std::shared_ptr<const ai::Navmesh> navmesh;   ///< null when it could not be built
  std::vector<levels::Diagnostic> diagnostics;  ///< each where the problem stands in the file
  bool ok() const;                              ///< no errors (warnings allowed)
  int warnings() const;
};

/// Builds the navmesh of a level that loaded without errors, removes the islands that no route
/// point, spawn or the player start stands on, and checks reachability; warns about route points
/// with too little room for a ragdoll to turn.
LevelNavigation check_reachability(const levels::LoadResult& loaded);

}  // namespace stagger::sim
