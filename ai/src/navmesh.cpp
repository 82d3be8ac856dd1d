#include "stagger/ai/navmesh.h"

#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/DetourNavMeshQuery.h>
#include <recastnavigation/Recast.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "navmesh_impl.h"

namespace stagger::ai {
namespace {

constexpr unsigned short kWalkableFlag = 1;  // polys with flags 0 fail Detour's default filter
constexpr int kMaxPathPolys = 2048;
// The polygons a line of sight crosses are recorded up to this many (Detour's raycast goes on
// past them; only the hit matters here).
constexpr int kMaxSightPolys = 32;

template <typename T, void (*Free)(T*)>
struct Owned {
  T* p = nullptr;
  ~Owned() {
    if (p) Free(p);
  }
};

int voxels(float metres, float cell, bool round_up) {
  // A small epsilon so float noise cannot add a cell.
  const float v = metres / cell;
  return round_up ? static_cast<int>(std::ceil(v - 1e-4f))
                  : static_cast<int>(std::floor(v + 1e-4f));
}

// The polygon nearest `p` within `half_extents`, and the point on it; 0 when there is none
// (findNearestPoly succeeds with ref 0 when nothing is in the box: the ref is what counts).
dtPolyRef nearest_poly(const dtNavMeshQuery& query, Vec3 p, Vec3 half_extents, float point[3]) {
  const dtQueryFilter filter;
  dtPolyRef ref = 0;
  if (dtStatusFailed(query.findNearestPoly(&p.x, &half_extents.x, &filter, &ref, point))) return 0;
  return ref;
}

// Whether the ground beyond a walkable span's unconnected side `dir` is a drop (lower ground, a
// ledge span the filter removed, the edge of the level) rather than a wall (something rising
// above the climb within the agent's height). `floor`, `climb` and `height` in voxels.
bool drop_beside(const rcHeightfield& solid, int x, int z, int dir, int floor, int climb,
                 int height) {
  const int nx = x + rcGetDirOffsetX(dir);
  const int nz = z + rcGetDirOffsetY(dir);
  if (nx < 0 || nz < 0 || nx >= solid.width || nz >= solid.height) return true;
  for (const rcSpan* s = solid.spans[nx + nz * solid.width]; s != nullptr; s = s->next) {
    const int top = static_cast<int>(s->smax);
    const int bottom = static_cast<int>(s->smin);
    if (top > floor + climb && bottom < floor + height) return false;
  }
  return true;
}

// [voxels] where the open space over a span ends: the bottom of the span above it, if any.
int top_of(const rcSpan* above) {
  return above != nullptr ? static_cast<int>(above->smin) : RC_SPAN_MAX_HEIGHT;
}

// [voxels] the lowest floor beside column (x, z), toward `dir`, with `height` of headroom over it
// that a walker on [floor, ceiling) could step to; -climb off the grid's edge (a drop).
int lowest_floor_beside(const rcHeightfield& solid, int x, int z, int dir, int floor, int ceiling,
                        int height, int climb) {
  const int nx = x + rcGetDirOffsetX(dir);
  const int nz = z + rcGetDirOffsetY(dir);
  if (nx < 0 || nz < 0 || nx >= solid.width || nz >= solid.height) return -climb;
  int lowest = RC_SPAN_MAX_HEIGHT;
  // The open space below the column's first span, then above each of its spans.
  const rcSpan* n = solid.spans[nx + nz * solid.width];
  int n_floor = -climb;
  int n_ceiling = top_of(n);
  while (true) {
    if (std::min(ceiling, n_ceiling) - std::max(floor, n_floor) > height)
      lowest = std::min(lowest, n_floor);
    if (n == nullptr) return lowest;
    n_floor = static_cast<int>(n->smax);
    n_ceiling = top_of(n->next);
    n = n->next;
  }
}

// Stage 3: a walkable span with a neighbour more than a climb below it (within the agent's
// headroom) is a ledge and not walkable. Recast's own ledge filter also drops every span whose
// walkable neighbours differ by more than a climb from one another (steep ground); on a flight
// whose treads are under two cells deep a tread a single cell deep sees one riser up and one
// down, and the whole tread's row went: 0.17 m risers on 0.28 m treads, at 0.15 m cells, gave no
// path up the flight for some placements of the grid. Steep ground is left to the triangles'
// slope limit and the climb between neighbours.
void filter_ledges(rcHeightfield& solid, int height, int climb) {
  for (int z = 0; z < solid.height; ++z) {
    for (int x = 0; x < solid.width; ++x) {
      for (rcSpan* s = solid.spans[x + z * solid.width]; s != nullptr; s = s->next) {
        if (s->area == RC_NULL_AREA) continue;
        const int floor = static_cast<int>(s->smax);
        for (int dir = 0; dir < 4; ++dir) {
          if (lowest_floor_beside(solid, x, z, dir, floor, top_of(s->next), height, climb) <
              floor - climb) {
            s->area = RC_NULL_AREA;
            break;
          }
        }
      }
    }
  }
}

// Stage 4a: walkable ground keeps `cells` more from drops than from walls. The legs step down
// a kerb but not off a platform's or a flight's open side, and a body strays from its crowd
// agent by a few tenths of a metre: agents that walked the eroded boundary along open sides
// put feet over the drop. Distances in Recast's chamfer units (2 per cell across, 3 per
// diagonal), from the spans beside a drop; run before the erosion by the agent's radius, which
// adds the same distance from every boundary.
void keep_back_from_drops(const rcHeightfield& solid, rcCompactHeightfield& chf, int climb,
                          int height, int cells) {
  if (cells <= 0) return;
  constexpr unsigned short kFar = 0xffff;
  std::vector<unsigned short> distance(static_cast<std::size_t>(chf.spanCount), kFar);
  using Entry = std::pair<unsigned short, int>;  // distance, span index
  std::vector<Entry> open;
  const auto span_index = [&](int x, int z, const rcCompactSpan& s, int dir) {
    const int nx = x + rcGetDirOffsetX(dir);
    const int nz = z + rcGetDirOffsetY(dir);
    return static_cast<int>(chf.cells[nx + nz * chf.width].index) + rcGetCon(s, dir);
  };
  // The seeds (spans beside a drop), and each span's cell for walking its neighbours.
  std::vector<int> cell_of(static_cast<std::size_t>(chf.spanCount));
  for (int cell = 0; cell < chf.width * chf.height; ++cell) {
    const rcCompactCell& c = chf.cells[cell];
    const int first = static_cast<int>(c.index);
    for (int i = first; i < first + static_cast<int>(c.count); ++i) {
      cell_of[static_cast<std::size_t>(i)] = cell;
      const rcCompactSpan& s = chf.spans[i];
      for (int dir = 0; dir < 4; ++dir) {
        if (rcGetCon(s, dir) != RC_NOT_CONNECTED ||
            !drop_beside(solid, cell % chf.width, cell / chf.width, dir, s.y, climb, height)) {
          continue;
        }
        distance[static_cast<std::size_t>(i)] = 0;
        open.emplace_back(0, i);
        break;
      }
    }
  }
  const auto farther = [](const Entry& a, const Entry& b) { return a.first > b.first; };
  std::make_heap(open.begin(), open.end(), farther);
  const int limit = 2 * cells;
  while (!open.empty()) {
    std::pop_heap(open.begin(), open.end(), farther);
    const auto [d, i] = open.back();
    open.pop_back();
    if (d != distance[static_cast<std::size_t>(i)] || d >= limit) continue;
    const int x = cell_of[static_cast<std::size_t>(i)] % chf.width;
    const int z = cell_of[static_cast<std::size_t>(i)] / chf.width;
    const rcCompactSpan& s = chf.spans[i];
    const auto relax = [&](int j, int step) {
      const auto nd = static_cast<unsigned short>(d + step);
      if (nd >= distance[static_cast<std::size_t>(j)]) return;
      distance[static_cast<std::size_t>(j)] = nd;
      open.emplace_back(nd, j);
      std::push_heap(open.begin(), open.end(), farther);
    };
    for (int dir = 0; dir < 4; ++dir) {
      if (rcGetCon(s, dir) == RC_NOT_CONNECTED) continue;
      const int j = span_index(x, z, s, dir);
      relax(j, 2);
      // The diagonal, through this neighbour and its next side round.
      const rcCompactSpan& n = chf.spans[j];
      const int next = (dir + 1) & 3;
      if (rcGetCon(n, next) == RC_NOT_CONNECTED) continue;
      relax(span_index(x + rcGetDirOffsetX(dir), z + rcGetDirOffsetY(dir), n, next), 3);
    }
  }
  for (int i = 0; i < chf.spanCount; ++i) {
    if (distance[static_cast<std::size_t>(i)] < limit) chf.areas[i] = RC_NULL_AREA;
  }
}

constexpr Vec3 kOnSurface{0.5f, 1.0f,
                          0.5f};  // [m] where slide and distance_to_edge look for a start

}  // namespace

void NavmeshInput::add(const std::vector<Vec3>& v, const std::vector<std::uint32_t>& i) {
  const auto first = static_cast<std::uint32_t>(vertices.size());
  vertices.insert(vertices.end(), v.begin(), v.end());
  for (std::uint32_t index : i) indices.push_back(first + index);
}

void NavmeshInput::add_box(Vec3 center, Vec3 h, Quat rotation) {
  std::vector<Vec3> corners;
  for (int c = 0; c < 8; ++c) {
    corners.push_back(
        center + rotation.rotate({c & 1 ? h.x : -h.x, c & 2 ? h.y : -h.y, c & 4 ? h.z : -h.z}));
  }
  // Bit 0 is +X, bit 1 +Y, bit 2 +Z; each face wound counter-clockwise seen from outside.
  add(corners, {2, 6, 7, 2, 7, 3,    // +Y (top)
                0, 1, 5, 0, 5, 4,    // -Y
                1, 3, 7, 1, 7, 5,    // +X
                0, 4, 6, 0, 6, 2,    // -X
                4, 5, 7, 4, 7, 6,    // +Z
                0, 2, 3, 0, 3, 1});  // -Z
}

namespace {

/// [cells] the most columns Recast's heightfield may have: 4096 x 4096 (614 m square at the
/// default 0.15 m cells) holds a large VR level in about 128 MiB of span pointers; beyond it the
/// build runs out of memory, and Recast's int grid size overflows for kilometres.
constexpr double kMaxGridCells = 4096.0 * 4096.0;

// Why the geometry's bounding box is too large a grid for Recast, if it is.
std::optional<std::string> grid_too_large(const float* bmin, const float* bmax, float cell_size) {
  const double width = (static_cast<double>(bmax[0]) - static_cast<double>(bmin[0])) /
                       static_cast<double>(cell_size);
  const double depth = (static_cast<double>(bmax[2]) - static_cast<double>(bmin[2])) /
                       static_cast<double>(cell_size);
  if (std::isfinite(width) && std::isfinite(depth) &&
      (width + 1.0) * (depth + 1.0) <= kMaxGridCells)
    return std::nullopt;
  std::ostringstream out;
  out << "navmesh: the level's geometry spans " << static_cast<double>(bmax[0] - bmin[0]) << " x "
      << static_cast<double>(bmax[2] - bmin[2]) << " m, a grid of " << width << " x " << depth
      << " cells of " << cell_size << " m; at most " << kMaxGridCells << " cells ("
      << std::sqrt(kMaxGridCells) * static_cast<double>(cell_size)
      << " m square at this cell size): make the level smaller or `navigation.cell_size` larger";
  return out.str();
}

}  // namespace

Navmesh::Navmesh(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Navmesh::~Navmesh() = default;

Result<std::shared_ptr<Navmesh>> Navmesh::build(const NavmeshInput& input,
                                                const NavigationSettings& s) {
  if (input.indices.empty()) return Error{"navmesh: no geometry"};
  rcContext ctx(false);
  const float* verts = &input.vertices[0].x;
  const int nv = static_cast<int>(input.vertices.size());
  const int nt = static_cast<int>(input.indices.size() / 3);
  std::vector<int> tris(input.indices.begin(), input.indices.end());

  // 1. Configuration in voxels.
  rcConfig cfg{};
  cfg.cs = s.cell_size;
  cfg.ch = s.cell_height;
  cfg.walkableSlopeAngle = s.max_slope_deg;
  cfg.walkableHeight = voxels(s.agent_height, s.cell_height, true);
  cfg.walkableClimb = voxels(s.max_climb, s.cell_height, false);
  cfg.walkableRadius = voxels(s.agent_radius, s.cell_size, true);
  cfg.maxEdgeLen = static_cast<int>(12.0f / s.cell_size);
  cfg.maxSimplificationError = 1.3f;
  cfg.minRegionArea = 8 * 8;
  cfg.mergeRegionArea = 20 * 20;
  cfg.maxVertsPerPoly = 6;
  cfg.detailSampleDist = 6.0f * s.cell_size;
  cfg.detailSampleMaxError = 1.0f * s.cell_height;
  rcCalcBounds(verts, nv, cfg.bmin, cfg.bmax);
  if (auto too_large = grid_too_large(cfg.bmin, cfg.bmax, cfg.cs)) return Error{*too_large};
  rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);

  // 2. Rasterise the walkable triangles into a heightfield, 3. filter it.
  Owned<rcHeightfield, rcFreeHeightField> solid{rcAllocHeightfield()};
  if (!solid.p || !rcCreateHeightfield(&ctx, *solid.p, cfg.width, cfg.height, cfg.bmin, cfg.bmax,
                                       cfg.cs, cfg.ch)) {
    return Error{"navmesh: cannot create the heightfield"};
  }
  std::vector<unsigned char> areas(static_cast<std::size_t>(nt), 0);
  rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, verts, nv, tris.data(), nt, areas.data());
  if (!rcRasterizeTriangles(&ctx, verts, nv, tris.data(), areas.data(), nt, *solid.p,
                            cfg.walkableClimb)) {
    return Error{"navmesh: rasterisation failed"};
  }
  rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *solid.p);
  filter_ledges(*solid.p, cfg.walkableHeight, cfg.walkableClimb);
  rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *solid.p);

  // 4. Compact heightfield, kept back from drops (4a) and eroded by the agent radius;
  // 5. regions (watershed).
  Owned<rcCompactHeightfield, rcFreeCompactHeightfield> chf{rcAllocCompactHeightfield()};
  if (!chf.p ||
      !rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid.p, *chf.p)) {
    return Error{"navmesh: building the compact heightfield failed"};
  }
  keep_back_from_drops(*solid.p, *chf.p, cfg.walkableClimb, cfg.walkableHeight,
                       voxels(s.drop_margin_m, s.cell_size, true));
  if (!rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf.p) ||
      !rcBuildDistanceField(&ctx, *chf.p) ||
      !rcBuildRegions(&ctx, *chf.p, 0, cfg.minRegionArea, cfg.mergeRegionArea)) {
    return Error{"navmesh: building regions failed"};
  }
  // 6. Contours, polygons and the detail mesh.
  Owned<rcContourSet, rcFreeContourSet> contours{rcAllocContourSet()};
  Owned<rcPolyMesh, rcFreePolyMesh> poly{rcAllocPolyMesh()};
  Owned<rcPolyMeshDetail, rcFreePolyMeshDetail> detail{rcAllocPolyMeshDetail()};
  if (!contours.p ||
      !rcBuildContours(&ctx, *chf.p, cfg.maxSimplificationError, cfg.maxEdgeLen, *contours.p) ||
      !poly.p || !rcBuildPolyMesh(&ctx, *contours.p, cfg.maxVertsPerPoly, *poly.p) || !detail.p ||
      !rcBuildPolyMeshDetail(&ctx, *poly.p, *chf.p, cfg.detailSampleDist, cfg.detailSampleMaxError,
                             *detail.p)) {
    return Error{"navmesh: building polygons failed"};
  }
  if (poly.p->npolys == 0)
    return Error{"navmesh: nothing is walkable (check the slope and the agent size)"};
  for (int i = 0; i < poly.p->npolys; ++i) {
    poly.p->flags[i] = kWalkableFlag;
    if (poly.p->areas[i] == RC_WALKABLE_AREA) poly.p->areas[i] = 0;
  }

  // 7. Detour data.
  dtNavMeshCreateParams params{};
  params.verts = poly.p->verts;
  params.vertCount = poly.p->nverts;
  params.polys = poly.p->polys;
  params.polyAreas = poly.p->areas;
  params.polyFlags = poly.p->flags;
  params.polyCount = poly.p->npolys;
  params.nvp = poly.p->nvp;
  params.detailMeshes = detail.p->meshes;
  params.detailVerts = detail.p->verts;
  params.detailVertsCount = detail.p->nverts;
  params.detailTris = detail.p->tris;
  params.detailTriCount = detail.p->ntris;
  params.walkableHeight = s.agent_height;
  params.walkableRadius = s.agent_radius;
  params.walkableClimb = s.max_climb;
  rcVcopy(params.bmin, poly.p->bmin);
  rcVcopy(params.bmax, poly.p->bmax);
  params.cs = cfg.cs;
  params.ch = cfg.ch;
  params.buildBvTree = true;
  unsigned char* data = nullptr;
  int size = 0;
  if (!dtCreateNavMeshData(&params, &data, &size))
    return Error{"navmesh: cannot create the Detour data"};
  auto impl = std::make_unique<Impl>();
  impl->settings = s;
  impl->mesh = dtAllocNavMesh();
  if (!impl->mesh || dtStatusFailed(impl->mesh->init(data, size, DT_TILE_FREE_DATA))) {
    dtFree(data);
    return Error{"navmesh: cannot initialise the Detour navmesh"};
  }
  impl->query = dtAllocNavMeshQuery();
  if (!impl->query || dtStatusFailed(impl->query->init(impl->mesh, kMaxPathPolys))) {
    return Error{"navmesh: cannot initialise the query"};
  }
  return std::shared_ptr<Navmesh>(new Navmesh(std::move(impl)));
}

