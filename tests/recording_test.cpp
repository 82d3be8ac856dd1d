// Recordings: the binary round-trips, damage of any kind is caught before anything is
// simulated, and `stagger replay` reproduces a run or names the step where it diverges.

#include "stagger/sim/recording.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string_view>

#include "process.h"

namespace stagger {
namespace {

std::string_view text_of(const std::vector<std::uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

Result<sim::Recording> parse(const std::vector<std::uint8_t>& bytes) {
  return sim::parse_recording(text_of(bytes), "r.bin");
}

// 0.25 s at 200 Hz: 50 steps.
sim::Recording sample() {
  sim::Recording r;
  r.level_path = "/levels/yard.json";
  r.level_hash = 0x1234567890abcdefull;
  r.builtin_enemies = 3;
  r.physics_hz = 200.0f;
  r.solver_iterations = 10;
  r.display_hz = 72.0;
  r.seconds = 0.25;
  r.input_name = "push.json";
  r.input_script = R"({ "events": [] })";
  for (std::uint64_t i = 0; i < 50; ++i) r.step_hashes.push_back(i * 0x9E3779B97F4A7C15ull);
  return r;
}

// Where the fields of `sample()` stand in its encoding.
constexpr std::size_t kVersionAt = 8;
constexpr std::size_t kFlagAt = 12;
constexpr std::size_t kLevelPathLengthAt = 13;
constexpr std::size_t kVaryAt = 103;   // the varied flag and the seed: 9 bytes
constexpr std::size_t kFilesAt = 112;  // the activity cap and two empty files: 28 bytes
constexpr std::size_t kFilesBytes = 4 + (4 + 0) + 8 + (4 + 0) + 8;
constexpr std::size_t kStepCountAt = kFilesAt + kFilesBytes;
constexpr std::size_t kChecksumBytes = 8;

void put_u64(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint64_t v) {
  for (std::size_t i = 0; i < 8; ++i) bytes[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// The checksum made to match again, as a writer that meant these bytes would have.
void reseal(std::vector<std::uint8_t>& bytes) {
  const std::size_t body = bytes.size() - kChecksumBytes;
  put_u64(bytes, body, sim::fnv1a_64(bytes.data(), body));
}

TEST(Recording, RoundTrips) {
  const auto bytes = sim::encode_recording(sample());
  const auto back = parse(bytes);
  ASSERT_TRUE(back) << back.error();
  const sim::Recording& r = back.value();
  EXPECT_EQ(r.level_path, "/levels/yard.json");
  EXPECT_EQ(r.level_hash, 0x1234567890abcdefull);
  EXPECT_EQ(r.builtin_enemies, 3);
  EXPECT_EQ(r.physics_hz, 200.0f);
  EXPECT_EQ(r.solver_iterations, 10);
  EXPECT_EQ(r.display_hz, 72.0);
  EXPECT_EQ(r.seconds, 0.25);
  EXPECT_FALSE(r.incomplete);
  EXPECT_EQ(r.input_name, "push.json");
  EXPECT_EQ(r.input_script, R"({ "events": [] })");
  EXPECT_EQ(r.step_hashes, sample().step_hashes);
  EXPECT_EQ(text_of(bytes).substr(0, kVersionAt), "STAGREC\n");
  EXPECT_EQ(std::uint32_t{bytes[kVersionAt]}, sim::Recording::kVersion)
      << "the format version after the magic";
  EXPECT_EQ(sim::Recording::kVersion, 4u);
  EXPECT_EQ(bytes.size(), 8u + 4 + 1 + (4 + 17) + 8 + 4 + 4 + 4 + 8 + 8 + (4 + 9) + (4 + 16) + 1 +
                              8 + kFilesBytes + 8 + 50 * 8 + 8);
  EXPECT_EQ(r.max_active, 0);
  EXPECT_TRUE(r.clips_path.empty());
  EXPECT_TRUE(r.settings_path.empty());
}

TEST(Recording, EveryTruncationAndEveryFlippedByteIsRejected) {
  const auto bytes = sim::encode_recording(sample());
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    const std::vector<std::uint8_t> cut(bytes.begin(),
                                        bytes.begin() + static_cast<std::ptrdiff_t>(size));
    const auto r = parse(cut);
    EXPECT_FALSE(r) << "cut to " << size << " bytes";
  }
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    std::vector<std::uint8_t> flipped = bytes;
    flipped[at] ^= 0x10;
    EXPECT_FALSE(parse(flipped)) << "byte " << at << " flipped";
  }
  std::vector<std::uint8_t> wrong_magic = bytes;
  wrong_magic[0] = 'X';
  EXPECT_EQ(parse(wrong_magic).error(),
            "r.bin: not a stagger recording (it does not start with \"STAGREC\")");
  std::vector<std::uint8_t> newer = bytes;
  newer[kVersionAt] = 5;
  EXPECT_EQ(parse(newer).error(),
            "r.bin: recording version 5 is not supported (this stagger reads versions 1 to 4)");
  const std::vector<std::uint8_t> cut(bytes.begin(),
                                      bytes.begin() + 45);  // the last 8 read as the checksum
  EXPECT_EQ(parse(cut).error(),
            "r.bin: truncated or damaged: the file ends inside the level hash (at byte 34)");
  std::vector<std::uint8_t> flipped = bytes;
  flipped[200] ^= 1;
  EXPECT_EQ(parse(flipped).error(),
            "r.bin: damaged or changed: the checksum does not match its contents");
}

// The sample's recording without the activity cap, the clip library and the settings file (the
// layout before version 4).
void erase_files(std::vector<std::uint8_t>& bytes) {
  const auto at = bytes.begin() + static_cast<std::ptrdiff_t>(kFilesAt);
  bytes.erase(at, at + static_cast<std::ptrdiff_t>(kFilesBytes));
}

// ... and without the vary flag and seed (the layout before version 3).
void erase_vary(std::vector<std::uint8_t>& bytes) {
  erase_files(bytes);
  const auto at = bytes.begin() + static_cast<std::ptrdiff_t>(kVaryAt);
  bytes.erase(at, at + 9);
}

TEST(Recording, ARunWithActivityLevelsClipsAndSettingsRoundTrips) {
  sim::Recording crowd = sample();
  crowd.max_active = 32;
  crowd.clips_path = "/clips/yard.stclip";
  crowd.clips_hash = 0x0123456789abcdefull;
  crowd.settings_path = "/tuning/heavy.json";
  crowd.settings_hash = 0xfedcba9876543210ull;
  const auto back = parse(sim::encode_recording(crowd));
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back.value().max_active, 32);
  EXPECT_EQ(back.value().clips_path, "/clips/yard.stclip");
  EXPECT_EQ(back.value().clips_hash, 0x0123456789abcdefull);
  EXPECT_EQ(back.value().settings_path, "/tuning/heavy.json");
  EXPECT_EQ(back.value().settings_hash, 0xfedcba9876543210ull);
  EXPECT_EQ(back.value().step_hashes, sample().step_hashes);

  crowd.max_active = 1025;
  EXPECT_EQ(parse(sim::encode_recording(crowd)).error(),
            "r.bin: damaged: the activity cap is 1025, outside 0 <= n <= 1024");
}

TEST(Recording, AVersionThreeFileReadsWithEveryEnemyAFullRagdoll) {
  sim::Recording varied = sample();
  varied.vary_seed = 7;
  std::vector<std::uint8_t> bytes = sim::encode_recording(varied);
  bytes[kVersionAt] = 3;
  erase_files(bytes);
  reseal(bytes);
  const auto back = parse(bytes);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back.value().vary_seed, 7u);
  EXPECT_EQ(back.value().max_active, 0);
  EXPECT_TRUE(back.value().clips_path.empty());
  EXPECT_TRUE(back.value().settings_path.empty());
  EXPECT_EQ(back.value().step_hashes, sample().step_hashes);
}

TEST(Recording, AVariedRunRoundTripsWithItsSeed) {
  sim::Recording varied = sample();
  varied.vary_seed = 0xfedcba9876543210ull;
  const auto back = parse(sim::encode_recording(varied));
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back.value().vary_seed, 0xfedcba9876543210ull);
  EXPECT_FALSE(parse(sim::encode_recording(sample())).value().vary_seed);

