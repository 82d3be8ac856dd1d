// A ragdoll's recorded walk cycle, and a body taken out of the simulation and put back.

#include "stagger/physics/walk_cycle.h"

#include <gtest/gtest.h>

#include <cmath>

#include "stagger/physics/ragdoll.h"

namespace stagger::physics {
namespace {

// The patrol and chase speeds' cycles, recorded once.
const WalkCycle& cycle_at(float speed_mps) {
  static const WalkCycleResult patrol = record_walk_cycle(RagdollSettings{}, WorldSettings{}, 1.0f);
  static const WalkCycleResult chase = record_walk_cycle(RagdollSettings{}, WorldSettings{}, 1.5f);
  return speed_mps < 1.25f ? patrol.cycle : chase.cycle;
}

const WalkCycle& cycle_at_one_mps() {
  return cycle_at(1.0f);
}

std::array<BodyState, kBodyPartCount> parts_of(const Ragdoll& body) {
  std::array<BodyState, kBodyPartCount> parts{};
  for (int p = 0; p < kBodyPartCount; ++p)
    parts[static_cast<std::size_t>(p)] = body.body_state(static_cast<BodyPart>(p));
  return parts;
}

TEST(WalkCycle, IsRecordedFromTheRagdollsOwnGait) {
  const WalkCycleResult recorded = record_walk_cycle(RagdollSettings{}, WorldSettings{}, 1.0f);
  ASSERT_TRUE(recorded.ok) << recorded.error;
  const WalkCycle& c = recorded.cycle;
  EXPECT_EQ(c.frames.size(), static_cast<std::size_t>(WalkCycle::kFrames));
  std::printf("stride %.3f m, period %.3f s, speed %.3f m/s, %zu landing frames\n",
              static_cast<double>(c.stride_m), static_cast<double>(c.period_s),
              static_cast<double>(c.speed_mps), c.hand_over_phases.size());
  EXPECT_GT(c.stride_m, 0.6f);  // two steps
  EXPECT_LT(c.stride_m, 2.0f);
  EXPECT_NEAR(c.speed_mps, 1.0f, 0.2f);
  EXPECT_FALSE(c.hand_over_phases.empty());
  // The pelvis is at standing height over the root throughout.
  for (const BodyPoses& f : c.frames) EXPECT_GT(f[slot(BodyPart::pelvis)].position.y, 0.8f);
  // The feet take turns ahead: the left foot's lead changes sign over the cycle.
  float most = -1, least = 1;
  for (const BodyPoses& f : c.frames) {
    const float lead = f[slot(BodyPart::foot_l)].position.z - f[slot(BodyPart::foot_r)].position.z;
    most = std::max(most, lead);
    least = std::min(least, lead);
  }
  EXPECT_GT(most, 0.2f);
  EXPECT_LT(least, -0.2f);
}

TEST(WalkCycle, LoopsWithoutASeam) {
  const WalkCycle& c = cycle_at_one_mps();
  // From the last frame to the first is no bigger a move than between neighbours.
  float worst_inner = 0;
  for (std::size_t f = 1; f < c.frames.size(); ++f) {
    for (std::size_t p = 0; p < c.frames[f].size(); ++p)
      worst_inner =
          std::max(worst_inner, length(c.frames[f][p].position - c.frames[f - 1][p].position));
  }
  float seam = 0;
  for (std::size_t p = 0; p < c.frames[0].size(); ++p)
    seam = std::max(seam, length(c.frames.front()[p].position - c.frames.back()[p].position));
  EXPECT_LE(seam, worst_inner * 1.5f);
}

TEST(Suspend, ASuspendedBodyTouchesNothingCostsNoRowsAndResumesWhereItWasPosed) {
  World world;
  world.add_static_box({{0, -0.5f, 0}, {20, 0.5f, 20}, {}, 0.9f});
  Ragdoll& body = world.add_ragdoll(RagdollSettings{}, {0, 0, 0}, 0.0f);
  for (int i = 0; i < 240; ++i) world.step();
  const int rows_before = world.solver_load().constraints;
  body.suspend();
  EXPECT_TRUE(body.suspended());
  EXPECT_LT(world.solver_load().constraints, rows_before);
  // Posed 5 m away, in the air: it stays there (no gravity, no solver) step after step.
  std::array<BodyState, kBodyPartCount> parts{};
  place_poses(cycle_at_one_mps().standing, {5, 1, 0}, 0.5f, parts);
  body.pose_suspended(parts);
  for (int i = 0; i < 120; ++i) world.step();
  EXPECT_NEAR(body.body_state(BodyPart::pelvis).position.x,
              parts[slot(BodyPart::pelvis)].position.x, 1e-6f);
  EXPECT_NEAR(body.body_state(BodyPart::pelvis).position.y,
              parts[slot(BodyPart::pelvis)].position.y, 1e-6f);
  EXPECT_NEAR(body.balance().com.x, 5.0f, 0.1f);
  // Put down on the floor and resumed: it stands there. (The world's state, which recordings
  // hash, sees the pose while the body is suspended.)
  const std::uint64_t hash_in_the_air = world.state_hash();
  place_poses(cycle_at_one_mps().standing, {5, 0, 0}, 0.5f, parts);
  body.pose_suspended(parts);
  EXPECT_NE(world.state_hash(), hash_in_the_air);
  body.resume();
  EXPECT_FALSE(body.suspended());
  EXPECT_EQ(world.solver_load().constraints, rows_before);
  for (int i = 0; i < 480; ++i) world.step();
  EXPECT_TRUE(is_upright(body.state()));
  EXPECT_NEAR(body.balance().com.x, 5.0f, 0.1f);
  EXPECT_GT(body.pelvis_height(), 0.85f);
}

// Resumed with both feet down (the cycle's landing frames), as the activity levels promote
// a walker that is not being touched.
TEST(Suspend, AWalkerResumedAsAFootLandsFromTheCycleWalksOnWithoutAJolt) {
  for (float speed : {1.0f, 1.5f})
    for (float phase : cycle_at(speed).hand_over_phases) {
      const WalkCycle& c = cycle_at(speed);
      World world;
      world.add_static_box({{0, -0.5f, 0}, {30, 0.5f, 30}, {}, 0.9f});
      Ragdoll& body = world.add_ragdoll(RagdollSettings{}, {0, 0, 0}, 0.0f);
      LocomotionIntent walk;
      walk.gait = Gait::walk;
      walk.velocity = {0, 0, c.speed_mps};
      body.set_intent(walk);
      body.suspend();
      // Played kinematically for a second, then resumed.
      const float dt = world.dt();
      std::array<BodyState, kBodyPartCount> last{}, now{};
      constexpr int kPlayedSteps = 240;
      // Started so far back that the second of play ends at `phase`.
      float p = phase - static_cast<float>(kPlayedSteps) * c.speed_mps * dt / c.stride_m;
      place_poses(sample_walk_cycle(c, p, 1.0f), {0, 0, 0}, 0.0f, last);
      float root_z = 0;
      for (int i = 0; i < kPlayedSteps; ++i) {
        root_z += c.speed_mps * dt;
        p += c.speed_mps * dt / c.stride_m;
        place_poses(sample_walk_cycle(c, p, 1.0f), {0, 0, root_z}, 0.0f, now);
        for (std::size_t b = 0; b < now.size(); ++b) {
          now[b].linear_velocity = (now[b].position - last[b].position) / dt;
          now[b].angular_velocity =
              rotation_vector(normalized(now[b].rotation * last[b].rotation.conjugate())) / dt;
        }
        body.pose_suspended(now);
        world.step();
        last = now;
      }
      const auto before = parts_of(body);
      body.resume();
      world.step();
      const auto after = parts_of(body);
      float jump = 0;
      std::size_t worst = 0;
      for (std::size_t b = 0; b < before.size(); ++b) {
        const float j = length(after[b].linear_velocity - before[b].linear_velocity);
        if (j > jump) {
          jump = j;
          worst = b;
        }
      }
      int falls = 0;
      for (int i = 0; i < 240 * 5; ++i) {
        world.step();
        if (!is_upright(body.state())) ++falls;
      }
      std::printf("%.1f m/s, phase %.3f: largest speed jump %.3f m/s (%s), upright after 5 s: %d\n",
                  static_cast<double>(speed), static_cast<double>(phase), static_cast<double>(jump),
                  std::string(name_of(static_cast<BodyPart>(worst))).c_str(), falls == 0);
      EXPECT_LT(jump, 0.5f) << "phase " << phase;
      EXPECT_EQ(falls, 0) << "phase " << phase;
      EXPECT_GT(body.balance().com.z, root_z + 3.0f);  // walked on
    }
}

}  // namespace
}  // namespace stagger::physics
