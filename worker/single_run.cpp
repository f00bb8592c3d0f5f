// One scenario from a request file to a result folder.
#include "worker/single_run.h"

#include <chrono>
#include <ostream>

#include "client/batch_json.h"
#include "client/results.h"
#include "protocol/messages_json.h"
#include "worker/scenario_executor.h"
#include "worker/worker_log.h"
#include "worker/worker_session.h"

namespace asg::worker {

int RunScenarioFile(const std::filesystem::path& request_file, const std::filesystem::path& out_dir,
                    const scene::ActorCatalog& catalog, uint8_t worker_id, std::ostream& out) {
  protocol::RunScenarioRequest request;
  // The process boundary for bad input: nothing runs and nothing is written.
  try {
    request =
        protocol::ParseMessage<protocol::RunScenarioRequest>(client::ReadTextFile(request_file));
  } catch (const std::runtime_error& error) {
    out << "asg-worker: " << request_file.string() << ": " << error.what() << "\n";
    return kWorkerExitUsage;
  }
  if (request.scenario_number < 1 || request.scenario_number > 65535) {
    out << "asg-worker: " << request_file.string() << ": scenario_number "
        << request.scenario_number << " is outside 1..65535\n";
    return kWorkerExitUsage;
  }
  const auto number = static_cast<uint32_t>(request.scenario_number);

  const auto started = std::chrono::steady_clock::now();
  ScenarioExecutor executor(catalog, worker_id);
  Execution execution = executor.Execute(request, [] {});
  const double wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  client::ScenarioRecord record;
  record.request = protocol::Json(request);
  if (execution.scene_created) {
    record.result = client::DoneResult(execution.analysis, request.seed, 1);
    record.trajectory = std::move(execution.analysis.vehicle_trajectory);
  } else {
    record.result.scenario_number = number;
    record.result.status = client::ScenarioStatus::kInvalid;
    record.result.error = execution.scene_error;
    record.result.attempts = 1;
    record.result.seed = request.seed;
  }
  for (capture::CaptureImage& image : execution.captures) {
    record.captures.push_back(
        {std::move(image.name), std::string(image.png.begin(), image.png.end())});
  }
  if (!execution.capture_error.empty()) {
    Log(client::LogLevel::kWarning, "captures not rendered: " + execution.capture_error);
    record.result.capture_error = execution.capture_error;
  }
  record.timing.worker_id = worker_id;
  record.timing.wall_time_s = wall_time_s;
  record.timing.attempts.push_back(
      {1, worker_id, wall_time_s, execution.scene_created ? "done" : "invalid scene"});
  try {
    client::WriteScenarioFolder(out_dir, record);
  } catch (const client::ResultError& error) {
    out << "asg-worker: " << error.what() << "\n";
    return kWorkerExitFailure;
  }

  const auto folder = client::ScenarioFolder(out_dir, number);
  if (!execution.scene_created) {
    out << "scenario " << number << ": invalid: " << execution.scene_error << " -> "
        << folder.string() << "\n";
    return kWorkerExitFailure;
  }
  out << "scenario " << number << ": "
      << protocol::TerminationReasonName(
             static_cast<protocol::TerminationReason>(execution.analysis.termination_reason))
      << ", sim " << execution.analysis.vehicle_sim_time << " s, " << record.captures.size()
      << " captures -> " << folder.string() << "\n";
  return kWorkerExitOk;
}

}  // namespace asg::worker
