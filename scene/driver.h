// The interface between a run and whatever drives its vehicle: a built-in driver (straight,
// idle, scripted, planner) now, an external vehicle node later. A driver is owned by one run and
// called from one thread.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <span>
#include <string>
#include <variant>

#include "protocol/messages.h"

namespace asg::scene {

/// The first thing a ray meets.
struct RayHit {
  double distance = 0.0;  ///< [m] along the ray; equals max_range when nothing was hit
  bool hit = false;       ///< something was hit within max_range
  bool obstacle = false;  ///< what was hit is a non-traversable actor (false: terrain or nothing)
};

/// Line-of-sight queries against the built world (terrain and non-traversable actors; the
/// vehicle itself and traversable actors are transparent). Owned by the run.
class RayCaster {
 public:
  virtual ~RayCaster() = default;
  /// Casts from origin [m, world] along the unit direction up to max_range [m].
  virtual RayHit Cast(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                      double max_range) const = 0;
  /// Casts one ray from origin [m, world] along each unit direction up to max_range [m] into the
  /// hit of the same index (`hits` has the size of `directions`). Gives what Cast gives per ray;
  /// this default calls it per ray, a caster may trace the fan as packets.
  virtual void CastFan(const Eigen::Vector3d& origin, std::span<const Eigen::Vector3d> directions,
                       double max_range, std::span<RayHit> hits) const {
    for (size_t k = 0; k < directions.size() && k < hits.size(); ++k) {
      hits[k] = Cast(origin, directions[k], max_range);
    }
  }
};

/// What a driver sees at one control tick.
struct DriverInput {
  double time = 0.0;  ///< [s] since the first control tick (0 at the first)
  const protocol::OdometryWithoutCovariance* odometry = nullptr;  ///< pose in world, body twist
  double roll = 0.0, pitch = 0.0, yaw = 0.0;  ///< [deg] chassis attitude (yaw from +x, CCW)
  double forward_speed = 0.0;                 ///< [m/s] along the chassis' forward axis
  const RayCaster* rays = nullptr;            ///< line-of-sight sensor queries
};

/// A driver's request to end the run at this tick without a result (an external vehicle node
/// failed, say); the run then ends as RunAborted with this reason.
struct DriverAbort {
  std::string reason;  ///< why the run cannot go on, naming the failing party
};

/// What a driver answers at one control tick: the control to hold until the next tick, or an
/// abort.
using DriverVerdict = std::variant<protocol::PhysXControl, DriverAbort>;

/// A driver turns what it sees into one verdict per control tick.
class Driver {
 public:
  virtual ~Driver() = default;
  /// Called once per control tick, in order, starting at time 0. The built-in drivers always
  /// answer with a control.
  virtual DriverVerdict Tick(const DriverInput& input) = 0;
};

/// What a driver knows about its task before the first tick.
struct DriverTask {
  protocol::Point start;            ///< [m] start location (z from the ground)
  double start_yaw = 0.0;           ///< [deg]
  protocol::Point goal;             ///< [m] goal location
  double goal_radius = 5.0;         ///< [m]
  double landscape_min = 0.0;       ///< [m] lowest x and y of the landscape grid
  double landscape_max = 60.0;      ///< [m] highest x and y of the landscape grid
  double control_period = 0.05;     ///< [s] time between ticks
  protocol::VehicleParams vehicle;  ///< the vehicle being driven
};

/// Creates the built-in driver a DriverSpec names. Throws std::invalid_argument on bad specs.
std::unique_ptr<Driver> MakeDriver(const protocol::DriverSpec& spec, const DriverTask& task);

}  // namespace asg::scene
