#include "stagger/ai/crowd.h"

#include <recastnavigation/DetourCommon.h>
#include <recastnavigation/DetourCrowd.h>

#include <optional>
#include <vector>

#include "navmesh_impl.h"
#include "stagger/core/assert.h"

namespace stagger::ai {

namespace {
constexpr unsigned char kAvoidance = 1;       // the avoidance preset our agents use
constexpr float kNeighbourRangeRadii = 5.0f;  // [agent radii] avoidance and separation range
// [-] dtCrowd's separation: the push from a neighbour is this times (1 - (d / range)^2) of the
// agent's speed. Above 1 it cancels the desired velocity of two agents walking at each other
// before their avoidance can steer them past: at 2 they stood 1.06 m apart (where the push is
// the whole speed) at a stairwell's landing, facing each other, until both skipped their points.
constexpr float kSeparationWeight = 1.0f;
}  // namespace

struct Crowd::Impl {
  std::shared_ptr<const Navmesh> navmesh;
  dtCrowd* crowd = nullptr;
  std::vector<std::optional<Vec3>> targets;  // per agent index: the last target asked for
  ~Impl() { dtFreeCrowd(crowd); }

  dtCrowdAgent& agent(int index) {
    dtCrowdAgent* a = crowd->getEditableAgent(index);
    STAGGER_ASSERT(a != nullptr && a->active);
    return *a;
  }
};

Crowd::Crowd(std::shared_ptr<const Navmesh> navmesh, int max_agents, float max_agent_radius)
    : impl_(std::make_unique<Impl>()) {
  impl_->navmesh = std::move(navmesh);
  impl_->crowd = dtAllocCrowd();
  // dtCrowd takes a non-const mesh but only reads it.
  auto* mesh = const_cast<dtNavMesh*>(impl_->navmesh->impl().mesh);
  const bool ready = impl_->crowd && impl_->crowd->init(max_agents, max_agent_radius, mesh);
  STAGGER_ASSERT(ready);
  // RecastDemo's "medium" avoidance (5 divisions, 2 rings, depth 2): dtCrowd's default samples
  // to depth 5, and 32 agents then cost 0.55 ms per tick at the 99th percentile (the budget is 0.5
  // ms: docs/design.md, Budgets).
  dtObstacleAvoidanceParams avoidance = *impl_->crowd->getObstacleAvoidanceParams(0);
  avoidance.adaptiveDivs = 5;
  avoidance.adaptiveRings = 2;
  avoidance.adaptiveDepth = 2;
  impl_->crowd->setObstacleAvoidanceParams(kAvoidance, &avoidance);
  impl_->targets.resize(static_cast<std::size_t>(max_agents));
}

Crowd::~Crowd() = default;

int Crowd::add_agent(Vec3 position, float radius, float height, float max_speed) {
  dtCrowdAgentParams params{};
  params.radius = radius;
  params.height = height;
  params.maxAcceleration = 8.0f;
  params.maxSpeed = max_speed;
  // Neighbours within this range are avoided and pushed apart (dtCrowd's separation uses the
  // same range). At 12 radii (3.6 m) two enemies walking one route side by side were pushed to
  // opposite edges of a 4 m ramp and a 3 m flight, and stepped off their open sides: the arena's
  // self-falls over eight 300 s runs went from 82 to 33 with this range and the navmesh's drop
  // margin together.
  params.collisionQueryRange = radius * kNeighbourRangeRadii;
  params.pathOptimizationRange = radius * 30.0f;
  params.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO |
                       DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION;
  params.separationWeight = kSeparationWeight;
  params.obstacleAvoidanceType = kAvoidance;
  const int index = impl_->crowd->addAgent(&position.x, &params);
  if (index >= 0) impl_->targets[static_cast<std::size_t>(index)].reset();
  return index;
}

bool Crowd::set_target(int agent, Vec3 target) {
  const dtNavMeshQuery* query = impl_->crowd->getNavMeshQuery();
  const float* extents = impl_->crowd->getQueryHalfExtents();
  dtPolyRef ref = 0;
  float point[3];
  query->findNearestPoly(&target.x, extents, impl_->crowd->getFilter(0), &ref, point);
  if (ref == 0) return false;
  impl_->crowd->requestMoveTarget(agent, ref, point);
  impl_->targets[static_cast<std::size_t>(agent)] = target;
  return true;
}

void Crowd::clear_target(int agent) {
  impl_->crowd->resetMoveTarget(agent);
  impl_->targets[static_cast<std::size_t>(agent)].reset();
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

std::vector<Vec3> Crowd::corners(int agent) const {
  const dtCrowdAgent* a = impl_->crowd->getAgent(agent);
  std::vector<Vec3> out;
  for (int i = 0; i < a->ncorners; ++i)
    out.push_back({a->cornerVerts[i * 3], a->cornerVerts[i * 3 + 1], a->cornerVerts[i * 3 + 2]});
  return out;
}

Vec3 Crowd::velocity(int agent) const {
  const float* v = impl_->crowd->getAgent(agent)->vel;
  return {v[0], v[1], v[2]};
}

bool Crowd::valid(int agent) const {
  const dtCrowdAgent* a = impl_->crowd->getAgent(agent);
  return a != nullptr && a->active && a->state != DT_CROWDAGENT_STATE_INVALID;
}

Vec3 Crowd::pull_back(int agent, Vec3 toward) {
  // The same move dtCrowd::update makes at the end of every tick.
  dtCrowdAgent& a = impl_->agent(agent);
  a.corridor.movePosition(&toward.x, impl_->navmesh->impl().query,
                          impl_->crowd->getFilter(a.params.queryFilterType));
  dtVcopy(a.npos, a.corridor.getPos());
  dtVset(a.vel, 0, 0, 0);
  dtVset(a.dvel, 0, 0, 0);
  dtVset(a.nvel, 0, 0, 0);
  return position(agent);
}

void Crowd::remove_agent(int agent) {
  impl_->crowd->removeAgent(agent);
  impl_->targets[static_cast<std::size_t>(agent)].reset();
}

bool Crowd::reseat(int agent, Vec3 position) {
  // Upstream's advice for a teleport: remove the agent and add it again. dtCrowd::addAgent takes
  // the lowest free slot, so slots below it that removed agents left free are filled for the
  // moment: the agent gets its own index back.
  const dtCrowdAgentParams params = impl_->agent(agent).params;
  const dtNavMeshQuery* query = impl_->crowd->getNavMeshQuery();
  dtPolyRef ref = 0;
  float point[3];
  query->findNearestPoly(&position.x, impl_->crowd->getQueryHalfExtents(),
                         impl_->crowd->getFilter(0), &ref, point);
  if (ref == 0) return false;
  const std::optional<Vec3> target = impl_->targets[static_cast<std::size_t>(agent)];
  impl_->crowd->removeAgent(agent);
  std::vector<int> fillers;
  for (int i = 0; i < agent; ++i) {
    if (!impl_->crowd->getAgent(i)->active)
      fillers.push_back(impl_->crowd->addAgent(point, &params));
  }
  const int index = impl_->crowd->addAgent(point, &params);
  for (int filler : fillers) impl_->crowd->removeAgent(filler);
  STAGGER_ASSERT(index == agent);
  if (target) set_target(agent, *target);
  return true;
}

}  // namespace stagger::ai
