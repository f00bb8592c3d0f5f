// The object detection model: the visible, non-traversable actors whose centre lies within `range`
// (horizontal distance) of the vehicle; traversable actors (grass, small instances) are never
// reported. Each sample draws, for each actor in range in World::actors order, one uniform (the
// actor is lost when it is below probability_of_lost) and then two Gaussians N(0,
// pos_noise_stddev) added to the world x and y of the reported position.
//
// object_recognition_delay follows simulation_api_schema ("delays only the position
// recognition"): a sample at time t reports the detection state computed at the newest earlier
// sample whose time is at or before t - delay (an empty list while there is none), so an object
// entering range at t0 is first reported at the first sample at or after t0 + delay.
//
// Reading header (besides the common keys, frame_id = "world"), data empty:
//   {"state_time": {"sec","nanosec"} (when the reported state was computed; the sample's own
//    stamp while no state is old enough),
//    "detections": [{"name": path_name, "ssa_index", "instance",
//                    "position": {"x","y","z"} (world, noisy) [m],
//                    "relative_position": {"x","y","z"} (vehicle body frame at state_time) [m],
//                    "distance": horizontal distance from the vehicle to position [m]}]}
#pragma once

#include <deque>
#include <utility>

#include "protocol/sensor_specs.h"
#include "scene/sensor_noise.h"
#include "scene/sensor_reading.h"
#include "scene/world.h"

namespace asg::scene {

/// An object detector. Holds the world by reference (it must outlive the sensor); owns its noise
/// generator and the delayed states; not thread-safe.
class DetectionSensor {
 public:
  /// seed: the sensor's seed (SensorSeed of the run seed, spec.seed and spec.name).
  DetectionSensor(const protocol::DetectionSpec& spec, const World& world, uint64_t seed);

  /// One report; samples must come in increasing time.
  SensorReading Sample(const SensorInput& input);

 private:
  /// The detections seen from the input's pose now, noise and losses drawn.
  json::Json Detect(const SensorInput& input);

  protocol::DetectionSpec spec_;
  const World& world_;
  NoiseGenerator noise_;
  std::deque<std::pair<double, json::Json>> states_;  ///< (time [s], detections), oldest first
};

}  // namespace asg::scene
