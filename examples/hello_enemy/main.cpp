// hello_enemy: one active ragdoll on a floor, shoved twice. A 40 N·s shove to the chest makes it
// step to catch itself; a 150 N·s one knocks it down, and it gets up again. Prints its state a few
// times a second; exits 0 when it stands at the end.
#include <cstdio>
#include <string_view>

#include "stagger/physics/ragdoll.h"
#include "stagger/physics/ragdoll_settings.h"
#include "stagger/physics/world.h"

namespace physics = stagger::physics;
using stagger::Vec3;

int main() {
  physics::World world;  // 240 Hz fixed step, Bullet underneath
  // The floor: a static box whose top is at y = 0.
  physics::StaticBoxSettings floor;
  floor.center = {0, -0.5f, 0};
  floor.half_extents = {50, 0.5f, 50};
  world.add_static_box(floor);
  // An enemy made in code: the default 1.8 m, 75 kg humanoid, soles just above the floor,
  // facing +Z.
  physics::Ragdoll& enemy = world.add_ragdoll(physics::RagdollSettings{}, {0, 0.01f, 0}, 0.0f);

  struct Shove {
    double at_s;
    Vec3 impulse;  // [N·s]: toward its left (+X), then backwards (-Z)
    bool done = false;
  };
  Shove shoves[] = {{1.0, {40, 0, 0}}, {5.0, {0, 0, -150}}};
  const double end_s = 16.0;
  const double print_every_s = 0.25;

  // The game's own fixed-step loop: one world.step() per world.dt() of game time (a real game
  // runs as many as its frame's time holds; this one runs them back to back).
  double next_print_s = 0;
  physics::LocomotionState last_state = enemy.state();
  while (world.time() < end_s) {
    for (Shove& shove : shoves) {
      if (!shove.done && world.time() >= shove.at_s) {
        std::printf("%6.2f s  shove: %.0f N*s to the chest\n", world.time(),
                    static_cast<double>(length(shove.impulse)));
        enemy.apply_impulse(physics::BodyPart::chest, shove.impulse);
        shove.done = true;
      }
    }
    world.step();
    const physics::LocomotionState state = enemy.state();
    if (world.time() >= next_print_s || state != last_state) {
      const std::string_view name = physics::name_of(state);
      std::printf("%6.2f s  %-10.*s balance error %.3f m  pelvis %.2f m\n", world.time(),
                  static_cast<int>(name.size()), name.data(),
                  static_cast<double>(enemy.balance().error_m),
                  static_cast<double>(enemy.pelvis_height()));
      if (world.time() >= next_print_s) next_print_s += print_every_s;
      last_state = state;
    }
  }

  const bool standing = enemy.state() == physics::LocomotionState::standing;
  std::printf("%s after %.0f s: %d balance steps, %d get-ups\n",
              standing ? "standing" : "NOT standing", end_s, enemy.recovery_steps(),
              enemy.get_ups());
  return standing ? 0 : 1;
}
