#include "stagger/physics/walk_cycle.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "stagger/physics/ragdoll.h"

namespace stagger::physics {

namespace {

constexpr float kStandS = 1.5f;        // [s] standing still before setting off
constexpr float kMaxWalkS = 10.0f;     // [s] the longest walk before giving up on a cycle
constexpr int kWarmUpSteps = 4;        // steps before the recorded cycle: the gait has settled
constexpr float kGroundHalfM = 50.0f;  // [m] half the private floor's width

// Every part's world state now.
std::array<BodyState, kBodyPartCount> parts_of(const Ragdoll& body) {
  std::array<BodyState, kBodyPartCount> parts{};
  for (int p = 0; p < kBodyPartCount; ++p)
    parts[static_cast<std::size_t>(p)] = body.body_state(static_cast<BodyPart>(p));
  return parts;
}

// `parts` seen from `root` facing `yaw_rad`.
BodyPoses to_local(const std::array<BodyState, kBodyPartCount>& parts, Vec3 root, float yaw_rad) {
  const Quat unturn = Quat::from_yaw(-yaw_rad);
  BodyPoses local{};
  for (std::size_t p = 0; p < parts.size(); ++p) {
    local[p].position = unturn.rotate(parts[p].position - root);
    local[p].rotation = normalized(unturn * parts[p].rotation);
  }
  return local;
}

Vec3 ground_under(Vec3 p) {
  return {p.x, 0.0f, p.z};
}

PartPose mix(const PartPose& a, const PartPose& b, float t) {
  return {lerp(a.position, b.position, t), slerp(a.rotation, b.rotation, t)};
}

// One cycle's recorded steps, closed into a loop: what the last step misses of the first is
// spread over the cycle, so that playing it round and round has no seam.
void close_loop(std::vector<BodyPoses>& steps) {
  const BodyPoses& first = steps.front();
  const BodyPoses last = steps.back();
  const auto n = static_cast<float>(steps.size() - 1);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const float f = static_cast<float>(k) / n;
    for (std::size_t p = 0; p < first.size(); ++p) {
      PartPose& pose = steps[k][p];
      pose.position = pose.position + (first[p].position - last[p].position) * f;
      const Quat miss = normalized(first[p].rotation * last[p].rotation.conjugate());
      pose.rotation = normalized(slerp(Quat{}, miss, f) * pose.rotation);
    }
  }
}

// `steps` (evenly spaced in time, the last equal to the first) resampled to kFrames frames.
std::vector<BodyPoses> resample(const std::vector<BodyPoses>& steps) {
  std::vector<BodyPoses> frames(WalkCycle::kFrames);
  const auto spans = static_cast<float>(steps.size() - 1);
  for (int f = 0; f < WalkCycle::kFrames; ++f) {
    const float at = spans * static_cast<float>(f) / static_cast<float>(WalkCycle::kFrames);
    const auto i = static_cast<std::size_t>(at);
    const std::size_t j = std::min(i + 1, steps.size() - 1);
    for (std::size_t p = 0; p < frames[0].size(); ++p)
      frames[static_cast<std::size_t>(f)][p] =
          mix(steps[i][p], steps[j][p], at - static_cast<float>(i));
  }
  return frames;
}

// The cycle at `phase` placed at the origin facing +Z, moving as its light playback moves
// there: the change from one step `dt` earlier (the root walking at the cycle's speed).
std::array<BodyState, kBodyPartCount> moving_pose(const WalkCycle& cycle, float phase, float dt) {
  const float back = cycle.speed_mps * dt / cycle.stride_m;  // [cycles]
  std::array<BodyState, kBodyPartCount> earlier{}, now{};
  place_poses(sample_walk_cycle(cycle, phase - back, 1.0f), {0, 0, -cycle.speed_mps * dt}, 0.0f,
              earlier);
  place_poses(sample_walk_cycle(cycle, phase, 1.0f), {0, 0, 0}, 0.0f, now);
  for (std::size_t p = 0; p < now.size(); ++p) {
    now[p].linear_velocity = (now[p].position - earlier[p].position) / dt;
    now[p].angular_velocity =
        rotation_vector(normalized(now[p].rotation * earlier[p].rotation.conjugate())) / dt;
  }
  return now;
}

// A hand-over to the controllers is tried at every frame: the body posed there and moving as
// the cycle does, resumed, one step. The frames whose largest body speed change in that step is
// within kHandOverMarginMps of the best are kept: there a walker goes on without a jolt (where a
// foot is in flight, the stance takes it and it jumps by a metre per second).
constexpr float kHandOverMarginMps = 0.1f;  // [m/s]

// [m] A hand-over is also tried with the body posed this far above the ground: over a stair or a
// slope the light pose is lifted until no sole is inside the ground, and a foot left hovering at
// a frame where it was coming down was kicked down at 0.6-0.9 m/s in the first step (frames
// whose foot the flat ground catches at once looked as smooth as any).
constexpr float kLiftedTryM = 0.01f;

// One hand-over at `phase`: a fresh ragdoll posed there (`lift_m` above the ground), moving as
// the playback moves, resumed.
// Returns the largest body speed change in the first step [m/s]; with `walk_on_s` > 0, a body
// that falls within that long after gives infinity.
float try_hand_over(const WalkCycle& cycle, const RagdollSettings& settings,
                    const WorldSettings& world_settings, float phase, float walk_on_s,
                    float lift_m = 0.0f) {
  World world(world_settings);  // a fresh one for each: nothing carried from the last try
  world.add_static_box({{0, -0.5f, 0}, {kGroundHalfM, 0.5f, kGroundHalfM}, {}, 0.9f});
  Ragdoll& body = world.add_ragdoll(settings, {0, 0, 0}, 0.0f);
  LocomotionIntent walk;
  walk.gait = Gait::walk;
  walk.velocity = {0, 0, cycle.speed_mps};
  body.set_intent(walk);
  auto before = moving_pose(cycle, phase, world.dt());
  for (BodyState& part : before) part.position.y += lift_m;
  body.suspend();
  body.pose_suspended(before);
  body.resume();
  world.step();
  float jump = 0;
  for (std::size_t p = 0; p < before.size(); ++p) {
    const Vec3 after = body.body_state(static_cast<BodyPart>(p)).linear_velocity;
    jump = std::max(jump, length(after - before[p].linear_velocity));
  }
  const auto steps = static_cast<int>(std::lround(walk_on_s / world.dt()));
  for (int i = 0; i < steps; ++i) {
    world.step();
    if (!is_upright(body.state())) return std::numeric_limits<float>::infinity();
  }
  return jump;
}

// The frames within kHandOverMarginMps of the smallest first-step jump that also walk on for
// kWalkOnS without falling (a hand-over that jumps little can still leave the stance behind).
constexpr float kWalkOnS = 1.5f;  // [s]

// The frames within `margin` of the smallest of `jumps`.
std::vector<bool> near_best(const std::vector<float>& jumps, float margin) {
  const float best = *std::min_element(jumps.begin(), jumps.end());
  std::vector<bool> near(jumps.size());
  for (std::size_t f = 0; f < jumps.size(); ++f) near[f] = jumps[f] <= best + margin;
  return near;
}

std::vector<float> hand_over_phases(const WalkCycle& cycle, const RagdollSettings& settings,
                                    const WorldSettings& world_settings) {
  const auto frames = static_cast<float>(cycle.frames.size());
  // A walker is handed over in the step whose phase crosses the frame: its pose then moves as
  // the cycle does on either side of the frame, or on both (a foot can stand still up to the
  // frame and lift right after it). Both sides are tried, the worse counts.
  const float step_phase = cycle.speed_mps / world_settings.physics_hz / cycle.stride_m;
  std::vector<float> flat(cycle.frames.size());
  std::vector<float> lifted(cycle.frames.size());
  for (std::size_t f = 0; f < cycle.frames.size(); ++f) {
    const float phase = static_cast<float>(f) / frames;
    flat[f] = std::max(try_hand_over(cycle, settings, world_settings, phase, 0),
                       try_hand_over(cycle, settings, world_settings, phase + step_phase, 0));
    lifted[f] = try_hand_over(cycle, settings, world_settings, phase, 0, kLiftedTryM);
  }
  // The frames nearest the best on flat ground; of those, the ones also nearest the best posed
  // clear of the ground, where there are any.
  const std::vector<bool> flat_near = near_best(flat, kHandOverMarginMps);
  const std::vector<bool> lifted_near = near_best(lifted, kHandOverMarginMps);
  bool both = false;
  for (std::size_t f = 0; f < flat.size(); ++f) both = both || (flat_near[f] && lifted_near[f]);
  std::vector<float> phases;
  for (std::size_t f = 0; f < flat.size(); ++f) {
    const float phase = static_cast<float>(f) / frames;
    if (flat_near[f] && (!both || lifted_near[f]) &&
        std::isfinite(try_hand_over(cycle, settings, world_settings, phase, kWalkOnS)))
      phases.push_back(phase);
  }
  return phases;
}

}  // namespace

