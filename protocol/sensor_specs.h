// The sensors a run offers to external vehicle nodes (RunScenarioRequest::vehicle_nodes), modelled
// on scenario_simulator_v2's simulation_api_schema sensor configurations.
//
// Frames: the world is north-west-up (x north, y west, z up); the vehicle body frame is x forward,
// y left, z up, origin at the chassis centre. A sensor frame is the body frame moved by its
// SensorMount: offset in the body frame, then rotated by yaw about z, pitch about the new y and
// roll about the new x (intrinsic z-y'-x'', the ROS rpy convention).
//
// JSON: VehicleNodesSpec is {"count", "sync", "realtime_factor", "step_deadline", "sensors": [...]}
// where each sensor is {"type": "camera"|"lidar"|"occupancy_grid"|"imu"|"detection", "name", ...}
// with only the fields of its type; every field but "type" and "name" is optional and has the
// default below. Odometry (OdometryWithoutCovariance) is sent to vehicle nodes with every control
// tick and takes no entry here; "odometry" is not a sensor type.
//
// Decoding is strict (messages_json.h): unknown keys, out-of-range values and duplicate sensor
// names throw DecodeError naming the path, e.g. "vehicle_nodes.sensors[2].name".
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "json/declare.h"
#include "protocol/geometry.h"

namespace asg::protocol {

/// Where a sensor sits on the vehicle. JSON: {"offset": {"x","y","z"}, "roll", "pitch", "yaw"}.
struct SensorMount {
  Vector3 offset;      ///< [m] sensor origin in the body frame (x forward, y left, z up)
  double roll = 0.0;   ///< [deg] about the sensor x axis, applied last
  double pitch = 0.0;  ///< [deg] about the sensor y axis (positive tilts x down)
  double yaw = 0.0;    ///< [deg] about the body z axis, applied first (positive turns left)
  bool operator==(const SensorMount&) const = default;
};

/// A pinhole camera rendered by the capture module; images are row-major, top row first.
struct CameraSpec {
  std::string name;                           ///< unique among the sensors
  SensorMount mount{Vector3{1.5, 0.0, 1.4}};  ///< looks along its x axis
  uint32_t width = 256;                       ///< [px] > 0
  uint32_t height = 256;                      ///< [px] > 0
  double fov = 90.0;                          ///< [deg] horizontal field of view, (0, 180)
  double rate = 15.0;                         ///< [Hz] > 0
  bool colour = true;                         ///< send an RGB image
  bool depth = true;                          ///< send a depth image (metres, float32)
  bool segmentation = false;                  ///< send a per-pixel actor label image
  bool operator==(const CameraSpec&) const = default;
};

/// A spinning lidar: horizontal_resolution azimuths per revolution times one beam per vertical
/// angle, swept in full at each sample.
struct LidarSpec {
  std::string name;                           ///< unique among the sensors
  SensorMount mount{Vector3{0.0, 0.0, 1.8}};  ///< spins about its z axis
  uint32_t horizontal_resolution = 360;       ///< rays per revolution, > 0
  /// [deg] beam elevations above the sensor xy plane, each in [-90, 90]; at least one.
  std::vector<double> vertical_angles{-15, -13, -11, -9, -7, -5, -3, -1, 1, 3, 5, 7, 9, 11, 13, 15};
  double range = 50.0;     ///< [m] farthest return, > min_range
  double min_range = 0.5;  ///< [m] nearer returns are dropped, >= 0
  double rate = 10.0;      ///< [Hz] > 0
  bool operator==(const LidarSpec&) const = default;
};

/// A 2D occupancy grid centred on the vehicle and aligned with its heading: cell (column i, row j)
/// covers body-frame x in [-width/2 + i, -width/2 + i + 1) * resolution (forward) and y in
/// [-height/2 + j, -height/2 + j + 1) * resolution (left), projected to the ground plane.
struct OccupancyGridSpec {
  std::string name;         ///< unique among the sensors
  double resolution = 0.5;  ///< [m] cell edge, > 0
  uint32_t width = 80;      ///< cells along the vehicle's x (forward), > 0
  uint32_t height = 80;     ///< cells along the vehicle's y (left), > 0
  double range = 20.0;      ///< [m] only obstacles whose centre is this close are marked, > 0
  double rate = 10.0;       ///< [Hz] > 0
  bool operator==(const OccupancyGridSpec&) const = default;
};

/// An inertial measurement unit at the vehicle origin, axes of the body frame.
struct ImuSpec {
  std::string name;                        ///< unique among the sensors
  double rate = 60.0;                      ///< [Hz] > 0
  double orientation_noise = 0.0;          ///< [rad] stddev of each roll/pitch/yaw error, >= 0
  double angular_velocity_noise = 0.0;     ///< [rad/s] stddev per axis, >= 0
  double linear_acceleration_noise = 0.0;  ///< [m/s^2] stddev per axis, >= 0
  uint64_t seed = 0;                       ///< mixed with the run seed and the sensor name
  bool add_gravity = true;                 ///< report specific force (+9.81 m/s^2 up at rest)
  bool operator==(const ImuSpec&) const = default;
};

/// An object detector reporting the visible non-traversable actors near the vehicle.
struct DetectionSpec {
  std::string name;                       ///< unique among the sensors
  double range = 30.0;                    ///< [m] horizontal distance limit, > 0
  double rate = 10.0;                     ///< [Hz] > 0
  double pos_noise_stddev = 0.0;          ///< [m] Gaussian noise on x and y, >= 0
  double probability_of_lost = 0.0;       ///< chance each detection is dropped, [0, 1]
  double object_recognition_delay = 0.0;  ///< [s] time in range before first report, >= 0
  uint64_t seed = 0;                      ///< mixed with the run seed and the sensor name
  bool operator==(const DetectionSpec&) const = default;
};

/// One sensor: `type` selects which member is meaningful; the others keep their defaults.
/// JSON: the selected member's fields flattened beside "type".
struct SensorSpec {
  enum class Type : uint8_t { kCamera, kLidar, kOccupancyGrid, kImu, kDetection };
  Type type = Type::kCamera;
  CameraSpec camera;                 ///< type "camera"
  LidarSpec lidar;                   ///< type "lidar"
  OccupancyGridSpec occupancy_grid;  ///< type "occupancy_grid"
  ImuSpec imu;                       ///< type "imu"
  DetectionSpec detection;           ///< type "detection"

