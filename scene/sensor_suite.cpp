#include "scene/sensor_suite.h"

#include "scene/sensor_noise.h"

namespace asg::scene {

SensorSuite::SensorSuite(const std::vector<protocol::SensorSpec>& sensors, const World& world,
                         uint64_t run_seed, std::shared_ptr<const EmbreeScene> scene)
    : specs_(sensors), scene_(std::move(scene)) {
  using Type = protocol::SensorSpec::Type;
  bool has_lidar = false;
  for (const auto& spec : specs_) has_lidar |= spec.type == Type::kLidar;
  if (!has_lidar) {
    scene_.reset();
  } else if (!scene_) {
    scene_ = std::make_shared<const EmbreeScene>(world);
  }
  entries_.reserve(specs_.size());
  for (const auto& spec : specs_) {
    SensorSchedule schedule(spec.Rate());
    switch (spec.type) {
      case Type::kCamera:
        entries_.push_back({schedule, Model(&spec.camera)});
        break;
      case Type::kLidar:
        entries_.push_back({schedule, Model(std::in_place_type<LidarSensor>, spec.lidar, *scene_)});
        break;
      case Type::kOccupancyGrid:
        entries_.push_back(
            {schedule, Model(std::in_place_type<OccupancyGridSensor>, spec.occupancy_grid, world)});
        break;
      case Type::kImu:
        entries_.push_back({schedule, Model(std::in_place_type<ImuSensor>, spec.imu,
                                            SensorSeed(run_seed, spec.imu.seed, spec.imu.name))});
        break;
      case Type::kDetection:
        entries_.push_back(
            {schedule, Model(std::in_place_type<DetectionSensor>, spec.detection, world,
                             SensorSeed(run_seed, spec.detection.seed, spec.detection.name))});
        break;
    }
  }
}

SensorTick SensorSuite::Tick(const SensorInput& input) {
  SensorTick tick;
  for (Entry& entry : entries_) {
    if (!entry.schedule.Due(input.time)) continue;
    if (const auto* camera = std::get_if<const protocol::CameraSpec*>(&entry.model)) {
      tick.due_cameras.push_back(*camera);
    } else {
      std::visit(
          [&](auto& model) {
            if constexpr (!std::is_pointer_v<std::decay_t<decltype(model)>>) {
              tick.readings.push_back(model.Sample(input));
            }
          },
          entry.model);
    }
  }
  return tick;
}

}  // namespace asg::scene
