// Step: one control tick as a vehicle node sees it (docs/vehicle-nodes.md, data plane step 3):
// the tick, its time, the vehicle's odometry and typed access to the sensor readings due then.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "nodes/readings.h"
#include "protocol/node_messages.h"

namespace asg::nodes {

/// [deg] yaw of an orientation (counter-clockwise from +x), computed exactly as the simulator
/// computes the chassis yaw it gives its built-in drivers, so a node reproduces them bit for bit.
double YawDegrees(const protocol::Quaternion& orientation);

/// A Step message and its attachment. Owns both; the readings are decoded on demand, each call
/// decoding afresh. Immutable after construction, so const methods are thread-safe.
class Step {
 public:
  /// Wraps a decoded Step and the frame's attachment.
  Step(protocol::StepRequest request, std::string attachment);

  /// The scenario the tick belongs to.
  uint32_t scenario_number() const { return request_.scenario_number; }
  /// Control tick index, 0 at the first control input.
  uint32_t tick() const { return request_.tick; }
  /// [s] simulation time, tick * control_period.
  double time() const { return request_.time; }
  /// The vehicle's odometry: world pose [m], body-frame twist [m/s, rad/s].
  const protocol::OdometryWithoutCovariance& odometry() const { return request_.odometry; }
  /// [deg] the vehicle's yaw from the odometry (see YawDegrees).
  double yaw() const { return YawDegrees(request_.odometry.pose.orientation); }

  /// The reading headers, in the order sent.
  const std::vector<json::Json>& readings() const { return request_.readings; }
  /// The binary attachment the headers point into.
  std::string_view attachment() const { return attachment_; }
  /// True when a reading of this sensor name is in the Step.
  bool Has(std::string_view name) const;
  /// The first header with this name, or nullptr.
  const json::Json* Find(std::string_view name) const;
  /// The first header with this name and encoding, or nullptr (camera images share the name).
  const json::Json* Find(std::string_view name, std::string_view encoding) const;

  /// The lidar reading of a sensor. Throws ReadingError when missing or malformed.
  LidarPoints Lidar(std::string_view name) const;
  /// The occupancy grid of a sensor. Throws ReadingError when missing or malformed.
  OccupancyGrid Occupancy(std::string_view name) const;
  /// A camera's colour image ("rgb8"). Throws ReadingError when missing or malformed.
  CameraImage Rgb(std::string_view camera) const;
  /// A camera's depth image ("32FC1", metres). Throws ReadingError when missing or malformed.
  CameraImage Depth(std::string_view camera) const;
  /// A camera's segmentation image ("mono8" labels). Throws ReadingError when missing or
  /// malformed.
  CameraImage Segmentation(std::string_view camera) const;
  /// The IMU sample of a sensor. Throws ReadingError when missing or malformed.
  ImuSample Imu(std::string_view name) const;
  /// The detection report of a sensor. Throws ReadingError when missing or malformed.
  DetectionList Detections(std::string_view name) const;

  /// The Step message itself.
  const protocol::StepRequest& request() const { return request_; }

 private:
  const json::Json& Require(std::string_view name) const;
  const json::Json& Require(std::string_view name, std::string_view encoding) const;

  protocol::StepRequest request_;
  std::string attachment_;
};

}  // namespace asg::nodes
