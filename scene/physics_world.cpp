// Terrain heightfield and per-run Bullet dynamics world.
#include "scene/physics_world.h"

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>

#include <algorithm>

#include "core/check.h"

namespace asg::scene {
namespace {

constexpr double kGravity = 9.81;         // [m/s^2]
constexpr double kTerrainFriction = 0.8;  // chassis-on-ground sliding friction
constexpr double kActorFriction = 0.6;

// The collision shape of one instance and the offset [m, actor frame] of its centre above the
// actor's ground point.
std::unique_ptr<btCollisionShape> MakeActorShape(const ActorInstance& actor, double* lift) {
  const ActorKind& kind = *actor.kind;
  const double s = actor.scale;
  const double radius = kind.collision.radius * s;
  const double height = kind.collision.height * s;
  switch (kind.collision.type) {
    case CollisionType::kCylinder:
      *lift = 0.5 * height;
      return std::make_unique<btCylinderShapeZ>(
          btVector3(btScalar(radius), btScalar(radius), btScalar(0.5 * height)));
    case CollisionType::kCapsule:
      *lift = 0.5 * height;
      return std::make_unique<btCapsuleShapeZ>(btScalar(radius),
                                               btScalar(std::max(0.0, height - 2.0 * radius)));
    case CollisionType::kSphere:
      *lift = radius;
      return std::make_unique<btSphereShape>(btScalar(radius));
    case CollisionType::kConvexHull: {
      *lift = 0.0;
      auto hull = std::make_unique<btConvexHullShape>();
      for (const Eigen::Vector3f& v : kind.polyhedron.vertices) {
        hull->addPoint(btVector3(btScalar(v.x() * s), btScalar(v.y() * s), btScalar(v.z() * s)),
                       false);
      }
      hull->recalcLocalAabb();
      return hull;
    }
  }
  ASG_CHECK(false);
  return nullptr;
}

}  // namespace

TerrainCollision::TerrainCollision(std::shared_ptr<const terrain::Landscape> landscape)
    : landscape_(std::move(landscape)) {
  ASG_CHECK(landscape_ != nullptr);
  const terrain::Landscape& land = *landscape_;
  const int n = land.vertices_per_side();
  const double min_height = land.min_height();
  const double max_height = land.max_height();
  // flipQuadEdges = true splits each cell along (i, j)-(i+1, j+1), matching terrain::Landscape.
  shape_ = std::make_unique<btHeightfieldTerrainShape>(
      n, n, land.heights().data(), btScalar(min_height), btScalar(max_height), 2, true);
  const double spacing = land.spacing();
  shape_->setLocalScaling(btVector3(btScalar(spacing), btScalar(spacing), 1));
  // Bullet centres the heightfield on its bounding box: vertex (i, j) sits at local
  // ((i - (n-1)/2) l, (j - (n-1)/2) l, h - (min + max)/2).
  const double centre = land.min_xy() + 0.5 * (n - 1) * spacing;
  transform_.setIdentity();
  transform_.setOrigin(
      btVector3(btScalar(centre), btScalar(centre), btScalar(0.5 * (min_height + max_height))));
}

TerrainCollision::~TerrainCollision() = default;

btCollisionShape* TerrainCollision::shape() const { return shape_.get(); }

PhysicsWorld::PhysicsWorld(const World& world, const TerrainCollision& terrain) : world_(world) {
  ASG_CHECK(world.landscape.get() == &terrain.landscape());
  configuration_ = std::make_unique<btDefaultCollisionConfiguration>();
  dispatcher_ = std::make_unique<btCollisionDispatcher>(configuration_.get());
  broadphase_ = std::make_unique<btDbvtBroadphase>();
  solver_ = std::make_unique<btSequentialImpulseConstraintSolver>();
  dynamics_ = std::make_unique<btDiscreteDynamicsWorld>(dispatcher_.get(), broadphase_.get(),
                                                        solver_.get(), configuration_.get());
  dynamics_->setGravity(btVector3(0, 0, btScalar(-kGravity)));
  dynamics_->getSolverInfo().m_solverMode &= ~SOLVER_RANDMIZE_ORDER;

  btRigidBody::btRigidBodyConstructionInfo terrain_info(0, nullptr, terrain.shape());
  terrain_info.m_startWorldTransform = terrain.transform();
  terrain_info.m_friction = btScalar(kTerrainFriction);
  terrain_body_ = std::make_unique<btRigidBody>(terrain_info);
  terrain_body_->setUserIndex(kTerrainUserIndex);
  dynamics_->addRigidBody(terrain_body_.get(), collision_group::kTerrain,
                          collision_group::kVehicle | collision_group::kRay);

  AddActorBodies();
}

void PhysicsWorld::AddActorBodies() {
  for (size_t i = 0; i < world_.actors.size(); ++i) {
    const ActorInstance& actor = world_.actors[i];
    if (actor.traversable) continue;
    double lift = 0.0;
    std::unique_ptr<btCollisionShape> shape = MakeActorShape(actor, &lift);
    const Eigen::Vector3d centre = actor.position + actor.orientation * Eigen::Vector3d(0, 0, lift);
    btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, shape.get());
    info.m_startWorldTransform = btTransform(ToBullet(actor.orientation), ToBullet(centre));
    info.m_friction = btScalar(kActorFriction);
    auto body = std::make_unique<btRigidBody>(info);
    body->setUserIndex(static_cast<int>(i));
    dynamics_->addRigidBody(body.get(), collision_group::kActor,
                            collision_group::kVehicle | collision_group::kRay);
    actor_shapes_.push_back(std::move(shape));
    actor_bodies_.push_back(std::move(body));
  }
}

