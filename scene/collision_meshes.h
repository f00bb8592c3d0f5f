// The collision shapes of the non-traversable actors (scene/physics_world.h) as closed triangle
// meshes, so that a triangle ray tracer (scene/embree_scene.h) sees what Bullet collides with:
// a cylinder as a prism of kCollisionSegments sides, a sphere as a latitude-longitude sphere of
// as many segments, a capsule as a cylinder and two spheres (the meshes overlap; the first hit of
// a ray is still on the capsule's surface), a convex hull as the polyhedron's convex hull grown by
// Bullet's collision margin. Every mesh is inscribed in or circumscribed about the Bullet shape
// to within a few millimetres.
#pragma once

#include "scene/actor_meshes.h"
#include "scene/world.h"

namespace asg::scene {

/// Sides of a collision cylinder's prism and segments around a collision sphere.
inline constexpr int kCollisionSegments = 64;

/// [m] Bullet's collision margin around convex hulls (CONVEX_DISTANCE_MARGIN): rays meet a hull
/// that much earlier than its polyhedron.
inline constexpr double kHullMargin = 0.04;

/// The collision shape of an instance of `kind` at `scale` in its actor frame (origin on the
/// ground, z up), as Bullet places it. Normals are left empty.
TriangleMesh CollisionMesh(const ActorKind& kind, double scale);

/// CollisionMesh of the instance placed in the world: p_world = position + orientation * p.
TriangleMesh PlacedCollisionMesh(const ActorInstance& actor);

}  // namespace asg::scene
