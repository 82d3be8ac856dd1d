#include "stagger/physics/player_body.h"

#include <algorithm>
#include <cmath>

#include "stagger/core/assert.h"

namespace stagger::physics {

namespace {
constexpr float kTinyMoveM = 1e-5f;  // [m] shorter moves are not swept
// The surface under a contact point is felt with a small sphere dropped onto it from this high
// [m] (a capsule resting on a step's edge meets the edge, whose normal leans toward the capsule).
constexpr float kFeelAboveM = 0.05f;
constexpr float kFeelRadiusM = 0.005f;
constexpr float kFeelInsetM = 0.02f;  // [m] ... this far in from the edge
}  // namespace

PlayerBody::PlayerBody(const World& world, const PlayerBodySettings& settings, Vec3 feet)
    : world_(world), settings_(settings), feet_(feet) {
  STAGGER_ASSERT(settings.radius_m > 0 && settings.height_m > 2.0f * settings.radius_m);
  STAGGER_ASSERT(settings.slide_iterations > 0);
}

void PlayerBody::teleport(Vec3 feet) {
  feet_ = feet;
  velocity_ = {};
  fall_speed_ = 0;
  on_ground_ = false;
}

SweepHit PlayerBody::sweep(Vec3 feet, Vec3 offset) const {
  const float half_length = 0.5f * settings_.height_m - settings_.radius_m;
  return world_.sweep_capsule(centre(feet), centre(feet + offset), settings_.radius_m, half_length);
}

float PlayerBody::clear_travel(const SweepHit& hit, float distance) const {
  return hit.hit ? std::max(0.0f, hit.fraction * distance - settings_.skin_m) : distance;
}

Vec3 PlayerBody::slide(Vec3 feet, Vec3 displacement) const {
  // Collide and slide: go as far as is clear, then the rest along the wall met, a few times.
  Vec3 remaining = horizontal(displacement);
  for (int i = 0; i < settings_.slide_iterations; ++i) {
    const float distance = length(remaining);
    if (distance < kTinyMoveM) break;
    const SweepHit hit = sweep(feet, remaining);
    const float travel = clear_travel(hit, distance);
    feet = feet + remaining * (travel / distance);
    if (!hit.hit) break;
    remaining = remaining * (1.0f - travel / distance);
    // Against a wall's horizontal normal: a step's edge or a slope's foot blocks sideways only.
    const Vec3 wall = horizontal(hit.normal);
    if (length(wall) < kTinyMoveM) break;
    const Vec3 n = normalized(wall);
    remaining = remaining - n * dot(remaining, n);
  }
  return feet;
}

void PlayerBody::move(Vec3 displacement, float dt) {
  const Vec3 was = feet_;
  // 1. Up by a step (only from the ground: a falling body climbs nothing), then 2. across at that
  // height, then 3. down onto what is under it.
  float rise = 0;
  if (on_ground_) {
    const SweepHit up = sweep(feet_, {0, settings_.step_height_m, 0});
    rise = clear_travel(up, settings_.step_height_m);
  }
  const Vec3 raised = slide(feet_ + Vec3{0, rise, 0}, displacement);
  settle(raised, rise, dt);
  velocity_ = dt > 0 ? (feet_ - was) / dt : Vec3{};
}

bool PlayerBody::walkable_at(const SweepHit& hit, Vec3 hit_centre) const {
  const float min_normal_y = std::cos(deg_to_rad(settings_.max_slope_deg));
  if (hit.normal.y >= min_normal_y) return true;
  // An edge: walkable when the surface just beyond the contact point (away from the capsule's
  // axis, onto the step) is.
  const Vec3 away = horizontal(hit.point - hit_centre);
  const Vec3 onto = length(away) > kTinyMoveM ? normalized(away) * kFeelInsetM : Vec3{};
  const Vec3 from = hit.point + onto + Vec3{0, kFeelAboveM, 0};
  const SweepHit under =
      world_.sweep_capsule(from, from - Vec3{0, 2.0f * kFeelAboveM, 0}, kFeelRadiusM, 0.0f);
  return under.hit && under.normal.y >= min_normal_y;
}

void PlayerBody::settle(Vec3 raised, float rise, float dt) {
  if (!on_ground_) fall_speed_ += settings_.gravity * dt;
  const float fall = fall_speed_ * dt;
  // On the ground it follows the ground down as far as a step; falling, as far as it falls.
  const float reach = rise + (on_ground_ ? settings_.step_height_m : 0.0f) + fall;
  const SweepHit down = sweep(raised, {0, -reach, 0});
  const bool walkable =
      down.hit && walkable_at(down, centre(raised) - Vec3{0, down.fraction * reach, 0});
  if (walkable) {
    feet_ = raised - Vec3{0, clear_travel(down, reach), 0};
    on_ground_ = true;
    fall_speed_ = 0;
    return;
  }
  // Nothing walkable within reach: over an edge, or falling. It drops only what it falls (and the
  // step it rose), and stops on whatever it meets.
  const float drop = rise + fall;
  feet_ = raised - Vec3{0, down.hit ? std::min(drop, clear_travel(down, reach)) : drop, 0};
  on_ground_ = false;
  if (down.hit && clear_travel(down, reach) <= drop) fall_speed_ = 0;  // resting on a steep face
}

}  // namespace stagger::physics
