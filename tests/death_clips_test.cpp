// Death clips: deaths recorded from the ragdoll, reduced to keys, picked by hit direction, played
// at any place and heading, stored in `.stclip` files that refuse damage, and the CLI that builds,
// lists and exports them.

#include "stagger/sim/death_clips.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <variant>

#include "process.h"
#include "stagger/levels/json_tree.h"
#include "stagger/sim/recording.h"
#include "stagger/sim/scene.h"

namespace stagger {
namespace {

using physics::BodyPart;
using physics::kBodyPartCount;
using Choice = sim::DeathClipLibrary::Choice;

constexpr int kDeaths = 8;          // 45° apart: clip i pushes toward heading 45° × i
constexpr float kFloatM = 1e-5f;    // [m] float error of a transformed position
constexpr float kFloatRad = 1e-5f;  // [rad] float error of a composed rotation

sim::DeathClipBuildSettings small_settings() {
  sim::DeathClipBuildSettings s;
  s.deaths = kDeaths;
  s.settle_s = 0.5;
  s.max_duration_s = 2.0;
  return s;
}

// [rad] the heading of a direction: 0 along +Z, π/2 along +X.
float heading(Vec3 v) {
  return yaw_of(v);
}

// [rad] the angle between two rotations, from the sine of its half (angle_between's acos loses
// the small angles this file compares to float error).
float rotation_gap(Quat a, Quat b) {
  const Quat d = a.conjugate() * b;
  return 2.0f * std::asin(std::min(1.0f, length(Vec3{d.x, d.y, d.z})));
}

class DeathClips : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    recorded_ = new std::vector<sim::RecordedDeath>(
        sim::record_deaths(sim::builtin_scene(1), small_settings()));
    std::vector<sim::DeathClip> clips;
    for (const auto& death : *recorded_)
      clips.push_back(sim::reduce(death, small_settings().tolerance));
    library_ = new sim::DeathClipLibrary(sim::clip_rig(sim::builtin_scene(1), 1), clips);
  }
  static void TearDownTestSuite() {
    delete recorded_;
    delete library_;
  }
  static const std::vector<sim::RecordedDeath>& recorded() { return *recorded_; }
  static const sim::DeathClipLibrary& library() { return *library_; }

 private:
  static inline std::vector<sim::RecordedDeath>* recorded_ = nullptr;
  static inline sim::DeathClipLibrary* library_ = nullptr;
};

TEST_F(DeathClips, RecordsOneDeathPerDirectionEvenlySpreadAroundTheBody) {
  ASSERT_EQ(library().clips().size(), static_cast<std::size_t>(kDeaths));
  EXPECT_FLOAT_EQ(library().rig().height_m, 1.8f);
  EXPECT_FLOAT_EQ(library().rig().mass_kg, 75.0f);
  EXPECT_EQ(library().rig().level, "builtin");
  for (int i = 0; i < kDeaths; ++i) {
    const sim::DeathClip& c = library().clips()[static_cast<std::size_t>(i)];
    SCOPED_TRACE("clip " + std::to_string(i));
    EXPECT_NEAR(wrap_angle(heading(c.hit_direction) - deg_to_rad(45.0f * static_cast<float>(i))),
                0.0f, 1e-5f);
    EXPECT_NEAR(length(c.hit_direction), 1.0f, 1e-6f);
    EXPECT_LE(std::fabs(c.hit_direction.y), 0.15f);  // the vertical part, ±0.15 before normalising
    EXPECT_GE(c.impulse_ns, 150.0f * 0.75f);
    EXPECT_LE(c.impulse_ns, 150.0f * 1.25f);
    EXPECT_EQ(c.hit_part, BodyPart::chest);
    EXPECT_GT(c.duration_s, 0.5f);  // a fall takes time
    EXPECT_LE(c.duration_s, 2.0f);  // the cap
    // It lay down: the pelvis ends within 0.25 m of the ground.
    EXPECT_LT(c.tracks[physics::slot(BodyPart::pelvis)].back().position.y, 0.25f);
  }
}

TEST_F(DeathClips, TheChestFirstMovesTheWayTheBlowPushed) {
  for (const sim::DeathClip& c : library().clips()) {
    const auto v = sim::sample_velocities(c, 0.0f, {}, 0.0f);
    const Vec3 chest = v[physics::slot(BodyPart::chest)].linear;
    EXPECT_GT(dot(normalized(horizontal(chest)), normalized(horizontal(c.hit_direction))), 0.9f)
        << "clip pushing toward " << rad_to_deg(heading(c.hit_direction)) << " deg";
  }
}