  /// The selected member's name.
  const std::string& Name() const;
  /// [Hz] the selected member's rate.
  double Rate() const;
  /// The JSON name of the type: "camera", "lidar", "occupancy_grid", "imu" or "detection".
  static const char* TypeName(Type type);

  bool operator==(const SensorSpec&) const = default;
};

/// External vehicle nodes of a run and the sensors offered to them.
struct VehicleNodesSpec {
  uint32_t count = 0;               ///< vehicle nodes driving; 0 = the built-in driver drives
  bool sync = true;                 ///< simulation waits for every node's control each tick
  double realtime_factor = 1.0;     ///< pacing when sync is false (sim s per wall s), > 0
  double step_deadline = 10.0;      ///< [s] wall time a node may take per tick when sync, > 0
  std::vector<SensorSpec> sensors;  ///< names unique within the list
  bool operator==(const VehicleNodesSpec&) const = default;
};

// JSON (nlohmann ADL hooks and path-prefixed strict decoding, as in messages_json.h).
using Json = nlohmann::ordered_json;
ASG_DECLARE_JSON(SensorMount);
ASG_DECLARE_JSON(CameraSpec);
ASG_DECLARE_JSON(LidarSpec);
ASG_DECLARE_JSON(OccupancyGridSpec);
ASG_DECLARE_JSON(ImuSpec);
ASG_DECLARE_JSON(DetectionSpec);
ASG_DECLARE_JSON(SensorSpec);
ASG_DECLARE_JSON(VehicleNodesSpec);

}  // namespace asg::protocol
