// Decoders of the sensor readings a Step carries (docs/vehicle-nodes.md "Sensor readings"): each
// reading is a JSON header (declared in protocol/reading_headers.h) whose "offset" and "size"
// [bytes] locate its binary data in the Step frame's attachment.
//
// Every decoder checks the header against the attachment before touching a byte: a missing or
// ill-typed key, an offset or size outside the attachment, or a size that disagrees with the
// encoding and the dimensions throws ReadingError naming the sensor, the key and the values. No
// input makes a decoder read outside the attachment. Binary numbers are little-endian.
//
// Camera images travel one reading per image: the reading's "name" is the camera's name and its
// "encoding" tells the image apart: "rgb8" (colour, 3 bytes per pixel), "32FC1" (z-depth [m],
// float32, +inf for sky) and "mono8" (segmentation labels: 0 sky, 1 traversable, 2
// non-traversable). Rows are top row first, "step" bytes apart.
//
// All functions are pure and thread-safe.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/messages_json.h"

namespace asg::nodes {

/// A reading that does not decode: bad header, bad offset/size, or a size that does not match.
class ReadingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Segmentation label of sky pixels.
inline constexpr uint8_t kLabelSky = 0;
/// Segmentation label of terrain and traversable actors.
inline constexpr uint8_t kLabelTraversable = 1;
/// Segmentation label of actors with collision (trees, bushes, rocks).
inline constexpr uint8_t kLabelNonTraversable = 2;

/// A lidar sweep (encoding "xyz32f").
struct LidarPoints {
  std::vector<float> xyz;      ///< [m] x, y, z of each point in the sensor frame, 3 per point
  size_t count = 0;            ///< number of points (xyz.size() / 3)
  protocol::Pose sensor_pose;  ///< sensor frame -> world at the sample [m]
  double stamp = 0.0;          ///< [s] simulation time of the sample
};

/// An occupancy grid (encoding "mono8"): cell (i, j) is cells[j * width + i], 0 free, 100 occupied.
struct OccupancyGrid {
  uint32_t width = 0;          ///< cells along the grid's x (the vehicle's forward axis)
  uint32_t height = 0;         ///< cells along the grid's y (the vehicle's left axis)
  double resolution = 0.0;     ///< [m] cell edge
  protocol::Pose origin;       ///< world pose of the corner of cell (0, 0); yaw = the grid's
  std::vector<uint8_t> cells;  ///< width * height values, rows packed without padding
  double stamp = 0.0;          ///< [s] simulation time of the sample
};

/// One camera image, rows packed without padding (the header's step is removed).
struct CameraImage {
  std::string encoding;        ///< "rgb8", "32FC1" or "mono8"
  uint32_t width = 0;          ///< [px]
  uint32_t height = 0;         ///< [px]
  std::vector<uint8_t> bytes;  ///< rgb8: width * height * 3; mono8: width * height; else empty
  std::vector<float> depth;    ///< 32FC1: width * height z-depths [m]; else empty
  double stamp = 0.0;          ///< [s] simulation time of the sample
};

/// An IMU sample (header only).
struct ImuSample {
  protocol::Quaternion orientation;       ///< body -> world
  protocol::Vector3 angular_velocity;     ///< [rad/s] body frame
  protocol::Vector3 linear_acceleration;  ///< [m/s^2] body frame
  double stamp = 0.0;                     ///< [s] simulation time of the sample
};

/// One detected actor.
struct Detection {
  std::string name;                   ///< actor class (path_name)
  int64_t ssa_index = 0;              ///< index into the scene's ssa_array
  int64_t instance = 0;               ///< instance within that layout
  protocol::Point position;           ///< [m] world, with the sensor's noise
  protocol::Point relative_position;  ///< [m] vehicle body frame at the state's time
  double distance = 0.0;              ///< [m] horizontal distance from the vehicle
};

/// A detection report (header only).
struct DetectionList {
  std::vector<Detection> detections;  ///< in the sensor's order
  double state_time = 0.0;            ///< [s] when the reported state was computed
  double stamp = 0.0;                 ///< [s] simulation time of the sample
};

/// The bytes [offset, offset + size) of the attachment a header points to. Throws ReadingError
/// when "offset" or "size" is missing, negative, not an integer, or reaches past the attachment.
std::string_view ReadingData(const json::Json& header, std::string_view attachment);

/// Decodes a lidar reading. Throws ReadingError (see the file comment).
LidarPoints DecodeLidar(const json::Json& header, std::string_view attachment);
/// Decodes an occupancy-grid reading. Throws ReadingError.
OccupancyGrid DecodeOccupancyGrid(const json::Json& header, std::string_view attachment);
/// Decodes a camera image reading of any of the three encodings. Throws ReadingError.
CameraImage DecodeCameraImage(const json::Json& header, std::string_view attachment);
/// Decodes an IMU reading. Throws ReadingError.
ImuSample DecodeImu(const json::Json& header);
/// Decodes a detection reading. Throws ReadingError.
DetectionList DecodeDetections(const json::Json& header);

}  // namespace asg::nodes
