// Bullet collision and dynamics for one World: the terrain heightfield (shared across runs on the
// same landscape) and a per-run dynamics world holding the non-traversable actors as static
// bodies. Bullet runs in single precision (the Debian build's default).
#pragma once

#include <btBulletDynamicsCommon.h>

#include <memory>
#include <vector>

#include "scene/driver.h"
#include "scene/world.h"
#include "terrain/landscape.h"

class btHeightfieldTerrainShape;

namespace asg::scene {

/// Bullet collision filter groups of the scene's objects.
namespace collision_group {
inline constexpr int kTerrain = 1 << 6;  ///< the landscape heightfield
inline constexpr int kActor = 1 << 7;    ///< non-traversable actors
inline constexpr int kVehicle = 1 << 8;  ///< the vehicle's chassis
inline constexpr int kRay = 1 << 9;      ///< sensor and wheel rays (see terrain and actors only)
}  // namespace collision_group

/// Bullet user index of the terrain object; actors carry their index in World::actors (>= 0).
inline constexpr int kTerrainUserIndex = -2;
/// Bullet user index of the vehicle's chassis.
inline constexpr int kVehicleUserIndex = -3;

/// The landscape as a Bullet heightfield whose triangles are exactly those of
/// terrain::Landscape (the (i, j)-(i+1, j+1) diagonal of every cell). Immutable after
/// construction, so one instance serves every run on the same landscape; it reads the
/// Landscape's height array, which it keeps alive.
class TerrainCollision {
 public:
  explicit TerrainCollision(std::shared_ptr<const terrain::Landscape> landscape);
  ~TerrainCollision();
  TerrainCollision(const TerrainCollision&) = delete;
  TerrainCollision& operator=(const TerrainCollision&) = delete;

  const terrain::Landscape& landscape() const { return *landscape_; }
  const std::shared_ptr<const terrain::Landscape>& shared_landscape() const { return landscape_; }
  /// The heightfield shape, in its local frame (centred on its bounding box, as Bullet requires).
  btCollisionShape* shape() const;
  /// Places the shape so that vertex (i, j) lands at its world position.
  const btTransform& transform() const { return transform_; }

 private:
  std::shared_ptr<const terrain::Landscape> landscape_;
  std::unique_ptr<btHeightfieldTerrainShape> shape_;
  btTransform transform_;
};

/// One run's Bullet dynamics world: gravity, the terrain and the world's non-traversable actors.
/// Built fresh for every run (so no solver or contact state survives from a previous run) and
/// owned by that run; not thread-safe. Also the run's RayCaster.
class PhysicsWorld : public RayCaster {
 public:
  /// Builds the dynamics world; `world` and `terrain` must outlive it and describe the same
  /// landscape.
  PhysicsWorld(const World& world, const TerrainCollision& terrain);
  ~PhysicsWorld() override;
  PhysicsWorld(const PhysicsWorld&) = delete;
  PhysicsWorld& operator=(const PhysicsWorld&) = delete;

  btDiscreteDynamicsWorld* dynamics() { return dynamics_.get(); }
  const World& world() const { return world_; }
  /// Number of actors that collide (the non-traversable ones).
  int collision_actor_count() const { return static_cast<int>(actor_bodies_.size()); }

  /// Replaces the actor bodies with those of the world's actors as they are now (after the
  /// world's owner moved, added or removed actors); contact state with the old bodies is lost.
  void RebuildActors();

  /// Advances the simulation by one fixed step of dt [s].
  void Step(double dt);

  /// Indices in World::actors of the actors the body touches now: a contact point at a distance
  /// <= kTouchDistance. Sorted, no repeats; written into `touched` (cleared first).
  void TouchedActors(const btCollisionObject* body, std::vector<int>* touched) const;
  /// [m] contact distance up to which a contact counts as touching.
  static constexpr double kTouchDistance = 0.01;

  /// Closest hit of terrain or a non-traversable actor; the vehicle is transparent.
  RayHit Cast(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
              double max_range) const override;

 private:
  void AddActorBodies();

  const World& world_;
  std::unique_ptr<btDefaultCollisionConfiguration> configuration_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btBroadphaseInterface> broadphase_;
  std::unique_ptr<btSequentialImpulseConstraintSolver> solver_;
  std::unique_ptr<btDiscreteDynamicsWorld> dynamics_;
  std::unique_ptr<btRigidBody> terrain_body_;
  std::vector<std::unique_ptr<btCollisionShape>> actor_shapes_;
  std::vector<std::unique_ptr<btRigidBody>> actor_bodies_;
};

/// Bullet/Eigen conversions.
inline btVector3 ToBullet(const Eigen::Vector3d& v) {
  return btVector3(btScalar(v.x()), btScalar(v.y()), btScalar(v.z()));
}
inline Eigen::Vector3d ToEigen(const btVector3& v) { return {v.x(), v.y(), v.z()}; }
inline Eigen::Quaterniond ToEigen(const btQuaternion& q) { return {q.w(), q.x(), q.y(), q.z()}; }
inline btQuaternion ToBullet(const Eigen::Quaterniond& q) {
  return btQuaternion(btScalar(q.x()), btScalar(q.y()), btScalar(q.z()), btScalar(q.w()));
}

}  // namespace asg::scene
