// The capsule-box early-out (physics/src/capsule_box.h): its distance bound never claims a pair
// apart that Bullet's GJK finds within the gap, it does claim clearly separated pairs, and a world
// that uses it steps bit for bit as Bullet's own does.
#include "bullet_ext/capsule_box.h"

#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <btBulletDynamicsCommon.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

namespace stagger::physics {
namespace {

btTransform random_pose(std::mt19937& rng, float spread) {
  std::uniform_real_distribution<float> unit(-1, 1);
  btQuaternion q(unit(rng), unit(rng), unit(rng), unit(rng) + 1.5f);
  q.normalize();
  return btTransform(q, btVector3(unit(rng), unit(rng), unit(rng)) * spread);
}

/// Bullet's GJK surface distance between the two (negative when they overlap).
float gjk_distance(const btCapsuleShape& capsule, const btTransform& capsule_pose,
                   const btBoxShape& box, const btTransform& box_pose) {
  btVoronoiSimplexSolver simplex;
  btGjkEpaPenetrationDepthSolver penetration;
  btGjkPairDetector gjk(&capsule, &box, &simplex, &penetration);
  btGjkPairDetector::ClosestPointInput input;
  input.m_transformA = capsule_pose;
  input.m_transformB = box_pose;
  btPointCollector result;
  gjk.getClosestPoints(input, result, nullptr);
  EXPECT_TRUE(result.m_hasResult);
  return result.m_distance;
}

TEST(CapsuleBox, NeverClaimsAPairApartThatGjkFindsWithinTheGap) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> radius(0.03f, 0.09f), half_height(0.05f, 0.3f),
      extent(0.05f, 1.5f);
  constexpr float kGap = 0.02f;
  int claimed = 0, within_gap = 0;
  for (int i = 0; i < 20000; ++i) {
    const btCapsuleShape capsule(radius(rng), 2 * half_height(rng));
    const btBoxShape box(btVector3(extent(rng), extent(rng), extent(rng)));
    const btTransform capsule_pose = random_pose(rng, 1.5f);
    const btTransform box_pose = random_pose(rng, 0.5f);
    const float distance = gjk_distance(capsule, capsule_pose, box, box_pose);
    if (distance <= kGap) ++within_gap;
    if (!capsule_clear_of_box(capsule, capsule_pose, box, box_pose, kGap)) continue;
    ++claimed;
    ASSERT_GT(distance, kGap) << "pair " << i;
  }
  // Both kinds occur, and the bound is not idle: it clears most pairs that are apart.
  EXPECT_GT(within_gap, 2000);
  EXPECT_GT(claimed, (20000 - within_gap) / 2);
}

TEST(CapsuleBox, ClearsAShinAboveTheGroundButNotOneOnIt) {
  const btCapsuleShape shin(0.05f, 0.4f);
  const btBoxShape ground(btVector3(20, 0.5f, 20));
  const btTransform ground_pose(btQuaternion::getIdentity(), btVector3(0, -0.5f, 0));
  // Segment ends 0.2 m and 0.6 m up: 15 cm of air under the capsule.
  const btTransform high(btQuaternion::getIdentity(), btVector3(0, 0.4f, 0));
  EXPECT_TRUE(capsule_clear_of_box(shin, high, ground, ground_pose, 0.02f));
  // 1 cm of air: within the gap.
  const btTransform low(btQuaternion::getIdentity(), btVector3(0, 0.26f, 0));
  EXPECT_FALSE(capsule_clear_of_box(shin, low, ground, ground_pose, 0.02f));
  // A capsule along X (btCapsuleShapeX) lying 3 cm above the ground: not clear of a 2 cm gap
  // only when it is that close.
  const btCapsuleShapeX arm(0.05f, 0.4f);
  const btTransform lying(btQuaternion::getIdentity(), btVector3(0, 0.08f, 0));
  EXPECT_TRUE(capsule_clear_of_box(arm, lying, ground, ground_pose, 0.02f));
  EXPECT_FALSE(capsule_clear_of_box(arm, lying, ground, ground_pose, 0.04f));
}

/// Capsules dropped, tumbling, onto a floor and a tilted block, in a plain Bullet world, with or
/// without the early-out.
struct DropScene {
  explicit DropScene(bool early_out) {
    if (early_out) installed = capsule_box.install(dispatcher, config);
    world.setGravity(btVector3(0, -9.81f, 0));
    add(std::make_unique<btBoxShape>(btVector3(5, 0.5f, 5)),
        btTransform(btQuaternion::getIdentity(), btVector3(0, -0.5f, 0)), 0);
    add(std::make_unique<btBoxShape>(btVector3(0.5f, 0.2f, 0.5f)),
        btTransform(btQuaternion(btVector3(1, 0, 1).normalized(), 0.3f), btVector3(0, 0.2f, 0)), 0);
    std::mt19937 rng(3);
    for (int i = 0; i < 12; ++i) {
      btTransform pose = random_pose(rng, 0.6f);
      pose.getOrigin() += btVector3(0, 1.2f, 0);
      if (i % 2 == 0) {
        add(std::make_unique<btCapsuleShape>(0.05f, 0.3f), pose, 1);
      } else {
        add(std::make_unique<btCapsuleShapeX>(0.06f, 0.25f), pose, 1);
      }
    }
  }
  ~DropScene() {
    for (auto& body : bodies) world.removeRigidBody(body.get());
  }

  void add(std::unique_ptr<btCollisionShape> shape, const btTransform& pose, float mass) {
    btVector3 inertia(0, 0, 0);
    if (mass > 0) shape->calculateLocalInertia(mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape.get(), inertia);
    info.m_startWorldTransform = pose;
    bodies.push_back(std::make_unique<btRigidBody>(info));
    bodies.back()->setActivationState(DISABLE_DEACTIVATION);
    world.addRigidBody(bodies.back().get());
    shapes.push_back(std::move(shape));
  }

  btDefaultCollisionConfiguration config;
  CapsuleBoxCreateFunc capsule_box{config};
  btCollisionDispatcher dispatcher{&config};
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
  bool installed = false;
};

TEST(CapsuleBox, AWorldThatUsesItStepsBitForBitAsBulletsOwn) {
  DropScene bullet(false), ours(true);
  ASSERT_TRUE(ours.installed);
  int touching_steps = 0;
  for (int step = 0; step < 480; ++step) {
    bullet.world.stepSimulation(1.f / 240, 0, 1.f / 240);
    ours.world.stepSimulation(1.f / 240, 0, 1.f / 240);
    for (std::size_t i = 0; i < bullet.bodies.size(); ++i) {
      const btTransform& a = bullet.bodies[i]->getWorldTransform();
      const btTransform& b = ours.bodies[i]->getWorldTransform();
      ASSERT_EQ(std::memcmp(&a, &b, sizeof(btTransform)), 0) << "body " << i << " step " << step;
    }
    ASSERT_EQ(bullet.dispatcher.getNumManifolds(), ours.dispatcher.getNumManifolds());
    if (ours.dispatcher.getNumManifolds() > 0) ++touching_steps;
  }
  // The capsules fell, landed and came to rest: pairs both apart and in contact were stepped.
  EXPECT_GT(touching_steps, 300);
  for (std::size_t i = 2; i < ours.bodies.size(); ++i) {
    EXPECT_LT(ours.bodies[i]->getWorldTransform().getOrigin().y(), 0.6f) << "body " << i;
  }
}

}  // namespace
}  // namespace stagger::physics
