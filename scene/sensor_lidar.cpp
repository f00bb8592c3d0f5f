#include "scene/sensor_lidar.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <numbers>

namespace asg::scene {

static_assert(std::endian::native == std::endian::little,
              "the xyz32f payload is written with memcpy and must be little-endian");

LidarSensor::LidarSensor(const protocol::LidarSpec& spec, const EmbreeScene& scene)
    : spec_(spec), scene_(scene), mount_(MountTransform(spec.mount)) {
  constexpr double kDegree = std::numbers::pi / 180.0;
  directions_.reserve(static_cast<size_t>(spec.horizontal_resolution) *
                      spec.vertical_angles.size());
  for (uint32_t k = 0; k < spec.horizontal_resolution; ++k) {
    const double azimuth = 2.0 * std::numbers::pi * k / spec.horizontal_resolution;
    for (double elevation : spec.vertical_angles) {
      const double e = elevation * kDegree;
      directions_.emplace_back(std::cos(e) * std::cos(azimuth), std::cos(e) * std::sin(azimuth),
                               std::sin(e));
    }
  }
}

SensorReading LidarSensor::Sample(const SensorInput& input) const {
  const Eigen::Isometry3d sensor_to_world = input.pose * mount_;
  const Eigen::Vector3f origin = sensor_to_world.translation().cast<float>();
  const Eigen::Matrix3d rotation = sensor_to_world.rotation();

  std::vector<SceneRay> rays(directions_.size());
  for (size_t k = 0; k < directions_.size(); ++k) {
    rays[k].origin = origin;
    rays[k].direction = (rotation * directions_[k]).cast<float>();
    rays[k].max_distance = static_cast<float>(spec_.range);
  }
  std::vector<SceneHit> hits(rays.size());
  scene_.CastBatch(rays, hits);

  SensorReading reading;
  reading.data.reserve(rays.size() * 12);
  uint32_t count = 0;
  for (size_t k = 0; k < hits.size(); ++k) {
    if (!hits[k].Hit() || hits[k].distance < spec_.min_range || hits[k].distance > spec_.range) {
      continue;
    }
    const Eigen::Vector3f point = (directions_[k] * hits[k].distance).cast<float>();
    char bytes[12];
    std::memcpy(bytes, point.data(), sizeof(bytes));
    reading.data.append(bytes, sizeof(bytes));
    ++count;
  }
  reading.header = ReadingHeader(spec_.name, "lidar", input.time, spec_.name);
  reading.header["encoding"] = "xyz32f";
  reading.header["point_step"] = 12;
  reading.header["count"] = count;
  reading.header["sensor_pose"] = PoseJson(sensor_to_world);
  reading.header["horizontal_resolution"] = spec_.horizontal_resolution;
  reading.header["vertical_angles"] = spec_.vertical_angles;
  return reading;
}

}  // namespace asg::scene