TEST_F(DeathClips, AKillFromEachSidePicksTheNearestClipAndItsTurn) {
  // Enemy frame: +X is its left. A blow from the left pushes it toward -X (heading -90°, clip 6).
  struct Case {
    const char* from;
    Vec3 push;
    std::size_t clip;
  };
  const Case cases[] = {{"left", {-1, 0, 0}, 6},
                        {"right", {1, 0, 0}, 2},
                        {"front", {0, 0, -1}, 4},
                        {"back", {0, 0, 1}, 0}};
  for (const Case& c : cases) {
    const Choice choice = library().nearest(c.push * 120.0f);
    EXPECT_EQ(choice.clip, c.clip) << "from the " << c.from;
    EXPECT_NEAR(choice.extra_yaw_rad, 0.0f, 1e-5f) << "from the " << c.from;
  }
  // Between clips: 100° is nearest clip 2 (90°), turned +10°; 20° is clip 0, +20°; 25° is
  // clip 1 (45°), -20°; -170° is clip 4 (180°), +10° across the wrap.
  const auto push_toward = [](float deg) {
    return Vec3{std::sin(deg_to_rad(deg)), 0.1f, std::cos(deg_to_rad(deg))};
  };
  const struct {
    float deg;
    std::size_t clip;
    float extra_deg;
  } between[] = {{100, 2, 10}, {20, 0, 20}, {25, 1, -20}, {-170, 4, 10}};
  for (const auto& b : between) {
    const Choice choice = library().nearest(push_toward(b.deg));
    EXPECT_EQ(choice.clip, b.clip) << b.deg << " deg";
    EXPECT_NEAR(rad_to_deg(choice.extra_yaw_rad), b.extra_deg, 1e-3f) << b.deg << " deg";
  }
}

TEST_F(DeathClips, AWorldHitOnATurnedEnemyIsTurnedIntoItsFrame) {
  const float yaw = deg_to_rad(60.0f);  // the enemy faces 60° left of +Z
  const Quat facing = Quat::from_yaw(yaw);
  // Blows from each side, in the world: from its left the push is toward its right, -X of its
  // frame, and so on.
  const struct {
    const char* from;
    Vec3 push_local;
    std::size_t clip;
  } cases[] = {{"left", {-1, 0, 0}, 6},
               {"right", {1, 0, 0}, 2},
               {"front", {0, 0, -1}, 4},
               {"back", {0, 0, 1}, 0}};
  for (const auto& c : cases) {
    const Vec3 world_push = facing.rotate(c.push_local * 150.0f);
    const Vec3 local = sim::to_enemy_frame(world_push, yaw);
    EXPECT_LT(length(local - c.push_local * 150.0f), 1e-3f) << "from the " << c.from;
    const Choice choice = library().nearest(local);
    EXPECT_EQ(choice.clip, c.clip) << "from the " << c.from;
    EXPECT_NEAR(choice.extra_yaw_rad, 0.0f, 1e-5f) << "from the " << c.from;
    // 10° off the clip, in the world: the played clip's hit lines up with the blow.
    const Vec3 world_off = Quat::from_yaw(deg_to_rad(10.0f)).rotate(world_push);
    const Choice off = library().nearest(sim::to_enemy_frame(world_off, yaw));
    EXPECT_EQ(off.clip, c.clip) << "from the " << c.from;
    EXPECT_NEAR(rad_to_deg(off.extra_yaw_rad), 10.0f, 1e-3f) << "from the " << c.from;
    const Vec3 played =
        Quat::from_yaw(yaw + off.extra_yaw_rad).rotate(library().clips()[off.clip].hit_direction);
    EXPECT_NEAR(wrap_angle(heading(played) - heading(world_off)), 0.0f, 1e-5f)
        << "from the " << c.from;
  }
}

