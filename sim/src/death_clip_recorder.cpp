// Recording death clips: one ragdoll per death, standing on flat ground in a world of its own,
// struck and killed, then recorded at kClipRecordHz until it lies still.
//
// Flat ground rather than the level: a clip is played wherever an enemy dies, so it must not
// carry the walls, steps or neighbours of the one place it was recorded (a body that slumped
// against a wall there would lean on air elsewhere), and a private world needs no free space
// found in the level and steps no one else's bodies.

#include <algorithm>
#include <cmath>

#include "stagger/core/random.h"
#include "stagger/physics/ragdoll.h"
#include "stagger/sim/death_clips.h"
#include "stagger/sim/scene.h"

namespace stagger::sim {

namespace {

using physics::BodyPose;
using physics::kBodyPartCount;

constexpr float kGroundHalfM = 50.0f;      ///< [m] the flat ground's half size
constexpr float kGroundHalfThickM = 0.5f;  ///< [m]
constexpr float kGroundFriction = 0.9f;    ///< as the built-in scene's ground

// The frame a clip is stored in: the ground under the pelvis, the pelvis' heading.
struct Root {
  Vec3 feet;
  Quat turn;
};

Root root_of(const physics::Ragdoll& body) {
  const Vec3 pelvis = body.body_state(physics::BodyPart::pelvis).position;
  return {{pelvis.x, 0.0f, pelvis.z}, Quat::from_yaw(body.rig().pelvis_yaw())};
}

using Frame = std::array<BodyPose, kBodyPartCount>;

// Every part in the root frame, each rotation on the side of the quaternion double cover nearest
// the frame before (so that keys interpolate the short way in any player, glTF's included).
Frame frame_of(const physics::Ragdoll& body, const Root& root, const Frame* before) {
  const Quat back = root.turn.conjugate();
  Frame frame{};
  for (int p = 0; p < kBodyPartCount; ++p) {
    const physics::BodyState s = body.body_state(physics::body_part_at(p));
    Quat q = back * s.rotation;
    const std::size_t i = static_cast<std::size_t>(p);
    if (before && dot(q, (*before)[i].rotation) < 0) q = {-q.w, -q.x, -q.y, -q.z};
    frame[i] = {back.rotate(s.position - root.feet), q};
  }
  return frame;
}

// Whether every part moves and turns slower than the rest thresholds.
bool lies_still(const physics::Ragdoll& body, const DeathClipBuildSettings& s) {
  for (int p = 0; p < kBodyPartCount; ++p) {
    const physics::BodyState b = body.body_state(physics::body_part_at(p));
    if (length(b.linear_velocity) >= s.rest_speed_mps ||
        length(b.angular_velocity) >= s.rest_spin_radps)
      return false;
  }
  return true;
}

// The blow of death `index`: its direction evenly spread around the body (index 0 pushes
// forward, along +Z; then counter-clockwise seen from above, toward +X), its size and its up or
// down part varied by the seed.
void plan_blow(const DeathClipBuildSettings& s, int index, DeathClip& clip) {
  SplitMix64 random(splitmix64(s.seed) ^ static_cast<std::uint64_t>(index));
  const float heading = 2.0f * kPi * static_cast<float>(index) / static_cast<float>(s.deaths);
  const float vertical = s.max_vertical * random.symmetric();
  clip.hit_direction = normalized(Vec3{std::sin(heading), vertical, std::cos(heading)});
  clip.impulse_ns = s.impulse_ns * (1.0f + s.impulse_spread * random.symmetric());
  clip.hit_part = s.part;
}

RecordedDeath record_death(const SceneDescription& scene, const physics::RagdollSettings& body,
                           const DeathClipBuildSettings& s, int index) {
  RecordedDeath death;
  plan_blow(s, index, death.clip);
  physics::World world(scene.world);
  world.add_static_box({{0, -kGroundHalfThickM, 0},
                        {kGroundHalfM, kGroundHalfThickM, kGroundHalfM},
                        {},
                        kGroundFriction});
  physics::Ragdoll& ragdoll = world.add_ragdoll(body, {0, scene.spawn_height_m, 0}, 0.0f);
  const double hz = static_cast<double>(world.settings().physics_hz);
  for (long i = std::lround(s.settle_s * hz); i > 0; --i) world.step();

  const Root root = root_of(ragdoll);
  ragdoll.apply_impulse(s.part, root.turn.rotate(death.clip.hit_direction) * death.clip.impulse_ns);
  ragdoll.kill();
  const long every = std::max(1L, std::lround(hz / kClipRecordHz));
  const long last = std::lround(s.max_duration_s * hz);
  const float dt = world.dt();
  death.times.push_back(0.0f);
  death.frames.push_back(frame_of(ragdoll, root, nullptr));
  double still_s = 0;  // [s] lying still so far
  for (long step = 1; step <= last; ++step) {
    world.step();
    still_s = lies_still(ragdoll, s) ? still_s + static_cast<double>(dt) : 0.0;
    if (step % every != 0 && step != last) continue;
    death.times.push_back(static_cast<float>(static_cast<double>(step) * static_cast<double>(dt)));
    death.frames.push_back(frame_of(ragdoll, root, &death.frames.back()));
    if (still_s >= s.rest_hold_s) {
      death.clip.came_to_rest = true;
      break;
    }
  }
  death.clip.duration_s = death.times.back();
  return death;
}

levels::EnemySpawn first_enemy(const SceneDescription& scene) {
  return scene.enemies.empty() ? levels::EnemySpawn{} : scene.enemies.front();
}

// The angle [rad] between two rotations, accurate for small ones (acos near 1 is not).
float rotation_gap(Quat a, Quat b) {
  const Quat d = a.conjugate() * b;
  return 2.0f * std::asin(std::min(1.0f, length(Vec3{d.x, d.y, d.z})));
}

// Whether the segment from frame `a` to frame `b` reproduces every frame between them.
bool segment_fits(const std::vector<float>& times, const std::vector<BodyPose>& frames,
                  std::size_t a, std::size_t b, const KeyTolerance& tolerance) {
  const ClipKey from{times[a], frames[a].position, frames[a].rotation};
  const ClipKey to{times[b], frames[b].position, frames[b].rotation};
  for (std::size_t i = a + 1; i < b; ++i) {
    const float u = (times[i] - from.time_s) / (to.time_s - from.time_s);
    const Vec3 p = lerp(from.position, to.position, u);
    const Quat q = slerp(from.rotation, to.rotation, u);
    if (length(p - frames[i].position) > tolerance.position_m ||
        rotation_gap(q, frames[i].rotation) > tolerance.rotation_rad)
      return false;
  }
  return true;
}

}  // namespace

ClipRig clip_rig(const SceneDescription& level_scene, std::uint64_t seed) {
  const levels::EnemySpawn spawn = first_enemy(level_scene);
  const physics::RagdollSettings body = settings_of(level_scene, spawn).ragdoll;
  const physics::RagdollBlueprint blueprint = physics::make_blueprint(body);
  ClipRig rig;
  rig.height_m = body.height_m;
  rig.mass_kg = body.mass_kg;
  rig.profile = spawn.profile;
  rig.level = level_scene.name;
  rig.seed = seed;
  for (std::size_t i = 0; i < rig.shapes.size(); ++i) {
    const physics::BodyBlueprint& b = blueprint.bodies[i];
    rig.shapes[i] = {b.shape, b.radius, b.half_length, b.half_extents};
  }
  return rig;
}

std::vector<RecordedDeath> record_deaths(const SceneDescription& level_scene,
                                         const DeathClipBuildSettings& settings,
                                         const DeathClipProgress& progress) {
  const physics::RagdollSettings body = settings_of(level_scene, first_enemy(level_scene)).ragdoll;
  std::vector<RecordedDeath> deaths;
  for (int i = 0; i < settings.deaths; ++i) {
    deaths.push_back(record_death(level_scene, body, settings, i));
    if (progress) progress(i + 1, settings.deaths, deaths.back());
  }
  return deaths;
}

std::vector<ClipKey> reduce_track(const std::vector<float>& times,
                                  const std::vector<BodyPose>& frames,
                                  const KeyTolerance& tolerance) {
  STAGGER_ASSERT(!times.empty() && times.size() == frames.size());
  const auto key = [&](std::size_t i) {
    return ClipKey{times[i], frames[i].position, frames[i].rotation};
  };
  std::vector<ClipKey> keys{key(0)};
  // Greedy: the segment from the last kept key grows until it misses a frame; the frame before
  // the one that broke it is kept and starts the next segment.
  std::size_t anchor = 0;
  for (std::size_t end = 2; end < times.size(); ++end) {
    if (segment_fits(times, frames, anchor, end, tolerance)) continue;
    anchor = end - 1;
    keys.push_back(key(anchor));
  }
  if (times.size() > 1) keys.push_back(key(times.size() - 1));
  return keys;
}

DeathClip reduce(const RecordedDeath& death, const KeyTolerance& tolerance) {
  DeathClip clip = death.clip;
  std::vector<BodyPose> track(death.frames.size());
  for (std::size_t p = 0; p < clip.tracks.size(); ++p) {
    for (std::size_t f = 0; f < death.frames.size(); ++f) track[f] = death.frames[f][p];
    clip.tracks[p] = reduce_track(death.times, track, tolerance);
  }
  return clip;
}

DeathClipLibrary build_death_clips(const SceneDescription& level_scene,
                                   const DeathClipBuildSettings& settings,
                                   const DeathClipProgress& progress) {
  std::vector<DeathClip> clips;
  for (const RecordedDeath& death : record_deaths(level_scene, settings, progress))
    clips.push_back(reduce(death, settings.tolerance));
  return DeathClipLibrary(clip_rig(level_scene, settings.seed), std::move(clips));
}

}  // namespace stagger::sim
