#include "scene/sensor_detection.h"

#include <cmath>

namespace asg::scene {
namespace {

constexpr double kTimeTolerance = 1e-9;  // [s]

}  // namespace

DetectionSensor::DetectionSensor(const protocol::DetectionSpec& spec, const World& world,
                                 uint64_t seed)
    : spec_(spec), world_(world), noise_(seed) {}

json::Json DetectionSensor::Detect(const SensorInput& input) {
  json::Json detections = json::Json::array();
  const Eigen::Vector3d vehicle = input.pose.translation();
  const Eigen::Isometry3d world_to_body = input.pose.inverse();
  for (const ActorInstance& actor : world_.actors) {
    if (actor.traversable) continue;
    const Eigen::Vector2d offset = (actor.position - vehicle).head<2>();
    if (offset.squaredNorm() > spec_.range * spec_.range) continue;
    const bool lost = noise_.Uniform() < spec_.probability_of_lost;
    Eigen::Vector3d position = actor.position;
    position.x() += noise_.Gaussian(spec_.pos_noise_stddev);
    position.y() += noise_.Gaussian(spec_.pos_noise_stddev);
    if (lost) continue;
    json::Json entry;
    entry["name"] = actor.kind->path_name;
    entry["ssa_index"] = actor.ssa_index;
    entry["instance"] = actor.instance_index;
    entry["position"] = VectorJson(position);
    entry["relative_position"] = VectorJson(world_to_body * position);
    entry["distance"] = (position - vehicle).head<2>().norm();
    detections.push_back(std::move(entry));
  }
  return detections;
}

SensorReading DetectionSensor::Sample(const SensorInput& input) {
  states_.emplace_back(input.time, Detect(input));
  // Keep only the newest state old enough to report, and everything after it.
  const double reported_time = input.time - spec_.object_recognition_delay;
  while (states_.size() >= 2 && states_[1].first <= reported_time + kTimeTolerance) {
    states_.pop_front();
  }
  SensorReading reading;
  reading.header = ReadingHeader(spec_.name, "detection", input.time, "world");
  if (states_.front().first <= reported_time + kTimeTolerance) {
    reading.header["state_time"] = protocol::Time::FromSeconds(states_.front().first);
    reading.header["detections"] = states_.front().second;
  } else {
    reading.header["state_time"] = protocol::Time::FromSeconds(input.time);
    reading.header["detections"] = json::Json::array();
  }
  return reading;
}

}  // namespace asg::scene