TEST(DeathClipChoice, TiesGoToTheNearerVerticalThenTheLowerIndex) {
  const auto clip = [](Vec3 direction) {
    sim::DeathClip c;
    c.hit_direction = normalized(direction);
    return c;
  };
  // Clips 0 and 1 both 45° from +X (at 0° and 90°); clip 1 is level, as the request is.
  const sim::DeathClipLibrary lib({}, {clip({0, 0.2f, 1}), clip({1, 0, 0}), clip({0, 0, -1})});
  const Vec3 between{1, 0, 1};
  EXPECT_EQ(lib.nearest(between).clip, 1u);
  EXPECT_NEAR(rad_to_deg(lib.nearest(between).extra_yaw_rad), -45.0f, 1e-4f);
  // Equal vertical parts: the lower index.
  const sim::DeathClipLibrary even({}, {clip({0, 0, 1}), clip({1, 0, 0})});
  EXPECT_EQ(even.nearest(between).clip, 0u);
  EXPECT_NEAR(rad_to_deg(even.nearest(between).extra_yaw_rad), 45.0f, 1e-4f);
  // Straight down: no heading, so every clip is as near in angle; the vertical decides.
  const sim::DeathClipLibrary down({}, {clip({0, 0, 1}), clip({1, -0.3f, 0})});
  EXPECT_EQ(down.nearest({0, -1, 0}).clip, 1u);
  EXPECT_EQ(down.nearest({0, -1, 0}).extra_yaw_rad, 0.0f);
}

TEST_F(DeathClips, SamplesAtKeyTimesAreTheKeysAndAYawedSampleIsTheTurnedOne) {
  const Vec3 feet{3.0f, 0.25f, -7.0f};
  const float yaw = deg_to_rad(-130.0f);
  const Quat turn = Quat::from_yaw(yaw);
  for (const sim::DeathClip& c : library().clips()) {
    for (int p = 0; p < kBodyPartCount; ++p) {
      for (const sim::ClipKey& key : c.tracks[static_cast<std::size_t>(p)]) {
        const physics::BodyPose at = sim::sample(c, key.time_s, {}, 0)[static_cast<std::size_t>(p)];
        ASSERT_LT(length(at.position - key.position), kFloatM);
        ASSERT_LT(rotation_gap(at.rotation, key.rotation), kFloatRad);
      }
    }
    // Between keys and beyond the ends (clamped): the yawed sample is the root-frame one turned
    // and moved.
    for (float t : {-1.0f, 0.0f, 0.013f, 0.31f, 0.5f * c.duration_s, c.duration_s, 9.0f}) {
      const sim::ClipPose local = sim::sample(c, t, {}, 0);
      const sim::ClipPose placed = sim::sample(c, t, feet, yaw);
      for (std::size_t p = 0; p < local.size(); ++p) {
        ASSERT_LT(length(placed[p].position - (feet + turn.rotate(local[p].position))), kFloatM);
        ASSERT_LT(rotation_gap(placed[p].rotation, turn * local[p].rotation), kFloatRad);
      }
    }
    const sim::ClipPose before = sim::sample(c, -1.0f, {}, 0);
    const sim::ClipPose after = sim::sample(c, 9.0f, {}, 0);
    for (std::size_t p = 0; p < before.size(); ++p) {
      EXPECT_EQ(before[p].position, c.tracks[p].front().position);
      EXPECT_EQ(after[p].position, c.tracks[p].back().position);
    }
  }
}

TEST_F(DeathClips, KeyReductionKeepsTheEndsAndStaysWithinItsToleranceAtEveryFrame) {
  const sim::KeyTolerance tolerance = small_settings().tolerance;
  std::size_t kept = 0;
  std::size_t frames = 0;
  for (std::size_t d = 0; d < recorded().size(); ++d) {
    const sim::RecordedDeath& death = recorded()[d];
    const sim::DeathClip& c = library().clips()[d];
    ASSERT_EQ(death.times.size(), c.recorded_frames());
    EXPECT_EQ(death.times.front(), 0.0f);
    EXPECT_EQ(death.times.back(), c.duration_s);
    for (std::size_t f = 1; f < death.times.size(); ++f)
      ASSERT_NEAR(death.times[f] - death.times[f - 1], 1.0f / 30.0f, 1e-5f);
    for (std::size_t p = 0; p < c.tracks.size(); ++p) {
      const auto& track = c.tracks[p];
      ASSERT_GE(track.size(), 2u);
      EXPECT_EQ(track.front().position, death.frames.front()[p].position);
      EXPECT_EQ(track.front().rotation, death.frames.front()[p].rotation);
      EXPECT_EQ(track.back().position, death.frames.back()[p].position);
      EXPECT_EQ(track.back().time_s, c.duration_s);
      kept += track.size();
    }
    frames += death.frames.size() * kBodyPartCount;
    for (std::size_t f = 0; f < death.frames.size(); ++f) {
      const sim::ClipPose at = sim::sample(c, death.times[f], {}, 0);
      for (std::size_t p = 0; p < at.size(); ++p) {
        ASSERT_LE(length(at[p].position - death.frames[f][p].position),
                  tolerance.position_m + kFloatM)
            << "death " << d << " frame " << f << " part " << p;
        ASSERT_LE(rotation_gap(at[p].rotation, death.frames[f][p].rotation),
                  tolerance.rotation_rad + kFloatRad)
            << "death " << d << " frame " << f << " part " << p;
      }
    }
  }
  // 5 mm and 1° keep fewer than half of the 30 Hz keys.
  EXPECT_LT(kept * 2, frames) << kept << " of " << frames;
}

