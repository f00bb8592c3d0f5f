// What a client knows of one finished run, as the failure signature (signature.h) reads it:
// plain values a caller fills from a scenario's result folder and scene.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.h"

namespace asg::failures {

/// One trajectory sample: trajectory.csv's columns t, x, y and yaw.
struct PathSample {
  double t = 0.0;           ///< [s] sim time
  double x = 0.0, y = 0.0;  ///< [m] world position of the vehicle
  double yaw = 0.0;         ///< [deg] heading, counter-clockwise from +x
};

/// One actor of the scene.
struct SceneObstacle {
  std::string class_name;    ///< the catalog class (configs/actors.json), e.g. "tree", "rock"
  double x = 0.0, y = 0.0;   ///< [m] world position
  bool traversable = false;  ///< true when the vehicle may drive over it: never a failure's cause
};

/// The run's first contact with a non-traversable actor.
struct Contact {
  double t = 0.0;           ///< [s] sim time of the contact
  double x = 0.0, y = 0.0;  ///< [m] the vehicle's world position at the contact
  size_t actor_index = 0;   ///< the actor touched: an index into RunFacts::obstacles
};

/// The terrain slope at a world point (x, y in metres), in degrees from the horizontal. Called
/// once per failure, from the caller's thread.
using SlopeAt = std::function<double(double x, double y)>;

/// One finished run.
struct RunFacts {
  uint32_t scenario_number = 0;  ///< the scenario's number in its batch
  /// Why the run ended.
  protocol::TerminationReason reason = protocol::TerminationReason::REASON_SUCCESS;
  std::optional<double> regret;          ///< the run's regret; absent when it was not measured
  std::vector<PathSample> trajectory;    ///< the samples in time order
  std::vector<SceneObstacle> obstacles;  ///< every actor of the scene, in the scene's order
  std::optional<Contact> first_contact;  ///< absent when none (or none was reported)
};

}  // namespace asg::failures
