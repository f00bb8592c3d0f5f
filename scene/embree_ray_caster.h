// The run's line-of-sight RayCaster (scene/driver.h) traced with Embree instead of Bullet: the
// terrain and the collision shapes of the non-traversable actors (an EmbreeScene of
// ActorShapes::kCollision), so it sees what PhysicsWorld::Cast sees, to within the collision
// meshes' few millimetres and single-precision rounding. A fan is traced as packets of 16 rays.
//
// The scene is built at the first cast, so a run whose driver casts no ray builds none, and is kept
// for every later run on the same World. Results are deterministic: the same world and rays give
// the same hits.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "scene/driver.h"
#include "scene/embree_scene.h"
#include "scene/world.h"

namespace asg::scene {

/// Embree line-of-sight queries on one World. Owned by the runner of that world; not thread-safe
/// (the scene is built lazily and the fan buffers are reused).
class EmbreeRayCaster : public RayCaster {
 public:
  /// Builds nothing yet; `world` must outlive the caster.
  explicit EmbreeRayCaster(const World& world);
  ~EmbreeRayCaster() override;

  RayHit Cast(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
              double max_range) const override;
  void CastFan(const Eigen::Vector3d& origin, std::span<const Eigen::Vector3d> directions,
               double max_range, std::span<RayHit> hits) const override;

  /// Whether the Embree scene has been built (by a first cast).
  bool built() const { return scene_ != nullptr; }

 private:
  const EmbreeScene& Scene() const;

  const World& world_;
  mutable std::unique_ptr<const EmbreeScene> scene_;
  mutable std::vector<SceneRay> rays_;  ///< fan buffers, reused across calls
  mutable std::vector<SceneHit> scene_hits_;
};

}  // namespace asg::scene
