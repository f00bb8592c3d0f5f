// The latest sensor readings of the interactive worker's loaded scenario: its
// vehicle_nodes.sensors sampled at every control tick of the run, each sensor's latest reading
// kept, all of them handed out as one attachment (monoDrive's SampleSensorsCommand_ID).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "json/json.h"
#include "scene/live_run.h"
#include "worker/node_sensors.h"

namespace asg::capture {
class CameraSensorRenderer;
}  // namespace asg::capture

namespace asg::worker::serve {

/// The sensors of the loaded request and their latest readings. Not thread-safe: use on the
/// thread that steps the run (it owns the cameras' GL context).
class SensorReadings {
 public:
  SensorReadings();
  ~SensorReadings();
  SensorReadings(const SensorReadings&) = delete;
  SensorReadings& operator=(const SensorReadings&) = delete;

  /// Forgets every reading and builds the sensors of `live`'s request, sampled at each of its
  /// control ticks from now on (`live` must outlive them or the next Start). Returns why they
  /// could not be built, or "" (also when the request lists none).
  std::string Start(scene::LiveRun& live);
  /// Keeps the readings of one tick: each replaces the one of the same sensor (its name and
  /// encoding, or type).
  void Keep(const StepSensorData& data);
  /// The latest reading of each sensor as one attachment, ordered by sensor; null without any.
  /// Valid until the next Keep or Start.
  const StepSensorData* Latest();

 private:
  std::unique_ptr<capture::CameraSensorRenderer> cameras_;  // kept across loads (a GL context)
  std::unique_ptr<NodeSensors> sensors_;
  /// The latest reading of each sensor (key: name and encoding or type): header, data.
  std::map<std::string, std::pair<json::Json, std::string>> latest_readings_;
  std::unique_ptr<StepSensorData> latest_;  // latest_readings_ as one attachment, when asked
};

}  // namespace asg::worker::serve
