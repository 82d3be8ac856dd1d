// The offscreen renderer: enemy pixels where the projection says the enemy is,
// background where it is not. Runs on lavapipe without a GPU or a display.

#include <gtest/gtest.h>

#include "stagger/sim/scene.h"
#include "stagger/sim/simulation.h"
#include "stagger/vr/offscreen.h"

namespace {

using stagger::Vec3;
using namespace stagger;

// The enemy's red (body) or skin (head): red clearly above green and blue. Tolerant to shading.
bool enemy_pixel(const vr::Image& image, int x, int y) {
  const std::uint8_t* p = image.at(x, y);
  return p[0] > p[1] + 30 && p[0] > p[2] + 30;
}

// The sky: blue above red.
bool sky_pixel(const vr::Image& image, int x, int y) {
  const std::uint8_t* p = image.at(x, y);
  return p[2] > p[0] + 30;
}

bool any_enemy_pixel_near(const vr::Image& image, std::array<float, 2> at, int radius) {
  for (int dy = -radius; dy <= radius; ++dy) {
    for (int dx = -radius; dx <= radius; ++dx) {
      const int x = static_cast<int>(at[0]) + dx, y = static_cast<int>(at[1]) + dy;
      if (x >= 0 && y >= 0 && x < image.width && y < image.height && enemy_pixel(image, x, y))
        return true;
    }
  }
  return false;
}

TEST(Render, EnemyPixelsWhereTheProjectionPutsTheEnemyAndSkyWhereItDoesNot) {
  sim::Simulation simulation(sim::builtin_scene(1), {});
  for (int i = 0; i < 240; ++i) simulation.step();  // a second: standing and settled
  const vr::OffscreenSettings settings{320, 240, false};
  const vr::EyeView eye =
      vr::look_at({0.6f, 1.2f, 3.5f}, {0, 1.0f, 0}, vr::symmetric_fov(0.9f, 320.0f / 240.0f));
  const auto image = vr::render_offscreen(simulation, eye, settings);
  ASSERT_TRUE(image.ok()) << image.error();
  ASSERT_EQ(image.value().width, 320);
  ASSERT_TRUE(vr::write_png(image.value(),
                            ::testing::TempDir() + "render_test.png"));  // for people to look at
  const physics::Ragdoll& dummy = *simulation.scene().enemies()[0].ragdoll;
  int parts = 0;
  for (physics::BodyPart part :
       {physics::BodyPart::head, physics::BodyPart::chest, physics::BodyPart::pelvis,
        physics::BodyPart::shin_l, physics::BodyPart::shin_r, physics::BodyPart::thigh_l}) {
    const auto at =
        vr::project(eye, dummy.body_state(part).position, settings.width, settings.height);
    ASSERT_TRUE(at.has_value());
    EXPECT_TRUE(any_enemy_pixel_near(image.value(), *at, 2))
        << physics::name_of(part) << " at " << (*at)[0] << ", " << (*at)[1];
    ++parts;
  }
  EXPECT_EQ(parts, 6);
  // 1.2 m to either side of the chest, and 0.45 m above the head: sky, no enemy.
  const Vec3 chest = dummy.body_state(physics::BodyPart::chest).position;
  const Vec3 head = dummy.body_state(physics::BodyPart::head).position;
  for (Vec3 empty :
       {chest + Vec3{1.2f, 0, 0}, chest - Vec3{1.2f, 0, 0}, head + Vec3{0, 0.45f, 0}}) {
    const auto at = vr::project(eye, empty, settings.width, settings.height);
    ASSERT_TRUE(at.has_value());
    const int x = static_cast<int>((*at)[0]), y = static_cast<int>((*at)[1]);
    ASSERT_TRUE(x >= 0 && y >= 0 && x < settings.width && y < settings.height) << x << ", " << y;
    EXPECT_FALSE(enemy_pixel(image.value(), x, y)) << x << ", " << y;
    EXPECT_TRUE(sky_pixel(image.value(), x, y)) << x << ", " << y;
  }
  // The ground beyond the enemy, beside it: lit level geometry, neither sky nor enemy.
  const auto ground = vr::project(eye, {1.5f, 0, -2.0f}, settings.width, settings.height);
  ASSERT_TRUE(ground.has_value());
  ASSERT_TRUE((*ground)[0] >= 0 && (*ground)[1] >= 0 && (*ground)[0] < 320 && (*ground)[1] < 240);
  EXPECT_FALSE(
      sky_pixel(image.value(), static_cast<int>((*ground)[0]), static_cast<int>((*ground)[1])));
  EXPECT_FALSE(
      enemy_pixel(image.value(), static_cast<int>((*ground)[0]), static_cast<int>((*ground)[1])));
}

TEST(Render, ProjectionPutsTheLookAtTargetInTheImageCentre) {
  const vr::EyeView eye = vr::look_at({2, 3, 4}, {-1, 0.5f, -2}, vr::symmetric_fov(1.0f, 1.5f));
  const auto at = vr::project(eye, {-1, 0.5f, -2}, 300, 200);
  ASSERT_TRUE(at.has_value());
  EXPECT_NEAR((*at)[0], 150.0f, 0.01f);
  EXPECT_NEAR((*at)[1], 100.0f, 0.01f);
  // Up in the world is up in the image (smaller y); behind the eye is nowhere.
  const auto above = vr::project(eye, {-1, 1.5f, -2}, 300, 200);
  ASSERT_TRUE(above.has_value());
  EXPECT_LT((*above)[1], 100.0f);
  EXPECT_FALSE(vr::project(eye, {5, 5.5f, 10}, 300, 200).has_value());
}

}  // namespace
