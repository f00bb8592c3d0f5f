// Triangle meshes of the actor classes, generated from ActorKind so that every consumer (the
// lidar's Embree scene, the occupancy grid's footprints, the renderer in capture/) sees the same
// shapes: a tree is a 10-sided trunk prism plus a 20-sided canopy cone, a bush a 16-segment
// ellipsoid resting on the ground, a rock the catalog's polyhedron (flat faces) and grass an
// 8-sided cone. Meshes carry per-vertex normals for shading: smooth on curved surfaces, flat on
// caps and polyhedron faces, so vertices are duplicated where a normal changes.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "scene/actor_catalog.h"
#include "scene/world.h"

namespace asg::scene {

/// An indexed triangle mesh with per-vertex normals.
struct TriangleMesh {
  std::vector<Eigen::Vector3f> positions;  ///< [m] in the mesh's frame
  std::vector<Eigen::Vector3f> normals;    ///< unit, one per position
  std::vector<uint32_t> indices;           ///< three per triangle, counter-clockwise from outside

  /// Appends another mesh, shifting its indices.
  void Append(const TriangleMesh& other);
  /// Number of triangles.
  size_t TriangleCount() const { return indices.size() / 3; }
};

/// Segments around a tree trunk, a tree canopy, a bush and a grass tuft.
inline constexpr int kTrunkSegments = 10;
inline constexpr int kCanopySegments = 20;
inline constexpr int kBushSegments = 16;
inline constexpr int kGrassSegments = 8;

/// Closed prism of `segments` sides approximating a cylinder of radius [m] along +z, z0..z1 [m]:
/// smooth sides, flat caps.
TriangleMesh CylinderMesh(float radius, float z0, float z1, int segments);
/// Closed cone: base circle of radius [m] at z0, apex at z1 [m]; smooth sides, flat base.
TriangleMesh ConeMesh(float radius, float z0, float z1, int segments);
/// Closed ellipsoid with semi-axes radii [m] centred at centre [m], smooth.
TriangleMesh EllipsoidMesh(const Eigen::Vector3f& radii, const Eigen::Vector3f& centre,
                           int segments);
/// A polyhedron with one flat normal per face (vertices duplicated per triangle).
TriangleMesh FlatShadedMesh(const Polyhedron& polyhedron);

/// [m] top of a tree's trunk prism at scale 1: it reaches at least 5 cm into the canopy.
double TreeTrunkTop(const ActorKind& kind);

/// One part of an actor class drawn in one colour (a tree's trunk or canopy, a whole bush...).
struct ActorPart {
  TriangleMesh mesh;  ///< at scale 1 in the actor frame (origin on the ground)
  Rgb color;          ///< the catalog's colour of that part
};

/// The parts of an actor class: trunk + canopy for a tree, one part for the other shapes.
std::vector<ActorPart> ActorParts(const ActorKind& kind);

/// The whole visual shape of an actor class at scale 1 in its actor frame: its parts joined.
TriangleMesh ActorMesh(const ActorKind& kind);

/// ActorMesh(*actor.kind) placed in the world: p_world = position + orientation * (scale * p),
/// normals rotated with it.
TriangleMesh PlacedActorMesh(const ActorInstance& actor);

/// [m] radius of the circle about an instance's (x, y) that its obstacle footprint covers on the
/// ground: the trunk radius for a tree, the larger horizontal semi-axis for a bush, the footprint
/// radius for a rock or grass tuft; each times the instance's scale.
double FootprintRadius(const ActorInstance& actor);

}  // namespace asg::scene
