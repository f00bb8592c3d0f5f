// Triangle meshes of what the capture draws: actor parts at scale 1 in their actor frame, and the
// vehicle in its body frame. Built on the CPU; scene_buffers.h uploads them.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "protocol/extensions.h"
#include "scene/actor_catalog.h"
#include "scene/actor_meshes.h"

namespace asg::capture {

/// An indexed triangle mesh with per-vertex normals (the scene's, shared with the lidar).
using Mesh = scene::TriangleMesh;

/// A mesh drawn in one colour.
struct MeshPart {
  Mesh mesh;
  Eigen::Vector3f color = Eigen::Vector3f::Ones();  ///< [0, 1] RGB base colour
};

/// Axis-aligned box between corners lo and hi [m], flat faces.
Mesh Box(const Eigen::Vector3f& lo, const Eigen::Vector3f& hi);

/// The parts of an actor class at scale 1 in its actor frame (origin on the ground), as
/// scene::ActorParts generates them, with their catalog colours.
std::vector<MeshPart> ColouredActorParts(const scene::ActorKind& kind);

/// The vehicle in its body frame (x forward, y left, z up, origin on the ground under its
/// centre): a body box of length x width, a cabin, and four dark wheels; about 1.2 m tall.
std::vector<MeshPart> VehicleParts(const protocol::VehicleParams& vehicle);

}  // namespace asg::capture
