// Triangle meshes of the Bullet collision shapes of scene/physics_world.cpp.
#include "scene/collision_meshes.h"

#include <LinearMath/btConvexHullComputer.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <vector>

#include "core/check.h"

namespace asg::scene {
namespace {

// Appends the positions and triangles of `part` to `out` (collision meshes carry no normals).
void AppendPart(TriangleMesh part, TriangleMesh& out) {
  part.normals.clear();
  out.Append(part);
}

// How far to move a hull vertex whose faces have `normals[faces[k]]` so that each of those faces
// moves out by at least `margin`: along a direction d with d . n > 0 for every face normal n (at a
// convex vertex one exists), by margin / min(d . n). d starts as the mean normal; where many faces
// on one side pull the mean so far that another face is at or past 90 degrees (a vertex of a
// finely faceted hull), d is moved toward the worst face until every face is comfortably covered.
Eigen::Vector3d PushOut(const std::vector<Eigen::Vector3d>& normals, const std::vector<int>& faces,
                        double margin) {
  Eigen::Vector3d d = Eigen::Vector3d::Zero();
  for (int f : faces) d += normals[f];
  if (faces.empty() || d.norm() < 1e-12) return Eigen::Vector3d::Zero();
  d.normalize();
  constexpr double kEnough = 0.2;  // cos of about 78 degrees
  double least = 1.0;
  for (int iteration = 0; iteration < 64; ++iteration) {
    least = 1.0;
    int worst = faces.front();
    for (int f : faces) {
      const double dot = normals[f].dot(d);
      if (dot < least) {
        least = dot;
        worst = f;
      }
    }
    if (least >= kEnough) break;
    d = (d + normals[worst]).normalized();
  }
  // Bounded: a face still below kEnough after the iterations (a numerically flat vertex) moves
  // out by less than the margin rather than the vertex moving far away.
  return (margin / std::max(least, kEnough)) * d;
}

// The convex hull of the scaled polyhedron's vertices with every face pushed out by `margin`:
// each hull vertex moves along the mean normal of its faces far enough that every one of those
// faces moves out by at least `margin`. Faces are fanned into triangles.
TriangleMesh GrownHull(const Polyhedron& polyhedron, double scale, double margin) {
  std::vector<double> coordinates;
  for (const Eigen::Vector3f& v : polyhedron.vertices) {
    for (int k = 0; k < 3; ++k) coordinates.push_back(scale * v[k]);
  }
  btConvexHullComputer hull;
  hull.compute(coordinates.data(), 3 * sizeof(double), static_cast<int>(polyhedron.vertices.size()),
               0, 0);
  const int vertex_count = hull.vertices.size();
  std::vector<Eigen::Vector3d> vertices(vertex_count);
  for (int i = 0; i < vertex_count; ++i) {
    const btVector3& v = hull.vertices[i];
    vertices[i] = Eigen::Vector3d(v.x(), v.y(), v.z());
  }
  // Each face as a loop of vertex indices, and its outward unit normal.
  std::vector<std::vector<int>> faces;
  std::vector<Eigen::Vector3d> normals;
  std::vector<std::vector<int>> faces_of_vertex(vertex_count);
  for (int f = 0; f < hull.faces.size(); ++f) {
    const btConvexHullComputer::Edge* first = &hull.edges[hull.faces[f]];
    std::vector<int> loop;
    const btConvexHullComputer::Edge* edge = first;
    do {
      loop.push_back(edge->getSourceVertex());
      edge = edge->getNextEdgeOfFace();
    } while (edge != first);
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();  // Newell's method
    for (size_t k = 0; k < loop.size(); ++k) {
      normal += vertices[loop[k]].cross(vertices[loop[(k + 1) % loop.size()]]);
    }
    for (int v : loop) faces_of_vertex[v].push_back(static_cast<int>(faces.size()));
    normals.push_back(normal.normalized());
    faces.push_back(std::move(loop));
  }
  TriangleMesh mesh;
  for (int i = 0; i < vertex_count; ++i) {
    mesh.positions.push_back(
        (vertices[i] + PushOut(normals, faces_of_vertex[i], margin)).cast<float>());
  }
  for (const std::vector<int>& loop : faces) {
    for (size_t k = 1; k + 1 < loop.size(); ++k) {
      mesh.indices.insert(mesh.indices.end(),
                          {static_cast<uint32_t>(loop[0]), static_cast<uint32_t>(loop[k]),
                           static_cast<uint32_t>(loop[k + 1])});
    }
  }
  return mesh;
}

}  // namespace

TriangleMesh CollisionMesh(const ActorKind& kind, double scale) {
  const float radius = static_cast<float>(kind.collision.radius * scale);
  const float height = static_cast<float>(kind.collision.height * scale);
  const Eigen::Vector3f ball(radius, radius, radius);
  TriangleMesh mesh;
  switch (kind.collision.type) {
    case CollisionType::kCylinder:
      AppendPart(CylinderMesh(radius, 0.0f, height, kCollisionSegments), mesh);
      return mesh;
    case CollisionType::kCapsule: {
      // Bullet's capsule: centre at half the height, straight part height - 2 radius (>= 0).
      const float centre = 0.5f * height;
      const float half = 0.5f * std::max(0.0f, height - 2.0f * radius);
      if (half > 0.0f) {
        AppendPart(CylinderMesh(radius, centre - half, centre + half, kCollisionSegments), mesh);
      }
      for (float z : {centre - half, centre + half}) {
        AppendPart(EllipsoidMesh(ball, Eigen::Vector3f(0, 0, z), kCollisionSegments), mesh);
        if (half == 0.0f) break;  // a capsule no taller than its width is one sphere
      }
      return mesh;
    }
    case CollisionType::kSphere:
      AppendPart(EllipsoidMesh(ball, Eigen::Vector3f(0, 0, radius), kCollisionSegments), mesh);
      return mesh;
    case CollisionType::kConvexHull:
      return GrownHull(kind.polyhedron, scale, kHullMargin);
  }
  ASG_CHECK(false);
  return mesh;
}

TriangleMesh PlacedCollisionMesh(const ActorInstance& actor) {
  TriangleMesh mesh = CollisionMesh(*actor.kind, actor.scale);
  const Eigen::Matrix3f rotation = actor.orientation.toRotationMatrix().cast<float>();
  const Eigen::Vector3f position = actor.position.cast<float>();
  for (Eigen::Vector3f& p : mesh.positions) p = position + rotation * p;
  return mesh;
}

}  // namespace asg::scene
