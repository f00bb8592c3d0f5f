// The JSON headers of the sensor readings a Step carries (docs/vehicle-nodes.md "Sensor
// readings"), one struct per sensor type with every key the worker writes. "offset" and "size"
// [bytes] locate a reading's binary data in the Step frame's attachment; header-only readings
// (imu, detection) have size 0.
//
// Decoding is strict (an unknown key, a wrong type or a value out of range is refused) and worded
// for the node that reads them, the key and the value named:
//   "offset" is -4, not an integer >= 0        has no "size"        "width" is 0, not in 1..65536
// Whether the data fits the attachment is the reader's to check (nodes/readings.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json/declare.h"
#include "protocol/geometry.h"

namespace asg::protocol {

/// The keys every header starts with.
struct ReadingCommon {
  std::string name;      ///< the sensor's name
  std::string type;      ///< the sensor type: "lidar", "occupancy_grid", "camera", "imu", ...
  Time stamp;            ///< simulation time of the sample
  std::string frame_id;  ///< the frame the data is in
};

/// Where a reading's data lies in the attachment: the keys every header ends with.
struct ReadingSlice {
  uint64_t offset = 0;  ///< [bytes] from the attachment's start
  uint64_t size = 0;    ///< [bytes]
};
ASG_DECLARE_JSON(ReadingSlice);

/// A lidar sweep: `count` points of x, y, z float32 [m] in the sensor frame.
struct LidarReadingHeader : ReadingCommon, ReadingSlice {
  std::string encoding;                 ///< "xyz32f"
  uint32_t point_step = 12;             ///< [bytes] per point
  uint64_t count = 0;                   ///< points
  Pose sensor_pose;                     ///< sensor frame -> world [m]
  uint32_t horizontal_resolution = 0;   ///< azimuths per revolution
  std::vector<double> vertical_angles;  ///< [deg] beam elevations
};
ASG_DECLARE_JSON(LidarReadingHeader);

/// An occupancy grid: width x height cells of uint8 (0 free, 100 occupied), rows `step` apart.
struct OccupancyGridReadingHeader : ReadingCommon, ReadingSlice {
  std::string encoding;          ///< "mono8"
  uint32_t width = 1;            ///< cells along the grid's x, 1..65536
  uint32_t height = 1;           ///< cells along the grid's y, 1..65536
  std::optional<uint64_t> step;  ///< [bytes] per row; absent: width
  double resolution = 1.0;       ///< [m] cell edge, > 0
  Pose origin;                   ///< world pose of the corner of cell (0, 0)
  double range = 0.0;            ///< [m] the spec's range
};
ASG_DECLARE_JSON(OccupancyGridReadingHeader);

/// One camera image: rgb8, 32FC1 (z-depth [m]) or mono8 (labels), rows `step` apart.
struct CameraReadingHeader : ReadingCommon, ReadingSlice {
  std::string encoding;          ///< "rgb8", "32FC1" or "mono8"
  uint32_t width = 1;            ///< [px] 1..65536
  uint32_t height = 1;           ///< [px] 1..65536
  std::optional<uint64_t> step;  ///< [bytes] per row; absent: width * bytes per pixel
  bool is_bigendian = false;     ///< always false
  Pose pose;                     ///< camera frame -> world [m]
};
ASG_DECLARE_JSON(CameraReadingHeader);

/// An IMU sample; no data.
struct ImuReadingHeader : ReadingCommon, ReadingSlice {
  Quaternion orientation;       ///< body -> world
  Vector3 angular_velocity;     ///< [rad/s] body frame
  Vector3 linear_acceleration;  ///< [m/s^2] body frame
};
ASG_DECLARE_JSON(ImuReadingHeader);

/// One detected actor.
struct DetectedActor {
  std::string name;         ///< actor class (path_name)
  uint64_t ssa_index = 0;   ///< index into the scene's ssa_array
  uint64_t instance = 0;    ///< instance within that layout
  Point position;           ///< [m] world, with the sensor's noise
  Point relative_position;  ///< [m] vehicle body frame at the state's time
  double distance = 0.0;    ///< [m] horizontal distance from the vehicle
};
ASG_DECLARE_JSON(DetectedActor);

/// A detection report; no data.
struct DetectionReadingHeader : ReadingCommon, ReadingSlice {
  std::optional<Time> state_time;         ///< when the reported state was computed; absent: stamp
  std::vector<DetectedActor> detections;  ///< in the sensor's order
};
ASG_DECLARE_JSON(DetectionReadingHeader);

}  // namespace asg::protocol
