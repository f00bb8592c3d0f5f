// One run driven by external vehicle nodes, from waiting for the nodes to RunEnd
// (docs/vehicle-nodes.md, "Data plane"):
//   wait until vehicle_nodes.count nodes are attached (at most step_deadline);
//   RunStart to each (request, each answers within step_deadline); VehicleStatus {enabled: true};
//   the run under ExternalNodeDriver;
//   VehicleStatus {enabled: false, preempted: false} and RunEnd to every node.
// When a node fails (too few attached, a RunStart or Step not answered in time, a disconnect, an
// Error reply) the run is preempted: every node still connected gets VehicleStatus {enabled:
// false, preempted: true} and RunEnd {preempted: true, reason}, and the outcome says so; the
// worker then reports RunPreempted to the client instead of AnalyzeScenario.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>

#include "capture/camera_sensor.h"
#include "protocol/messages.h"
#include "scene/scenario_runner.h"
#include "worker/node_server.h"

namespace asg::worker {

/// A run with vehicle nodes that ended by a termination rule.
struct NodeRunCompleted {
  scene::RunResult result;  ///< the run's result
  uint32_t ticks = 0;       ///< Steps completed (one per control tick)
};

/// A run with vehicle nodes that a node's failure preempted: there is no result and the scenario
/// must run again.
struct NodeRunPreempted {
  std::string reason;  ///< why, naming the node and the cause (also sent in RunEnd)
  uint32_t ticks = 0;  ///< Steps completed before the failure
};

/// The outcome of a run with vehicle nodes.
using NodeRunOutcome = std::variant<NodeRunCompleted, NodeRunPreempted>;

/// Runs the scenario `runner` has built from `request` (request.vehicle_nodes.count > 0) with
/// the nodes attached to `server`. `cameras` holds the calling thread's camera renderer, created
/// at the first run with a camera. Throws what ScenarioRunner::Run throws (the scene's own
/// failures) and capture::CaptureError when camera images cannot be rendered.
NodeRunOutcome RunWithNodes(scene::ScenarioRunner& runner,
                            const protocol::RunScenarioRequest& request, NodeServer& server,
                            std::unique_ptr<capture::CameraSensorRenderer>* cameras);

}  // namespace asg::worker
