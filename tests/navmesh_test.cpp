// The navmesh (ai/) and the reachability checks of `stagger check` built on it.

#include "stagger/ai/navmesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "stagger/ai/navigator.h"
#include "stagger/levels/load.h"
#include "stagger/sim/reachability.h"

namespace stagger {
namespace {

using ai::Navmesh;

std::shared_ptr<const Navmesh> floor_with_wall() {
  // A 10 x 10 m floor (top at y = 0) split by a wall along x = 0 from z = -5 to z = 3: the way
  // round is through the gap at z = 3..5.
  ai::NavmeshInput input;
  input.add_box({0, -0.5f, 0}, {5, 0.5f, 5}, {});
  input.add_box({0, 1.0f, -1.0f}, {0.25f, 1.0f, 4.0f}, {});
  auto built = Navmesh::build(input, {});
  EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error());
  return built.ok() ? built.value() : nullptr;
}

TEST(Navmesh, FloorIsWalkableAndErodedByTheAgentRadius) {
  const auto nav = floor_with_wall();
  ASSERT_TRUE(nav);
  EXPECT_GT(nav->polygon_count(), 0);
  const Navmesh::Nearest middle = nav->nearest({-2.5f, 0.5f, 0}, {0.5f, 1.0f, 0.5f});
  ASSERT_TRUE(middle.found);
  EXPECT_LT(middle.horizontal_m, 1e-3f);
  EXPECT_NEAR(middle.point.y, 0.0f, 0.15f);
  // The floor's edge is eroded by 0.3 m: a point 0.1 m inside the edge is off the navmesh.
  const Navmesh::Nearest edge = nav->nearest({4.9f, 0, 0}, {0.5f, 1.0f, 0.5f});
  ASSERT_TRUE(edge.found);
  EXPECT_GT(edge.horizontal_m, 0.15f);
  EXPECT_FALSE(nav->nearest({20, 0, 0}, {0.5f, 1.0f, 0.5f}).found);
}

TEST(Navmesh, DropsAreKeptFartherFromThanWalls) {
  // The floor's outer edges are drops (into the void), the wall's faces at x = ±0.25 are walls.
  // Where the walkable ground ends, by the wall and by the drop, with and without the margin.
  const auto ends = [](float margin) {
    ai::NavmeshInput input;
    input.add_box({0, -0.5f, 0}, {5, 0.5f, 5}, {});
    input.add_box({0, 1.0f, -1.0f}, {0.25f, 1.0f, 4.0f}, {});
    NavigationSettings settings;
    settings.drop_margin_m = margin;
    auto built = Navmesh::build(input, settings);
    EXPECT_TRUE(built.ok()) << built.error();
    const Vec3 reach{1.0f, 1.0f, 0.1f};
    return std::pair{built.value()->nearest({-0.3f, 0, -2}, reach).point.x,
                     built.value()->nearest({-4.99f, 0, -2}, reach).point.x};
  };
  const auto [wall, drop] = ends(0.3f);
  const auto [wall_without, drop_without] = ends(0.0f);
  EXPECT_FLOAT_EQ(wall, wall_without);  // walls keep the agent radius alone
  EXPECT_GT(wall, -0.25f - 0.3f - 0.16f);
  EXPECT_NEAR(drop - drop_without, 0.3f, 0.08f);  // drops the margin more (to a 0.15 m cell)
}

TEST(Navmesh, PathsGoRoundWallsAndNotIntoTheVoid) {
  const auto nav = floor_with_wall();
  ASSERT_TRUE(nav);
  EXPECT_EQ(nav->path({-2.5f, 0, -2}, {2.5f, 0, -2}), Navmesh::PathKind::complete);
  EXPECT_EQ(nav->path({-2.5f, 0, -2}, {30, 0, 0}), Navmesh::PathKind::none);
}

TEST(Navmesh, TheWayRoundAWallIsMeasuredAlongThePath) {
  const auto nav = floor_with_wall();
  ASSERT_TRUE(nav);
  const Vec3 west{-2.5f, 0, -2};
  const Vec3 east{2.5f, 0, -2};
  // 5 m apart across the wall; round its end at z = 3 and back, about 12 m.
  EXPECT_FALSE(nav->in_sight(west, east));
  EXPECT_TRUE(nav->in_sight(west, {-2.5f, 0, 2}));
  const float way = nav->path_length(west, east);
  EXPECT_GT(way, 11.0f);
  EXPECT_LT(way, 13.0f);
  EXPECT_NEAR(nav->path_length(west, {-2.5f, 0, 2}), 4.0f, 0.05f);
  // A metre along the way from the west side heads for the wall's end, not through the wall.
  const std::optional<Vec3> on_the_way = nav->along_path(west, east, 1.0f);
  ASSERT_TRUE(on_the_way.has_value());
  EXPECT_NEAR(length(horizontal(*on_the_way - west)), 1.0f, 0.05f);
  EXPECT_GT(on_the_way->z, west.z + 0.8f);
  EXPECT_LT(on_the_way->x, -0.55f);
  EXPECT_FALSE(nav->along_path(west, {30, 0, 0}, 1.0f).has_value());
}

// A point body walks straight at its aim at 0.3 m/s behind an agent sent at 1.2 m/s on an open
// floor (so that it trails the agent by about 1 m, as a body slowed by a turn does); the agent
// goes 2.5 m along +Z and then, sent elsewhere, turns 45° toward +X. Returns the body's largest
// distance, across, from the way its agent went; -1 if it never got to the end.
float off_the_agents_way(const ai::LeashSettings& leash) {
  constexpr float kAgentRadiusM = 0.3f;
  constexpr float kAgentHeightM = 1.8f;
  constexpr float kTickS = 1.0f / 90.0f;
  constexpr float kAgentSpeedMps = 1.2f;
  constexpr float kSpeedMps = 0.3f;
  constexpr float kTurnAtZ = 1.5f;
  constexpr Vec3 kComAboveFeet{0, 0.9f, 0};
  ai::NavmeshInput input;
  input.add_box({0, -0.5f, 0}, {5, 0.5f, 5}, {});
  auto built = Navmesh::build(input, {});
  if (!built.ok()) return -1;
  ai::Navigator navigator(built.value(), 1, kAgentRadiusM, kAgentHeightM, leash);
  const Vec3 start{0, 0, -1.0f};
  const Vec3 goal{1.8f, 0, kTurnAtZ + 1.8f};
  const int enemy = navigator.add(start);
  if (enemy < 0) return -1;
  navigator.set_goal(enemy, Vec3{0, 0, 4.0f}, kAgentSpeedMps);
  Vec3 feet = start;
  std::vector<Vec3> agent_way;
  float worst = 0;
  for (int tick = 0; tick < 30 * 90 && length(horizontal(goal - feet)) > 0.3f; ++tick) {
    navigator.set_body(enemy, feet + kComAboveFeet, true);
    navigator.tick(kTickS);
    const ai::Navigator::Follow& f = navigator.follow(enemy);
    if (f.agent.z >= kTurnAtZ) navigator.set_goal(enemy, goal, kAgentSpeedMps);
    agent_way.push_back(f.agent);
    const Vec3 to_aim = horizontal(f.aim - feet);
    if (length(to_aim) > 0.05f) {
      feet = feet + normalized(to_aim) * std::min(kSpeedMps * kTickS, length(to_aim));
    }
    float off = 1e9f;
    for (const Vec3& p : agent_way) off = std::min(off, length(horizontal(feet - p)));
    worst = std::max(worst, off);
  }
  return length(horizontal(goal - feet)) > 0.3f ? -1.0f : worst;
}

TEST(Navigator, ABodyTrailingItsAgentCutsItsTurnsLessAlongItsTrail) {
  // Heading straight for its agent (and a look-ahead), a body trailing it cuts the agent's turn:
  // by a wall's end, into the wall the agent kept clear of (a stairwell's guards pressed against
  // the end of the wall between the flights). Along the agent's trail it cuts it by less (by
  // what a lead of trail_lead_m cuts).
  const float along_the_trail = off_the_agents_way({});
  ai::LeashSettings straight_at_the_agent;
  straight_at_the_agent.trail_lead_m = 1e6f;  // no point of any trail is that far
  const float straight = off_the_agents_way(straight_at_the_agent);
  EXPECT_GE(along_the_trail, 0.0f) << "the body never got to the end";
  EXPECT_LT(along_the_trail, straight - 0.05f);
  RecordProperty("off_the_way_along_the_trail_m", std::to_string(along_the_trail));
  RecordProperty("off_the_way_straight_at_the_agent_m", std::to_string(straight));
}

// A straight flight of six steps, `riser_m` x `tread_m`, rising along +Z from z = `start_z`
// on a floor, with a landing at the top: the navmesh has a path from the foot to the landing.
Navmesh::PathKind path_up_a_flight(float riser_m, float tread_m, float start_z) {
  constexpr int kRisers = 6;
  constexpr float kHalfWidthM = 1.0f;  // [m] a 2 m wide flight, open at both sides
  ai::NavmeshInput input;
  input.add_box({0, -0.5f, 0}, {6, 0.5f, 8}, {});
  for (int k = 1; k <= kRisers; ++k) {
    const float top = static_cast<float>(k) * riser_m;
    const float z0 = start_z + static_cast<float>(k - 1) * tread_m;
    input.add_box({0, 0.5f * top, z0 + 0.5f * tread_m}, {kHalfWidthM, 0.5f * top, 0.5f * tread_m},
                  {});
  }
  const float top = kRisers * riser_m;
  const float landing_z = start_z + kRisers * tread_m;
  input.add_box({0, 0.5f * top, landing_z + 1.5f}, {kHalfWidthM, 0.5f * top, 1.5f}, {});
  auto built = Navmesh::build(input, {});
  EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error());
  if (!built.ok()) return Navmesh::PathKind::none;
  return built.value()->path({0, 0, start_z - 2.0f}, {0, top, landing_z + 1.5f});
}

