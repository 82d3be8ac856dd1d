#pragma once
// Death clips: ragdoll deaths recorded once as keyframed animation, so that an enemy too far away
// to be worth a full ragdoll can still die the way it was hit. A library holds deaths recorded
// from hits in evenly spread directions; a kill picks the clip whose hit direction is nearest and
// plays it turned about the vertical so that its hit lines up with the real one.
//
// Frames. A clip is stored in its root frame: the ground point under the pelvis and the pelvis'
// heading at the moment of death, the ragdoll's own frame (Ragdoll::teleport): +Z forward (yaw 0
// faces +Z), +Y up and +X the body's left. Hit vectors are in that frame and point the way the
// blow pushes: a kill from the enemy's left pushes toward -X.
//
// `.stclip` files (little-endian): the 8-byte magic "STAGCLP\n", u32 version, the rig (height,
// mass, profile, level, seed, the shape of each body part), the clips (each its hit direction,
// impulse, struck part, duration and a track of keys per body part) and last a u64 FNV-1a
// checksum of every byte before it; the layout field by field: docs/design.md, Death clip
// libraries. How the clips are recorded, reduced and chosen, with figures: docs/clips.md.

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stagger/core/math.h"
#include "stagger/core/result.h"
#include "stagger/physics/interpolation.h"
#include "stagger/physics/skeleton.h"
#include "stagger/physics/world.h"

namespace stagger::sim {

struct SceneDescription;

/// [Hz] the rate a death is recorded at, before key reduction.
inline constexpr double kClipRecordHz = 30.0;

/// How far a reduced track may stray from the recording: a key is dropped only while linear
/// interpolation (positions) and slerp (rotations) between the kept keys around it reproduce every
/// recorded frame within both.
struct KeyTolerance {
  float position_m = 0.005f;           ///< [m] a part's centre of mass
  float rotation_rad = deg_to_rad(1);  ///< [rad] a part's orientation
};

/// A body part's place at one time, in the clip's root frame.
struct ClipKey {
  float time_s = 0;  ///< [s] since the death
  Vec3 position;     ///< [m] centre of mass
  Quat rotation;
  bool operator==(const ClipKey&) const = default;
};

/// One recorded death.
struct DeathClip {
  /// The blow's direction in the root frame (unit): the way it pushed the body.
  Vec3 hit_direction{0, 0, 1};
  float impulse_ns = 0;                                   ///< [N·s] the blow's size
  physics::BodyPart hit_part = physics::BodyPart::chest;  ///< where it struck
  float duration_s = 0;                                   ///< [s] from the death to the last key
  bool came_to_rest = false;  ///< it lay still before the recording's time cap
  /// Per body part (physics::BodyPart order), its keys in time order: the first at 0 s, the last
  /// at `duration_s`.
  std::array<std::vector<ClipKey>, physics::kBodyPartCount> tracks;
  bool operator==(const DeathClip&) const = default;

  /// Keys over all tracks.
  std::size_t key_count() const;
  /// The frames a recording at kClipRecordHz of `duration_s` holds, per body part.
  std::size_t recorded_frames() const;
};

/// A body part's velocities [m/s, rad/s], world frame.
struct BodyVelocity {
  Vec3 linear;
  Vec3 angular;
};

using ClipPose = std::array<physics::BodyPose, physics::kBodyPartCount>;

/// The clip at `t_s` [s] (clamped to [0, duration]) played with its root at `feet` [m] turned to
/// `yaw_rad` [rad]: every part's world position and rotation, linear and slerped between keys.
ClipPose sample(const DeathClip& clip, float t_s, Vec3 feet, float yaw_rad);

/// [s] half the span sample_velocities differentiates over.
inline constexpr float kClipVelocityHalfSpanS = 1.0f / 120.0f;

/// The parts' velocities at `t_s` as sample() plays them: the central difference of two samples
/// kClipVelocityHalfSpanS either side (one-sided at the ends), so that a ragdoll taking over
/// from the clip moves on as it was moving.
std::array<BodyVelocity, physics::kBodyPartCount> sample_velocities(const DeathClip& clip,
                                                                    float t_s, Vec3 feet,
                                                                    float yaw_rad);

/// A world vector in the frame of an enemy facing `yaw_rad` [rad] (what nearest() takes).
Vec3 to_enemy_frame(Vec3 world, float yaw_rad);

/// The shape of a body part of the rig the clips were recorded with (for drawing them).
struct ClipPartShape {
  physics::BodySettings::Shape shape = physics::BodySettings::Shape::capsule_y;
  float radius = 0;       ///< [m] capsule or sphere
  float half_length = 0;  ///< [m] half a capsule's cylinder
  Vec3 half_extents;      ///< [m] box
  bool operator==(const ClipPartShape&) const = default;
};

/// What the clips were recorded with.
struct ClipRig {
  float height_m = 1.8f;   ///< [m]
  float mass_kg = 75.0f;   ///< [kg]
  std::string profile;     ///< the level's profile; empty: the default settings
  std::string level;       ///< the level's name
  std::uint64_t seed = 0;  ///< the seed that varied the impulses and the vertical components
  std::array<ClipPartShape, physics::kBodyPartCount> shapes{};
  bool operator==(const ClipRig&) const = default;
};

class DeathClipLibrary {
 public:
  static constexpr std::uint32_t kVersion = 1;  ///< the version written and read
  /// Hit directions whose horizontal angles differ by less than this [rad] are equally near.
  static constexpr float kTieRad = 1e-4f;
  /// A unit hit direction whose horizontal part is shorter than this has no heading (a blow
  /// straight down or up): every clip is then equally near in angle.
  static constexpr float kNoHeading = 1e-6f;

