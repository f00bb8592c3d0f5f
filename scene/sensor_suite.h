// All the sensors of a run's vehicle nodes, sampled on their own schedules from the same per-tick
// input. Cameras are rendered by the capture module: the suite only tells which camera specs are
// due at a tick (same SensorSchedule rule), so the worker renders them beside these readings.
// Odometry is not in the suite; OdometryReading (scene/sensor_reading.h) packages it every tick.
#pragma once

#include <memory>
#include <variant>
#include <vector>

#include "protocol/sensor_specs.h"
#include "scene/embree_scene.h"
#include "scene/sensor_detection.h"
#include "scene/sensor_imu.h"
#include "scene/sensor_lidar.h"
#include "scene/sensor_occupancy.h"
#include "scene/sensor_reading.h"
#include "scene/world.h"

namespace asg::scene {

/// What one tick of the suite produced.
struct SensorTick {
  std::vector<SensorReading> readings;                   ///< due sensors, in spec order
  std::vector<const protocol::CameraSpec*> due_cameras;  ///< owned by the suite, in spec order
};

/// The sensors of one run. Owned by the run; not thread-safe.
class SensorSuite {
 public:
  /// Builds every sensor of `sensors`. Noise seeds are SensorSeed(run_seed, spec seed, name).
  /// `scene` is used for lidars when given, otherwise one is built from the world when any
  /// lidar is listed. The world must outlive the suite.
  SensorSuite(const std::vector<protocol::SensorSpec>& sensors, const World& world,
              uint64_t run_seed, std::shared_ptr<const EmbreeScene> scene = nullptr);

  /// Samples every sensor due at input.time; call once per control tick in increasing time.
  SensorTick Tick(const SensorInput& input);

  /// The Embree scene of the lidars; nullptr when there is no lidar.
  const std::shared_ptr<const EmbreeScene>& scene() const { return scene_; }

 private:
  using Model = std::variant<const protocol::CameraSpec*, LidarSensor, OccupancyGridSensor,
                             ImuSensor, DetectionSensor>;
  struct Entry {
    SensorSchedule schedule;
    Model model;
  };

  std::vector<protocol::SensorSpec> specs_;
  std::shared_ptr<const EmbreeScene> scene_;
  std::vector<Entry> entries_;
};

}  // namespace asg::scene
