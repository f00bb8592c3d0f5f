// The sensor data of one Step: readings of the run's scene::SensorSuite plus the images of the
// cameras due at the tick, as JSON headers whose "offset" and "size" [bytes] index one binary
// attachment (docs/vehicle-nodes.md, "Readings").
//
// Camera images travel one reading per image, in the order rgb, depth, segmentation of each due
// camera: header {"name" (the camera's), "type": "camera", "stamp", "frame_id" (the camera's
// name), "encoding" ("rgb8", "32FC1" or "mono8"), "width", "height", "step" (bytes per row),
// "is_bigendian": false, "pose" (camera frame -> world: x forward, y left, z up)}. Images are
// row-major, top row first, without padding; depth is little-endian float32 z-depth [m].
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "capture/camera_sensor.h"
#include "protocol/sensor_specs.h"
#include "scene/driver.h"
#include "scene/sensor_suite.h"
#include "scene/world.h"

namespace asg::worker {

/// The readings of one tick: headers with offset/size, and the attachment they index.
struct StepSensorData {
  std::vector<json::Json> readings;  ///< suite readings in spec order, then camera images
  std::string attachment;            ///< every reading's data, concatenated
};

/// The sensors of one run. Not thread-safe; use on the thread that owns the camera renderer.
class NodeSensors {
 public:
  /// Builds the sensors of `specs` over `world` (which must outlive this object) with noise
  /// seeded from `run_seed`. When a camera is listed, `*renderer` is created if null (the GL
  /// context belongs to the calling thread) and given the world. Throws capture::CaptureError
  /// when the renderer cannot be created or the world uploaded.
  NodeSensors(const std::vector<protocol::SensorSpec>& specs, const scene::World& world,
              uint64_t run_seed, std::unique_ptr<capture::CameraSensorRenderer>* renderer);

  /// Samples every sensor due at input.time; call once per tick, in increasing time.
  StepSensorData Sample(const scene::DriverInput& input);

 private:
  std::optional<scene::SensorSuite> suite_;            // absent without sensors
  capture::CameraSensorRenderer* renderer_ = nullptr;  // set when a camera is listed
};

/// Appends `data` to `out->attachment` and `header` with "offset" and "size" to `out->readings`.
void AppendReading(json::Json header, std::string_view data, StepSensorData* out);

}  // namespace asg::worker