Navmesh::Nearest Navmesh::nearest(Vec3 p, Vec3 half_extents) const {
  float point[3];
  Nearest out;
  if (nearest_poly(*impl_->query, p, half_extents, point) == 0) return out;
  out.found = true;
  out.point = {point[0], point[1], point[2]};
  out.horizontal_m = length(horizontal(out.point - p));
  out.vertical_m = std::fabs(out.point.y - p.y);
  return out;
}

Navmesh::Nearest Navmesh::slide(Vec3 from, Vec3 to) const {
  const dtQueryFilter filter;
  float start_point[3];
  Nearest out;
  const dtPolyRef start = nearest_poly(*impl_->query, from, kOnSurface, start_point);
  if (start == 0) return out;
  constexpr int kMaxVisited = 16;
  dtPolyRef visited[kMaxVisited];
  int visited_count = 0;
  float end[3];
  if (dtStatusFailed(impl_->query->moveAlongSurface(start, start_point, &to.x, &filter, end,
                                                    visited, &visited_count, kMaxVisited)) ||
      visited_count == 0) {
    return out;
  }
  // moveAlongSurface keeps the start's height; the surface's is under the last polygon.
  float height = end[1];
  impl_->query->getPolyHeight(visited[visited_count - 1], end, &height);
  out.found = true;
  out.point = {end[0], height, end[2]};
  out.horizontal_m = length(horizontal(out.point - to));
  out.vertical_m = std::fabs(out.point.y - to.y);
  return out;
}

