// What every vehicle-node sensor model (scene/sensor_*.h) takes and gives: the per-tick input, the
// reading (a JSON header plus a binary payload), the sampling schedule and the odometry packaging.
//
// Reading header, common keys: "name" (the sensor's name), "type" ("lidar", "occupancy_grid",
// "imu", "detection", "odometry"), "stamp" {"sec", "nanosec"} (simulation time of the sample) and
// "frame_id" (the frame the data is in: the sensor's name for its own frame, "world" for the world
// frame). Each sensor's header documents the layout of `data`; numbers in `data` are
// little-endian. Sensors whose whole output fits the header leave `data` empty.
#pragma once

#include <Eigen/Geometry>
#include <cstdint>
#include <string>

#include "protocol/messages_json.h"
#include "protocol/sensor_specs.h"

namespace asg::scene {

/// The vehicle state a sensor samples: what DriverInput's odometry carries.
struct SensorInput {
  double time = 0.0;                                           ///< [s] simulation time
  Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();      ///< body frame -> world [m]
  Eigen::Vector3d linear_velocity = Eigen::Vector3d::Zero();   ///< [m/s] body frame
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();  ///< [rad/s] body frame
};

/// One sample of one sensor: header JSON and the binary payload it describes.
struct SensorReading {
  json::Json header;  ///< see the file comment and each sensor's header
  std::string data;   ///< binary payload (a frame attachment); empty for header-only sensors
};

/// SensorInput of an odometry message at `time` [s].
SensorInput InputFromOdometry(double time, const protocol::OdometryWithoutCovariance& odometry);

/// Sensor frame -> body frame of a mount: translate by offset, rotate yaw (z), pitch (y'),
/// roll (x'') [deg].
Eigen::Isometry3d MountTransform(const protocol::SensorMount& mount);

/// The common header keys of a reading: name, type, stamp (from time [s]) and frame_id.
json::Json ReadingHeader(const std::string& name, const std::string& type, double time,
                         const std::string& frame_id);

/// A pose as protocol JSON {"position": {x,y,z}, "orientation": {x,y,z,w}}.
json::Json PoseJson(const Eigen::Isometry3d& pose);
/// A vector as protocol JSON {"x", "y", "z"}.
json::Json VectorJson(const Eigen::Vector3d& v);

/// The odometry sent with every control tick: header {"name": "odometry", "type": "odometry",
/// "stamp", "frame_id": "world", "child_frame_id", "pose" (world), "twist" (body frame: linear
/// [m/s], angular [rad/s])} as OdometryWithoutCovariance; data empty.
SensorReading OdometryReading(const protocol::OdometryWithoutCovariance& odometry);

/// When a sensor of a given rate samples. Due times are k / rate [s] for k = 0, 1, 2, ...; a
/// sensor samples at the first tick at or after a due time (1e-9 s tolerance), at most once per
/// tick. Due times that fall between two ticks collapse into the later tick, so a rate above the
/// control rate samples every tick and a rate that does not divide the control rate samples at
/// uneven intervals whose mean is 1 / rate. Not thread-safe.
class SensorSchedule {
 public:
  /// rate [Hz] > 0.
  explicit SensorSchedule(double rate) : rate_(rate) {}
  /// True when a due time has passed at `time` [s]; advances past `time` when it returns true.
  bool Due(double time);

 private:
  double rate_;
  int64_t next_ = 0;  ///< index k of the next due time
};

}  // namespace asg::scene
