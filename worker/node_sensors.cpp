// Sensor suite readings and camera images packed into one Step attachment.
#include "worker/node_sensors.h"

#include <algorithm>

#include "core/check.h"
#include "scene/sensor_reading.h"

namespace asg::worker {

namespace {

/// Appends one camera image reading of `pixels` bytes per row element.
void AppendImage(const protocol::CameraSpec& spec, double time, const Eigen::Isometry3d& pose,
                 const char* encoding, size_t pixel_bytes, const void* data, size_t size,
                 StepSensorData* out) {
  json::Json header = scene::ReadingHeader(spec.name, "camera", time, spec.name);
  header["encoding"] = encoding;
  header["width"] = spec.width;
  header["height"] = spec.height;
  header["step"] = size_t{spec.width} * pixel_bytes;
  header["is_bigendian"] = false;
  header["pose"] = scene::PoseJson(pose);
  AppendReading(std::move(header), std::string_view(static_cast<const char*>(data), size), out);
}

}  // namespace

void AppendReading(json::Json header, std::string_view data, StepSensorData* out) {
  header["offset"] = out->attachment.size();
  header["size"] = data.size();
  out->attachment.append(data);
  out->readings.push_back(std::move(header));
}

NodeSensors::NodeSensors(const std::vector<protocol::SensorSpec>& specs, const scene::World& world,
                         uint64_t run_seed,
                         std::unique_ptr<capture::CameraSensorRenderer>* renderer) {
  if (specs.empty()) return;
  suite_.emplace(specs, world, run_seed);
  const bool cameras = std::any_of(specs.begin(), specs.end(), [](const auto& spec) {
    return spec.type == protocol::SensorSpec::Type::kCamera;
  });
  if (!cameras) return;
  ASG_CHECK(renderer != nullptr);
  if (!*renderer) *renderer = std::make_unique<capture::CameraSensorRenderer>();
  (*renderer)->SetWorld(world);
  renderer_ = renderer->get();
}

StepSensorData NodeSensors::Sample(const scene::DriverInput& input) {
  StepSensorData out;
  if (!suite_) return out;
  ASG_CHECK(input.odometry != nullptr);
  const scene::SensorInput sensor_input = scene::InputFromOdometry(input.time, *input.odometry);
  scene::SensorTick tick = suite_->Tick(sensor_input);
  for (scene::SensorReading& reading : tick.readings) {
    AppendReading(std::move(reading.header), reading.data, &out);
  }
  for (const protocol::CameraSpec* spec : tick.due_cameras) {
    const capture::CameraImages images = renderer_->Render(*spec, sensor_input.pose);
    const Eigen::Isometry3d pose = capture::CameraPoseInWorld(spec->mount, sensor_input.pose);
    if (!images.rgb.empty()) {
      AppendImage(*spec, input.time, pose, "rgb8", 3, images.rgb.data(), images.rgb.size(), &out);
    }
    if (!images.depth.empty()) {
      AppendImage(*spec, input.time, pose, "32FC1", sizeof(float), images.depth.data(),
                  images.depth.size() * sizeof(float), &out);
    }
    if (!images.segmentation.empty()) {
      AppendImage(*spec, input.time, pose, "mono8", 1, images.segmentation.data(),
                  images.segmentation.size(), &out);
    }
  }
  return out;
}

}  // namespace asg::worker