  std::vector<std::uint8_t> bad_flag = sim::encode_recording(varied);
  bad_flag[kVaryAt] = 2;
  reseal(bad_flag);
  EXPECT_EQ(parse(bad_flag).error(), "r.bin: damaged: the varied flag is 2, not 0 or 1");
}

TEST(Recording, AVersionTwoFileReadsWithoutAVarySeed) {
  std::vector<std::uint8_t> bytes = sim::encode_recording(sample());
  bytes[kVersionAt] = 2;
  erase_vary(bytes);
  reseal(bytes);
  const auto back = parse(bytes);
  ASSERT_TRUE(back) << back.error();
  EXPECT_FALSE(back.value().vary_seed);
  EXPECT_EQ(back.value().input_script, R"({ "events": [] })");
  EXPECT_EQ(back.value().step_hashes, sample().step_hashes);
}

TEST(Recording, AVersionOneFileStillReadsAsACompleteRun) {
  // Written by the version-1 stagger: `sim --seconds 0.2 --record`.
  const auto v1 = sim::read_recording(STAGGER_TEST_DATA "/fuzz_recordings/v1_builtin.stagrec");
  ASSERT_TRUE(v1) << v1.error();
  EXPECT_FALSE(v1.value().incomplete);
  EXPECT_EQ(v1.value().seconds, 0.2);
  EXPECT_EQ(v1.value().physics_hz, 240.0f);
  EXPECT_EQ(v1.value().step_hashes.size(), 48u);
  EXPECT_TRUE(v1.value().level_path.empty());

  // The sample in version 1's layout: no interrupted byte, no vary seed.
  std::vector<std::uint8_t> bytes = sim::encode_recording(sample());
  bytes[kVersionAt] = 1;
  erase_vary(bytes);
  bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(kFlagAt));
  reseal(bytes);
  const auto back = parse(bytes);
  ASSERT_TRUE(back) << back.error();
  EXPECT_FALSE(back.value().incomplete);
  EXPECT_EQ(back.value().level_path, "/levels/yard.json");
  EXPECT_EQ(back.value().step_hashes, sample().step_hashes);
}

