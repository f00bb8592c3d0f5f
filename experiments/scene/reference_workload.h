// The research experiment's reference workload (see the reference page): a 60 m landscape, start
// (10, 10) yaw 45, goal (50, 50) radius 5, timeouts 17 / 5 / 5 s, roll/pitch limits 70 deg,
// collisions allowed, 6 junipers and 6 barberry bushes at x, y in U[0, 60] m, none within 10 m
// of the start or the goal. Deterministic for a seed.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "core/random.h"
#include "protocol/messages.h"

namespace asg::scene::experiments {

/// The reference request without actors: a flat landscape of `size` m with 2^subdivisions cells
/// per side, start (10, 10) yaw 45, goal (50, 50) radius 5, timeouts 17 / 5 / 5 s, roll/pitch
/// limits 70 deg, collisions allowed, sun 30 deg high, the straight driver at 5 m/s.
inline protocol::RunScenarioRequest ReferenceRequest(double size = 60.0, int subdivisions = 6) {
  protocol::RunScenarioRequest request;
  request.scenario_number = 1;
  request.sim_timeout_period = 17.0;
  request.vehicle_idling_timeout_period = 5.0;
  request.vehicle_stuck_timeout_period = 5.0;
  request.max_vehicle_roll = 70.0;
  request.max_vehicle_pitch = 70.0;
  request.allow_collisions = true;
  request.vehicle_start_location = {10.0, 10.0, 0.0};
  request.vehicle_start_yaw = 45.0;
  request.vehicle_goal_location = {50.0, 50.0, 0.0};
  request.goal_radius = 5.0;
  request.scene_description.landscape.nominal_size = size;
  request.scene_description.landscape.subdivisions = subdivisions;
  request.scene_description.sunlight_inclination = 30.0;
  request.driver.type = protocol::DriverSpec::Type::kStraight;
  request.driver.speed = 5.0;
  return request;
}

/// The reference request with `trees` + `bushes` actors placed from `seed`, `subdivisions` cells
/// per side (2^subdivisions), driven by the built-in `driver`.
inline protocol::RunScenarioRequest ReferenceWorkload(
    uint64_t seed, int subdivisions = 6, int trees = 6, int bushes = 6,
    protocol::DriverSpec::Type driver = protocol::DriverSpec::Type::kStraight) {
  protocol::RunScenarioRequest request = ReferenceRequest(60.0, subdivisions);
  request.driver.type = driver;
  request.seed = seed;

  // splitmix64: the same positions on every platform.
  uint64_t state = seed;
  auto uniform = [&state](double low, double high) {
    return low + (high - low) * static_cast<double>(core::SplitMix64(&state) >> 11) * 0x1.0p-53;
  };
  const char* const names[] = {"/Game/Blueprints/BP_SSA_Tree_Juniper_Rocky_Mountain_Field_Desktop",
                               "/Game/Blueprints/BP_SSA_Bush_Barberry_Field_Desktop"};
  const int counts[] = {trees, bushes};
  for (int kind = 0; kind < 2; ++kind) {
    protocol::StructuralSceneActorLayout layout;
    layout.path_name = names[kind];
    while (layout.x.size() < static_cast<size_t>(counts[kind])) {
      const double x = uniform(0.0, 60.0);
      const double y = uniform(0.0, 60.0);
      if (std::hypot(x - 10.0, y - 10.0) < 10.0 || std::hypot(x - 50.0, y - 50.0) < 10.0) continue;
      layout.x.push_back(x);
      layout.y.push_back(y);
      layout.yaw.push_back(uniform(0.0, 360.0));
    }
    layout.num_instances = static_cast<uint16_t>(layout.x.size());
    layout.visible.assign(layout.x.size(), true);
    layout.cast_shadow.assign(layout.x.size(), true);
    layout.scale.assign(layout.x.size(), 1.0);
    request.scene_description.ssa_array.push_back(layout);
  }
  return request;
}

}  // namespace asg::scene::experiments
