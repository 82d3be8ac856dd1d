#include "stagger/sim/shape_mesh.h"

#include <cmath>

#include "stagger/sim/simulation.h"

namespace stagger::sim {

namespace {

void add_quad(MeshData& m, Vec3 a, Vec3 b, Vec3 c, Vec3 d, Vec3 normal) {
  const auto base = static_cast<std::uint32_t>(m.positions.size());
  for (Vec3 p : {a, b, c, d}) {
    m.positions.push_back(p);
    m.normals.push_back(normal);
  }
  for (std::uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) m.indices.push_back(base + i);
}

}  // namespace

MeshData box_mesh(Vec3 h) {
  MeshData m;
  // Each face wound counter-clockwise seen from outside.
  add_quad(m, {h.x, -h.y, -h.z}, {h.x, h.y, -h.z}, {h.x, h.y, h.z}, {h.x, -h.y, h.z}, {1, 0, 0});
  add_quad(m, {-h.x, -h.y, h.z}, {-h.x, h.y, h.z}, {-h.x, h.y, -h.z}, {-h.x, -h.y, -h.z},
           {-1, 0, 0});
  add_quad(m, {-h.x, h.y, -h.z}, {-h.x, h.y, h.z}, {h.x, h.y, h.z}, {h.x, h.y, -h.z}, {0, 1, 0});
  add_quad(m, {-h.x, -h.y, h.z}, {-h.x, -h.y, -h.z}, {h.x, -h.y, -h.z}, {h.x, -h.y, h.z},
           {0, -1, 0});
  add_quad(m, {-h.x, -h.y, h.z}, {h.x, -h.y, h.z}, {h.x, h.y, h.z}, {-h.x, h.y, h.z}, {0, 0, 1});
  add_quad(m, {h.x, -h.y, -h.z}, {-h.x, -h.y, -h.z}, {-h.x, h.y, -h.z}, {h.x, h.y, -h.z},
           {0, 0, -1});
  return m;
}

// A capsule along Y (a sphere when half_length is 0): rings of a sphere split at the equator and
// pulled apart by the cylinder.
MeshData capsule_mesh(float radius, float half_length, bool along_x) {
  constexpr int kSides = 16;
  constexpr int kRings = 8;  // per hemisphere
  MeshData m;
  for (int ring = 0; ring <= 2 * kRings + 1; ++ring) {
    const int r =
        ring <= kRings ? ring : ring - 1;  // the equator twice: top and bottom of the cylinder
    const float polar = kPi * static_cast<float>(r) / static_cast<float>(2 * kRings);
    const float offset = ring <= kRings ? half_length : -half_length;
    for (int side = 0; side <= kSides; ++side) {
      const float around = 2.0f * kPi * static_cast<float>(side) / static_cast<float>(kSides);
      const Vec3 n{std::sin(polar) * std::cos(around), std::cos(polar),
                   std::sin(polar) * std::sin(around)};
      Vec3 p = n * radius + Vec3{0, offset, 0};
      Vec3 normal = n;
      if (along_x) {
        p = {p.y, -p.x, p.z};
        normal = {normal.y, -normal.x, normal.z};
      }
      m.positions.push_back(p);
      m.normals.push_back(normal);
    }
  }
  const std::uint32_t row = kSides + 1;
  for (std::uint32_t ring = 0; ring < 2 * kRings + 1; ++ring) {
    for (std::uint32_t side = 0; side < kSides; ++side) {
      const std::uint32_t a = ring * row + side;
      const std::uint32_t b = a + row;
      for (std::uint32_t i : {a, a + 1, b, a + 1, b + 1, b}) m.indices.push_back(i);
    }
  }
  return m;
}

MeshData shape_mesh(const physics::BodySettings& s) {
  using Shape = physics::BodySettings::Shape;
  switch (s.shape) {
    case Shape::box:
      return box_mesh(s.half_extents);
    case Shape::sphere:
      return capsule_mesh(s.radius, 0.0f, false);
    case Shape::capsule_x:
      return capsule_mesh(s.radius, s.half_length, true);
    case Shape::capsule_y:
      return capsule_mesh(s.radius, s.half_length, false);
  }
  return box_mesh(s.half_extents);
}

MeshData triangle_soup(const physics::StaticMeshSettings& mesh) {
  MeshData m;
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const Vec3 a = mesh.vertices[mesh.indices[t]];
    const Vec3 b = mesh.vertices[mesh.indices[t + 1]];
    const Vec3 c = mesh.vertices[mesh.indices[t + 2]];
    const Vec3 n = normalized(cross(b - a, c - a));
    for (Vec3 p : {a, b, c}) {
      m.indices.push_back(static_cast<std::uint32_t>(m.positions.size()));
      m.positions.push_back(p);
      m.normals.push_back(n);
    }
  }
  return m;
}

std::vector<ShapedBody> shaped_bodies(const Simulation& simulation) {
  std::vector<ShapedBody> bodies;
  const auto& enemies = simulation.scene().enemies();
  for (std::size_t e = 0; e < enemies.size(); ++e) {
    if (enemies[e].removed()) continue;
    for (const physics::BodyBlueprint& b : enemies[e].ragdoll->blueprint().bodies) {
      ShapedBody body;
      body.name = enemies[e].name + "/" + std::string(physics::name_of(b.part));
      body.body = enemies[e].ragdoll->body(b.part);
      body.shape.shape = b.shape;
      body.shape.radius = b.radius;
      body.shape.half_length = b.half_length;
      body.shape.half_extents = b.half_extents;
      body.enemy = static_cast<int>(e);
      bodies.push_back(body);
    }
  }
  for (int side = 0; side < 2; ++side) {
    const physics::Hand* hand = simulation.hand(side);
    if (hand == nullptr) continue;
    ShapedBody body;
    body.name = side == 0 ? "hand_left" : "hand_right";
    body.body = hand->body();
    body.shape.shape = physics::BodySettings::Shape::box;
    body.shape.half_extents = simulation.scene().description().hands.half_extents;
    body.hand = side;
    bodies.push_back(body);
    for (physics::BodyId sphere : simulation.hand_joint_spheres(side)) {
      ShapedBody joint;
      joint.name = std::string(side == 0 ? "hand_left" : "hand_right") + "/joint";
      joint.body = sphere;
      joint.shape.shape = physics::BodySettings::Shape::sphere;
      joint.shape.radius = simulation.hand_joint_radius_m();
      joint.hand = side;
      bodies.push_back(joint);
    }
  }
  return bodies;
}

}  // namespace stagger::sim