float Navmesh::distance_to_edge(Vec3 p, float max_m) const {
  const dtQueryFilter filter;
  float point[3];
  const dtPolyRef ref = nearest_poly(*impl_->query, p, kOnSurface, point);
  if (ref == 0) return -1.0f;
  float distance = max_m;
  float hit[3];
  float normal[3];
  if (dtStatusFailed(
          impl_->query->findDistanceToWall(ref, point, max_m, &filter, &distance, hit, normal)))
    return -1.0f;
  return std::min(distance, max_m);
}

namespace {

// [m] how far from a path's ends the navmesh is searched for its first and last polygons
constexpr Vec3 kPathEnds{1.0f, 2.0f, 1.0f};

// The polygons of the shortest path between the navmesh points nearest `from` and `to` (within
// `extents`), and those two points.
struct PolyPath {
  float start[3]{};
  float end[3]{};
  dtPolyRef end_ref = 0;
  dtStatus status = DT_FAILURE;
  std::vector<dtPolyRef> polys;
  bool found() const { return !dtStatusFailed(status) && !polys.empty(); }
  bool whole() const {
    return found() && polys.back() == end_ref && !dtStatusDetail(status, DT_PARTIAL_RESULT);
  }
};

PolyPath find_poly_path(const dtNavMeshQuery& query, Vec3 from, Vec3 to, Vec3 extents) {
  const dtQueryFilter filter;
  PolyPath path;
  const dtPolyRef start = nearest_poly(query, from, extents, path.start);
  path.end_ref = nearest_poly(query, to, extents, path.end);
  if (start == 0 || path.end_ref == 0) return path;
  path.polys.resize(kMaxPathPolys);
  int count = 0;
  path.status = query.findPath(start, path.end_ref, path.start, path.end, &filter,
                               path.polys.data(), &count, kMaxPathPolys);
  path.polys.resize(dtStatusFailed(path.status) ? 0 : static_cast<std::size_t>(count));
  return path;
}

}  // namespace