TEST(Recording, AnInterruptedRunRoundTripsWithTheStepsItDid) {
  sim::Recording interrupted = sample();
  interrupted.incomplete = true;
  interrupted.step_hashes.resize(20);
  const auto back = parse(sim::encode_recording(interrupted));
  ASSERT_TRUE(back) << back.error();
  EXPECT_TRUE(back.value().incomplete);
  EXPECT_EQ(back.value().step_hashes, interrupted.step_hashes);
  EXPECT_EQ(back.value().seconds, 0.25);

  // An interrupt after the last step keeps them all; none may be past the duration.
  interrupted.step_hashes = sample().step_hashes;
  EXPECT_TRUE(parse(sim::encode_recording(interrupted)));
  interrupted.step_hashes.push_back(7);
  EXPECT_EQ(parse(sim::encode_recording(interrupted)).error(),
            "r.bin: damaged: 51 step hashes for an interrupted run of 0.25 s at 200 Hz, which "
            "takes at most 50 steps");

  // A complete run has exactly its steps.
  sim::Recording short_run = sample();
  short_run.step_hashes.resize(20);
  EXPECT_EQ(
      parse(sim::encode_recording(short_run)).error(),
      "r.bin: damaged: 20 step hashes for a run of 0.25 s at 200 Hz, which takes exactly 50 steps");
  EXPECT_EQ(sim::recorded_steps(3.0, 240.0f), 720u);

  std::vector<std::uint8_t> bad_flag = sim::encode_recording(sample());
  bad_flag[kFlagAt] = 2;
  reseal(bad_flag);
  EXPECT_EQ(parse(bad_flag).error(), "r.bin: damaged: the interrupted flag is 2, not 0 or 1");
}

TEST(Recording, AHugeLengthIsRefusedBeforeAnythingIsAllocated) {
  // Each length is checked against the bytes left before it is taken: a step count of 2^60
  // (8 EiB of hashes) or a 4 GiB string would throw or exhaust memory if it were reserved first.
  std::vector<std::uint8_t> steps = sim::encode_recording(sample());
  put_u64(steps, kStepCountAt, std::uint64_t{1} << 60);
  reseal(steps);
  EXPECT_EQ(parse(steps).error(),
            "r.bin: truncated or damaged: 1152921504606846976 step hashes announced, room for 50");

  std::vector<std::uint8_t> path = sim::encode_recording(sample());
  for (std::size_t i = 0; i < 4; ++i) path[kLevelPathLengthAt + i] = 0xFF;
  reseal(path);
  EXPECT_EQ(parse(path).error(),
            "r.bin: truncated or damaged: the file ends inside the level path (at byte 17)");
}

