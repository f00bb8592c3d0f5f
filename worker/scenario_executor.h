// One scenario from request to result, as a worker runs it: build the scene, run it (or not, for
// scene_capture_only), take the scene captures. Shared by the farm session and --run-scenario.
//
// The ScenarioRunner is kept across scenarios, so an unchanged landscape is not rebuilt. Not
// thread-safe: one executor per thread, and the capture renderer's GL context belongs to the
// thread that first renders.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "capture/camera_sensor.h"
#include "capture/renderer.h"
#include "protocol/messages.h"
#include "scene/actor_catalog.h"
#include "scene/scenario_runner.h"
#include "worker/node_server.h"
#include "worker/regret_problem.h"

namespace asg::worker {

/// A request whose scene was created and run (or, for scene_capture_only, only built).
struct ScenarioCompleted {
  protocol::AnalyzeScenarioRequest analysis;     ///< the run's outcome, worker_id filled
  std::vector<protocol::CaptureImage> captures;  ///< scene captures, in rendering order
  std::string capture_error;  ///< why captures were asked for but not rendered; else empty
};

/// A request whose scene could not be created: the scenario is invalid.
struct SceneNotCreated {
  std::string error;  ///< the scene module's message naming the item and the value
};

/// A run a vehicle node's failure preempted: no result and no captures; run it again.
struct ScenarioPreempted {
  std::string reason;  ///< why, naming the node and the cause
};

/// What executing one request produced.
using Execution = std::variant<ScenarioCompleted, SceneNotCreated, ScenarioPreempted>;

/// Runs requests one after another on the calling thread.
class ScenarioExecutor {
 public:
  /// `catalog` must outlive the executor; `worker_id` is written into every result.
  ScenarioExecutor(const scene::ActorCatalog& catalog, uint16_t worker_id);
  ~ScenarioExecutor();
  ScenarioExecutor(const ScenarioExecutor&) = delete;
  ScenarioExecutor& operator=(const ScenarioExecutor&) = delete;

  /// Gives the executor the worker's data port; requests with vehicle_nodes.count > 0 are then
  /// driven by the nodes attached to it (worker/node_run.h). `server` must outlive the executor.
  void SetNodeServer(NodeServer* server) { node_server_ = server; }

  /// Builds and runs `request`; `on_built` is called once the scene exists, before the run. A
  /// completed run carries its regret (analysis.regret, docs/regret.md); the reference plan is
  /// computed once per scene and reused while the next requests have the same one.
  /// A request whose scene cannot be created (unknown actor, bad landscape, bad vehicle or
  /// driver parameters, a vehicle that cannot settle, vehicle nodes without a data port or
  /// camera sensors that cannot be rendered) gives SceneNotCreated. A run preempted by a vehicle
  /// node gives ScenarioPreempted.
  Execution Execute(const protocol::RunScenarioRequest& request,
                    const std::function<void()>& on_built);

 private:
  /// The capture images of the built world, or none with *error set when rendering fails.
  std::vector<protocol::CaptureImage> TakeCaptures(const protocol::RunScenarioRequest& request,
                                                   const protocol::AnalyzeScenarioRequest* run,
                                                   std::string* error);

  /// The reference plan of the built world, from the cache when the scene is unchanged.
  const regret::ReferencePlan& ReferencePlan(const regret::ReferenceProblem& problem);

  scene::ScenarioRunner runner_;
  uint16_t worker_id_;
  regret::ReferenceSettings reference_settings_;
  std::optional<regret::ReferenceProblem> reference_problem_;  // the scene of reference_plan_
  regret::ReferencePlan reference_plan_;
  std::unique_ptr<capture::CaptureRenderer> renderer_;      // created at the first capture
  NodeServer* node_server_ = nullptr;                       // the data port, when serving nodes
  std::unique_ptr<capture::CameraSensorRenderer> cameras_;  // created at the first camera sensor
};

}  // namespace asg::worker
