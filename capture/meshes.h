// Triangle meshes of what the capture draws: actor parts at scale 1 in their actor frame, and the
// vehicle in its body frame. Built on the CPU; scene_buffers.h uploads them.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "protocol/extensions.h"
#include "scene/actor_catalog.h"

namespace asg::capture {

/// An indexed triangle mesh with per-vertex normals.
struct Mesh {
  std::vector<Eigen::Vector3f> positions;  ///< [m] in the mesh's own frame
  std::vector<Eigen::Vector3f> normals;    ///< unit, one per position
  std::vector<uint32_t> indices;           ///< three per triangle, counter-clockwise from outside

  /// Appends another mesh (its indices shifted).
  void Append(const Mesh& other);
};

/// A mesh drawn in one colour.
struct MeshPart {
  Mesh mesh;
  Eigen::Vector3f color = Eigen::Vector3f::Ones();  ///< [0, 1] RGB base colour
};

/// Closed cylinder of radius [m] along +z from z0 to z1 [m], smooth sides, flat caps.
Mesh Cylinder(float radius, float z0, float z1, int segments);
/// Closed cone: base circle of radius [m] at z0, apex at z1 [m].
Mesh Cone(float radius, float z0, float z1, int segments);
/// Ellipsoid with semi-axes radii [m] centred at centre [m].
Mesh Ellipsoid(const Eigen::Vector3f& radii, const Eigen::Vector3f& centre, int segments);
/// Axis-aligned box between corners lo and hi [m], flat faces.
Mesh Box(const Eigen::Vector3f& lo, const Eigen::Vector3f& hi);
/// A polyhedron with one flat normal per face (vertices duplicated per triangle).
Mesh FlatShaded(const scene::Polyhedron& polyhedron);

/// The parts of an actor class at scale 1 in its actor frame (origin on the ground): a tree is
/// trunk + canopy, a bush an ellipsoid, a rock its polyhedron, grass a cone; colours from the
/// catalog.
std::vector<MeshPart> ActorParts(const scene::ActorKind& kind);

/// The vehicle in its body frame (x forward, y left, z up, origin on the ground under its
/// centre): a body box of length x width, a cabin, and four dark wheels; about 1.2 m tall.
std::vector<MeshPart> VehicleParts(const protocol::VehicleParams& vehicle);

}  // namespace asg::capture