void PhysicsWorld::RebuildActors() {
  for (auto& body : actor_bodies_) dynamics_->removeRigidBody(body.get());
  actor_bodies_.clear();
  actor_shapes_.clear();
  AddActorBodies();
}

PhysicsWorld::~PhysicsWorld() {
  // Objects the run added (the vehicle) must have been removed by their owners already.
  for (auto& body : actor_bodies_) dynamics_->removeRigidBody(body.get());
  dynamics_->removeRigidBody(terrain_body_.get());
}

void PhysicsWorld::Step(double dt) { dynamics_->stepSimulation(btScalar(dt), 0, btScalar(dt)); }

void PhysicsWorld::TouchedActors(const btCollisionObject* body, std::vector<int>* touched) const {
  touched->clear();
  const int manifolds = dispatcher_->getNumManifolds();
  for (int m = 0; m < manifolds; ++m) {
    const btPersistentManifold* manifold = dispatcher_->getManifoldByIndexInternal(m);
    const btCollisionObject* other = nullptr;
    if (manifold->getBody0() == body) other = manifold->getBody1();
    if (manifold->getBody1() == body) other = manifold->getBody0();
    if (other == nullptr || other->getUserIndex() < 0) continue;
    for (int c = 0; c < manifold->getNumContacts(); ++c) {
      if (manifold->getContactPoint(c).getDistance() <= kTouchDistance) {
        touched->push_back(other->getUserIndex());
        break;
      }
    }
  }
  std::sort(touched->begin(), touched->end());
  touched->erase(std::unique(touched->begin(), touched->end()), touched->end());
}

RayHit PhysicsWorld::Cast(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                          double max_range) const {
  const btVector3 from = ToBullet(origin);
  const btVector3 to = ToBullet(origin + direction * max_range);
  btCollisionWorld::ClosestRayResultCallback callback(from, to);
  callback.m_collisionFilterGroup = collision_group::kRay;
  callback.m_collisionFilterMask = collision_group::kTerrain | collision_group::kActor;
  dynamics_->rayTest(from, to, callback);
  RayHit hit;
  hit.distance = max_range;
  if (callback.hasHit()) {
    hit.hit = true;
    hit.distance = callback.m_closestHitFraction * max_range;
    hit.obstacle = callback.m_collisionObject->getUserIndex() >= 0;
  }
  return hit;
}

}  // namespace asg::scene
