// The ended run's result JSON and result folder.
#include "worker/serve/run_results.h"

#include "capture/capture_error.h"
#include "protocol/messages_json.h"
#include "regret/reference_plan.h"
#include "results/folder.h"
#include "worker/regret_problem.h"
#include "worker/single_run.h"

namespace asg::worker::serve {

void RunResults::Loaded(const std::filesystem::path& folder) {
  folder_ = folder;
  Clear();
}

void RunResults::Clear() {
  result_json_ = nullptr;
  result_folder_.clear();
}

void RunResults::RunEnded(const scene::LiveRun& live, const InterventionLog& interventions,
                          SceneCaptures& captures, SessionLogs& logs) {
  const scene::RunOutcome& outcome = *live.outcome();
  const auto* result = std::get_if<scene::RunResult>(&outcome);
  if (result == nullptr) {
    const auto& aborted = std::get<scene::RunAborted>(outcome);
    result_json_ = {{"aborted", true}, {"reason", aborted.reason}, {"time", aborted.time}};
    if (!interventions.entries().empty()) result_json_["interventions"] = interventions.entries();
    logs.Diagnostic(0, "warning", "run aborted: " + aborted.reason);
    return;
  }
  // The farm's analysis, with the regret against the reference plan of the run's world.
  protocol::AnalyzeScenarioRequest analysis = result->analysis;
  analysis.worker_id = worker_id_;
  const regret::ReferenceProblem problem = RunReferenceProblem(live.world(), live.request());
  const regret::ReferenceSettings reference_settings;
  analysis.regret = RegretOf(analysis, problem, regret::PlanReference(problem, reference_settings),
                             reference_settings, FailureTimeOf(live.request()));
  const std::string reason(protocol::TerminationReasonName(result->reason()));
  result_json_ = json::Json(analysis);
  result_json_["termination_reason_name"] = reason;
  if (!interventions.entries().empty()) result_json_["interventions"] = interventions.entries();
  if (!folder_.empty()) WriteFolder(live, analysis, interventions, captures, logs);
  logs.Diagnostic(
      0, "info",
      "run ended: " + reason + " at " + std::to_string(analysis.vehicle_sim_time) + " s");
}

void RunResults::WriteFolder(const scene::LiveRun& live,
                             const protocol::AnalyzeScenarioRequest& analysis,
                             const InterventionLog& interventions, SceneCaptures& captures,
                             SessionLogs& logs) {
  const protocol::RunScenarioRequest& request = live.request();
  ScenarioCompleted completed{analysis, {}, {}};
  if (request.take_scene_capture) {
    // The same captures as the farm's: the scenario's views with the run annotated.
    try {
      completed.captures =
          captures.RenderRun(live.world(), request, analysis, interventions.Jumps());
    } catch (const capture::CaptureError& error) {
      completed.capture_error = error.what();
    }
  }
  results::ScenarioRecord record =
      CompletedRecord(request, std::move(completed), worker_id_, 0.0, "interactive");
  record.result.interventions = interventions.entries();
  try {
    results::WriteScenarioFolder(folder_ / "interactive", record);
    result_folder_ = results::ScenarioFolder(folder_ / "interactive",
                                             static_cast<uint32_t>(request.scenario_number));
  } catch (const std::exception& error) {
    logs.Diagnostic(0, "error", std::string("result folder not written: ") + error.what());
  }
}

}  // namespace asg::worker::serve
