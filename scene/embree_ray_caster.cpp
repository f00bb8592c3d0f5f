// Line-of-sight queries traced with Embree against the terrain and the collision meshes.
#include "scene/embree_ray_caster.h"

#include "core/check.h"

namespace asg::scene {
namespace {

RayHit ToRayHit(const SceneHit& hit, double max_range) {
  RayHit ray_hit;
  ray_hit.hit = hit.Hit();
  ray_hit.distance = ray_hit.hit ? hit.distance : max_range;
  ray_hit.obstacle = hit.actor >= 0;
  return ray_hit;
}

}  // namespace

EmbreeRayCaster::EmbreeRayCaster(const World& world) : world_(world) {}

EmbreeRayCaster::~EmbreeRayCaster() = default;

const EmbreeScene& EmbreeRayCaster::Scene() const {
  if (scene_ == nullptr) {
    scene_ = std::make_unique<const EmbreeScene>(world_, ActorShapes::kCollision);
  }
  return *scene_;
}

RayHit EmbreeRayCaster::Cast(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                             double max_range) const {
  return ToRayHit(Scene().Cast(origin, direction, max_range), max_range);
}

void EmbreeRayCaster::CastFan(const Eigen::Vector3d& origin,
                              std::span<const Eigen::Vector3d> directions, double max_range,
                              std::span<RayHit> hits) const {
  ASG_CHECK(directions.size() == hits.size());
  rays_.resize(directions.size());
  scene_hits_.resize(directions.size());
  for (size_t k = 0; k < directions.size(); ++k) {
    rays_[k] =
        SceneRay{origin.cast<float>(), directions[k].cast<float>(), static_cast<float>(max_range)};
  }
  Scene().CastBatch(rays_, scene_hits_);
  for (size_t k = 0; k < directions.size(); ++k) hits[k] = ToRayHit(scene_hits_[k], max_range);
}

}  // namespace asg::scene
