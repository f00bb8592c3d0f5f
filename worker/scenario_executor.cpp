// Build, run, capture; scene-creation failures become values at this boundary.
#include "worker/scenario_executor.h"

#include <stdexcept>

#include "capture/capture_error.h"
#include "scene/scene_error.h"

namespace asg::worker {

ScenarioExecutor::ScenarioExecutor(const scene::ActorCatalog& catalog, uint8_t worker_id,
                                   bool render_captures)
    : runner_(catalog), worker_id_(worker_id), render_captures_(render_captures) {}

ScenarioExecutor::~ScenarioExecutor() = default;

Execution ScenarioExecutor::Execute(const protocol::RunScenarioRequest& request,
                                    const std::function<void()>& on_built) {
  Execution execution;
  // The scenario's own problems (SceneError, and std::invalid_argument for bad landscape or
  // driver parameters) end it as "scene not created"; anything else is the worker's failure.
  try {
    runner_.Build(request);
    on_built();
    execution.analysis = request.scene_capture_only ? scene::CaptureOnlyResult(request)
                                                    : runner_.Run().analysis;
  } catch (const scene::SceneError& error) {
    execution.scene_error = error.what();
    return execution;
  } catch (const std::invalid_argument& error) {
    execution.scene_error = error.what();
    return execution;
  }
  execution.scene_created = true;
  execution.analysis.worker_id = worker_id_;
  if (request.take_scene_capture && render_captures_) {
    execution.captures = TakeCaptures(
        request, request.scene_capture_only ? nullptr : &execution.analysis,
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