Navmesh::PathKind Navmesh::path(Vec3 from, Vec3 to) const {
  const PolyPath found = find_poly_path(*impl_->query, from, to, kPathEnds);
  if (!found.found()) return PathKind::none;
  return found.whole() ? PathKind::complete : PathKind::partial;
}

namespace {

// The corners of the shortest path from the navmesh point nearest `from` to the one nearest `to`
// (within `extents`), the start first and the end last; at most `most` of them, and none when
// there is no whole path.
std::vector<Vec3> straight_path(const dtNavMeshQuery& query, Vec3 from, Vec3 to, Vec3 extents,
                                int most) {
  const PolyPath path = find_poly_path(query, from, to, extents);
  if (!path.whole()) return {};
  std::vector<float> flat(3 * static_cast<std::size_t>(most));
  int corners = 0;
  if (dtStatusFailed(query.findStraightPath(path.start, path.end, path.polys.data(),
                                            static_cast<int>(path.polys.size()), flat.data(),
                                            nullptr, nullptr, &corners, most))) {
    return {};
  }
  std::vector<Vec3> out;
  for (std::size_t i = 0; i < static_cast<std::size_t>(corners); ++i)
    out.push_back({flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]});
  return out;
}

}  // namespace

float Navmesh::path_length(Vec3 from, Vec3 to) const {
  const std::vector<Vec3> corners =
      straight_path(*impl_->query, from, to, kPathEnds, kMaxPathPolys);
  if (corners.empty()) return length(horizontal(to - from));
  float way = 0;
  for (std::size_t i = 1; i < corners.size(); ++i)
    way += length(horizontal(corners[i] - corners[i - 1]));
  return way;
}