TEST(Navmesh, OrdinaryFlightsAreWalkableWhereverTheGridFalls) {
  // Treads under two cells deep (0.28 m at 0.15 m cells) are one cell deep for some placements
  // of the grid; a tread one cell deep, between a riser up and a riser down, must not break the
  // flight. Risers of 0.17 m and 0.20 m (the default climb), treads 0.25-0.30 m, the flight
  // shifted by eighths of a cell.
  constexpr float kCellM = 0.15f;
  for (const auto& [riser, tread] :
       {std::pair{0.17f, 0.28f}, std::pair{0.15f, 0.30f}, std::pair{0.20f, 0.25f}}) {
    for (int eighth = 0; eighth < 8; ++eighth) {
      const float shift = kCellM * static_cast<float>(eighth) / 8.0f;
      EXPECT_EQ(path_up_a_flight(riser, tread, shift), Navmesh::PathKind::complete)
          << riser << " m risers, " << tread << " m treads, shifted " << shift << " m";
    }
  }
  // A riser over the climb is still no way up.
  EXPECT_NE(path_up_a_flight(0.35f, 0.40f, 0), Navmesh::PathKind::complete);
}

TEST(Navmesh, IslandsNobodyStandsOnAreRemoved) {
  ai::NavmeshInput input;
  input.add_box({0, -0.5f, 0}, {5, 0.5f, 5}, {});
  input.add_box({2, 1.0f, 2}, {1.5f, 1.0f, 1.5f}, {});  // a 2 m high table with a walkable top
  auto built = Navmesh::build(input, {});
  ASSERT_TRUE(built.ok());
  Navmesh& nav = *built.value();
  const int before = nav.walkable_polygon_count();
  EXPECT_TRUE(nav.nearest({2, 2, 2}, {0.5f, 0.5f, 0.5f}).found);  // the table top, before
  const int removed = nav.remove_islands({{-3, 0, -3}}, {0.5f, 1.0f, 0.5f});
  EXPECT_GT(removed, 0);
  EXPECT_EQ(nav.walkable_polygon_count(), before - removed);
  EXPECT_FALSE(nav.nearest({2, 2, 2}, {0.5f, 0.5f, 0.5f}).found);   // gone
  EXPECT_TRUE(nav.nearest({-3, 0, -3}, {0.5f, 1.0f, 0.5f}).found);  // the floor stays
}

