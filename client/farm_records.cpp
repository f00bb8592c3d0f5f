// The farm loop's records: attempt timings, and the scenario records handed to the writer.
#include <cstdio>

#include "client/farm_loop.h"

namespace asg::client {

double FarmLoop::AttemptSeconds(uint32_t scenario_number, SteadyClock::time_point now) const {
  const auto it = attempt_start_.find(scenario_number);
  if (it == attempt_start_.end()) return 0.0;
  return std::chrono::duration<double>(now - it->second).count();
}

void FarmLoop::RecordAttempt(uint32_t scenario_number, int32_t worker_id, double wall_time_s,
                             const std::string& outcome) {
  auto& history = attempt_history_[scenario_number];
  history.push_back({static_cast<uint32_t>(history.size() + 1), worker_id, wall_time_s, outcome});
}

ScenarioTiming FarmLoop::Timing(uint32_t scenario_number, int32_t worker_id) const {
  ScenarioTiming timing;
  timing.worker_id = worker_id;
  const auto it = attempt_history_.find(scenario_number);
  if (it != attempt_history_.end()) timing.attempts = it->second;
  for (const AttemptTiming& attempt : timing.attempts) timing.wall_time_s += attempt.wall_time_s;
  return timing;
}

void FarmLoop::RecordDone(protocol::AnalyzeScenarioRequest analysis,
                          std::vector<CaptureFile> captures, int32_t worker_id,
                          SteadyClock::time_point now) {
  const uint32_t number = analysis.scenario_number;
  const PlannedScenario* planned = context_.batch->Find(number);
  const double wall_time_s = AttemptSeconds(number, now);
  RecordAttempt(number, worker_id, wall_time_s, "done");
  ScenarioRecord record;
  record.request = planned->request_json;
  record.result = DoneResult(analysis, planned->seed, scheduler_.FailedAttempts(number) + 1);
  record.trajectory = std::move(analysis.vehicle_trajectory);
  record.captures = std::move(captures);
  record.timing = Timing(number, worker_id);
  char line[160];
  std::snprintf(
      line, sizeof line, "scenario %u done on worker %d: %s, sim %.2f s, wall %.2f s", number,
      worker_id,
      std::string(protocol::TerminationReasonName(
                      static_cast<protocol::TerminationReason>(analysis.termination_reason)))
          .c_str(),
      analysis.vehicle_sim_time, wall_time_s);
  context_.logger->Info(line);
  if (!analysis.capture_error.empty()) {
    context_.logger->Warning("scenario " + std::to_string(number) +
                             ": captures missing: " + analysis.capture_error);
  }
  Submit(std::move(record));
}

void FarmLoop::RecordUnrunnable(uint32_t scenario_number, ScenarioStatus status,
                                const std::string& error, uint32_t attempts, int32_t worker_id) {
  const PlannedScenario* planned = context_.batch->Find(scenario_number);
  ScenarioRecord record;
  record.request = planned->request_json;
  record.result.scenario_number = scenario_number;
  record.result.status = status;
  record.result.error = error;
  record.result.attempts = attempts;
  record.result.seed = planned->seed;
  record.timing = Timing(scenario_number, worker_id);
  Submit(std::move(record));
}

void FarmLoop::Submit(ScenarioRecord record) {
  const uint32_t number = record.result.scenario_number;
  if (const auto reruns = reruns_.find(number); reruns != reruns_.end()) {
    record.result.reruns = reruns->second;
  }
  outcomes_[number] = ScenarioOutcome{record.result, record.timing};
  context_.progress->Count(record.result);
  context_.writer->Submit(std::move(record));
}

}  // namespace asg::client
