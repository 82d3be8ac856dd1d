#pragma once
// Navmesh internals shared inside ai/ (the crowd needs the Detour mesh).

#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshQuery.h>

#include "stagger/ai/navmesh.h"

namespace stagger::ai {

struct Navmesh::Impl {
  dtNavMesh* mesh = nullptr;
  dtNavMeshQuery* query = nullptr;
  NavigationSettings settings;
  ~Impl() {
    dtFreeNavMeshQuery(query);
    dtFreeNavMesh(mesh);
  }
};

}  // namespace stagger::ai