WalkCycleResult record_walk_cycle(const RagdollSettings& settings,
                                  const WorldSettings& world_settings, float speed_mps) {
  WalkCycleResult out;
  World world(world_settings);
  world.add_static_box({{0, -0.5f, 0}, {kGroundHalfM, 0.5f, kGroundHalfM}, {}, 0.9f});
  Ragdoll& body = world.add_ragdoll(settings, {0, 0, 0}, 0.0f);
  const auto stand_steps = static_cast<int>(std::lround(kStandS / world.dt()));
  for (int i = 0; i < stand_steps; ++i) world.step();
  {
    const auto parts = parts_of(body);
    out.cycle.standing = to_local(parts, ground_under(parts[slot(BodyPart::pelvis)].position),
                                  yaw_of(body.balance().forward));
  }
  LocomotionIntent walk;
  walk.gait = Gait::walk;
  walk.velocity = {0, 0, speed_mps};
  body.set_intent(walk);

  // The world states of every step from the start of step kWarmUpSteps to that of the one two
  // steps later: one cycle, left and right.
  std::vector<std::array<BodyState, kBodyPartCount>> recorded;
  const int first = body.steps_taken() + kWarmUpSteps;
  const auto max_steps = static_cast<int>(std::lround(kMaxWalkS / world.dt()));
  for (int i = 0; i < max_steps; ++i) {
    world.step();
    if (!is_upright(body.state())) {
      out.error = "the walker fell while its walk was recorded";
      return out;
    }
    const int taken = body.steps_taken();
    if (taken >= first) recorded.push_back(parts_of(body));
    if (taken >= first + 2) break;
  }
  if (body.steps_taken() < first + 2 || recorded.size() < 3) {
    out.error = "the walker did not take enough steps to record a cycle";
    return out;
  }
  // The root moves straight and evenly from the cycle's first pelvis to its last.
  const Vec3 from = ground_under(recorded.front()[slot(BodyPart::pelvis)].position);
  const Vec3 to = ground_under(recorded.back()[slot(BodyPart::pelvis)].position);
  const float heading = yaw_of(to - from);
  std::vector<BodyPoses> steps;
  const auto n = static_cast<float>(recorded.size() - 1);
  for (std::size_t k = 0; k < recorded.size(); ++k)
    steps.push_back(to_local(recorded[k], lerp(from, to, static_cast<float>(k) / n), heading));
  close_loop(steps);
  out.cycle.frames = resample(steps);
  out.cycle.stride_m = length(to - from);
  out.cycle.period_s = n * world.dt();
  out.cycle.speed_mps = out.cycle.stride_m / out.cycle.period_s;
  out.cycle.hand_over_phases = hand_over_phases(out.cycle, settings, world_settings);
  out.ok = true;
  return out;
}

