// Knock-downs (`stagger bench --knock-downs`): standing enemies knocked down in seeded random
// directions stand again, and no blow, fall or get-up opens a joint. The figures of every run
// are recorded as test properties; docs/physics.md (Falls and get-ups) gives the full
// distributions and the command for each.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "stagger/bench/knock_down_course.h"
#include "stagger/core/random.h"
#include "stagger/physics/ragdoll.h"
#include "stagger/physics/world.h"

namespace stagger {
namespace {

constexpr float kJointGapBoundM = 0.02f;           // [m] no joint opens wider, whatever the blow
constexpr float kMostPelvisOverStandingM = 0.03f;  // [m] a get-up that lifts it higher jumps
constexpr float kFootLiftM = 0.05f;                // [m] a foot's lowest corner over the ground
// Flat get-ups of 200 with a foot lifted past kFootLiftM at some moment (none in the release
// build, as the goal asks; 67 getting up as the body fell): a margin for the sanitizer build,
// whose knock-downs land otherwise.
constexpr int kMostFeetLiftedOf200 = 4;
// The same on the 12° slope, of 100: a guard for lying down and the face-down tuck of gentle
// ground (1 in the release build; 60 getting up as the body fell, 13 pushing up on the arms under
// the chest).
constexpr int kMostFeetLiftedOnTheSlopeOf100 = 8;
// Of the 25 stairs knock-downs below, standing within 6 s: a guard for the turn head-up and the
// threshold for lying still (22 in the release build, 16 without either), not the goal (95 %).
constexpr int kLeastStoodOnStairsOf25 = 19;
// Of 25 more stairs knock-downs (seed 5), standing within 6 s: a guard for the steeper ground's
// uprighting boost (25 in the release build, 20 with the flat ground's), not the goal.
constexpr int kLeastStoodOnStairsWithTheBoostOf25 = 22;

bench::KnockDownResult knock_downs(bench::KnockDownGround ground, int count, std::uint64_t seed,
                                   float impulse_ns = 150.0f,
                                   physics::BodyPart part = physics::BodyPart::chest) {
  bench::KnockDownOptions options;
  options.ground = ground;
  options.knock_downs = count;
  options.seed = seed;
  options.impulse_ns = impulse_ns;
  options.part = part;
  return bench::run_knock_downs(options);
}

float worst_separation(const bench::KnockDownResult& r) {
  float worst = 0;
  for (const bench::KnockDown& k : r.runs) worst = std::max(worst, k.max_joint_separation_m);
  return worst;
}

// Every one stands again within 8 s, at least 98 % within 5 s, and no get-up carries the pelvis
// more than 3 cm over its standing height. In the release build 200 of 200 stand within 5 s; the
// slowest takes 4.1 s from the blow. Before its attempt a body lays its legs out and is rolled
// flat onto its front or back, so that no foot stays on the other leg or swings up in the roll: no
// foot rises more than 5 cm in these get-ups (67 getting up as it fell).
TEST(KnockDowns, OnFlatGroundAllTwoHundredStandAgainWithJointsTogether) {
  int within_5_s = 0;
  int within_8_s = 0;
  int feet_lifted = 0;
  for (std::uint64_t seed : {1u, 2u}) {
    const bench::KnockDownResult r = knock_downs(bench::KnockDownGround::flat, 100, seed);
    ASSERT_EQ(r.runs.size(), 100u);
    for (const bench::KnockDown& k : r.runs) {
      EXPECT_GE(k.fell_s, 0.0) << "a 150 N·s blow always fells the body (run " << k.index << ")";
      EXPECT_GE(k.stood_s, 0.0) << "run " << k.index << " never stood";
      EXPECT_LE(k.max_pelvis_over_standing_m, kMostPelvisOverStandingM) << "run " << k.index;
      feet_lifted += k.max_foot_lift_m > kFootLiftM;
    }
    EXPECT_LE(worst_separation(r), kJointGapBoundM);
    within_5_s += r.stood_within(5.0);
    within_8_s += r.stood_within(8.0);
  }
  RecordProperty("stood_within_5_s_of_200", within_5_s);
  RecordProperty("stood_within_8_s_of_200", within_8_s);
  RecordProperty("feet_lifted_of_200", feet_lifted);
  EXPECT_GE(within_5_s, 196);
  EXPECT_EQ(within_8_s, 200);
  EXPECT_LE(feet_lifted, kMostFeetLiftedOf200);
}

// On a 12° slope at least 95 % stand within 6 s (in the release build 100 of these 100), none
// with the pelvis carried more than 3 cm over standing height.
TEST(KnockDowns, OnASlopeNinetyFivePercentStandWithinSixSeconds) {
  const bench::KnockDownResult r = knock_downs(bench::KnockDownGround::slope, 100, 1);
  ASSERT_EQ(r.runs.size(), 100u);
  int feet_lifted = 0;
  for (const bench::KnockDown& k : r.runs) {
    EXPECT_LE(k.max_pelvis_over_standing_m, kMostPelvisOverStandingM) << "run " << k.index;
    feet_lifted += k.max_foot_lift_m > kFootLiftM;
  }
  RecordProperty("stood_within_6_s_of_100", r.stood_within(6.0));
  RecordProperty("feet_lifted_of_100", feet_lifted);
  EXPECT_GE(r.stood_within(6.0), 95);
  EXPECT_LE(feet_lifted, kMostFeetLiftedOnTheSlopeOf100);
}

// A fall is `down` once every body is slower than 0.7 m/s or none has moved 2 cm, for 0.2 s. With
// the speed alone, one of these (run 93) lay still face up from 1.9 s after its fall but was
// `down` only at 6.5 s: its forearm, held against the slope by its elbow's error correction, read
// 1 m/s into the ground while moving 2 mm. In the release build the slowest now takes 2.84 s.
TEST(KnockDowns, OnASlopeEveryFallIsDownWithinFourSeconds) {
  const bench::KnockDownResult r = knock_downs(bench::KnockDownGround::slope, 100, 2);
  ASSERT_EQ(r.runs.size(), 100u);
  for (const bench::KnockDown& k : r.runs) {
    EXPECT_GE(k.fall_to_down_s(), 0.0) << "run " << k.index;
    EXPECT_LE(k.fall_to_down_s(), 4.0) << "run " << k.index;
  }
}

TEST(KnockDowns, FallsComeToRestWithinThreeSecondsOnFlatGround) {
  const bench::KnockDownResult r = knock_downs(bench::KnockDownGround::flat, 50, 3);
  for (const bench::KnockDown& k : r.runs) {
    EXPECT_GE(k.fall_to_down_s(), 0.0) << "run " << k.index;
    EXPECT_LE(k.fall_to_down_s(), 3.0) << "run " << k.index;
  }
  std::vector<double> times;
  for (const bench::KnockDown& k : r.runs) times.push_back(k.fall_to_down_s());
  EXPECT_LE(bench::percentile(times, 50), 1.5) << "[s] median from the fall to lying still";
}

TEST(KnockDowns, FourHundredNewtonSecondsOnAnyBodyPartOpenNoJoint) {
  for (int p = 0; p < physics::kBodyPartCount; ++p) {
    const physics::BodyPart part = physics::body_part_at(p);
    const bench::KnockDownResult r = knock_downs(bench::KnockDownGround::flat, 8,
                                                 10 + static_cast<std::uint64_t>(p), 400.0f, part);
    EXPECT_LE(worst_separation(r), kJointGapBoundM) << physics::name_of(part);
  }
}

TEST(KnockDowns, TumblesDownStairsOpenNoJointAndMostStandWithinSixSeconds) {
  const bench::KnockDownResult r = knock_downs(bench::KnockDownGround::stairs, 25, 4);
  EXPECT_LE(worst_separation(r), kJointGapBoundM);
  RecordProperty("stood_within_6_s_of_25", r.stood_within(6.0));
  EXPECT_GE(r.stood_within(6.0), kLeastStoodOnStairsOf25);
}

TEST(KnockDowns, OnStairsTheRisePushesTheTrunkUpOffTheSteps) {
  const bench::KnockDownResult r = knock_downs(bench::KnockDownGround::stairs, 25, 5);
  RecordProperty("stood_within_6_s_of_25", r.stood_within(6.0));
  EXPECT_GE(r.stood_within(6.0), kLeastStoodOnStairsWithTheBoostOf25);
}

// Three standing enemies, each shoved every 0.1 s for 10 s (300 shoves in all) at a seeded random
// part, in a random 3-D direction, by 0-400 N·s: no joint opens past 2 cm, nothing goes
// non-finite or runs away (what would make the simulation reset a body).
TEST(KnockDowns, ThreeHundredRandomShovesUpToFourHundredNewtonSecondsOpenNoJoint) {
  constexpr int kEnemies = 3;
  constexpr float kMostShoveNs = 400.0f;
  constexpr double kShoveEveryS = 0.1;
  constexpr double kRunS = 10.0;
  physics::World world;
  world.add_static_box({{4, -0.5f, 0}, {30, 0.5f, 30}, {}, 0.9f});
  for (int e = 0; e < kEnemies; ++e)
    world.add_ragdoll({}, {static_cast<float>(e) * 4.0f, 0.01f, 0}, 0.0f);
  SplitMix64 random(7);
  const auto every =
      static_cast<std::int64_t>(std::llround(kShoveEveryS / static_cast<double>(world.dt())));
  const auto steps =
      static_cast<std::int64_t>(std::llround(kRunS / static_cast<double>(world.dt())));
  float worst = 0;
  int shoves = 0;
  for (std::int64_t s = 1; s <= steps; ++s) {
    if (s % every == 0) {
      for (int e = 0; e < kEnemies; ++e) {
        const physics::BodyPart part = physics::body_part_at(
            std::min(physics::kBodyPartCount - 1,
                     static_cast<int>(random.unit() * physics::kBodyPartCount)));
        const float up = random.symmetric();
        const float around = 2.0f * kPi * random.unit();
        const float flat = std::sqrt(std::max(0.0f, 1.0f - up * up));
        const Vec3 direction{flat * std::sin(around), up, flat * std::cos(around)};
        world.ragdoll(static_cast<std::size_t>(e))
            .apply_impulse(part, direction * (kMostShoveNs * random.unit()));
        ++shoves;
      }
    }
    world.step();
    for (int e = 0; e < kEnemies; ++e) {
      const physics::Ragdoll& r = world.ragdoll(static_cast<std::size_t>(e));
      ASSERT_FALSE(r.first_non_finite_part()) << "enemy " << e << " at step " << s;
      ASSERT_FALSE(r.first_runaway_part()) << "enemy " << e << " at step " << s;
      worst = std::max(worst, r.max_joint_separation());
    }
  }
  EXPECT_EQ(shoves, 300);
  RecordProperty("max_joint_separation_mm", static_cast<int>(std::lround(worst * 1000.0f)));
  EXPECT_LE(worst, kJointGapBoundM);
}

TEST(KnockDowns, SameOptionsSameRunsBitForBit) {
  const bench::KnockDownResult a = knock_downs(bench::KnockDownGround::slope, 5, 7);
  const bench::KnockDownResult b = knock_downs(bench::KnockDownGround::slope, 5, 7);
  EXPECT_EQ(a.state_hash, b.state_hash);
  ASSERT_EQ(a.runs.size(), b.runs.size());
  for (std::size_t i = 0; i < a.runs.size(); ++i) EXPECT_EQ(a.runs[i].stood_s, b.runs[i].stood_s);
}

TEST(KnockDowns, GroundHeightsMatchTheSurfaces) {
  using bench::KnockDownGround;
  EXPECT_EQ(bench::knock_down_ground_height(KnockDownGround::flat, 3.0f), 0.0f);
  EXPECT_NEAR(bench::knock_down_ground_height(KnockDownGround::slope, 1.0f),
              std::tan(deg_to_rad(bench::kKnockDownSlopeDeg)), 1e-6f);
  // Tread k (1-based) runs from (k - 1) treads to k treads, its top k risers up.
  EXPECT_NEAR(bench::knock_down_ground_height(KnockDownGround::stairs, 0.1f),
              bench::kKnockDownRiserM, 1e-6f);
  EXPECT_NEAR(
      bench::knock_down_ground_height(KnockDownGround::stairs, 2.5f * bench::kKnockDownTreadM),
      3.0f * bench::kKnockDownRiserM, 1e-6f);
  EXPECT_EQ(bench::knock_down_ground_height(KnockDownGround::stairs, -0.5f), 0.0f);
  bench::KnockDownGround parsed = KnockDownGround::flat;
  EXPECT_TRUE(bench::parse_knock_down_ground("stairs", parsed));
  EXPECT_EQ(parsed, KnockDownGround::stairs);
  EXPECT_FALSE(bench::parse_knock_down_ground("ice", parsed));
}

}  // namespace
}  // namespace stagger
