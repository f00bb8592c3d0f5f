// Start pose and seed of a repeated run.
#include "scene/run_variation.h"

#include "core/random.h"

namespace asg::scene {

uint64_t RunSeed(const protocol::RunScenarioRequest& request) {
  if (request.variation.run == 0) return request.seed;
  uint64_t state = request.seed ^ (0x9E3779B97F4A7C15ull * request.variation.run);
  return core::SplitMix64(&state);
}

StartPose VariedStart(const protocol::RunScenarioRequest& request) {
  StartPose pose{request.vehicle_start_location.x, request.vehicle_start_location.y,
                 request.vehicle_start_yaw};
  if (request.variation.run == 0) return pose;
  core::Random random(RunSeed(request));
  const double position = request.variation.start_position_range;
  const double yaw = request.variation.start_yaw_range;
  pose.x += random.Uniform(-position, position);
  pose.y += random.Uniform(-position, position);
  pose.yaw += random.Uniform(-yaw, yaw);
  return pose;
}

}  // namespace asg::scene
