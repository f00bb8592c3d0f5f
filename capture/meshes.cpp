#include "capture/meshes.h"

#include <Eigen/Geometry>
#include <utility>

namespace asg::capture {
namespace {

Eigen::Vector3f ToVector(const scene::Rgb& rgb) {
  return {static_cast<float>(rgb[0]), static_cast<float>(rgb[1]), static_cast<float>(rgb[2])};
}

}  // namespace

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

std::vector<MeshPart> ColouredActorParts(const scene::ActorKind& kind) {
  std::vector<MeshPart> parts;
  for (scene::ActorPart& part : scene::ActorParts(kind)) {
    parts.push_back({std::move(part.mesh), ToVector(part.color)});
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