BodyPoses sample_walk_cycle(const WalkCycle& cycle, float phase, float walk_weight) {
  const float wrapped = phase - std::floor(phase);
  const float at = wrapped * static_cast<float>(WalkCycle::kFrames);
  const auto i = std::min(static_cast<std::size_t>(at), cycle.frames.size() - 1);
  const std::size_t j = (i + 1) % cycle.frames.size();
  const float t = at - static_cast<float>(i);
  const float w = std::clamp(walk_weight, 0.0f, 1.0f);
  if (w <= 0.0f) return cycle.standing;
  BodyPoses out{};
  for (std::size_t p = 0; p < out.size(); ++p) {
    out[p] = mix(cycle.frames[i][p], cycle.frames[j][p], t);
    if (w < 1.0f) out[p] = mix(cycle.standing[p], out[p], w);  // (walking: as it is)
  }
  return out;
}

void place_poses(const BodyPoses& local, Vec3 root, float yaw_rad,
                 std::array<BodyState, kBodyPartCount>& out) {
  const Quat turn = Quat::from_yaw(yaw_rad);
  for (std::size_t p = 0; p < local.size(); ++p) {
    out[p].position = root + turn.rotate(local[p].position);
    out[p].rotation = normalized(turn * local[p].rotation);
  }
}

float closest_phase(const WalkCycle& cycle,
                    const std::array<BodyState, kBodyPartCount>& world_parts, Vec3 root,
                    float yaw_rad) {
  const BodyPoses local = to_local(world_parts, root, yaw_rad);
  float best = 1e30f;
  std::size_t best_frame = 0;
  for (std::size_t f = 0; f < cycle.frames.size(); ++f) {
    float sum = 0;
    for (std::size_t p = 0; p < local.size(); ++p) {
      const Vec3 d = local[p].position - cycle.frames[f][p].position;
      sum += dot(d, d);
    }
    if (sum < best) {
      best = sum;
      best_frame = f;
    }
  }
  return static_cast<float>(best_frame) / static_cast<float>(cycle.frames.size());
}

}  // namespace stagger::physics
