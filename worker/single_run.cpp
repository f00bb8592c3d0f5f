// One scenario from a request file to a result folder.
#include "worker/single_run.h"

#include <chrono>
#include <ostream>

#include "core/check.h"
#include "protocol/messages_json.h"
#include "results/files.h"
#include "results/folder.h"
#include "worker/scenario_executor.h"
#include "worker/worker_log.h"
#include "worker/worker_session.h"

namespace asg::worker {

results::ScenarioRecord CompletedRecord(const protocol::RunScenarioRequest& request,
                                        ScenarioCompleted completed, uint16_t worker_id,
                                        double wall_time_s, const std::string& detail) {
  results::ScenarioRecord record;
  record.request = json::Json(request);
  record.result = results::DoneResult(completed.analysis, request.seed);
  record.result.capture_error = std::move(completed.capture_error);
  record.trajectory = std::move(completed.analysis.vehicle_trajectory);
  record.captures = std::move(completed.captures);
  record.timing.worker_id = worker_id;
  record.timing.wall_time_s = wall_time_s;
  record.timing.attempts.push_back({1, worker_id, wall_time_s, "done", detail});
  return record;
}

int RunScenarioFile(const std::filesystem::path& request_file, const std::filesystem::path& out_dir,
                    const scene::ActorCatalog& catalog, uint16_t worker_id, std::ostream& out) {
  protocol::RunScenarioRequest request;
  // The process boundary for bad input: nothing runs and nothing is written.
  try {
    request =
        protocol::ParseMessage<protocol::RunScenarioRequest>(results::ReadTextFile(request_file));
  } catch (const std::runtime_error& error) {
    out << "asg-worker: " << request_file.string() << ": " << error.what() << "\n";
    return kWorkerExitUsage;
  }
  if (request.scenario_number < 1) {
    out << "asg-worker: " << request_file.string() << ": scenario_number "
        << request.scenario_number << " is outside 1.." << protocol::kMaxScenarioNumber << "\n";
    return kWorkerExitUsage;
  }
  const auto number = static_cast<uint32_t>(request.scenario_number);

  const auto started = std::chrono::steady_clock::now();
  ScenarioExecutor executor(catalog, worker_id);
  Execution execution = executor.Execute(request, [] {});
  const double wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  // Without a data port no run is preempted: the scenario is either completed or invalid.
  ScenarioCompleted* completed = std::get_if<ScenarioCompleted>(&execution);
  const SceneNotCreated* failed = std::get_if<SceneNotCreated>(&execution);
  ASG_CHECK(completed != nullptr || failed != nullptr);

  results::ScenarioRecord record;
  if (completed != nullptr) {
    if (!completed->capture_error.empty()) {
      Log(core::LogLevel::kWarning, "captures not rendered: " + completed->capture_error);
    }
    record = CompletedRecord(request, std::move(*completed), worker_id, wall_time_s, "");
  } else {
    record.request = json::Json(request);
    record.result.scenario_number = number;
    record.result.status = results::ScenarioStatus::kInvalid;
    record.result.error = failed->error;
    record.result.seed = request.seed;
    record.timing.worker_id = worker_id;
    record.timing.wall_time_s = wall_time_s;
    record.timing.attempts.push_back({1, worker_id, wall_time_s, "invalid scene", ""});
  }
  try {
    results::WriteScenarioFolder(out_dir, record);
  } catch (const results::ResultError& error) {
    out << "asg-worker: " << error.what() << "\n";
    return kWorkerExitFailure;
  }

  const auto folder = results::ScenarioFolder(out_dir, number);
  if (completed == nullptr) {
    out << "scenario " << number << ": invalid: " << failed->error << " -> " << folder.string()
        << "\n";
    return kWorkerExitFailure;
  }
  out << "scenario " << number << ": "
      << protocol::TerminationReasonName(record.result.termination_reason) << ", sim "
      << record.result.vehicle_sim_time << " s, " << record.captures.size() << " captures -> "
      << folder.string() << "\n";
  return kWorkerExitOk;
}

}  // namespace asg::worker