TEST(DeathClipReduction, AStraightLineKeepsOnlyItsEndsAndABendKeepsTheCorner) {
  std::vector<float> times;
  std::vector<physics::BodyPose> line;
  for (int f = 0; f <= 30; ++f) {
    times.push_back(static_cast<float>(f) / 30.0f);
    line.push_back({{0.1f * static_cast<float>(f), 1.0f, 0.0f},
                    Quat::from_yaw(0.02f * static_cast<float>(f))});
  }
  const auto straight = sim::reduce_track(times, line, {});
  ASSERT_EQ(straight.size(), 2u);
  EXPECT_EQ(straight.back().time_s, 1.0f);
  // A corner at frame 10: it and the ends are kept, nothing else.
  std::vector<physics::BodyPose> bent = line;
  for (int f = 11; f <= 30; ++f)
    bent[static_cast<std::size_t>(f)].position = {1.0f, 1.0f, 0.1f * static_cast<float>(f - 10)};
  const auto corner = sim::reduce_track(times, bent, {});
  ASSERT_EQ(corner.size(), 3u);
  EXPECT_FLOAT_EQ(corner[1].time_s, 10.0f / 30.0f);
  // One frame: one key.
  EXPECT_EQ(sim::reduce_track({0.0f}, {line[0]}, {}).size(), 1u);
}

TEST_F(DeathClips, VelocitiesAreTheSlopeOfTheSamples) {
  const sim::DeathClip& c = library().clips()[3];
  const float t = 0.4f;
  const float h = sim::kClipVelocityHalfSpanS;
  const float yaw = 1.0f;
  const auto v = sim::sample_velocities(c, t, {1, 0, 2}, yaw);
  const sim::ClipPose a = sim::sample(c, t - h, {1, 0, 2}, yaw);
  const sim::ClipPose b = sim::sample(c, t + h, {1, 0, 2}, yaw);
  for (std::size_t p = 0; p < v.size(); ++p) {
    const Vec3 expected = (b[p].position - a[p].position) / (2 * h);
    EXPECT_LT(length(v[p].linear - expected), 1e-3f);
    // Turning at v.angular for 2h takes a's rotation to b's.
    const Quat turned = Quat::from_rotation_vector(v[p].angular * (2 * h)) * a[p].rotation;
    EXPECT_LT(rotation_gap(turned, b[p].rotation), 1e-3f);
  }
  // At the end of a clip that came to rest, it lies still.
  const sim::DeathClip& still = library().clips()[0];
  ASSERT_TRUE(still.came_to_rest);
  for (const sim::BodyVelocity& e : sim::sample_velocities(still, still.duration_s, {}, 0))
    EXPECT_LT(length(e.linear), 0.1f);
}

TEST(DeathClipRecording, IsDeterministic) {
  sim::DeathClipBuildSettings s = small_settings();
  s.deaths = 2;
  s.max_duration_s = 0.5;
  const auto a = sim::record_deaths(sim::builtin_scene(1), s);
  const auto b = sim::record_deaths(sim::builtin_scene(1), s);
  ASSERT_EQ(a.size(), 2u);
  for (std::size_t d = 0; d < a.size(); ++d) {
    EXPECT_EQ(a[d].clip, b[d].clip);
    EXPECT_EQ(a[d].times, b[d].times);
    ASSERT_EQ(a[d].frames.size(), b[d].frames.size());
    for (std::size_t f = 0; f < a[d].frames.size(); ++f) {
      for (std::size_t p = 0; p < a[d].frames[f].size(); ++p) {
        EXPECT_EQ(a[d].frames[f][p].position, b[d].frames[f][p].position);
        EXPECT_EQ(a[d].frames[f][p].rotation, b[d].frames[f][p].rotation);
      }
    }
  }
  // Another seed, other blows.
  s.seed = 2;
  EXPECT_NE(sim::record_deaths(sim::builtin_scene(1), s)[0].clip.impulse_ns, a[0].clip.impulse_ns);
}

