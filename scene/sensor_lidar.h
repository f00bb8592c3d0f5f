// The lidar model: one full revolution per sample, traced with Embree against the terrain and the
// actors (scene/embree_scene.h).
//
// Reading header (besides the common keys, frame_id = the sensor's name):
//   {"encoding": "xyz32f", "point_step": 12, "count": N,
//    "sensor_pose": {"position", "orientation"}  (sensor frame -> world at the sample),
//    "horizontal_resolution": H, "vertical_angles": [deg...]}
// data: N points of three little-endian float32 (x, y, z) [m] in the sensor frame (x forward,
// y left, z up of the mount), N * 12 bytes. Points come azimuth by azimuth (azimuth k * 360 / H
// degrees counter-clockwise from the sensor's x axis, k = 0 .. H-1), and within one azimuth in
// the order of vertical_angles; rays that hit nothing within [min_range, range] give no point.
#pragma once

#include <vector>

#include "protocol/sensor_specs.h"
#include "scene/embree_scene.h"
#include "scene/sensor_reading.h"

namespace asg::scene {

/// A lidar mounted on the vehicle. Holds the scene by reference (it must outlive the sensor);
/// Sample is const and thread-safe.
class LidarSensor {
 public:
  LidarSensor(const protocol::LidarSpec& spec, const EmbreeScene& scene);

  /// One sweep at the input's vehicle pose.
  SensorReading Sample(const SensorInput& input) const;

  /// Sensor-frame unit directions of the rays, azimuth-major (see the file comment).
  const std::vector<Eigen::Vector3d>& directions() const { return directions_; }

 private:
  protocol::LidarSpec spec_;
  const EmbreeScene& scene_;
  Eigen::Isometry3d mount_;                  ///< sensor -> body
  std::vector<Eigen::Vector3d> directions_;  ///< sensor frame
};

}  // namespace asg::scene