TEST(Recording, ANumberOutsideTheCommandLinesBoundsIsDamage) {
  const auto refused = [](void (*change)(sim::Recording&)) {
    sim::Recording r = sample();
    change(r);
    const auto parsed = parse(sim::encode_recording(r));
    return parsed ? std::string("accepted") : parsed.error();
  };
  EXPECT_EQ(refused([](sim::Recording& r) { r.physics_hz = 20.0f; }),
            "r.bin: damaged: the physics rate is 20, outside 30 <= Hz <= 2000");
  EXPECT_EQ(
      refused([](sim::Recording& r) { r.physics_hz = std::numeric_limits<float>::quiet_NaN(); }),
      "r.bin: damaged: the physics rate is nan, outside 30 <= Hz <= 2000");
  EXPECT_EQ(refused([](sim::Recording& r) { r.display_hz = 0; }),
            "r.bin: damaged: the display rate is 0, outside 0 < Hz <= 1000");
  EXPECT_EQ(
      refused([](sim::Recording& r) { r.display_hz = std::numeric_limits<double>::infinity(); }),
      "r.bin: damaged: the display rate is inf, outside 0 < Hz <= 1000");
  EXPECT_EQ(refused([](sim::Recording& r) { r.seconds = 1e9; }),
            "r.bin: damaged: the duration is 1e+09, outside 0 < s <= 86400");
  EXPECT_EQ(refused([](sim::Recording& r) { r.seconds = -1; }),
            "r.bin: damaged: the duration is -1, outside 0 < s <= 86400");
  EXPECT_EQ(refused([](sim::Recording& r) { r.solver_iterations = 0; }),
            "r.bin: damaged: the solver iteration count is 0, outside 1 <= n <= 200");
  EXPECT_EQ(refused([](sim::Recording& r) { r.solver_iterations = 6303740; }),
            "r.bin: damaged: the solver iteration count is 6303740, outside 1 <= n <= 200");
  EXPECT_EQ(refused([](sim::Recording& r) { r.builtin_enemies = 1025; }),
            "r.bin: damaged: the enemy count is 1025, outside 1 <= n <= 1024");
  EXPECT_EQ(refused([](sim::Recording& r) { r.builtin_enemies = -1; }),
            "r.bin: damaged: the enemy count is -1, outside 1 <= n <= 1024");
}

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

TEST(Cli, RecordThenReplayReproducesTheRunOrSaysWhereItParts) {
  const auto script = test::temp_path("record_push.json");
  std::ofstream(script)
      << R"({ "events": [ { "t": 0.5, "type": "push", "enemy": "dummy", "body": "chest", "impulse": [30, 0, 0] },
                                            { "t": 1.0, "type": "walk", "enemy": "dummy-2", "velocity": [0, 0, 1] } ] })";
  const auto recording = test::temp_path("run.stagrec");
  const auto rec =
      test::run_stagger("sim --enemies 2 --seconds 3 --quiet --input \"" + script.string() +
                        "\" --record \"" + recording.string() + "\"");
  ASSERT_EQ(rec.exit_code, 0) << rec.err;
  const auto replay = test::run_stagger("replay --quiet \"" + recording.string() + "\"");
  EXPECT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_NE(replay.out.find("720 steps reproduced"), std::string::npos) << replay.out;

  // A divergence: one recorded hash changed (and the checksum made to match).
  auto decoded = sim::read_recording(recording.string());
  ASSERT_TRUE(decoded) << decoded.error();
  sim::Recording changed = decoded.value();
  changed.step_hashes[300] ^= 1;
  const auto diverging = test::temp_path("diverging.stagrec");
  ASSERT_TRUE(sim::write_recording(changed, diverging.string()));
  const auto parted = test::run_stagger("replay --quiet \"" + diverging.string() + "\"");
  EXPECT_EQ(parted.exit_code, 1);
  EXPECT_NE(
      parted.err.find(
          "diverges at step 301 (t = 1.25417 s): the state hash differs from the recorded one"),
      std::string::npos)
      << parted.err;

  // Damage: a truncated file and a flipped byte.
  const std::vector<std::uint8_t> bytes = read_bytes(recording);
  const auto truncated = test::temp_path("truncated.stagrec");
  write_bytes(truncated,
              std::vector<std::uint8_t>(
                  bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 2)));
  const auto cut = test::run_stagger("replay --quiet \"" + truncated.string() + "\"");
  EXPECT_EQ(cut.exit_code, 1);
  EXPECT_NE(cut.err.find("truncated or damaged"), std::string::npos) << cut.err;
  std::vector<std::uint8_t> flipped = bytes;
  flipped[flipped.size() / 3] ^= 0x40;
  const auto tampered = test::temp_path("tampered.stagrec");
  write_bytes(tampered, flipped);
  const auto bad = test::run_stagger("replay --quiet \"" + tampered.string() + "\"");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("damaged or changed: the checksum does not match its contents"),
            std::string::npos)
      << bad.err;
}

