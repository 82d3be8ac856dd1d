#include "stagger/ai/crowd.h"

#include <recastnavigation/DetourCrowd.h>

#include "navmesh_impl.h"
#include "stagger/core/assert.h"

namespace stagger::ai {

struct Crowd::Impl {
  std::shared_ptr<const Navmesh> navmesh;
  dtCrowd* crowd = nullptr;
  ~Impl() { dtFreeCrowd(crowd); }
};

Crowd::Crowd(std::shared_ptr<const Navmesh> navmesh, int max_agents, float max_agent_radius)
    : impl_(std::make_unique<Impl>()) {
  impl_->navmesh = std::move(navmesh);
  impl_->crowd = dtAllocCrowd();
  // dtCrowd takes a non-const mesh but only reads it.
  auto* mesh = const_cast<dtNavMesh*>(impl_->navmesh->impl().mesh);
  const bool ready = impl_->crowd && impl_->crowd->init(max_agents, max_agent_radius, mesh);
  STAGGER_ASSERT(ready);
}

Crowd::~Crowd() = default;

int Crowd::add_agent(Vec3 position, float radius, float height, float max_speed) {
  dtCrowdAgentParams params{};
  params.radius = radius;
  params.height = height;
  params.maxAcceleration = 8.0f;
  params.maxSpeed = max_speed;
  params.collisionQueryRange = radius * 12.0f;
  params.pathOptimizationRange = radius * 30.0f;
  params.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO |
                       DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION;
  params.separationWeight = 2.0f;
  params.obstacleAvoidanceType = 3;
  return impl_->crowd->addAgent(&position.x, &params);
}

void Crowd::set_target(int agent, Vec3 target) {
  const dtNavMeshQuery* query = impl_->crowd->getNavMeshQuery();
  const float* extents = impl_->crowd->getQueryHalfExtents();
  dtPolyRef ref = 0;
  float point[3];
  query->findNearestPoly(&target.x, extents, impl_->crowd->getFilter(0), &ref, point);
  if (ref != 0) impl_->crowd->requestMoveTarget(agent, ref, point);
}

void Crowd::set_max_speed(int agent, float speed) {
  dtCrowdAgentParams params = impl_->crowd->getAgent(agent)->params;
  params.maxSpeed = speed;
  impl_->crowd->updateAgentParameters(agent, &params);
}

void Crowd::update(float dt) {
  STAGGER_ASSERT(dt > 0);
  impl_->crowd->update(dt, nullptr);
}

Vec3 Crowd::position(int agent) const {
  const float* p = impl_->crowd->getAgent(agent)->npos;
  return {p[0], p[1], p[2]};
}

Vec3 Crowd::velocity(int agent) const {
  const float* v = impl_->crowd->getAgent(agent)->vel;
  return {v[0], v[1], v[2]};
}

}  // namespace stagger::ai