bool Navmesh::in_sight(Vec3 from, Vec3 to) const {
  const dtQueryFilter filter;
  float start_point[3];
  const dtPolyRef start = nearest_poly(*impl_->query, from, kOnSurface, start_point);
  if (start == 0) return false;
  float t = 0;
  float normal[3];
  int visited = 0;
  dtPolyRef polys[kMaxSightPolys];
  if (dtStatusFailed(impl_->query->raycast(start, start_point, &to.x, &filter, &t, normal, polys,
                                           &visited, kMaxSightPolys))) {
    return false;
  }
  return t > 1.0f;  // FLT_MAX: nothing crossed on the way
}

std::optional<Vec3> Navmesh::along_path(Vec3 from, Vec3 to, float distance_m) const {
  constexpr int kCorners = 4;  // the start and the next three: enough for a short lead
  const std::vector<Vec3> corners = straight_path(*impl_->query, from, to, kOnSurface, kCorners);
  if (corners.size() < 2) return std::nullopt;
  float left = distance_m;
  for (std::size_t i = 1; i < corners.size(); ++i) {
    const Vec3 leg = corners[i] - corners[i - 1];
    const float across = length(horizontal(leg));
    if (across >= left) return corners[i - 1] + leg * (across > 0.0f ? left / across : 0.0f);
    left -= across;
  }
  return corners.back();
}

