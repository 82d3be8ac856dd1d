// Runs the sample corridor level for a second through an installed Stagger's sim component:
// exits 0 when the level loads, its enemies stay finite and each has a locomotion state.
#include <cstdio>

#include "stagger/levels/load.h"
#include "stagger/physics/locomotion.h"
#include "stagger/sim/input_script.h"
#include "stagger/sim/scene.h"
#include "stagger/sim/simulation.h"

int main() {
  using namespace stagger;
  const levels::LoadResult loaded = levels::load_level(CORRIDOR_LEVEL);
  if (!loaded.ok()) {
    for (const levels::Diagnostic& d : loaded.diagnostics) {
      std::fprintf(stderr, "%s\n", levels::format(d).c_str());
    }
    return 1;
  }
  sim::Simulation simulation(sim::scene_from_level(loaded.level, loaded.mesh_triangles),
                             sim::InputScript{});
  simulation.run(1.0, 90.0);
  const sim::SimulationResult result = simulation.result();
  std::printf("%s: %llu steps, %zu enemies, finite %s\n", result.level.c_str(),
              static_cast<unsigned long long>(result.steps), result.enemies.size(),
              result.finite ? "yes" : "no");
  for (const sim::EnemyStats& enemy : result.enemies) {
    std::printf("  %s: %s\n", enemy.name.c_str(), enemy.final_state.c_str());
  }
  return result.finite && !result.enemies.empty() && result.steps > 0 ? 0 : 1;
}