TEST(Cli, ReplayOfALevelChecksTheLevelFile) {
  const auto level = test::temp_path("replay_level.json");
  std::filesystem::copy_file(STAGGER_SOURCE_DIR "/levels/data/corridor.json", level,
                             std::filesystem::copy_options::overwrite_existing);
  const auto recording = test::temp_path("level.stagrec");
  ASSERT_EQ(test::run_stagger("sim \"" + level.string() + "\" --seconds 1 --quiet --record \"" +
                              recording.string() + "\"")
                .exit_code,
            0);
  EXPECT_EQ(test::run_stagger("replay --quiet \"" + recording.string() + "\"").exit_code, 0);
  std::ofstream(level, std::ios::app) << "\n";  // the level changes
  const auto changed = test::run_stagger("replay --quiet \"" + recording.string() + "\"");
  EXPECT_EQ(changed.exit_code, 1);
  EXPECT_NE(changed.err.find("changed since the recording"), std::string::npos) << changed.err;
}

TEST(Cli, ARecordingCarriesTheActivityCapAndTheClipLibrary) {
  // The corridor's sentry is light (the player 28 m away), so a kill plays the nearest clip.
  const auto script = test::temp_path("record_clip_kill.json");
  std::ofstream(script) << R"({ "events": [
    { "t": 0, "type": "player", "position": [0, 0, 20] },
    { "t": 2, "type": "kill", "enemy": "sentry", "hit": [0, 0, 100] } ] })";
  const auto clips = test::temp_path("record_clips.stclip");
  std::filesystem::copy_file(STAGGER_TEST_DATA "/fuzz_clips/corridor_2.stclip", clips,
                             std::filesystem::copy_options::overwrite_existing);
  const auto recording = test::temp_path("crowd.stagrec");
  const auto report = test::temp_path("crowd_report.json");
  const auto rec =
      test::run_stagger("sim corridor --seconds 3 --quiet --max-active 1 --clips \"" +
                        clips.string() + "\" --input \"" + script.string() + "\" --record \"" +
                        recording.string() + "\" --report \"" + report.string() + "\"");
  ASSERT_EQ(rec.exit_code, 0) << rec.err;
  const auto seconds =
      nlohmann::json::parse(std::ifstream(report)).at("enemies")[0].at("activity").at("seconds");
  EXPECT_GT(seconds.at("light").get<double>(), 1.5);
  EXPECT_GT(seconds.at("clip").get<double>(), 0.5) << "the kill played a clip";

  const auto decoded = sim::read_recording(recording.string());
  ASSERT_TRUE(decoded) << decoded.error();
  EXPECT_EQ(decoded.value().max_active, 1);
  EXPECT_EQ(decoded.value().clips_path, std::filesystem::absolute(clips).string());
  const auto replay = test::run_stagger("replay --quiet \"" + recording.string() + "\"");
  EXPECT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_NE(replay.out.find("720 steps reproduced"), std::string::npos) << replay.out;

  // Without the cap the same run is another run: the cap is what the replay reproduced.
  sim::Recording uncapped = decoded.value();
  uncapped.max_active = 0;
  const auto other = test::temp_path("uncapped.stagrec");
  ASSERT_TRUE(sim::write_recording(uncapped, other.string()));
  EXPECT_EQ(test::run_stagger("replay --quiet \"" + other.string() + "\"").exit_code, 1);

  std::ofstream(clips, std::ios::app) << "x";  // the library changes
  const auto changed = test::run_stagger("replay --quiet \"" + recording.string() + "\"");
  EXPECT_EQ(changed.exit_code, 1);
  EXPECT_NE(changed.err.find("the clip library " + std::filesystem::absolute(clips).string() +
                             " changed since the recording"),
            std::string::npos)
      << changed.err;
  std::filesystem::remove(clips);
  const auto gone = test::run_stagger("replay --quiet \"" + recording.string() + "\"");
  EXPECT_EQ(gone.exit_code, 1);
  EXPECT_NE(gone.err.find("the recorded clip library"), std::string::npos) << gone.err;
}

}  // namespace
}  // namespace stagger
