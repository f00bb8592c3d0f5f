// Build, run, capture; scene-creation failures become values at this boundary.
#include "worker/scenario_executor.h"

#include <stdexcept>

#include "capture/capture_error.h"
#include "scene/scene_error.h"
#include "worker/node_run.h"

namespace asg::worker {

ScenarioExecutor::ScenarioExecutor(const scene::ActorCatalog& catalog, uint8_t worker_id)
    : runner_(catalog), worker_id_(worker_id) {}

ScenarioExecutor::~ScenarioExecutor() = default;

Execution ScenarioExecutor::Execute(const protocol::RunScenarioRequest& request,
                                    const std::function<void()>& on_built) {
  Execution execution;
  // The scenario's own problems (SceneError, and std::invalid_argument for bad landscape or
  // driver parameters) end it as "scene not created"; anything else is the worker's failure.
  try {
    runner_.Build(request);
    on_built();
    if (request.scene_capture_only) {
      execution.analysis = scene::CaptureOnlyResult(request);
    } else if (request.vehicle_nodes.count > 0) {
      if (node_server_ == nullptr) {
        throw scene::SceneError("vehicle_nodes.count is " +
                                std::to_string(request.vehicle_nodes.count) +
                                " but this worker has no data port for vehicle nodes");
      }
      NodeRunOutcome outcome = RunWithNodes(runner_, request, *node_server_, &cameras_);
      if (outcome.preempted) {
        execution.scene_created = true;
        execution.preempted = true;
        execution.preempt_reason = outcome.reason;
        return execution;
      }
      execution.analysis = std::move(outcome.result.analysis);
    } else {
      execution.analysis = runner_.Run().analysis;
    }
  } catch (const capture::CaptureError& error) {
    // Camera sensors that cannot be rendered make the scenario impossible on this worker.
    execution.scene_error = std::string("camera sensors: ") + error.what();
    return execution;
  } catch (const scene::SceneError& error) {
    execution.scene_error = error.what();
    return execution;
  } catch (const std::invalid_argument& error) {
    execution.scene_error = error.what();
    return execution;
  }
  execution.scene_created = true;
  execution.analysis.worker_id = worker_id_;
  if (request.take_scene_capture) {
    execution.captures =
        TakeCaptures(request, request.scene_capture_only ? nullptr : &execution.analysis,
                     &execution.capture_error);
  }
  return execution;
}

std::vector<capture::CaptureImage> ScenarioExecutor::TakeCaptures(
    const protocol::RunScenarioRequest& request, const protocol::AnalyzeScenarioRequest* run,
    std::string* error) {
  // A capture failure (no EGL, bad capture settings) loses the images, never the run.
  try {
    if (!renderer_) renderer_ = std::make_unique<capture::CaptureRenderer>();
    return renderer_->Render(runner_.world(), request, run);
  } catch (const capture::CaptureError& failure) {
    *error = failure.what();
    return {};
  }
}

}  // namespace asg::worker
