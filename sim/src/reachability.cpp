#include "stagger/sim/reachability.h"

#include <algorithm>
#include <cstdio>

#include "stagger/sim/scene.h"

namespace stagger::sim {
namespace {

constexpr float kAcross = kOnNavmesh.x;  // [m] a point may stand this far beside the navmesh ...
constexpr float kUpDown = kOnNavmesh.y;  // [m] ... and this far above or below it
constexpr float kTurningRoom = 0.2f;     // [m] from the navmesh's edge (beyond the agent radius)

std::string metres(float v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f", static_cast<double>(v));
  return text;
}

}  // namespace

bool LevelNavigation::ok() const {
  return std::none_of(diagnostics.begin(), diagnostics.end(),
                      [](const levels::Diagnostic& d) { return d.error; });
}

int LevelNavigation::warnings() const {
  return static_cast<int>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                        [](const levels::Diagnostic& d) { return !d.error; }));
}

LevelNavigation check_reachability(const levels::LoadResult& loaded) {
  LevelNavigation out;
  const levels::Level& level = loaded.level;
  const SceneDescription scene = scene_from_level(level, loaded.mesh_triangles);
  // Every route counts as a seed, walked by an enemy or not.
  std::vector<Vec3> route_points;
  for (const auto& r : level.routes) {
    for (const auto& p : r.points) route_points.push_back(p.position);
  }
  auto built = build_navmesh(scene, route_points);
  const auto problem = [&](levels::Diagnostic where, const std::string& message) {
    where.message += message;
    out.diagnostics.push_back(where);
  };
  if (!built) {
    problem(loaded.where.player, built.error());
    return out;
  }
  out.navmesh = built.value();
  const ai::Navmesh& nav = *out.navmesh;
  const auto on_navmesh = [&](Vec3 p, std::string* why) {
    const ai::Navmesh::Nearest near = nav.nearest(p, kOnNavmesh);
    if (near.found && near.horizontal_m <= kAcross) return true;
    *why = near.found ? "is " + metres(near.horizontal_m) + " m beside the navmesh (at most " +
                            metres(kAcross) + " m)"
                      : "is not on the navmesh (nothing walkable within " + metres(kAcross) +
                            " m across and " + metres(kUpDown) + " m up or down)";
    return false;
  };
  std::string why;
  if (!on_navmesh(level.player.position, &why))
    problem(loaded.where.player, "the player start " + why);
  for (std::size_t e = 0; e < level.enemies.size(); ++e) {
    if (!on_navmesh(level.enemies[e].position, &why)) {
      problem(loaded.where.enemies[e], "the spawn of enemy `" + level.enemies[e].name + "` " + why);
    }
  }
  for (std::size_t r = 0; r < level.routes.size(); ++r) {
    const levels::Route& route = level.routes[r];
    const auto& where = loaded.where.route_points[r];
    bool all_on = true;
    for (std::size_t p = 0; p < route.points.size(); ++p) {
      if (!on_navmesh(route.points[p].position, &why)) {
        problem(where[p], "point " + std::to_string(p) + " of route `" + route.name + "` " + why);
        all_on = false;
      }
    }
    if (!all_on) continue;  // legs from points off the navmesh say nothing more
    for (std::size_t p = 0; p < route.points.size(); ++p) {
      // The navmesh keeps the agent's radius off obstacles, but a ragdoll swings its arms and
      // turns on the spot at a point: with less room it hits the wall and falls.
      const float room = nav.distance_to_edge(route.points[p].position, kTurningRoom);
      if (room >= 0 && room < kTurningRoom) {
        levels::Diagnostic w = where[p];
        w.error = false;
        problem(w, "point " + std::to_string(p) + " of route `" + route.name + "` is " +
                       metres(room + scene.navigation->agent_radius) +
                       " m from an obstacle or a drop; a ragdoll turning there needs " +
                       metres(kTurningRoom + scene.navigation->agent_radius) + " m");
      }
    }
    const std::size_t n_points = route.points.size();
    const std::size_t legs =
        route.mode == levels::RouteMode::loop && n_points > 2 ? n_points : n_points - 1;
    for (std::size_t leg = 0; leg < legs && n_points > 1; ++leg) {
      const std::size_t a = leg, b = (leg + 1) % n_points;
      if (nav.path(route.points[a].position, route.points[b].position) !=
          ai::Navmesh::PathKind::complete) {
        problem(where[b], "route `" + route.name + "` has no complete path from point " +
                              std::to_string(a) + " to point " + std::to_string(b));
      }
    }
  }
  std::stable_sort(out.diagnostics.begin(), out.diagnostics.end(),
                   [](const auto& x, const auto& y) {
                     return x.line != y.line ? x.line < y.line : x.column < y.column;
                   });
  return out;
}

}  // namespace stagger::sim
