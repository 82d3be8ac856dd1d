// Locomotion: the thumbsticks walk and turn the player's body, and room-scale steps of the head
// carry it along, never through walls. A small stand-in for the XR rig applies each RigMove as
// the XR frontend does.

#include "locomotion.h"

#include <gtest/gtest.h>

#include <cmath>

#include "stagger/physics/player_body.h"
#include "stagger/physics/world.h"

namespace stagger::vr {
namespace {

constexpr float kFrameS = 1.0f / 90.0f;  // [s]

// The tracking space in the world, moved like XrGame::move_rig.
struct Rig {
  Vec3 origin;
  Quat rotation;
  Vec3 head_local{0, 1.6f, 0};  // [m] the head in the tracking space

  Vec3 head() const { return origin + rotation.rotate(head_local); }
  Vec3 forward() const { return rotation.rotate({0, 0, -1}); }
  void apply(const RigMove& move) {
    const Vec3 pivot = head();
    const Quat turn = Quat::from_yaw(move.yaw_rad);
    origin = pivot + turn.rotate(origin - pivot) + move.translation;
    rotation = turn * rotation;
  }
};

struct Player {
  physics::World world;
  physics::PlayerBody* body = nullptr;
  Rig rig;
  std::unique_ptr<Locomotion> locomotion;

  explicit Player(const LocomotionSettings& settings = {}) {
    world.add_static_box({{0, -0.5f, 0}, {30, 0.5f, 30}, {}, 0.9f});
    world.add_static_box({{0, 1.5f, -10.5f}, {10, 1.5f, 0.5f}, {}, 0.9f});  // a wall: face z = -10
    body = &world.add_player_body({}, {0, 0, 0});
    locomotion = std::make_unique<Locomotion>(*body, settings);
  }
  void frame(std::array<float, 2> move, std::array<float, 2> turn = {}) {
    LocomotionInput in;
    in.dt = kFrameS;
    in.move_stick = move;
    in.turn_stick = turn;
    in.head = rig.head();
    in.head_forward = rig.forward();
    rig.apply(locomotion->update(in));
  }
};

TEST(Locomotion, TheStickWalksTheBodyForwardAndAWallStopsItAndTheHead) {
  Player p;
  for (int i = 0; i < static_cast<int>(3.0f / kFrameS); ++i) p.frame({0, 1});
  EXPECT_GT(-p.body->feet().z, 5.0f) << "at least 5 m in 3 s";
  EXPECT_LT(-p.body->feet().z, 2.5f * 3.0f);
  float closest = 100;
  for (int i = 0; i < static_cast<int>(4.0f / kFrameS); ++i) {
    p.frame({0, 1});
    closest = std::min(closest, p.rig.head().z - -10.0f);
  }
  EXPECT_GE(closest, p.body->settings().radius_m - 1e-3f) << "the head keeps the capsule's radius";
  EXPECT_NEAR(p.body->feet().z, -10.0f + p.body->settings().radius_m, 0.03f);
  EXPECT_NEAR(horizontal(p.rig.head() - p.body->feet()).x, 0.0f, 1e-4f);
}

TEST(Locomotion, TheStickAcceleratesAndStopsWithinAFewTenthsOfASecond) {
  Player p;
  p.frame({0, 1});
  EXPECT_LT(length(p.locomotion->velocity()), 0.1f) << "no jump to full speed";
  for (int i = 0; i < 45; ++i) p.frame({0, 1});
  EXPECT_NEAR(length(p.locomotion->velocity()), 2.5f, 1e-3f) << "full speed within half a second";
  for (int i = 0; i < 45; ++i) p.frame({0, 0});
  EXPECT_EQ(length(p.locomotion->velocity()), 0.0f);
  p.frame({0, 0.1f});
  EXPECT_EQ(length(p.locomotion->velocity()), 0.0f) << "inside the dead zone";
}

TEST(Locomotion, AFlickTurnsByThirtyDegreesOnceUntilTheStickComesBack) {
  Player p;
  const float before = yaw_of(p.rig.forward());
  for (int i = 0; i < 30; ++i) p.frame({}, {1, 0});  // held right: one turn
  EXPECT_EQ(p.locomotion->snap_turns(), 1);
  const float turned = std::remainder(yaw_of(p.rig.forward()) - before, 2.0f * kPi);
  EXPECT_NEAR(rad_to_deg(turned), -30.0f, 1e-3f) << "to the right";
  p.frame({}, {0, 0});
  p.frame({}, {-1, 0});
  EXPECT_EQ(p.locomotion->snap_turns(), 2);
  EXPECT_NEAR(std::remainder(yaw_of(p.rig.forward()) - before, 2.0f * kPi), 0.0f, 1e-4f);
  // The turn pivots about the head: it stays where it was.
  const Vec3 head = p.rig.head();
  p.frame({}, {0, 0});
  p.frame({}, {1, 0});
  EXPECT_LT(length(p.rig.head() - head), 1e-4f);

  LocomotionSettings wide;
  wide.snap_deg = 45.0f;
  Player q(wide);
  q.frame({}, {1, 0});
  EXPECT_NEAR(rad_to_deg(std::remainder(yaw_of(q.rig.forward()) - before, 2.0f * kPi)), -45.0f,
              1e-3f);
  LocomotionSettings smooth;
  smooth.turn = TurnStyle::smooth;
  Player r(smooth);
  for (int i = 0; i < 90; ++i) r.frame({}, {1, 0});  // a second at full stick
  EXPECT_NEAR(rad_to_deg(std::remainder(yaw_of(r.rig.forward()) - before, 2.0f * kPi)), -90.0f,
              0.5f);
}

TEST(Locomotion, ARoomScaleStepCarriesTheBodyButNotThroughAWall) {
  Player p;
  p.rig.origin = {0, 0, -9.0f};
  p.body->teleport({0, 0, -9.0f});
  p.frame({0, 0});
  // The player leans and walks 2 m toward the wall in the room, in 20 cm steps.
  for (int i = 0; i < 10; ++i) {
    p.rig.head_local.z -= 0.2f;
    p.frame({0, 0});
    EXPECT_GE(p.rig.head().z - -10.0f, p.body->settings().radius_m - 1e-3f) << "step " << i;
  }
  EXPECT_NEAR(p.body->feet().z, -10.0f + p.body->settings().radius_m, 0.03f);
}

}  // namespace
}  // namespace stagger::vr
