// custom_game_loop: the frame loop of a game that draws Stagger's enemies itself.
//
// Physics runs at a fixed 240 Hz; the display runs at whatever it runs at (here a 90 Hz headset
// with a 60 ms hitch now and then). Each frame adds its time to a StepClock, runs the whole steps
// that fit, and draws every body `alpha` of the way between the last two steps (PoseHistory), so
// the picture moves smoothly at any frame rate. Game logic talks to the enemies through
// sim::Simulation: it spawns one, shoves it, hears it fall and get up, teleports it and removes it.
// Exits 0 when everything it asked for happened and the drawn motion never jumped.
#include <cmath>
#include <cstdio>
#include <string_view>

#include "stagger/core/step_clock.h"
#include "stagger/physics/interpolation.h"
#include "stagger/sim/scene.h"
#include "stagger/sim/simulation.h"

namespace physics = stagger::physics;
namespace sim = stagger::sim;
using stagger::Vec3;

namespace {

constexpr double kDisplayHz = 90.0;     // [Hz] the headset's refresh rate
constexpr int kHitchEveryFrames = 200;  // a loading hitch every this many frames ...
constexpr double kHitchS = 0.060;       // [s] ... that long
constexpr double kEndS = 14.0;          // [s] of game time
// [m] the most a drawn pelvis may move between two frames: a 10 m/s fall over the longest frame.
constexpr float kMaxDrawnJumpM = 10.0f * static_cast<float>(kHitchS);

// What a renderer would do with the interpolated pose; here, remember the pelvis to check it.
struct Renderer {
  Vec3 last_pelvis;
  bool drawn_before = false;
  float largest_jump_m = 0;

  void draw(const physics::PoseHistory& poses, physics::BodyId pelvis, float alpha) {
    const physics::BodyPose pose = poses.pose(pelvis, alpha);
    if (drawn_before)
      largest_jump_m = std::fmax(largest_jump_m, length(pose.position - last_pelvis));
    last_pelvis = pose.position;
    drawn_before = true;
  }
};

}  // namespace

int main() {
  // A floor and no enemies yet; room for two at once.
  sim::SceneDescription scene = sim::builtin_scene(0);
  scene.max_enemies = 2;
  sim::Simulation game(scene);

  int falls = 0, get_ups = 0, shoves = 0;
  game.on_event([&](const sim::EnemyEvent& e) {
    const std::string_view what = sim::name_of(e.kind);
    std::printf("%6.2f s  enemy %u: %.*s", e.time_s, static_cast<unsigned>(e.enemy),
                static_cast<int>(what.size()), what.data());
    if (e.kind == sim::EventKind::shoved) {
      ++shoves;
      std::printf(" (%.0f N*s on the %s)", static_cast<double>(length(e.impulse)),
                  physics::name_of(e.part).data());
    }
    if (e.kind == sim::EventKind::fell) {
      ++falls;
      std::printf(" (%s)", physics::name_of(e.cause).data());
    }
    if (e.kind == sim::EventKind::got_up) ++get_ups;
    std::printf("\n");
  });

  // The game's script: what happens when (checked once per frame).
  stagger::levels::EnemySpawn brute;
  brute.name = "brute";
  brute.position = {0, 0, 0};
  const auto spawned = game.add_enemy(brute);
  if (!spawned) {
    std::fprintf(stderr, "spawn failed: %s\n", spawned.error().c_str());
    return 1;
  }
  const sim::EnemyId id = spawned.value();
  const physics::BodyId pelvis = game.enemy_body(id)->body(physics::BodyPart::pelvis);
  bool shoved = false, teleported = false, removed = false;

  stagger::StepClock clock(game.scene().world().dt());
  physics::PoseHistory poses;
  poses.reset(game.scene().world());
  Renderer renderer;
  int frames = 0;
  while (game.scene().world().time() < kEndS) {
    // 1. The frame's time (a real game measures it with a steady clock).
    ++frames;
    const double frame_s = frames % kHitchEveryFrames == 0 ? kHitchS : 1.0 / kDisplayHz;
    // 2. Game logic, once per frame, between steps.
    const double now = game.scene().world().time();
    if (!shoved && now >= 1.0) {
      (void)game.push_enemy(id, physics::BodyPart::chest, {0, 0, -160});
      shoved = true;
    }
    if (!teleported && now >= 8.0) {
      (void)game.teleport_enemy(id, {3, 0, 3}, 0.0f);
      poses.reset(game.scene().world());  // drawn at the new place at once, not slid there
      renderer.drawn_before = false;
      std::printf("%6.2f s  enemy %u teleported to (3, 0, 3)\n", now, static_cast<unsigned>(id));
      teleported = true;
    }
    if (!removed && now >= 12.0) {
      (void)game.remove_enemy(id);
      std::printf("%6.2f s  enemy %u removed\n", now, static_cast<unsigned>(id));
      removed = true;
    }
    // 3. The fixed steps that fit, each followed by a snapshot of the bodies.
    const int steps = clock.advance(frame_s);
    for (int i = 0; i < steps; ++i) {
      game.step();
      poses.capture(game.scene().world());
    }
    // 4. Draw between the last two steps.
    if (!removed) renderer.draw(poses, pelvis, static_cast<float>(clock.alpha()));
  }

  std::printf(
      "%d frames for %.1f s of game time (%.2f s of frame time dropped by the catch-up limit)\n",
      frames, game.scene().world().time(), clock.dropped_s());
  std::printf("largest move of the drawn pelvis between frames: %.3f m (limit %.3f m)\n",
              static_cast<double>(renderer.largest_jump_m), static_cast<double>(kMaxDrawnJumpM));
  const bool ok = shoves == 1 && falls >= 1 && get_ups >= 1 && !game.has_enemy(id) &&
                  renderer.largest_jump_m <= kMaxDrawnJumpM;
  std::printf("%s\n", ok ? "ok" : "NOT ok");
  return ok ? 0 : 1;
}