  DeathClipLibrary() = default;
  DeathClipLibrary(ClipRig rig, std::vector<DeathClip> clips)
      : rig_(std::move(rig)), clips_(std::move(clips)) {}

  const ClipRig& rig() const { return rig_; }
  const std::vector<DeathClip>& clips() const { return clips_; }
  bool operator==(const DeathClipLibrary&) const = default;

  struct Choice {
    std::size_t clip = 0;
    /// [rad] the turn about +Y that takes the clip's hit direction onto the requested one: play
    /// the clip at the enemy's yaw plus this.
    float extra_yaw_rad = 0;
  };
  /// The clip for a blow `hit_local` (enemy frame, any length): the one whose horizontal
  /// direction is the smallest angle away, ties broken by the nearer vertical component, then by
  /// the lower index. The library must hold a clip.
  Choice nearest(Vec3 hit_local) const;

  /// The library in the current version's layout.
  std::vector<std::uint8_t> encode() const;
  /// Reads a library from memory: magic, version, every count against its bounds and the bytes
  /// left, the checksum, then every number. Any bytes give a library or a one-sentence error
  /// that starts with `source`; it never allocates more than the input's size.
  static Result<DeathClipLibrary> parse(std::string_view bytes, std::string_view source);
  Result<void> save(const std::string& path) const;
  /// Reads the file, then parse().
  static Result<DeathClipLibrary> load(const std::string& path);

 private:
  ClipRig rig_;
  std::vector<DeathClip> clips_;
};

/// How build_death_clips records.
struct DeathClipBuildSettings {
  int deaths = 16;               ///< spread evenly around the body
  std::uint64_t seed = 1;        ///< varies each blow's size and its vertical component
  float impulse_ns = 150.0f;     ///< [N·s] the mean blow (the knock-down bench's)
  float impulse_spread = 0.25f;  ///< each blow is the mean times 1 ± up to this
  float max_vertical = 0.15f;    ///< the direction's up/down part, before normalising, ± up to
  physics::BodyPart part = physics::BodyPart::chest;  ///< where every blow strikes
  double settle_s = 1.0;                              ///< [s] standing still before the blow
  double max_duration_s = 4.0;                        ///< [s] the recording's cap after the blow
  float rest_speed_mps = 0.1f;                        ///< [m/s] every part slower than this ...
  float rest_spin_radps = 0.5f;  ///< [rad/s] ... and turning slower than this ...
  double rest_hold_s = 0.3;      ///< [s] ... for this long: the body lies still
  KeyTolerance tolerance;
};

/// One death at kClipRecordHz before key reduction.
struct RecordedDeath {
  DeathClip clip;  ///< everything but the tracks
  /// Frame f at time `times[f]` [s]: every part's pose in the root frame.
  std::vector<float> times;
  std::vector<std::array<physics::BodyPose, physics::kBodyPartCount>> frames;
};

/// Called after each death with its number (1-based), the total and the death.
using DeathClipProgress = std::function<void(int done, int total, const RecordedDeath&)>;

/// The first enemy of `level_scene` (its height, mass and profile), or the default body when the
/// scene has none, killed `settings.deaths` times on flat ground: in a world of its own per
/// death, with the level's physics settings. Deterministic: the same scene and settings give the
/// same frames.
std::vector<RecordedDeath> record_deaths(const SceneDescription& level_scene,
                                         const DeathClipBuildSettings& settings,
                                         const DeathClipProgress& progress = {});
/// The rig record_deaths uses for the scene's first enemy.
ClipRig clip_rig(const SceneDescription& level_scene, std::uint64_t seed);

/// A recorded track with keys dropped while interpolation stays within `tolerance` (first and
/// last always kept).
std::vector<ClipKey> reduce_track(const std::vector<float>& times,
                                  const std::vector<physics::BodyPose>& frames,
                                  const KeyTolerance& tolerance);
/// The clip of a recorded death, its tracks reduced.
DeathClip reduce(const RecordedDeath& death, const KeyTolerance& tolerance);

/// record_deaths, then every death reduced, with clip_rig's metadata.
DeathClipLibrary build_death_clips(const SceneDescription& level_scene,
                                   const DeathClipBuildSettings& settings,
                                   const DeathClipProgress& progress = {});

}  // namespace stagger::sim