TEST(Navmesh, NothingWalkableIsAnError) {
  ai::NavmeshInput input;
  input.add_box({0, 0, 0}, {5, 0.05f, 5},
                Quat::from_axis_angle({1, 0, 0}, deg_to_rad(60)));  // too steep
  const auto built = Navmesh::build(input, {});
  ASSERT_FALSE(built.ok());
  EXPECT_NE(built.error().find("nothing is walkable"), std::string::npos) << built.error();
}

levels::LoadResult parse(const std::string& routes_and_enemies) {
  return levels::parse_level(R"({ "format": "stagger-level", "version": 1,
  "geometry": [ { "type": "box", "center": [0, -0.5, 0], "size": [10, 1, 10] },
                { "type": "box", "name": "wall", "center": [0, 1, 0], "size": [0.5, 2, 10] } ],
  "player": { "position": [-3, 0, 3] },
)" + routes_and_enemies + "}",
                             "r.json", "");
}

TEST(Reachability, SampleAndTrialLevelsAreReachableEverywhere) {
  for (const char* name : {"data/courtyard.json", "data/corridor.json", "data/arena.json",
                           "data/gltf_yard.gltf", "trials/stairwell.json", "trials/open_steps.json",
                           "trials/hillside.json", "trials/street_and_stage.json"}) {
    const levels::LoadResult loaded =
        levels::load_level(std::string(STAGGER_SOURCE_DIR "/levels/") + name);
    ASSERT_TRUE(loaded.ok()) << name;
    const sim::LevelNavigation nav = sim::check_reachability(loaded);
    ASSERT_TRUE(nav.navmesh) << name;
    for (const auto& d : nav.diagnostics) ADD_FAILURE() << levels::format(d);
  }
}

