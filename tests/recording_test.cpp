// Recordings (issue 6): the binary round-trips, damage of any kind is caught before anything is
// simulated, and `stagger replay` reproduces a run or names the step where it diverges.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "process.h"
#include "stagger/sim/recording.h"

namespace stagger {
namespace {

sim::Recording sample() {
  sim::Recording r;
  r.level_path = "/levels/yard.json";
  r.level_hash = 0x1234567890abcdefull;
  r.builtin_enemies = 3;
  r.physics_hz = 240.0f;
  r.solver_iterations = 10;
  r.display_hz = 72.0;
  r.seconds = 2.5;
  r.input_name = "push.json";
  r.input_script = R"({ "events": [] })";
  for (std::uint64_t i = 0; i < 50; ++i) r.step_hashes.push_back(i * 0x9E3779B97F4A7C15ull);
  return r;
}

TEST(Recording, RoundTrips) {
  const auto bytes = sim::encode_recording(sample());
  const auto back = sim::decode_recording(bytes, "r.bin");
  ASSERT_TRUE(back) << back.error();
  const sim::Recording& r = back.value();
  EXPECT_EQ(r.level_path, "/levels/yard.json");
  EXPECT_EQ(r.level_hash, 0x1234567890abcdefull);
  EXPECT_EQ(r.builtin_enemies, 3);
  EXPECT_EQ(r.physics_hz, 240.0f);
  EXPECT_EQ(r.solver_iterations, 10);
  EXPECT_EQ(r.display_hz, 72.0);
  EXPECT_EQ(r.seconds, 2.5);
  EXPECT_EQ(r.input_name, "push.json");
  EXPECT_EQ(r.input_script, R"({ "events": [] })");
  EXPECT_EQ(r.step_hashes, sample().step_hashes);
  EXPECT_EQ(bytes.size(), 8u + 4 + (4 + 17) + 8 + 4 + 4 + 4 + 8 + 8 + (4 + 9) + (4 + 16) + 8 + 50 * 8 + 8);
}

TEST(Recording, EveryTruncationAndEveryFlippedByteIsRejected) {
  const auto bytes = sim::encode_recording(sample());
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size));
    const auto r = sim::decode_recording(cut, "r.bin");
    EXPECT_FALSE(r) << "cut to " << size << " bytes";
  }
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    std::vector<std::uint8_t> flipped = bytes;
    flipped[at] ^= 0x10;
    EXPECT_FALSE(sim::decode_recording(flipped, "r.bin")) << "byte " << at << " flipped";
  }
  std::vector<std::uint8_t> wrong_magic = bytes;
  wrong_magic[0] = 'X';
  EXPECT_EQ(sim::decode_recording(wrong_magic, "r.bin").error(), "r.bin: not a stagger recording (it does not start with \"STAGREC\")");
  std::vector<std::uint8_t> newer = bytes;
  newer[8] = 2;
  EXPECT_EQ(sim::decode_recording(newer, "r.bin").error(), "r.bin: recording version 2 is not supported (this stagger reads version 1)");
  const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + 45);  // the last 8 read as the checksum
  EXPECT_EQ(sim::decode_recording(cut, "r.bin").error(), "r.bin: truncated or damaged: the file ends inside the level hash (at byte 33)");
  std::vector<std::uint8_t> flipped = bytes;
  flipped[200] ^= 1;
  EXPECT_EQ(sim::decode_recording(flipped, "r.bin").error(), "r.bin: damaged or changed: the checksum does not match its contents");
}

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

TEST(Cli, RecordThenReplayReproducesTheRunOrSaysWhereItParts) {
  const auto script = test::temp_path("record_push.json");
  std::ofstream(script) << R"({ "events": [ { "t": 0.5, "type": "push", "enemy": "dummy", "body": "chest", "impulse": [30, 0, 0] },
                                            { "t": 1.0, "type": "walk", "enemy": "dummy-2", "velocity": [0, 0, 1] } ] })";
  const auto recording = test::temp_path("run.stagrec");
  const auto rec = test::run_stagger("sim --enemies 2 --seconds 3 --quiet --input \"" + script.string() + "\" --record \"" +
                                     recording.string() + "\"");
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
  EXPECT_NE(parted.err.find("diverges at step 301 (t = 1.25417 s): the state hash differs from the recorded one"),
            std::string::npos) << parted.err;

  // Damage: a truncated file and a flipped byte.
  const std::vector<std::uint8_t> bytes = read_bytes(recording);
  const auto truncated = test::temp_path("truncated.stagrec");
  write_bytes(truncated, std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 2)));
  const auto cut = test::run_stagger("replay --quiet \"" + truncated.string() + "\"");
  EXPECT_EQ(cut.exit_code, 1);
  EXPECT_NE(cut.err.find("truncated or damaged"), std::string::npos) << cut.err;
  std::vector<std::uint8_t> flipped = bytes;
  flipped[flipped.size() / 3] ^= 0x40;
  const auto tampered = test::temp_path("tampered.stagrec");
  write_bytes(tampered, flipped);
  const auto bad = test::run_stagger("replay --quiet \"" + tampered.string() + "\"");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("damaged or changed: the checksum does not match its contents"), std::string::npos) << bad.err;
}

TEST(Cli, ReplayOfALevelChecksTheLevelFile) {
  const auto level = test::temp_path("replay_level.json");
  std::filesystem::copy_file(STAGGER_SOURCE_DIR "/levels/data/corridor.json", level,
                             std::filesystem::copy_options::overwrite_existing);
  const auto recording = test::temp_path("level.stagrec");
  ASSERT_EQ(test::run_stagger("sim \"" + level.string() + "\" --seconds 1 --quiet --record \"" + recording.string() + "\"").exit_code, 0);
  EXPECT_EQ(test::run_stagger("replay --quiet \"" + recording.string() + "\"").exit_code, 0);
  std::ofstream(level, std::ios::app) << "\n";  // the level changes
  const auto changed = test::run_stagger("replay --quiet \"" + recording.string() + "\"");
  EXPECT_EQ(changed.exit_code, 1);
  EXPECT_NE(changed.err.find("changed since the recording"), std::string::npos) << changed.err;
}

}  // namespace
}  // namespace stagger