int Navmesh::remove_islands(const std::vector<Vec3>& seeds, Vec3 half_extents) {
  // Flood fill over polygon links from the seeds' polygons (RecastDemo's prune tool does the same);
  // what the fill does not reach gets flags 0, which Detour's default filter excludes.
  dtNavMesh& mesh = *impl_->mesh;
  const dtMeshTile* tile = static_cast<const dtNavMesh&>(mesh).getTile(0);
  if (!tile || !tile->header) return 0;
  const dtPolyRef base = mesh.getPolyRefBase(tile);
  const int count = tile->header->polyCount;
  std::vector<bool> reached(static_cast<std::size_t>(count), false);
  std::vector<int> open;
  for (Vec3 seed : seeds) {
    float point[3];
    const dtPolyRef ref = nearest_poly(*impl_->query, seed, half_extents, point);
    if (ref == 0) continue;
    const auto index = static_cast<int>(mesh.decodePolyIdPoly(ref));
    if (index < count && !reached[static_cast<std::size_t>(index)]) {
      reached[static_cast<std::size_t>(index)] = true;
      open.push_back(index);
    }
  }
  while (!open.empty()) {
    const int index = open.back();
    open.pop_back();
    const dtPoly& poly = tile->polys[index];
    for (unsigned int link = poly.firstLink; link != DT_NULL_LINK; link = tile->links[link].next) {
      const dtPolyRef neighbour = tile->links[link].ref;
      if (neighbour == 0) continue;
      const auto n = static_cast<int>(mesh.decodePolyIdPoly(neighbour));
      if (n < count && !reached[static_cast<std::size_t>(n)]) {
        reached[static_cast<std::size_t>(n)] = true;
        open.push_back(n);
      }
    }
  }
  int removed = 0;
  for (int i = 0; i < count; ++i) {
    if (reached[static_cast<std::size_t>(i)]) continue;
    mesh.setPolyFlags(base | static_cast<dtPolyRef>(i), 0);
    ++removed;
  }
  return removed;
}

