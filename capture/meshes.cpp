#include "capture/meshes.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace asg::capture {
namespace {

constexpr float kTwoPi = 2.0f * std::numbers::pi_v<float>;

Eigen::Vector3f ToVector(const scene::Rgb& rgb) {
  return {static_cast<float>(rgb.r), static_cast<float>(rgb.g), static_cast<float>(rgb.b)};
}

// Adds a flat disc facing +z (up) or -z at height z.
void AddDisc(Mesh& mesh, float radius, float z, bool up, int segments) {
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

void Mesh::Append(const Mesh& other) {
  const uint32_t offset = static_cast<uint32_t>(positions.size());
  positions.insert(positions.end(), other.positions.begin(), other.positions.end());
  normals.insert(normals.end(), other.normals.begin(), other.normals.end());
  for (uint32_t index : other.indices) indices.push_back(index + offset);
}

Mesh Cylinder(float radius, float z0, float z1, int segments) {
  Mesh mesh;
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

Mesh Cone(float radius, float z0, float z1, int segments) {
  Mesh mesh;
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

Mesh Ellipsoid(const Eigen::Vector3f& radii, const Eigen::Vector3f& centre, int segments) {
  Mesh mesh;
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

Mesh Box(const Eigen::Vector3f& lo, const Eigen::Vector3f& hi) {
  Mesh mesh;
  for (int axis = 0; axis < 3; ++axis) {
    for (int side = 0; side < 2; ++side) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      Eigen::Vector3f normal = Eigen::Vector3f::Zero();
      normal[axis] = side ? 1.0f : -1.0f;
      const uint32_t base = static_cast<uint32_t>(mesh.positions.size());
      for (int corner = 0; corner < 4; ++corner) {
        Eigen::Vector3f p;
        p[axis] = side ? hi[axis] : lo[axis];
        p[u] = (corner == 1 || corner == 2) ? hi[u] : lo[u];
        p[v] = (corner >= 2) ? hi[v] : lo[v];
        mesh.positions.push_back(p);
        mesh.normals.push_back(normal);
      }
      // (u, v) is right-handed with axis, so the corner order is counter-clockwise seen from +axis.
      if (side) {
        mesh.indices.insert(mesh.indices.end(),
                            {base, base + 1, base + 2, base, base + 2, base + 3});
      } else {
        mesh.indices.insert(mesh.indices.end(),
                            {base, base + 2, base + 1, base, base + 3, base + 2});
      }
    }
  }
  return mesh;
}

Mesh FlatShaded(const scene::Polyhedron& polyhedron) {
  Mesh mesh;
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

std::vector<MeshPart> ActorParts(const scene::ActorKind& kind) {
  std::vector<MeshPart> parts;
  const auto f = [](double value) { return static_cast<float>(value); };
  switch (kind.shape) {
    case scene::ActorShape::kTree:
      parts.push_back({Cylinder(f(kind.trunk_radius), 0.0f,
                                f(std::max(kind.trunk_height, kind.canopy_base_height + 0.05)), 10),
                       ToVector(kind.trunk_color)});
      parts.push_back({Cone(f(kind.canopy_radius), f(kind.canopy_base_height),
                            f(kind.canopy_base_height + kind.canopy_height), 20),
                       ToVector(kind.color)});
      break;
    case scene::ActorShape::kBush:
      parts.push_back({Ellipsoid(kind.bush_radii.cast<float>(),
                                 Eigen::Vector3f(0, 0, f(kind.bush_radii.z())), 16),
                       ToVector(kind.color)});
      break;
    case scene::ActorShape::kRock:
      parts.push_back({FlatShaded(kind.polyhedron), ToVector(kind.color)});
      break;
    case scene::ActorShape::kGrass:
      parts.push_back({Cone(f(kind.radius), 0.0f, f(kind.height), 8), ToVector(kind.color)});
      break;
  }
  return parts;
}

std::vector<MeshPart> VehicleParts(const protocol::VehicleParams& vehicle) {
  const float length = static_cast<float>(vehicle.length);
  const float width = static_cast<float>(vehicle.width);
  const float radius = static_cast<float>(vehicle.wheel_radius);
  const float wheel_width = static_cast<float>(vehicle.wheel_width);
  const float body_bottom = 0.6f * radius;
  const float body_top = body_bottom + 0.55f;
  const float cabin_top = 1.2f;
  MeshPart body{
      Box({-0.5f * length, -0.5f * width, body_bottom}, {0.5f * length, 0.5f * width, body_top}),
      {0.95f, 0.55f, 0.08f}};
  MeshPart cabin{
      Box({-0.35f * length, -0.42f * width, body_top}, {0.12f * length, 0.42f * width, cabin_top}),
      {0.25f, 0.30f, 0.35f}};
  MeshPart wheels{{}, {0.08f, 0.08f, 0.08f}};
  const float half_base = 0.5f * static_cast<float>(vehicle.wheelbase);
  // Wheels half outside the body so that they show from the side.
  const float half_track = 0.5f * width;
  for (float x : {-half_base, half_base}) {
    for (float y : {-half_track, half_track}) {
      wheels.mesh.Append(Box({x - radius, y - 0.5f * wheel_width, 0.0f},
                             {x + radius, y + 0.5f * wheel_width, 2.0f * radius}));
    }
  }
  return {body, cabin, wheels};
}

}  // namespace asg::capture
