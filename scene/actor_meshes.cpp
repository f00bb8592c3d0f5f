#include "scene/actor_meshes.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace asg::scene {
namespace {

constexpr float kTwoPi = 2.0f * std::numbers::pi_v<float>;

// Adds a flat disc at height z, facing +z when `up`, else -z.
void AddDisc(TriangleMesh& mesh, float radius, float z, bool up, int segments) {
  const uint32_t centre = static_cast<uint32_t>(mesh.positions.size());
  mesh.positions.emplace_back(0.0f, 0.0f, z);
  for (int i = 0; i < segments; ++i) {
    const float a = kTwoPi * i / segments;
    mesh.positions.emplace_back(radius * std::cos(a), radius * std::sin(a), z);
  }
  for (int i = 0; i < segments; ++i) {
    const uint32_t a = centre + 1 + i;
    const uint32_t b = centre + 1 + (i + 1) % segments;
    if (up) {
      mesh.indices.insert(mesh.indices.end(), {centre, a, b});
    } else {
      mesh.indices.insert(mesh.indices.end(), {centre, b, a});
    }
  }
}

}  // namespace

void TriangleMesh::Append(const TriangleMesh& other) {
  const uint32_t offset = static_cast<uint32_t>(positions.size());
  positions.insert(positions.end(), other.positions.begin(), other.positions.end());
  for (uint32_t index : other.indices) indices.push_back(index + offset);
}

TriangleMesh CylinderMesh(float radius, float z0, float z1, int segments) {
  TriangleMesh mesh;
  for (int i = 0; i < segments; ++i) {
    const float a = kTwoPi * i / segments;
    mesh.positions.emplace_back(radius * std::cos(a), radius * std::sin(a), z0);
    mesh.positions.emplace_back(radius * std::cos(a), radius * std::sin(a), z1);
  }
  for (int i = 0; i < segments; ++i) {
    const uint32_t b0 = 2 * i, t0 = 2 * i + 1;
    const uint32_t b1 = 2 * ((i + 1) % segments), t1 = b1 + 1;
    mesh.indices.insert(mesh.indices.end(), {b0, b1, t1, b0, t1, t0});
  }
  AddDisc(mesh, radius, z0, false, segments);
  AddDisc(mesh, radius, z1, true, segments);
  return mesh;
}

TriangleMesh ConeMesh(float radius, float z0, float z1, int segments) {
  TriangleMesh mesh;
  const uint32_t apex = 0;
  mesh.positions.emplace_back(0.0f, 0.0f, z1);
  for (int i = 0; i < segments; ++i) {
    const float a = kTwoPi * i / segments;
    mesh.positions.emplace_back(radius * std::cos(a), radius * std::sin(a), z0);
  }
  for (int i = 0; i < segments; ++i) {
    const uint32_t a = 1 + i;
    const uint32_t b = 1 + (i + 1) % segments;
    mesh.indices.insert(mesh.indices.end(), {a, b, apex});
  }
  AddDisc(mesh, radius, z0, false, segments);
  return mesh;
}

TriangleMesh EllipsoidMesh(const Eigen::Vector3f& radii, const Eigen::Vector3f& centre,
                           int segments) {
  TriangleMesh mesh;
  const int rings = std::max(3, segments / 2);
  for (int r = 0; r <= rings; ++r) {
    const float polar = std::numbers::pi_v<float> * r / rings;
    for (int s = 0; s <= segments; ++s) {
      const float azimuth = kTwoPi * s / segments;
      const Eigen::Vector3f unit(std::sin(polar) * std::cos(azimuth),
                                 std::sin(polar) * std::sin(azimuth), std::cos(polar));
      mesh.positions.push_back(centre + unit.cwiseProduct(radii));
    }
  }
  const uint32_t row = segments + 1;
  for (int r = 0; r < rings; ++r) {
    for (int s = 0; s < segments; ++s) {
      const uint32_t a = r * row + s, b = a + 1, c = a + row, d = c + 1;
      mesh.indices.insert(mesh.indices.end(), {a, c, d, a, d, b});
    }
  }
  return mesh;
}

double TreeTrunkTop(const ActorKind& kind) {
  return std::max(kind.trunk_height, kind.canopy_base_height + 0.05);
}

TriangleMesh ActorMesh(const ActorKind& kind) {
  const auto f = [](double value) { return static_cast<float>(value); };
  switch (kind.shape) {
    case ActorShape::kTree: {
      TriangleMesh mesh =
          CylinderMesh(f(kind.trunk_radius), 0.0f, f(TreeTrunkTop(kind)), kTrunkSegments);
      mesh.Append(ConeMesh(f(kind.canopy_radius), f(kind.canopy_base_height),
                           f(kind.canopy_base_height + kind.canopy_height), kCanopySegments));
      return mesh;
    }
    case ActorShape::kBush:
      return EllipsoidMesh(kind.bush_radii.cast<float>(),
                           Eigen::Vector3f(0.0f, 0.0f, f(kind.bush_radii.z())), kBushSegments);
    case ActorShape::kRock:
      return TriangleMesh{kind.polyhedron.vertices, kind.polyhedron.indices};
    case ActorShape::kGrass:
      return ConeMesh(f(kind.radius), 0.0f, f(kind.height), kGrassSegments);
  }
  return {};
}

TriangleMesh PlacedActorMesh(const ActorInstance& actor) {
  TriangleMesh mesh = ActorMesh(*actor.kind);
  const Eigen::Matrix3f rotation = actor.orientation.toRotationMatrix().cast<float>();
  const Eigen::Vector3f position = actor.position.cast<float>();
  const float scale = static_cast<float>(actor.scale);
  for (Eigen::Vector3f& p : mesh.positions) p = position + rotation * (scale * p);
  return mesh;
}

double FootprintRadius(const ActorInstance& actor) {
  const ActorKind& kind = *actor.kind;
  switch (kind.shape) {
    case ActorShape::kTree:
      return kind.trunk_radius * actor.scale;
    case ActorShape::kBush:
      return std::max(kind.bush_radii.x(), kind.bush_radii.y()) * actor.scale;
    case ActorShape::kRock:
    case ActorShape::kGrass:
      return kind.radius * actor.scale;
  }
  return 0.0;
}

}  // namespace asg::scene
