// The world of one scenario: the landscape, the placed actor instances, the vehicle's start and
// goal and the sun, assembled from a RunScenarioRequest and an ActorCatalog.
//
// A World is a plain value built once per request and read-only afterwards (thread-safe for
// concurrent reads); the physics simulation and the capture renderer both read it. Frames:
// north-west-up world frame of protocol/geometry.h, metres and degrees.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <memory>
#include <vector>

#include "protocol/messages.h"
#include "scene/actor_catalog.h"
#include "scene/scene_error.h"
#include "terrain/landscape.h"

namespace asg::scene {

/// One visible instance of an actor class placed on the ground.
struct ActorInstance {
  const ActorKind* kind = nullptr;  ///< its class; owned by the catalog, which outlives the World
  int ssa_index = 0;                ///< index in scene_description.ssa_array
  int instance_index = 0;           ///< index in that layout's per-instance arrays
  /// Its index among every instance of every ssa_array entry, in request order (invisible
  /// instances counted): protocol::FirstContact::actor_index; -1 for an actor the request does
  /// not hold (spawned into an interactive run).
  int request_index = -1;
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  ///< [m] world; z = ground height at x, y
  /// Actor frame -> world: yaw about z, then (for kinds that are not upright) the tilt that turns
  /// +z onto the ground normal at (x, y); i.e. R = R_tilt * R_z(yaw).
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
  double yaw = 0.0;          ///< [deg] as requested, CCW from +x
  double scale = 1.0;        ///< uniform scale applied to every dimension of the kind
  bool cast_shadow = true;   ///< whether the renderer lets it cast a shadow
  bool traversable = false;  ///< IsTraversable(*kind, scale): no collision when true

  /// [m] height of this instance: kind->nominal_height * scale.
  double Height() const { return kind->nominal_height * scale; }
};

/// Everything static about one scenario.
struct World {
  /// The terrain. Shared because one Landscape is cached and reused across runs whose
  /// LandscapeDescription is unchanged; immutable.
  std::shared_ptr<const terrain::Landscape> landscape;
  /// Visible instances in request order (ssa index, then instance index). Invisible instances
  /// (visible = false) are absent: they neither collide nor render.
  std::vector<ActorInstance> actors;
  Eigen::Vector3d start = Eigen::Vector3d::Zero();  ///< [m] start; z = ground height there
  double start_yaw = 0.0;                           ///< [deg] CCW from +x
  Eigen::Vector3d goal = Eigen::Vector3d::Zero();   ///< [m] goal; z = ground height (clamped)
  double goal_radius = 5.0;                         ///< [m]
  double sun_inclination = 30.0;                    ///< [deg] sun elevation above the horizon
  double sun_yaw = 0.0;                             ///< [deg] direction the light travels
  /// [m] distance over which the perspective captures' haze reaches 63 %; 0 = 8 x the
  /// landscape's nominal size (set by the interactive worker's WeatherConfig)
  double haze_distance = 0.0;
};

/// Puts `actor` (its kind set) on the ground of `landscape` at (x, y) [m] with heading `yaw`
/// [deg]: position z = ground height, orientation R_tilt * R_z(yaw) (no tilt for upright kinds).
/// (x, y) must lie on the landscape grid.
void PlaceOnGround(const terrain::Landscape& landscape, double x, double y, double yaw,
                   ActorInstance* actor);

/// Builds the world of `request`. Reuses `cached_landscape` when it is non-null and its
/// description equals request.scene_description.landscape; otherwise builds a new Landscape.
/// Throws SceneError naming the ssa index, path_name, instance and value for an unknown
/// path_name, per-instance arrays whose length differs from num_instances, a position off the
/// landscape grid, a non-finite yaw, or a non-positive or non-finite scale, and for a start
/// location off the grid or non-finite start/goal values; throws std::invalid_argument (from
/// terrain::Landscape) for a bad LandscapeDescription. The catalog must outlive the World.
World BuildWorld(const protocol::RunScenarioRequest& request, const ActorCatalog& catalog,
                 std::shared_ptr<const terrain::Landscape> cached_landscape = nullptr);

}  // namespace asg::scene
