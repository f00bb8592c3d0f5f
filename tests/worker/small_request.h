// The small scenario the worker tests run: a flat 40 m landscape, the straight driver from
// (8, 8) heading 45 deg to the goal (32, 32), which it reaches in a few simulated seconds.
#pragma once

#include <cstdint>

#include "protocol/messages.h"

namespace asg::worker::testing {

/// The small scenario with `scenario_number` and `seed`.
inline protocol::RunScenarioRequest SmallRequest(int32_t scenario_number = 9, uint64_t seed = 0) {
  protocol::RunScenarioRequest request;
  request.scenario_number = scenario_number;
  request.seed = seed;
  request.sim_timeout_period = 12.0;
  request.vehicle_start_location = {8.0, 8.0, 0.0};
  request.vehicle_start_yaw = 45.0;
  request.vehicle_goal_location = {32.0, 32.0, 0.0};
  request.goal_radius = 4.0;
  request.scene_description.landscape.nominal_size = 40.0;
  request.scene_description.landscape.subdivisions = 4;
  request.driver.type = protocol::DriverSpec::Type::kStraight;
  return request;
}

}  // namespace asg::worker::testing