// --- The file ---

std::string_view text_of(const std::vector<std::uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
  const std::string text = test::read_file(path);
  return {text.begin(), text.end()};
}

void write_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

TEST_F(DeathClips, SaveAndLoadRoundTripBitForBit) {
  const auto path = test::temp_path("round_trip.stclip");
  ASSERT_TRUE(library().save(path.string()).ok());
  const auto loaded = sim::DeathClipLibrary::load(path.string());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_EQ(loaded.value(), library());
  EXPECT_EQ(read_bytes(path), library().encode());
  EXPECT_EQ(loaded.value().encode(), library().encode());
  std::filesystem::remove(path);
}

// A library of one clip whose tracks hold two keys each: 8 + 4 + rig + clip + 8 bytes.
sim::DeathClipLibrary tiny_library() {
  sim::DeathClip c;
  c.hit_direction = {0, 0, 1};
  c.impulse_ns = 100;
  c.duration_s = 1;
  c.came_to_rest = true;
  for (auto& track : c.tracks) {
    track.push_back({0.0f, {0, 1, 0}, {}});
    track.push_back({1.0f, {0, 0.2f, 0.8f}, Quat::from_axis_angle({1, 0, 0}, 1.5f)});
  }
  sim::ClipRig rig;
  rig.level = "yard";
  for (auto& shape : rig.shapes) shape = {physics::BodySettings::Shape::capsule_y, 0.05f, 0.1f, {}};
  return {rig, {c}};
}

constexpr std::size_t kVersionAt = 8;
constexpr std::size_t kChecksumBytes = 8;
// tiny_library's layout: magic 8, version 4, height 4, mass 4, profile 4 + 0, level 4 + 4,
// seed 8, part count 4, 13 shapes of 21: the clip count at 44 + 273 = 317.
constexpr std::size_t kClipCountAt = 317;

Result<sim::DeathClipLibrary> parse(const std::vector<std::uint8_t>& bytes) {
  return sim::DeathClipLibrary::parse(text_of(bytes), "lib.stclip");
}

void put_u32(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint32_t v) {
  for (std::size_t i = 0; i < 4; ++i) bytes[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

void reseal(std::vector<std::uint8_t>& bytes) {
  const std::size_t body = bytes.size() - kChecksumBytes;
  const std::uint64_t sum = sim::fnv1a_64(bytes.data(), body);
  for (std::size_t i = 0; i < 8; ++i) bytes[body + i] = static_cast<std::uint8_t>(sum >> (8 * i));
}

TEST(DeathClipFile, TheTinyLibraryReadsBack) {
  const auto bytes = tiny_library().encode();
  EXPECT_EQ(bytes.size(), kClipCountAt + 4 + 22 + 13 * (4 + 2 * 32) + kChecksumBytes);
  const auto read = parse(bytes);
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read.value(), tiny_library());
}

TEST(DeathClipFile, AChangedPayloadByteFailsTheChecksum) {
  auto bytes = tiny_library().encode();
  bytes[bytes.size() - kChecksumBytes - 5] ^= 0x01;  // in the last key's rotation
  const auto read = parse(bytes);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(),
            "lib.stclip: damaged or changed: the checksum does not match its contents");
}

TEST(DeathClipFile, AnotherFileIsRefusedByItsMagic) {
  auto bytes = tiny_library().encode();
  bytes[3] = 'X';
  const auto read = parse(bytes);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(),
            "lib.stclip: not a stagger clip library (it does not start with \"STAGCLP\")");
  EXPECT_FALSE(parse({}).ok());
}

TEST(DeathClipFile, AnotherVersionIsRefusedNamingTheOneRead) {
  auto bytes = tiny_library().encode();
  put_u32(bytes, kVersionAt, 2);
  reseal(bytes);
  const auto read = parse(bytes);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(),
            "lib.stclip: clip library version 2 is not supported (this stagger reads version 1)");
}

