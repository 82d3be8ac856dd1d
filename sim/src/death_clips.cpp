#include "stagger/sim/death_clips.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "byte_io.h"
#include "stagger/core/limits.h"
#include "stagger/levels/level.h"
#include "stagger/sim/recording.h"

namespace stagger::sim {

namespace {

using byte_io::little_endian_u64;
using byte_io::Reader;
using byte_io::Writer;
using physics::BodyPose;
using physics::kBodyPartCount;

constexpr char kMagic[8] = {'S', 'T', 'A', 'G', 'C', 'L', 'P', '\n'};
constexpr std::size_t kChecksumBytes = 8;
/// A key on file: time, position (3) and rotation (4), all f32.
constexpr std::size_t kKeyBytes = 8 * 4;

// What a library made by `stagger clips build` can hold; beyond these a file is damaged (or
// hostile), and nothing is allocated for it.
constexpr std::uint32_t kMaxClips = 1024;
constexpr std::uint32_t kMaxKeysPerTrack = 4096;
constexpr double kMaxFileBytes = 64.0 * 1024 * 1024;  ///< [bytes] not read beyond this
constexpr float kMaxClipDurationS = 60.0f;            ///< [s]
constexpr float kMaxImpulseNs = 10000.0f;             ///< [N·s]
constexpr float kMaxClipReachM = 100.0f;  ///< [m] a part's distance from the root, at most
constexpr float kMaxShapeM = 10.0f;       ///< [m] a part's radius, half length, half extent
/// How far from unit length a stored direction or rotation may be (float rounding, no more).
constexpr float kUnitTolerance = 1e-3f;

// The key pair around `t` interpolated: positions linearly, rotations by slerp.
BodyPose between(const ClipKey& a, const ClipKey& b, float t) {
  const float u = (t - a.time_s) / (b.time_s - a.time_s);
  return {lerp(a.position, b.position, u), slerp(a.rotation, b.rotation, u)};
}

// The track's pose at `t`, clamped to its ends.
BodyPose track_at(const std::vector<ClipKey>& keys, float t) {
  if (t <= keys.front().time_s) return {keys.front().position, keys.front().rotation};
  if (t >= keys.back().time_s) return {keys.back().position, keys.back().rotation};
  const auto after = std::upper_bound(keys.begin(), keys.end(), t,
                                      [](float time, const ClipKey& k) { return time < k.time_s; });
  return between(*(after - 1), *after, t);
}

BodyPose from_root(const BodyPose& local, Vec3 feet, Quat turn) {
  return {feet + turn.rotate(local.position), turn * local.rotation};
}

// [rad] the turn about +Y, within ±π, that takes the heading of `from` onto that of `to`.
float heading_gap(Vec3 from, Vec3 to) {
  return wrap_angle(yaw_of(to) - yaw_of(from));
}

}  // namespace

std::size_t DeathClip::key_count() const {
  std::size_t keys = 0;
  for (const auto& track : tracks) keys += track.size();
  return keys;
}

std::size_t DeathClip::recorded_frames() const {
  return static_cast<std::size_t>(std::llround(static_cast<double>(duration_s) * kClipRecordHz)) +
         1;
}

ClipPose sample(const DeathClip& clip, float t_s, Vec3 feet, float yaw_rad) {
  const Quat turn = Quat::from_yaw(yaw_rad);
  ClipPose pose{};
  for (std::size_t i = 0; i < pose.size(); ++i)
    pose[i] = from_root(track_at(clip.tracks[i], t_s), feet, turn);
  return pose;
}

std::array<BodyVelocity, kBodyPartCount> sample_velocities(const DeathClip& clip, float t_s,
                                                           Vec3 feet, float yaw_rad) {
  const float t0 = std::clamp(t_s - kClipVelocityHalfSpanS, 0.0f, clip.duration_s);
  const float t1 = std::clamp(t_s + kClipVelocityHalfSpanS, 0.0f, clip.duration_s);
  std::array<BodyVelocity, kBodyPartCount> velocities{};
  if (t1 <= t0) return velocities;  // a clip of one instant: at rest
  const ClipPose a = sample(clip, t0, feet, yaw_rad);
  const ClipPose b = sample(clip, t1, feet, yaw_rad);
  const float dt = t1 - t0;
  for (std::size_t i = 0; i < velocities.size(); ++i) {
    velocities[i].linear = (b[i].position - a[i].position) / dt;
    velocities[i].angular = rotation_vector(b[i].rotation * a[i].rotation.conjugate()) / dt;
  }
  return velocities;
}

Vec3 to_enemy_frame(Vec3 world, float yaw_rad) {
  return Quat::from_yaw(yaw_rad).conjugate().rotate(world);
}

DeathClipLibrary::Choice DeathClipLibrary::nearest(Vec3 hit_local) const {
  STAGGER_ASSERT(!clips_.empty());
  const Vec3 wanted = normalized(hit_local);
  const bool heading = length(horizontal(wanted)) >= kNoHeading;
  Choice best;
  float best_gap = 0;
  float best_vertical = 0;
  for (std::size_t i = 0; i < clips_.size(); ++i) {
    const Vec3 have = clips_[i].hit_direction;
    const float gap =
        heading && length(horizontal(have)) >= kNoHeading ? heading_gap(have, wanted) : 0.0f;
    const float vertical = std::fabs(have.y - wanted.y);
    const bool nearer =
        i == 0 || std::fabs(gap) < std::fabs(best_gap) - kTieRad ||
        (std::fabs(gap) <= std::fabs(best_gap) + kTieRad && vertical < best_vertical);
    if (!nearer) continue;
    best = {i, gap};
    best_gap = gap;
    best_vertical = vertical;
  }
  return best;
}

// --- The file ---

namespace {

void write_shape(Writer& w, const ClipPartShape& s) {
  w.u8(static_cast<std::uint8_t>(s.shape));
  w.f32(s.radius);
  w.f32(s.half_length);
  w.f32(s.half_extents.x);
  w.f32(s.half_extents.y);
  w.f32(s.half_extents.z);
}

void write_vec(Writer& w, Vec3 v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}

void write_clip(Writer& w, const DeathClip& c) {
  write_vec(w, c.hit_direction);
  w.f32(c.impulse_ns);
  w.u8(static_cast<std::uint8_t>(c.hit_part));
  w.u8(c.came_to_rest ? 1 : 0);
  w.f32(c.duration_s);
  for (const auto& track : c.tracks) {
    w.u32(static_cast<std::uint32_t>(track.size()));
    for (const ClipKey& k : track) {
      w.f32(k.time_s);
      write_vec(w, k.position);
      w.f32(k.rotation.w);
      w.f32(k.rotation.x);
      w.f32(k.rotation.y);
      w.f32(k.rotation.z);
    }
  }
}

Vec3 read_vec(Reader& in, const char* field) {
  const float x = in.f32(field);
  const float y = in.f32(field);
  return {x, y, in.f32(field)};
}

// A count of `noun` (`keys`) within [1, max] that has `item_bytes` a piece in the bytes left;
// else the error, `where` (" in clip 3, part head") after the noun.
std::optional<std::string> check_count(const Reader& in, std::uint64_t count, std::uint64_t max,
                                       std::size_t item_bytes, const std::string& noun,
                                       const std::string& where, std::string_view source) {
  if (count < 1 || count > max) {
    return std::string(source) + ": damaged: " + std::to_string(count) + " " + noun + where +
           ", outside 1 <= n <= " + std::to_string(max);
  }
  if (count * item_bytes > in.left()) {
    return std::string(source) + ": truncated or damaged: " + std::to_string(count) + " " + noun +
           where + " announced at byte " + std::to_string(in.at()) + ", room for " +
           std::to_string(in.left() / item_bytes);
  }
  return std::nullopt;
}

// A float in a message.
std::string text(float value) {
  return limits::number_text(static_cast<double>(value));
}

std::optional<std::string> read_rig(Reader& in, ClipRig& rig,
                                    std::uint8_t (&shapes)[kBodyPartCount],
                                    std::string_view source) {
  rig.height_m = in.f32("the height");
  rig.mass_kg = in.f32("the mass");
  rig.profile = in.text("the profile");
  rig.level = in.text("the level's name");
  rig.seed = in.u(8, "the seed");
  const std::uint64_t parts = in.u(4, "the body part count");
  if (!in.ok()) return in.error();
  if (parts != static_cast<std::uint64_t>(kBodyPartCount)) {
    return std::string(source) + ": damaged: " + std::to_string(parts) +
           " body parts, where the rig has " + std::to_string(kBodyPartCount);
  }
  for (int i = 0; i < kBodyPartCount; ++i) {
    ClipPartShape& s = rig.shapes[static_cast<std::size_t>(i)];
    shapes[i] = static_cast<std::uint8_t>(in.u(1, "a body part's shape"));
    s.radius = in.f32("a body part's shape");
    s.half_length = in.f32("a body part's shape");
    s.half_extents = read_vec(in, "a body part's shape");
  }
  return in.ok() ? std::nullopt : std::optional<std::string>(in.error());
}

// One clip's fields and keys; `flags` keeps the struck part and the rest flag as read, for the
// checks after the checksum.
std::optional<std::string> read_clip(Reader& in, DeathClip& c, std::uint8_t (&flags)[2],
                                     std::size_t index, std::string_view source) {
  const std::string clip = "clip " + std::to_string(index + 1);
  in.set_context(" of " + clip);
  c.hit_direction = read_vec(in, "the hit direction");
  c.impulse_ns = in.f32("the impulse");
  flags[0] = static_cast<std::uint8_t>(in.u(1, "the struck part"));
  flags[1] = static_cast<std::uint8_t>(in.u(1, "the rest flag"));
  c.duration_s = in.f32("the duration");
  for (int p = 0; p < kBodyPartCount; ++p) {
    const std::string part = std::string(physics::name_of(physics::body_part_at(p)));
    in.set_context(" of " + clip + ", part " + part);
    const std::uint64_t count = in.u(4, "the key count");
    if (!in.ok()) return in.error();
    if (auto e = check_count(in, count, kMaxKeysPerTrack, kKeyBytes, "keys",
                             " in " + clip + ", part " + part, source))
      return e;
    auto& track = c.tracks[static_cast<std::size_t>(p)];
    track.resize(static_cast<std::size_t>(count));
    for (ClipKey& k : track) {
      k.time_s = in.f32("the keys");
      k.position = read_vec(in, "the keys");
      const float w = in.f32("the keys");
      k.rotation = {w, in.f32("the keys"), in.f32("the keys"), in.f32("the keys")};
    }
  }
  in.set_context("");
  return in.ok() ? std::nullopt : std::optional<std::string>(in.error());
}

bool finite(float v) {
  return std::isfinite(v);
}

bool unit(float length_squared) {
  return std::fabs(std::sqrt(length_squared) - 1.0f) <= kUnitTolerance;
}

std::optional<std::string> check_rig(const ClipRig& rig,
                                     const std::uint8_t (&shapes)[kBodyPartCount],
                                     const std::string& name) {
  if (!(rig.height_m >= levels::kMinEnemyHeightM && rig.height_m <= levels::kMaxEnemyHeightM) ||
      !(rig.mass_kg >= levels::kMinEnemyMassKg && rig.mass_kg <= levels::kMaxEnemyMassKg)) {
    return name + ": damaged: the rig's height " + text(rig.height_m) + " m or mass " +
           text(rig.mass_kg) + " kg is outside an enemy's range";
  }
  for (int i = 0; i < kBodyPartCount; ++i) {
    const ClipPartShape& s = rig.shapes[static_cast<std::size_t>(i)];
    const bool sizes = s.radius >= 0 && s.radius <= kMaxShapeM && s.half_length >= 0 &&
                       s.half_length <= kMaxShapeM && s.half_extents.x >= 0 &&
                       s.half_extents.x <= kMaxShapeM && s.half_extents.y >= 0 &&
                       s.half_extents.y <= kMaxShapeM && s.half_extents.z >= 0 &&
                       s.half_extents.z <= kMaxShapeM;
    if (shapes[i] > static_cast<std::uint8_t>(physics::BodySettings::Shape::sphere) || !sizes) {
      return name + ": damaged: the shape of part " +
             std::string(physics::name_of(physics::body_part_at(i))) + " is not a body's shape";
    }
  }
  return std::nullopt;
}

std::optional<std::string> check_track(const std::vector<ClipKey>& track, float duration,
                                       const std::string& where) {
  if (track.front().time_s != 0.0f || track.back().time_s != duration) {
    return where + " does not run from 0 s to the clip's duration";
  }
  for (std::size_t k = 0; k < track.size(); ++k) {
    const ClipKey& key = track[k];
    if (k > 0 && !(key.time_s > track[k - 1].time_s))
      return where + ": key " + std::to_string(k + 1) + " is not after the key before it";
    if (!is_finite(key.position) || length(key.position) > kMaxClipReachM)
      return where + ": key " + std::to_string(k + 1) + " is not a position within " +
             text(kMaxClipReachM) + " m of the root";
    if (!is_finite(key.rotation) || !unit(dot(key.rotation, key.rotation)))
      return where + ": key " + std::to_string(k + 1) + " is not a unit rotation";
  }
  return std::nullopt;
}

std::optional<std::string> check_clip(const DeathClip& c, const std::uint8_t (&flags)[2],
                                      std::size_t index, const std::string& name) {
  const std::string clip = name + ": damaged: clip " + std::to_string(index + 1);
  if (!is_finite(c.hit_direction) || !unit(dot(c.hit_direction, c.hit_direction)))
    return clip + ": the hit direction is not a unit vector";
  if (!finite(c.impulse_ns) || c.impulse_ns < 0 || c.impulse_ns > kMaxImpulseNs)
    return clip + ": the impulse " + text(c.impulse_ns) + " N·s is outside 0 to " +
           text(kMaxImpulseNs);
  if (flags[0] >= kBodyPartCount)
    return clip + ": the struck part " + std::to_string(flags[0]) + " is no body part";
  if (flags[1] > 1) return clip + ": the rest flag is " + std::to_string(flags[1]) + ", not 0 or 1";
  if (!finite(c.duration_s) || c.duration_s < 0 || c.duration_s > kMaxClipDurationS)
    return clip + ": the duration " + text(c.duration_s) + " s is outside 0 to " +
           text(kMaxClipDurationS);
  for (int p = 0; p < kBodyPartCount; ++p) {
    const std::string where =
        clip + ": the track of " + std::string(physics::name_of(physics::body_part_at(p)));
    if (auto e = check_track(c.tracks[static_cast<std::size_t>(p)], c.duration_s, where)) return e;
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::uint8_t> DeathClipLibrary::encode() const {
  Writer w;
  w.bytes(kMagic, sizeof(kMagic));
  w.u32(kVersion);
  w.f32(rig_.height_m);
  w.f32(rig_.mass_kg);
  w.text(rig_.profile);
  w.text(rig_.level);
  w.u64(rig_.seed);
  w.u32(static_cast<std::uint32_t>(kBodyPartCount));
  for (const ClipPartShape& s : rig_.shapes) write_shape(w, s);
  w.u32(static_cast<std::uint32_t>(clips_.size()));
  for (const DeathClip& c : clips_) write_clip(w, c);
  w.u64(fnv1a_64(w.out().data(), w.out().size()));
  return std::move(w.out());
}

Result<DeathClipLibrary> DeathClipLibrary::parse(std::string_view bytes, std::string_view source) {
  const std::string name(source);
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return Error{name + ": not a stagger clip library (it does not start with \"STAGCLP\")"};
  const std::size_t body_end = bytes.size() >= kChecksumBytes ? bytes.size() - kChecksumBytes : 0;
  if (body_end < sizeof(kMagic)) {
    return Error{name + ": truncated or damaged: " + std::to_string(bytes.size()) +
                 " bytes, too few for a clip library"};
  }
  Reader in(bytes, body_end, source);
  in.u(sizeof(kMagic), "the magic");
  const auto version = static_cast<std::uint32_t>(in.u(4, "the version"));
  if (in.ok() && version != kVersion) {
    return Error{name + ": clip library version " + std::to_string(version) +
                 " is not supported (this stagger reads version " + std::to_string(kVersion) + ")"};
  }
  ClipRig rig;
  std::uint8_t shapes[kBodyPartCount] = {};
  if (auto e = read_rig(in, rig, shapes, source)) return Error{*e};
  const std::uint64_t count = in.u(4, "the clip count");
  if (!in.ok()) return Error{in.error()};
  // The smallest clip: its fields and one key per part.
  constexpr std::size_t kSmallestClip = 3 * 4 + 4 + 2 + 4 + kBodyPartCount * (4 + kKeyBytes);
  if (auto e = check_count(in, count, kMaxClips, kSmallestClip, "clips", "", source))
    return Error{*e};
  std::vector<DeathClip> clips(static_cast<std::size_t>(count));
  std::vector<std::array<std::uint8_t, 2>> flags(clips.size());
  for (std::size_t i = 0; i < clips.size(); ++i) {
    std::uint8_t read[2] = {};
    if (auto e = read_clip(in, clips[i], read, i, source)) return Error{*e};
    flags[i] = {read[0], read[1]};
  }
  if (in.left() != 0) {
    return Error{name + ": damaged: " + std::to_string(in.left()) + " bytes follow the last clip"};
  }
  if (little_endian_u64(bytes, body_end) != fnv1a_64(bytes.data(), body_end))
    return Error{name + ": damaged or changed: the checksum does not match its contents"};
  // The checksum says the bytes are as written; what follows says what was written makes sense.
  if (auto e = check_rig(rig, shapes, name)) return Error{*e};
  for (int i = 0; i < kBodyPartCount; ++i)
    rig.shapes[static_cast<std::size_t>(i)].shape =
        static_cast<physics::BodySettings::Shape>(shapes[i]);
  for (std::size_t i = 0; i < clips.size(); ++i) {
    const std::uint8_t read[2] = {flags[i][0], flags[i][1]};
    if (auto e = check_clip(clips[i], read, i, name)) return Error{*e};
    clips[i].hit_part = physics::body_part_at(read[0]);
    clips[i].came_to_rest = read[1] == 1;
  }
  return DeathClipLibrary(std::move(rig), std::move(clips));
}

Result<void> DeathClipLibrary::save(const std::string& path) const {
  const std::vector<std::uint8_t> bytes = encode();
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) return Error{path + ": cannot write the clip library"};
  return {};
}

Result<DeathClipLibrary> DeathClipLibrary::load(const std::string& path) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  if (error) return Error{path + ": cannot open the clip library"};
  if (static_cast<double>(size) > kMaxFileBytes) {
    return Error{path + ": " + std::to_string(size) + " bytes, more than a clip library holds (" +
                 limits::number_text(kMaxFileBytes) + ")"};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open the clip library"};
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return Error{path + ": cannot read the clip library"};
  return parse(bytes.str(), path);
}

}  // namespace stagger::sim
