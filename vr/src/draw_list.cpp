#include "draw_list.h"

#include <algorithm>
#include <cmath>

namespace stagger::vr {

namespace {

constexpr int kUnitBox = 0;  // meshes_[0]: a box of half extents 0.5, scaled per instance

struct Rgb {
  float r, g, b;
};
constexpr Rgb kLevel{0.50f, 0.50f, 0.46f};
constexpr Rgb kBody{0.62f, 0.12f, 0.09f};
constexpr Rgb kHead{0.80f, 0.40f, 0.26f};
constexpr Rgb kDown{0.85f, 0.45f, 0.05f};
constexpr Rgb kDead{0.22f, 0.22f, 0.24f};
constexpr Rgb kHand{0.12f, 0.32f, 0.85f};
constexpr Rgb kGhostHand{0.55f, 0.65f, 0.85f};

GpuInstance instance(Vec3 position, Quat rotation, Vec3 scale, Rgb colour, float alpha = 1.0f) {
  return {{position.x, position.y, position.z, 1.0f},
          {rotation.x, rotation.y, rotation.z, rotation.w},
          {scale.x, scale.y, scale.z, 1.0f},
          {colour.r, colour.g, colour.b, alpha}};
}

bool same_shape(const physics::BodySettings& a, const physics::BodySettings& b) {
  return a.shape == b.shape && a.radius == b.radius && a.half_length == b.half_length;
}

Rgb enemy_colour(const physics::Ragdoll& ragdoll, physics::BodyPart part) {
  const physics::LocomotionState state = ragdoll.state();
  if (state == physics::LocomotionState::dead) return kDead;
  if (!physics::is_upright(state)) return kDown;
  return part == physics::BodyPart::head ? kHead : kBody;
}

void line(DrawFrame& frame, Vec3 a, Vec3 b, Rgb c) {
  frame.lines.push_back({{a.x, a.y, a.z, 1}, {c.r, c.g, c.b, 1}});
  frame.lines.push_back({{b.x, b.y, b.z, 1}, {c.r, c.g, c.b, 1}});
}

void cross_mark(DrawFrame& frame, Vec3 at, float size, Rgb c) {
  line(frame, at - Vec3{size, 0, 0}, at + Vec3{size, 0, 0}, c);
  line(frame, at - Vec3{0, size, 0}, at + Vec3{0, size, 0}, c);
  line(frame, at - Vec3{0, 0, size}, at + Vec3{0, 0, size}, c);
}

Rgb balance_colour(physics::BalanceState state) {
  switch (state) {
    case physics::BalanceState::in_balance:
      return {0.1f, 0.9f, 0.2f};
    case physics::BalanceState::out_of_balance:
      return {1.0f, 0.85f, 0.0f};
    case physics::BalanceState::fallen:
      return {1.0f, 0.1f, 0.1f};
    case physics::BalanceState::in_air:
      return {0.2f, 0.5f, 1.0f};
  }
  return {1, 1, 1};
}

}  // namespace

namespace {

constexpr float kRingOuter = 5.0f;  // [-] the vignette ring's outer radius, in inner radii
constexpr int kRingSegments = 48;
constexpr Rgb kHitVignette{0.8f, 0.02f, 0.02f};
constexpr Rgb kComfortVignette{0.02f, 0.02f, 0.02f};

// An annulus in the XY plane (inner radius 1, outer kRingOuter), both faces: seen from the head
// whichever way the renderer culls.
sim::MeshData ring_mesh() {
  sim::MeshData m;
  for (int side = 0; side < 2; ++side) {
    const Vec3 normal{0, 0, side == 0 ? 1.0f : -1.0f};
    const auto base = static_cast<std::uint32_t>(m.positions.size());
    for (int i = 0; i < kRingSegments; ++i) {
      const float a = 2.0f * kPi * static_cast<float>(i) / kRingSegments;
      const Vec3 dir{std::cos(a), std::sin(a), 0};
      m.positions.push_back(dir);
      m.positions.push_back(dir * kRingOuter);
      m.normals.push_back(normal);
      m.normals.push_back(normal);
    }
    for (int i = 0; i < kRingSegments; ++i) {
      const auto in0 = base + static_cast<std::uint32_t>(2 * i);
      const auto in1 = base + static_cast<std::uint32_t>(2 * ((i + 1) % kRingSegments));
      const std::uint32_t quad[6] = {in0, in0 + 1, in1 + 1, in0, in1 + 1, in1};
      for (int k = 0; k < 6; ++k) m.indices.push_back(quad[side == 0 ? k : 5 - k]);
    }
  }
  return m;
}

}  // namespace

void SceneGeometry::add_vignette(DrawFrame& frame, Vec3 head, Quat head_rotation,
                                 float inner_radius_m, bool red) const {
  const Vec3 centre = head + head_rotation.rotate({0, 0, -kVignetteDistanceM});
  frame.items.push_back({ring_mesh_, instance(centre, head_rotation, Vec3{1, 1, 1} * inner_radius_m,
                                              red ? kHitVignette : kComfortVignette)});
}

SceneGeometry::SceneGeometry(const sim::Simulation& simulation) {
  meshes_.push_back(sim::box_mesh({0.5f, 0.5f, 0.5f}));
  meshes_.push_back(ring_mesh());
  ring_mesh_ = static_cast<int>(meshes_.size()) - 1;
  add_level(simulation.scene().description());
  bodies_ = sim::shaped_bodies(simulation);
  for (const sim::ShapedBody& body : bodies_) {
    const bool box = body.shape.shape == physics::BodySettings::Shape::box;
    body_mesh_.push_back(box ? kUnitBox : mesh_for(body.shape));
    body_scale_.push_back(box ? body.shape.half_extents * 2.0f : Vec3{1, 1, 1});
  }
}

int SceneGeometry::mesh_for(const physics::BodySettings& shape) {
  for (const auto& [known, mesh] : shape_meshes_) {
    if (same_shape(known, shape)) return mesh;
  }
  meshes_.push_back(sim::shape_mesh(shape));
  const int mesh = static_cast<int>(meshes_.size()) - 1;
  shape_meshes_.emplace_back(shape, mesh);
  return mesh;
}

void SceneGeometry::add_level(const sim::SceneDescription& scene) {
  for (const physics::StaticBoxSettings& box : scene.boxes) {
    level_.push_back(
        {kUnitBox, instance(box.center, box.rotation, box.half_extents * 2.0f, kLevel, 2.0f)});
  }
  for (const physics::StaticMeshSettings& mesh : scene.meshes) {
    meshes_.push_back(sim::triangle_soup(mesh));
    level_.push_back(
        {static_cast<int>(meshes_.size()) - 1, instance({}, {}, {1, 1, 1}, kLevel, 2.0f)});
  }
}

BodyPoses SceneGeometry::poses(const sim::Simulation& simulation) const {
  BodyPoses poses;
  poses.reserve(bodies_.size());
  const physics::World& world = simulation.scene().world();
  for (const sim::ShapedBody& body : bodies_) {
    const physics::BodyState s = world.body_state(body.body);
    poses.emplace_back(s.position, s.rotation);
  }
  return poses;
}

DrawFrame SceneGeometry::frame(const sim::Simulation& simulation, const BodyPoses& before,
                               const BodyPoses& after, float alpha, bool overlay) const {
  DrawFrame frame;
  frame.items = level_;
  const auto& enemies = simulation.scene().enemies();
  for (std::size_t i = 0; i < bodies_.size() && i < after.size(); ++i) {
    const sim::ShapedBody& body = bodies_[i];
    const Vec3 position = lerp(before[i].first, after[i].first, alpha);
    const Quat rotation = slerp(before[i].second, after[i].second, alpha);
    Rgb colour = kHand;
    if (body.enemy >= 0) {
      const physics::Ragdoll& ragdoll = *enemies[static_cast<std::size_t>(body.enemy)].ragdoll;
      colour = enemy_colour(ragdoll, *ragdoll.part_of(body.body));
    } else if (const physics::Hand* hand = simulation.hand(body.hand);
               hand != nullptr && hand->ghost()) {
      colour = kGhostHand;
    }
    frame.items.push_back({body_mesh_[i], instance(position, rotation, body_scale_[i], colour)});
  }
  if (overlay) add_overlay(simulation, frame);
  return frame;
}

void SceneGeometry::add_overlay(const sim::Simulation& simulation, DrawFrame& frame) const {
  const auto& enemies = simulation.scene().enemies();
  for (std::size_t i = 0; i < enemies.size(); ++i) {
    if (enemies[i].removed()) continue;
    const physics::BalanceReadout& b = enemies[i].ragdoll->balance();
    cross_mark(frame, b.com, 0.12f, {1, 1, 1});
    cross_mark(frame, b.support_mid, 0.1f, {0.1f, 0.9f, 0.2f});
    const Rgb state = balance_colour(b.state);
    line(frame, b.support_mid, b.extrapolated_com, state);
    line(frame, b.com, {b.com.x, b.support_mid.y, b.com.z}, state);
    const ai::Squad* squad = simulation.squad();
    if (const int member = simulation.mind_of(i); member >= 0) {
      const ai::Navigator::Follow& f = squad->follow(member);
      // The leash: body to crowd agent; the planned path: agent through its next corners.
      const Vec3 lift{0, 0.05f, 0};
      cross_mark(frame, f.agent + lift, 0.15f, {1.0f, 0.9f, 0.1f});
      line(frame, f.feet + lift, f.agent + lift, {1.0f, 0.9f, 0.1f});
      Vec3 from = f.agent;
      for (Vec3 corner : squad->path_corners(member)) {
        line(frame, from + lift, corner + lift, {1.0f, 0.55f, 0.0f});
        from = corner;
      }
    }
  }
  const sim::SceneDescription& scene = simulation.scene().description();
  for (const levels::EnemySpawn& spawn : scene.enemies) {
    const sim::SpawnRoute walked = sim::route_of(scene, spawn);
    const auto& route = walked.points;
    if (route.size() < 2) continue;
    // A loop also joins its last point to its first; a ping-pong route walks its legs both ways.
    const std::size_t legs = walked.mode == ai::PatrolMode::loop ? route.size() : route.size() - 1;
    for (std::size_t p = 0; p < legs; ++p) {
      const Vec3 lift{0, 0.08f, 0};
      line(frame, route[p].position + lift, route[(p + 1) % route.size()].position + lift,
           {0.1f, 0.85f, 0.95f});
    }
  }
}

}  // namespace stagger::vr