TEST(DeathClipFile, ATruncatedFileNamesWhereItEnds) {
  const auto whole = tiny_library().encode();
  // Cut inside the keys of the last part: the last 8 bytes left are taken for the checksum.
  const std::vector<std::uint8_t> cut(whole.begin(), whole.end() - 40);
  const auto read = parse(cut);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(),
            "lib.stclip: truncated or damaged: 2 keys in clip 1, part foot_r announced at byte " +
                std::to_string(whole.size() - kChecksumBytes - 64) + ", room for 0");
  const std::vector<std::uint8_t> shorter(whole.begin(), whole.begin() + 32);
  const auto early = parse(shorter);
  ASSERT_FALSE(early.ok());
  EXPECT_EQ(early.error(),
            "lib.stclip: truncated or damaged: the file ends inside the level's name (at byte 24)");
  // Every length from the magic to one byte short is refused, none read past its end.
  for (std::size_t size = 0; size < whole.size(); ++size)
    EXPECT_FALSE(parse({whole.begin(), whole.begin() + static_cast<long>(size)}).ok()) << size;
}

TEST(DeathClipFile, CountsOutOfRangeAreRefusedBeforeAnythingIsAllocated) {
  auto bytes = tiny_library().encode();
  put_u32(bytes, kClipCountAt, 0xFFFFFFFFu);
  reseal(bytes);
  auto read = parse(bytes);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(), "lib.stclip: damaged: 4294967295 clips, outside 1 <= n <= 1024");
  put_u32(bytes, kClipCountAt, 1000);
  reseal(bytes);
  read = parse(bytes);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(),
            "lib.stclip: truncated or damaged: 1000 clips announced at byte 321, room for 1");
  // The pelvis' key count (after the clip's 22 bytes of fields).
  bytes = tiny_library().encode();
  put_u32(bytes, kClipCountAt + 4 + 22, 0);
  reseal(bytes);
  read = parse(bytes);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(),
            "lib.stclip: damaged: 0 keys in clip 1, part pelvis, outside 1 <= n <= 4096");
}

TEST(DeathClipFile, NumbersThatMakeNoSenseAreRefusedAfterTheChecksum) {
  sim::DeathClipLibrary lib = tiny_library();
  auto clips = lib.clips();
  clips[0].tracks[2][1].time_s = 0.5f;  // the head's last key before the clip's end
  auto bytes = sim::DeathClipLibrary(lib.rig(), clips).encode();
  auto read = parse(bytes);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(),
            "lib.stclip: damaged: clip 1: the track of head does not run from 0 s to the clip's "
            "duration");
  clips = lib.clips();
  clips[0].tracks[0][0].rotation = {2, 0, 0, 0};
  read = parse(sim::DeathClipLibrary(lib.rig(), clips).encode());
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(),
            "lib.stclip: damaged: clip 1: the track of pelvis: key 1 is not a unit rotation");
  sim::ClipRig rig = lib.rig();
  rig.height_m = 9;
  read = parse(sim::DeathClipLibrary(rig, lib.clips()).encode());
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error(),
            "lib.stclip: damaged: the rig's height 9 m or mass 75 kg is outside an enemy's range");
}

TEST(DeathClipFile, LoadNamesTheFile) {
  const auto path = test::temp_path("missing.stclip");
  const auto missing = sim::DeathClipLibrary::load(path.string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), path.string() + ": cannot open the clip library");
  auto bytes = tiny_library().encode();
  bytes[bytes.size() - 1] ^= 0x80;
  write_bytes(path, bytes);
  const auto damaged = sim::DeathClipLibrary::load(path.string());
  ASSERT_FALSE(damaged.ok());
  EXPECT_EQ(damaged.error(),
            path.string() + ": damaged or changed: the checksum does not match its contents");
  std::filesystem::remove(path);
}

// --- The command line ---

const levels::JsonValue& member(const levels::JsonValue& object, std::string_view key) {
  const levels::JsonValue* value = object.find(key);
  EXPECT_NE(value, nullptr) << key;
  static const levels::JsonValue kNull;
  return value ? *value : kNull;
}

