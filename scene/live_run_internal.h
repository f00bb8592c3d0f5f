// Bookkeeping shared by live_run.cpp and live_run_entities.cpp.
#pragma once

#include <string>

#include "scene/live_run.h"

namespace asg::scene {

/// Name and placement of one actor of a LiveRun's world (same index as World::actors).
struct LiveRun::ActorEntry {
  std::string name;
  bool spawned = false;
  double initial_x = 0.0;    ///< [m] where it was placed (scenario or SpawnEntity)
  double initial_y = 0.0;    ///< [m]
  double initial_yaw = 0.0;  ///< [deg]
};

/// The entry of a scenario actor: "<alias>_<ssa index>_<instance index>".
LiveRun::ActorEntry ScenarioActorEntry(const ActorInstance& actor);

/// The class's short name used in entity names and URIs: its first alias, else its path_name's
/// last component.
std::string ShortName(const ActorKind& kind);

}  // namespace asg::scene