TEST(Reachability, APointOffTheNavmeshIsReportedWhereItIsWritten) {
  const levels::LoadResult loaded =
      parse(R"(  "routes": [ { "name": "r", "points": [ { "position": [-3, 0, -3] },
                                     { "position": [-3, 3, -3] } ] } ] )");
  ASSERT_TRUE(loaded.ok());
  const auto nav = sim::check_reachability(loaded);
  ASSERT_EQ(nav.diagnostics.size(), 1u);
  EXPECT_EQ(levels::format(nav.diagnostics[0]),
            "r.json:6:38: error: point 1 of route `r` is not on the navmesh (nothing walkable "
            "within 0.50 m "
            "across and 1.00 m up or down)");
}

TEST(Reachability, ALegThroughAWallIsNotAPath) {
  const levels::LoadResult loaded =
      parse(R"(  "routes": [ { "name": "r", "points": [ { "position": [-3, 0, 0] },
                                     { "position": [3, 0, 0] } ] } ],
  "enemies": [ { "name": "e", "position": [9, 0, 0] } ] )");
  ASSERT_TRUE(loaded.ok());
  const auto nav = sim::check_reachability(loaded);
  ASSERT_EQ(nav.diagnostics.size(), 2u);
  EXPECT_EQ(levels::format(nav.diagnostics[0]),
            "r.json:6:38: error: route `r` has no complete path from point 0 to point 1");
  EXPECT_EQ(levels::format(nav.diagnostics[1]),
            "r.json:7:16: error: the spawn of enemy `e` is not on the navmesh (nothing walkable "
            "within 0.50 m across "
            "and 1.00 m up or down)");
}

// The reachability of a 12 x 12 m floor with one more box on it (`box`, a JSON object) and a
// route `r` from (-3, 0, 0) to `point`, read as the file `name`, in which the second point stands
// at line 6, column 42. Nothing when the level does not load (a failure of the test).
std::optional<sim::LevelNavigation> floor_with_box(const std::string& box, const std::string& point,
                                                   const std::string& name) {
  const std::string text = R"({ "format": "stagger-level", "version": 1,
  "geometry": [ { "type": "box", "center": [0, -0.5, 0], "size": [12, 1, 12] },
                )" + box + R"( ],
  "player": { "position": [-3, 0, -3] },
  "routes": [ { "name": "r", "points": [ { "position": [-3, 0, 0] },
                                         { "position": )" +
                           point + R"( } ] } ] })";
  const levels::LoadResult loaded = levels::parse_level(text, name, "");
  EXPECT_TRUE(loaded.ok()) << name;
  if (!loaded.ok()) return std::nullopt;
  return sim::check_reachability(loaded);
}

TEST(Reachability, APatrolPointOnAnUnreachableLedgeIsReportedAtThatPoint) {
  // A 2 m high ledge with no way up: its top is walkable (the point keeps it from being removed
  // as an island), but no path leads there.
  const auto nav = floor_with_box(
      R"({ "type": "box", "name": "ledge", "center": [3, 1, 3], "size": [3, 2, 3] })", "[3, 2, 3]",
      "ledge.json");
  ASSERT_TRUE(nav);
  ASSERT_EQ(nav->diagnostics.size(), 1u);
  EXPECT_EQ(levels::format(nav->diagnostics[0]),
            "ledge.json:6:42: error: route `r` has no complete path from point 0 to point 1");
}

TEST(Reachability, APointWithoutRoomToTurnIsAWarning) {
  // A 1.5 m block; point 1 stands 0.25 m off its corner (where gltf_yard's scout kept falling).
  const auto nav = floor_with_box(
      R"({ "type": "box", "name": "block", "center": [4, 0.4, 2], "size": [1.5, 0.8, 1.5] })",
      "[5.0, 0, 3.0]", "room.json");
  ASSERT_TRUE(nav);
  EXPECT_TRUE(nav->ok()) << "a warning is not an error";
  ASSERT_EQ(nav->warnings(), 1);
  ASSERT_EQ(nav->diagnostics.size(), 1u);
  const std::string text = levels::format(nav->diagnostics[0]);
  EXPECT_EQ(text.rfind("room.json:6:42: warning: point 1 of route `r` is ", 0), 0u) << text;
  EXPECT_NE(text.find(" m from an obstacle or a drop; a ragdoll turning there needs 0.50 m"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace stagger
