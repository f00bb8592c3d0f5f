#include "scene/actor_meshes.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace asg::scene {
namespace {

constexpr float kTwoPi = 2.0f * std::numbers::pi_v<float>;

// Adds a flat disc facing +z (up) or -z at height z.
void AddDisc(TriangleMesh& mesh, float radius, float z, bool up, int segments) {
  const uint32_t centre = static_cast<uint32_t>(mesh.positions.size());
  const Eigen::Vector3f normal(0, 0, up ? 1.0f : -1.0f);
  mesh.positions.emplace_back(0, 0, z);
  mesh.normals.push_back(normal);
  for (int i = 0; i < segments; ++i) {
    const float a = kTwoPi * i / segments;
    mesh.positions.emplace_back(radius * std::cos(a), radius * std::sin(a), z);
    mesh.normals.push_back(normal);
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
  normals.insert(normals.end(), other.normals.begin(), other.normals.end());
  for (uint32_t index : other.indices) indices.push_back(index + offset);
}

TriangleMesh CylinderMesh(float radius, float z0, float z1, int segments) {
  TriangleMesh mesh;
  for (int i = 0; i <= segments; ++i) {
    const float a = kTwoPi * i / segments;
    const Eigen::Vector3f normal(std::cos(a), std::sin(a), 0);
    mesh.positions.emplace_back(radius * normal.x(), radius * normal.y(), z0);
    mesh.positions.emplace_back(radius * normal.x(), radius * normal.y(), z1);
    mesh.normals.push_back(normal);
    mesh.normals.push_back(normal);
  }
  for (int i = 0; i < segments; ++i) {
    const uint32_t b0 = 2 * i, t0 = 2 * i + 1, b1 = 2 * i + 2, t1 = 2 * i + 3;
    mesh.indices.insert(mesh.indices.end(), {b0, b1, t1, b0, t1, t0});
  }
  AddDisc(mesh, radius, z0, false, segments);
  AddDisc(mesh, radius, z1, true, segments);
  return mesh;
}

TriangleMesh ConeMesh(float radius, float z0, float z1, int segments) {
  TriangleMesh mesh;
  const float slant = std::atan2(radius, z1 - z0);  // normal tilt from horizontal
  for (int i = 0; i < segments; ++i) {
    // One apex vertex per side so each side keeps its own smooth normal.
    const float a0 = kTwoPi * i / segments;
    const float a1 = kTwoPi * (i + 1) / segments;
    const float am = 0.5f * (a0 + a1);
    const uint32_t base = static_cast<uint32_t>(mesh.positions.size());
    for (float a : {a0, a1, am}) {
      mesh.normals.emplace_back(std::cos(slant) * std::cos(a), std::cos(slant) * std::sin(a),
                                std::sin(slant));
    }
    mesh.positions.emplace_back(radius * std::cos(a0), radius * std::sin(a0), z0);
    mesh.positions.emplace_back(radius * std::cos(a1), radius * std::sin(a1), z0);
    mesh.positions.emplace_back(0, 0, z1);
    mesh.indices.insert(mesh.indices.end(), {base, base + 1, base + 2});
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
      mesh.normals.push_back(unit.cwiseQuotient(radii).normalized());
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

TriangleMesh FlatShadedMesh(const Polyhedron& polyhedron) {
  TriangleMesh mesh;
  for (size_t i = 0; i + 2 < polyhedron.indices.size(); i += 3) {
    const Eigen::Vector3f& a = polyhedron.vertices[polyhedron.indices[i]];
    const Eigen::Vector3f& b = polyhedron.vertices[polyhedron.indices[i + 1]];
    const Eigen::Vector3f& c = polyhedron.vertices[polyhedron.indices[i + 2]];
    const Eigen::Vector3f normal = (b - a).cross(c - a).normalized();
    const uint32_t base = static_cast<uint32_t>(mesh.positions.size());
    for (const Eigen::Vector3f* p : {&a, &b, &c}) {
      mesh.positions.push_back(*p);
      mesh.normals.push_back(normal);
    }
    mesh.indices.insert(mesh.indices.end(), {base, base + 1, base + 2});
  }
  return mesh;
}

double TreeTrunkTop(const ActorKind& kind) {
  return std::max(kind.tree.trunk_height, kind.tree.canopy_base_height + 0.05);
}

std::vector<ActorPart> ActorParts(const ActorKind& kind) {
  const auto f = [](double value) { return static_cast<float>(value); };
  switch (kind.shape) {
    case ActorShape::kTree:
      return {{CylinderMesh(f(kind.tree.trunk_radius), 0.0f, f(TreeTrunkTop(kind)), kTrunkSegments),
               kind.trunk_color},
              {ConeMesh(f(kind.tree.canopy_radius), f(kind.tree.canopy_base_height),
                        f(kind.tree.canopy_base_height + kind.tree.canopy_height), kCanopySegments),
               kind.color}};
    case ActorShape::kBush:
      return {{EllipsoidMesh(BushRadii(kind).cast<float>(),
                             Eigen::Vector3f(0.0f, 0.0f, f(kind.bush.radii[2])), kBushSegments),
               kind.color}};
    case ActorShape::kRock:
      return {{FlatShadedMesh(kind.polyhedron), kind.color}};
    case ActorShape::kGrass:
      return {
          {ConeMesh(f(kind.grass.radius), 0.0f, f(kind.grass.height), kGrassSegments), kind.color}};
  }
  return {};
}

TriangleMesh ActorMesh(const ActorKind& kind) {
  TriangleMesh mesh;
  for (const ActorPart& part : ActorParts(kind)) mesh.Append(part.mesh);
  return mesh;
}

TriangleMesh PlacedActorMesh(const ActorInstance& actor) {
  TriangleMesh mesh = ActorMesh(*actor.kind);
  const Eigen::Matrix3f rotation = actor.orientation.toRotationMatrix().cast<float>();
  const Eigen::Vector3f position = actor.position.cast<float>();
  const float scale = static_cast<float>(actor.scale);
  for (Eigen::Vector3f& p : mesh.positions) p = position + rotation * (scale * p);
  for (Eigen::Vector3f& n : mesh.normals) n = rotation * n;
  return mesh;
}

double FootprintRadius(const ActorInstance& actor) {
  const ActorKind& kind = *actor.kind;
  switch (kind.shape) {
    case ActorShape::kTree:
      return kind.tree.trunk_radius * actor.scale;
    case ActorShape::kBush:
      return std::max(kind.bush.radii[0], kind.bush.radii[1]) * actor.scale;
    case ActorShape::kRock:
      return kind.rock.radius * actor.scale;
    case ActorShape::kGrass:
      return kind.grass.radius * actor.scale;
  }
  return 0.0;
}

}  // namespace asg::scene
