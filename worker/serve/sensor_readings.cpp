// The loaded scenario's sensors and their latest readings.
#include "worker/serve/sensor_readings.h"

#include "capture/camera_sensor.h"
#include "scene/run_variation.h"

namespace asg::worker::serve {

SensorReadings::SensorReadings() = default;

SensorReadings::~SensorReadings() = default;

std::string SensorReadings::Start(scene::LiveRun& live) {
  sensors_.reset();
  latest_readings_.clear();
  latest_.reset();
  live.SetTickObserver(nullptr);
  const protocol::RunScenarioRequest& request = live.request();
  if (request.vehicle_nodes.sensors.empty()) return {};
  try {
    sensors_ = std::make_unique<NodeSensors>(request.vehicle_nodes.sensors, live.world(),
                                             scene::RunSeed(request), &cameras_);
  } catch (const std::exception& error) {
    return error.what();
  }
  // Sensors run at their own rates: each tick's readings are those due then.
  live.SetTickObserver([this](const scene::DriverInput& input) { Keep(sensors_->Sample(input)); });
  return {};
}

void SensorReadings::Keep(const StepSensorData& data) {
  for (const json::Json& header : data.readings) {
    const size_t offset = header.at("offset").get<size_t>();
    const size_t size = header.at("size").get<size_t>();
    std::string key = header.value("name", std::string()) + "/" +
                      header.value("encoding", header.value("type", std::string()));
    json::Json kept = header;
    kept.erase("offset");
    kept.erase("size");
    latest_readings_[key] = {std::move(kept), data.attachment.substr(offset, size)};
    latest_.reset();
  }
}

const StepSensorData* SensorReadings::Latest() {
  if (latest_readings_.empty()) return nullptr;
  if (!latest_) {
    latest_ = std::make_unique<StepSensorData>();
    for (const auto& [key, reading] : latest_readings_) {
      AppendReading(reading.first, reading.second, latest_.get());
    }
  }
  return latest_.get();
}

}  // namespace asg::worker::serve
