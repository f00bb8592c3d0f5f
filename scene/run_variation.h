// Repeated runs of one scenario (protocol::RunVariation): the nominal run 0 starts exactly where
// the request says; run k > 0 starts from a slightly different pose and draws its noise from a
// seed of its own, both derived from (request.seed, k), so every run is reproducible alone.
#pragma once

#include <cstdint>

#include "protocol/messages.h"

namespace asg::scene {

/// A start pose in the world frame.
struct StartPose {
  double x = 0.0;    ///< [m]
  double y = 0.0;    ///< [m]
  double yaw = 0.0;  ///< [deg]
};

/// The start pose of the request's run: the requested one for run 0; for run k > 0 offset by
/// x, y uniform in +-start_position_range and yaw uniform in +-start_yaw_range, drawn in that
/// order from Random(RunSeed(request)).
StartPose VariedStart(const protocol::RunScenarioRequest& request);

/// The seed of the request's run: request.seed for run 0, else a splitmix64 mix of the seed and
/// the run index. Sensor noise and vehicle nodes draw from it.
uint64_t RunSeed(const protocol::RunScenarioRequest& request);

}  // namespace asg::scene