TEST(DeathClipsCli, BuildListAndExportALevelsClips) {
  const auto library = test::temp_path("corridor.stclip");
  const auto gltf = test::temp_path("corridor_clips.gltf");
  const auto built = test::run_stagger("clips build corridor -o \"" + library.string() +
                                       "\" --deaths 4 --seed 7 --impulse 120");
  ASSERT_EQ(built.exit_code, 0) << built.err;
  EXPECT_NE(built.out.find("death 1/4: pushed toward 0 deg"), std::string::npos) << built.out;
  EXPECT_NE(built.out.find("death 4/4: pushed toward 270 deg"), std::string::npos) << built.out;
  EXPECT_NE(built.out.find(": 4 clips of "), std::string::npos) << built.out;
  EXPECT_NE(built.out.find(" bytes"), std::string::npos) << built.out;

  const auto loaded = sim::DeathClipLibrary::load(library.string());
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  ASSERT_EQ(loaded.value().clips().size(), 4u);
  EXPECT_EQ(loaded.value().rig().seed, 7u);
  for (const sim::DeathClip& c : loaded.value().clips()) {
    EXPECT_GE(c.impulse_ns, 120.0f * 0.75f);
    EXPECT_LE(c.impulse_ns, 120.0f * 1.25f);
  }

  const auto info = test::run_stagger("clips info \"" + library.string() + "\"");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find(": 4 clips, recorded from level `Corridor`"), std::string::npos)
      << info.out;
  EXPECT_NE(info.out.find("\n   4 "), std::string::npos) << info.out;

  const auto exported =
      test::run_stagger("export \"" + library.string() + "\" -o \"" + gltf.string() + "\"");
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_NE(exported.out.find("4 clips as animations"), std::string::npos) << exported.out;
  const auto parsed = levels::parse_json_with_positions(test::read_file(gltf));
  ASSERT_TRUE(std::holds_alternative<levels::JsonValue>(parsed));
  const levels::JsonValue& root = std::get<levels::JsonValue>(parsed);
  EXPECT_EQ(member(member(root, "asset"), "version").text, "2.0");
  EXPECT_EQ(member(root, "nodes").items.size(), static_cast<std::size_t>(kBodyPartCount));
  const levels::JsonValue& animations = member(root, "animations");
  ASSERT_EQ(animations.items.size(), 4u);
  for (const levels::JsonValue& animation : animations.items) {
    EXPECT_EQ(member(animation, "channels").items.size(), 2u * kBodyPartCount);
    for (const levels::JsonValue& sampler : member(animation, "samplers").items)
      EXPECT_EQ(member(sampler, "interpolation").text, "LINEAR");
  }
  std::filesystem::remove(library);
  std::filesystem::remove(gltf);
}

TEST(DeathClipsCli, ADamagedLibraryIsRefusedByInfoAndExport) {
  const auto path = test::temp_path("damaged.stclip");
  auto bytes = tiny_library().encode();
  bytes[100] ^= 0x10;
  write_bytes(path, bytes);
  const auto info = test::run_stagger("clips info \"" + path.string() + "\"");
  EXPECT_EQ(info.exit_code, 1);
  EXPECT_NE(info.err.find("damaged or changed: the checksum does not match"), std::string::npos)
      << info.err;
  const auto exported = test::run_stagger("export \"" + path.string() + "\" -o \"" +
                                          test::temp_path("damaged.gltf").string() + "\"");
  EXPECT_EQ(exported.exit_code, 1);
  EXPECT_NE(exported.err.find("damaged or changed"), std::string::npos) << exported.err;
  std::filesystem::remove(path);
}

TEST(DeathClipsCli, BadOptionsAreUsageErrorsAndUnwritableOutputsFailFirst) {
  const auto none = test::run_stagger("clips build corridor -o x.stclip --deaths 0");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("--deaths must be a whole number of deaths, 1 <= n <= 360, got 0"),
            std::string::npos)
      << none.err;
  const auto path = test::temp_path("options.stclip");
  write_bytes(path, tiny_library().encode());
  const auto rate = test::run_stagger("export \"" + path.string() + "\" -o x.gltf --rate 40");
  EXPECT_EQ(rate.exit_code, 2);
  EXPECT_NE(rate.err.find("stagger export: --rate applies to recordings, not to clip libraries"),
            std::string::npos)
      << rate.err;
  const auto unwritable = test::run_stagger("clips build corridor -o /nonexistent/dir/x.stclip");
  EXPECT_EQ(unwritable.exit_code, 1);
  EXPECT_NE(unwritable.err.find("cannot write the clip library to /nonexistent/dir/x.stclip"),
            std::string::npos)
      << unwritable.err;
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace stagger
