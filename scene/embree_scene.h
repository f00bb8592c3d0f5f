// An Embree 3 ray-tracing scene of one World: the terrain grid and its actors, either every
// visible actor's visual shape (scene/actor_meshes.h), traversable ones included, as the lidar
// sees them, or the collision shape of every non-traversable actor (scene/collision_meshes.h), as
// the line-of-sight RayCaster sees them. The vehicle is not in it.
//
// Built once per World and immutable afterwards; ray queries are thread-safe (Embree allows
// concurrent rtcIntersect calls on a committed scene). Owns its Embree device and scene.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <span>

#include "scene/world.h"

namespace asg::scene {

/// What one ray met first.
struct SceneHit {
  static constexpr int kNothing = -2;  ///< actor value: no hit within the range
  static constexpr int kTerrain = -1;  ///< actor value: the ground
  double distance = 0.0;               ///< [m] along the ray; the range when nothing was hit
  int actor = kNothing;                ///< index into World::actors, kTerrain or kNothing
  bool Hit() const { return actor != kNothing; }
};

/// One ray of a batch, in single precision as Embree traces it.
struct SceneRay {
  Eigen::Vector3f origin = Eigen::Vector3f::Zero();      ///< [m] world
  Eigen::Vector3f direction = Eigen::Vector3f::UnitX();  ///< unit, world
  float max_distance = 0.0f;                             ///< [m]
};

/// Which shapes of the actors a scene holds.
enum class ActorShapes {
  kVisual,     ///< every actor's visual mesh (ActorMesh), traversable actors included
  kCollision,  ///< the collision mesh (CollisionMesh) of each non-traversable actor only
};

/// The ray-tracing scene of one World.
class EmbreeScene {
 public:
  /// Builds the scene from the world's landscape and the `shapes` of its actors. The World need
  /// not outlive it. Throws SceneError when Embree fails to create its device or scene.
  explicit EmbreeScene(const World& world, ActorShapes shapes = ActorShapes::kVisual);
  ~EmbreeScene();
  EmbreeScene(const EmbreeScene&) = delete;
  EmbreeScene& operator=(const EmbreeScene&) = delete;

  /// The first surface along the unit direction from origin [m, world] within max_distance [m].
  SceneHit Cast(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                double max_distance) const;

  /// Casts every ray of `rays` into `hits` (same size), 16 at a time with rtcIntersect16.
  void CastBatch(std::span<const SceneRay> rays, std::span<SceneHit> hits) const;
  /// As CastBatch with one rtcIntersect1 per ray (kept for comparison in the benchmark).
  void CastEach(std::span<const SceneRay> rays, std::span<SceneHit> hits) const;

  /// Number of triangles of the terrain and of all actors.
  size_t terrain_triangles() const { return terrain_triangles_; }
  size_t actor_triangles() const { return triangle_actor_.size(); }

 private:
  struct Handles;
  /// Maps an Embree hit (geometry id, primitive id) to SceneHit::actor.
  int ActorOf(unsigned geometry, unsigned primitive) const;

  std::unique_ptr<Handles> handles_;
  std::vector<int> triangle_actor_;  ///< actor index of each actor triangle
  size_t terrain_triangles_ = 0;
};

}  // namespace asg::scene
