// patrol_from_code: two enemies patrol a square loop on a floor, with a wall across one leg that
// they walk round; the ground, the navmesh, the route and the squad are all made in code, no
// level file. Prints each route point as an enemy reaches it and a status line every 5 s; exits 0
// when each enemy has gone round the whole loop in order within the time limit.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string_view>
#include <vector>

#include "stagger/ai/navmesh.h"
#include "stagger/ai/patrol.h"
#include "stagger/ai/squad.h"
#include "stagger/physics/ragdoll_settings.h"
#include "stagger/physics/world.h"

namespace ai = stagger::ai;
namespace physics = stagger::physics;
using stagger::Vec3;

namespace {

// Each point reached is the one after the point before it, round the loop: 0 1 2 3 0 ... from
// wherever it began.
bool in_loop_order(const std::vector<std::size_t>& reached, std::size_t point_count) {
  for (std::size_t i = 1; i < reached.size(); ++i) {
    if (reached[i] != (reached[i - 1] + 1) % point_count) return false;
  }
  return true;
}

// What a member's mind and legs are doing, and where it is.
void print_status(double time_s, const char* name, const ai::Squad& squad, int member,
                  const physics::Ragdoll& body) {
  const std::string_view mind = ai::name_of(squad.brain(member).state());
  const std::string_view legs = physics::name_of(body.state());
  const Vec3 feet = squad.follow(member).feet;  // on the navmesh
  const ai::Patrol& patrol = squad.brain(member).patrol();
  std::printf("%6.2f s    %s: %.*s, %.*s at (%.1f, %.1f), %s point %zu\n", time_s, name,
              static_cast<int>(mind.size()), mind.data(), static_cast<int>(legs.size()),
              legs.data(), static_cast<double>(feet.x), static_cast<double>(feet.z),
              patrol.waiting() ? "waiting at" : "heading for", patrol.target_index());
}

}  // namespace

int main() {
  // The level, as static boxes: a 20 m square floor whose top is at y = 0, and a 2 m high wall
  // across the leg from point 2 to point 3. The navmesh is built from the same boxes.
  const physics::StaticBoxSettings boxes[] = {
      {{0, -0.5f, 0}, {10, 0.5f, 10}, {}},  // the floor
      {{0, 1, 3}, {0.2f, 1, 1.5f}, {}},     // the wall: x = ±0.2, z = 1.5 .. 4.5
  };
  physics::World world;  // 240 Hz fixed step, Bullet underneath
  ai::NavmeshInput walkable;
  for (const physics::StaticBoxSettings& box : boxes) {
    world.add_static_box(box);
    walkable.add_box(box.center, box.half_extents, box.rotation);
  }
  const stagger::NavigationSettings navigation;  // a 0.3 m radius, 1.8 m tall agent
  auto built = ai::Navmesh::build(walkable, navigation);
  if (!built) {
    std::printf("navmesh: %s\n", built.error().c_str());
    return 1;
  }
  const std::shared_ptr<ai::Navmesh> navmesh = built.value();
  const std::vector<ai::PatrolPoint> route = {
      {{-3, 0, -3}}, {{3, 0, -3}, 1.0f}, {{3, 0, 3}}, {{-3, 0, 3}}};  // the second: a 1 s wait
  // The wall's top is walkable too, but nobody can get there: keep only the polygons connected
  // to the route (within 0.5 m across and 1 m up or down of a point).
  std::vector<Vec3> seeds;
  for (const ai::PatrolPoint& point : route) seeds.push_back(point.position);
  navmesh->remove_islands(seeds, {0.5f, 1.0f, 0.5f});

  // Two enemies on the same loop, at opposite corners: each starts at the point nearest to it.
  // Their bodies are the default 1.8 m, 75 kg humanoid, dropped from 2 cm, facing +Z.
  const char* names[] = {"north", "south"};
  const Vec3 spawns[] = {{-3, 0, -3.5f}, {3, 0, 3.5f}};
  std::vector<ai::SquadMember> members;
  for (const Vec3 spawn : spawns) {
    physics::Ragdoll& body =
        world.add_ragdoll(physics::RagdollSettings{}, spawn + Vec3{0, 0.02f, 0}, 0.0f);
    ai::SquadMember member;  // (its brain, eyes and patrol settings: the squad's)
    member.body = &body;
    member.spawn = spawn;
    member.route = route;
    member.mode = ai::PatrolMode::loop;
    members.push_back(member);
  }
  // No player: squad.set_player() is never called, so nobody is seen and nobody chases.
  ai::Squad squad(navmesh, navigation, world, members);
  std::printf("route: %zu points in a loop, %d enemies\n", route.size(), squad.size());

  // The game's own fixed-step loop: physics every step, the minds every third step (80 Hz,
  // 240 Hz step): the legs need the physics rate, the plans do not.
  const std::uint64_t ai_every_steps = 3;
  const double limit_s = 60.0;
  const double status_every_s = 5.0;
  const std::size_t laps_done = route.size() + 1;  // back at the first point it reached
  std::vector<std::size_t> printed(members.size(), 0);
  double next_status_s = status_every_s;
  bool all_done = false;
  while (world.time() < limit_s && !all_done) {
    if (world.step_count() % ai_every_steps == 0)
      squad.tick(world.dt() * static_cast<float>(ai_every_steps));
    world.step();
    all_done = true;
    for (int i = 0; i < squad.size(); ++i) {
      // The brain's patrol lists every route point reached, in order.
      const std::vector<std::size_t>& reached = squad.brain(i).patrol().reached();
      for (std::size_t& n = printed[static_cast<std::size_t>(i)]; n < reached.size(); ++n) {
        const Vec3 p = route[reached[n]].position;
        std::printf("%6.2f s  %s reached point %zu (%.0f, %.0f)\n", world.time(), names[i],
                    reached[n], static_cast<double>(p.x), static_cast<double>(p.z));
      }
      all_done = all_done && reached.size() >= laps_done;
    }
    if (world.time() >= next_status_s) {
      for (int i = 0; i < squad.size(); ++i) {
        print_status(world.time(), names[i], squad, i, *members[static_cast<std::size_t>(i)].body);
      }
      next_status_s += status_every_s;
    }
  }

  bool ok = true;
  for (int i = 0; i < squad.size(); ++i) {
    const std::vector<std::size_t>& reached = squad.brain(i).patrol().reached();
    const bool lap = reached.size() >= laps_done && in_loop_order(reached, route.size());
    std::printf("%s: %zu points reached, %s\n", names[i], reached.size(),
                lap ? "the whole loop in order" : "NOT the whole loop in order");
    ok = ok && lap;
  }
  std::printf("%.2f s simulated\n", world.time());
  return ok ? 0 : 1;
}
