// Build, run, capture; scene-creation failures become values at this boundary.
#include "worker/scenario_executor.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "capture/capture_error.h"
#include "scene/scene_error.h"
#include "worker/node_run.h"

namespace asg::worker {

ScenarioExecutor::ScenarioExecutor(const scene::ActorCatalog& catalog, uint16_t worker_id)
    : runner_(catalog), worker_id_(worker_id) {}

ScenarioExecutor::~ScenarioExecutor() = default;

Execution ScenarioExecutor::Execute(const protocol::RunScenarioRequest& request,
                                    const std::function<void()>& on_built) {
  ScenarioCompleted completed;
  // The scenario's own problems (SceneError, and std::invalid_argument for bad landscape or
  // driver parameters) end it as "scene not created"; anything else is the worker's failure.
  try {
    runner_.Build(request);
    on_built();
    if (request.scene_capture_only) {
      completed.analysis = scene::CaptureOnlyResult(request);
    } else if (request.vehicle_nodes.count > 0) {
      if (node_server_ == nullptr) {
        return SceneNotCreated{"vehicle_nodes.count is " +
                               std::to_string(request.vehicle_nodes.count) +
                               " but this worker has no data port for vehicle nodes"};
      }
      NodeRunOutcome outcome = RunWithNodes(runner_, request, *node_server_, &cameras_);
      if (auto* preempted = std::get_if<NodeRunPreempted>(&outcome)) {
        return ScenarioPreempted{std::move(preempted->reason)};
      }
      completed.analysis = std::move(std::get<NodeRunCompleted>(outcome).result.analysis);
    } else {
      completed.analysis = runner_.Run().analysis;
    }
  } catch (const capture::CaptureError& error) {
    // Camera sensors that cannot be rendered make the scenario impossible on this worker.
    return SceneNotCreated{std::string("camera sensors: ") + error.what()};
  } catch (const scene::SceneError& error) {
    return SceneNotCreated{error.what()};
  } catch (const std::invalid_argument& error) {
    return SceneNotCreated{error.what()};
  }
  completed.analysis.worker_id = worker_id_;
  if (!request.scene_capture_only) {
    const regret::ReferenceProblem problem = RunReferenceProblem(runner_.world(), request);
    completed.analysis.regret = RegretOf(completed.analysis, problem, ReferencePlan(problem),
                                         reference_settings_, FailureTimeOf(request));
  }
  if (request.take_scene_capture) {
    completed.captures =
        TakeCaptures(request, request.scene_capture_only ? nullptr : &completed.analysis,
                     &completed.capture_error);
  }
  return completed;
}

const regret::ReferencePlan& ScenarioExecutor::ReferencePlan(
    const regret::ReferenceProblem& problem) {
  const bool same = reference_problem_ && reference_problem_->min == problem.min &&
                    reference_problem_->max == problem.max &&
                    reference_problem_->start == problem.start &&
                    reference_problem_->start_yaw == problem.start_yaw &&
                    reference_problem_->goal == problem.goal &&
                    reference_problem_->cost.obstacles == problem.cost.obstacles;
  if (!same) {
    reference_plan_ = regret::PlanReference(problem, reference_settings_);
    reference_problem_ = problem;
  }
  return reference_plan_;
}

std::vector<protocol::CaptureImage> ScenarioExecutor::TakeCaptures(
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