int Navmesh::walkable_polygon_count() const {
  const dtMeshTile* tile = static_cast<const dtNavMesh*>(impl_->mesh)->getTile(0);
  if (!tile || !tile->header) return 0;
  int walkable = 0;
  for (int i = 0; i < tile->header->polyCount; ++i) walkable += tile->polys[i].flags != 0;
  return walkable;
}

const NavigationSettings& Navmesh::settings() const {
  return impl_->settings;
}

int Navmesh::polygon_count() const {
  const dtNavMesh& mesh = *impl_->mesh;
  const dtMeshTile* tile = mesh.getTile(0);
  return tile && tile->header ? tile->header->polyCount : 0;
}

std::vector<std::array<Vec3, 3>> Navmesh::triangles() const {
  std::vector<std::array<Vec3, 3>> out;
  const dtNavMesh& mesh = *impl_->mesh;
  const dtMeshTile* tile = mesh.getTile(0);
  if (!tile || !tile->header) return out;
  for (int i = 0; i < tile->header->polyCount; ++i) {
    const dtPoly& p = tile->polys[i];
    if (p.flags == 0) continue;  // removed island
    const dtPolyDetail& d = tile->detailMeshes[i];
    for (int t = 0; t < d.triCount; ++t) {
      const unsigned char* tri = &tile->detailTris[(d.triBase + static_cast<unsigned>(t)) * 4];
      std::array<Vec3, 3> corners;
      for (int k = 0; k < 3; ++k) {
        const float* v = tri[k] < p.vertCount
                             ? &tile->verts[p.verts[tri[k]] * 3]
                             : &tile->detailVerts[(d.vertBase + tri[k] - p.vertCount) * 3];
        corners[static_cast<std::size_t>(k)] = {v[0], v[1], v[2]};
      }
      out.push_back(corners);
    }
  }
  return out;
}

}  // namespace stagger::ai
