// Step: lookup of reading headers by name, then the decoders of readings.h.
#include "nodes/step.h"

#include <cmath>
#include <numbers>

namespace asg::nodes {

namespace {

bool HasString(const json::Json& header, const char* key, std::string_view value) {
  if (!header.is_object()) return false;
  const auto it = header.find(key);
  return it != header.end() && it->is_string() && it->get_ref<const std::string&>() == value;
}

}  // namespace

double YawDegrees(const protocol::Quaternion& orientation) {
  // The same expression, operation for operation, as the simulator's chassis attitude.
  constexpr double kDegToRad = std::numbers::pi / 180.0;
  const double w = orientation.w, x = orientation.x, y = orientation.y, z = orientation.z;
  const double yaw = std::atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z));
  return yaw / kDegToRad;
}

Step::Step(protocol::StepRequest request, std::string attachment)
    : request_(std::move(request)), attachment_(std::move(attachment)) {}

bool Step::Has(std::string_view name) const { return Find(name) != nullptr; }

const json::Json* Step::Find(std::string_view name) const {
  for (const json::Json& header : request_.readings) {
    if (HasString(header, "name", name)) return &header;
  }
  return nullptr;
}

const json::Json* Step::Find(std::string_view name, std::string_view encoding) const {
  for (const json::Json& header : request_.readings) {
    if (HasString(header, "name", name) && HasString(header, "encoding", encoding)) return &header;
  }
  return nullptr;
}

const json::Json& Step::Require(std::string_view name) const {
  const json::Json* header = Find(name);
  if (header == nullptr) {
    throw ReadingError("step " + std::to_string(request_.tick) + " has no reading named '" +
                       std::string(name) + "'");
  }
  return *header;
}

const json::Json& Step::Require(std::string_view name, std::string_view encoding) const {
  const json::Json* header = Find(name, encoding);
  if (header == nullptr) {
    throw ReadingError("step " + std::to_string(request_.tick) + " has no " +
                       std::string(encoding) + " reading named '" + std::string(name) + "'");
  }
  return *header;
}

LidarPoints Step::Lidar(std::string_view name) const {
  return DecodeLidar(Require(name), attachment_);
}

OccupancyGrid Step::Occupancy(std::string_view name) const {
  return DecodeOccupancyGrid(Require(name), attachment_);
}

CameraImage Step::Rgb(std::string_view camera) const {
  return DecodeCameraImage(Require(camera, "rgb8"), attachment_);
}

CameraImage Step::Depth(std::string_view camera) const {
  return DecodeCameraImage(Require(camera, "32FC1"), attachment_);
}

CameraImage Step::Segmentation(std::string_view camera) const {
  return DecodeCameraImage(Require(camera, "mono8"), attachment_);
}

ImuSample Step::Imu(std::string_view name) const { return DecodeImu(Require(name)); }

DetectionList Step::Detections(std::string_view name) const {
  return DecodeDetections(Require(name));
}

}  // namespace asg::nodes
