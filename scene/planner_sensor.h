// The planner driver's forward obstacle sensor: a fan of line-of-sight rays from a point above
// the vehicle whose obstacle hits vote into a planning::VoteGrid. It sees only what is in range,
// in its field of view and not hidden behind something nearer.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

#include "planning/vote_grid.h"
#include "scene/driver.h"

namespace asg::scene {

/// Where the sensor sits and what its fan looks like.
struct SensorSettings {
  double range = 20.0;  ///< [m] rays stop here
  double fov = 90.0;    ///< [deg] horizontal field of view, centred on the chassis' forward axis
  double azimuth_step = 3.0;  ///< [deg] between neighbouring rays of one scan; every other scan is
                              ///< shifted by half a step, so two scans cover the fan at step / 2
  /// [deg] one fan per elevation, negative down. From 2.3 m above flat ground (the default mount
  /// on the default vehicle) the fans meet the ground at 44, 19 and 11 m, so an obstacle 0.9 m
  /// tall is in view between 11 and 19 m ahead and one 0.6 m tall between 8 and 11 or 14 and 19 m.
  std::vector<double> elevations = {-3.0, -7.0, -12.0};
  Eigen::Vector3d mount{0.0, 0.0, 1.5};  ///< [m] sensor origin in the chassis frame
                                         ///< (x forward, y left, z up)
};

/// Casts the fan (one RayCaster::CastFan per scan) and votes the hits. Owned by one driver; not
/// thread-safe.
class ObstacleSensor {
 public:
  explicit ObstacleSensor(const SensorSettings& settings);

  /// Casts one scan from a chassis at `position` [m, world] with `orientation` (chassis to world)
  /// and adds one vote per obstacle hit. Appends every cell that became occupied to
  /// `newly_occupied`. Returns the number of rays cast.
  int Scan(const RayCaster& rays, const Eigen::Vector3d& position,
           const Eigen::Quaterniond& orientation, planning::VoteGrid& votes,
           std::vector<int>& newly_occupied);

  /// Number of scans cast so far.
  int scans() const { return scans_; }

 private:
  SensorSettings settings_;
  int scans_ = 0;
  std::vector<Eigen::Vector3d> directions_;  ///< world directions of the current scan's rays
  std::vector<RayHit> hits_;                 ///< their hits
};

}  // namespace asg::scene
