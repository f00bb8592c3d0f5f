// The farm loop's records: the scenario records handed to the writer, built from each
// scenario's state (scenario_state.h).
#include <cstdio>

#include "client/farm/farm_loop.h"

namespace asg::client {

void FarmLoop::RecordDone(const AttemptEnd& end, protocol::AnalyzeScenarioRequest analysis,
                          std::vector<protocol::CaptureImage> captures) {
  const uint32_t number = end.scenario_number;
  const PlannedScenario* planned = context_.batch->Find(number);
  results::ScenarioRecord record;
  record.request = planned->request_json;
  record.result = results::DoneResult(analysis, planned->seed);
  record.result.variant = planned->variant;
  record.result.layout = planned->layout;
  record.search = planned->search_record;
  record.trajectory = std::move(analysis.vehicle_trajectory);
  record.captures = std::move(captures);
  char line[160];
  std::snprintf(
      line, sizeof line, "scenario %u done on worker %d: %s, sim %.2f s, wall %.2f s", number,
      end.attempt.worker_id,
      std::string(protocol::TerminationReasonName(
                      static_cast<protocol::TerminationReason>(analysis.termination_reason)))
          .c_str(),
      analysis.vehicle_sim_time, end.attempt.wall_time_s);
  context_.logger->Info(line);
  if (!analysis.capture_error.empty()) {
    context_.logger->Warning("scenario " + std::to_string(number) +
                             ": captures missing: " + analysis.capture_error);
  }
  Submit(std::move(record));
}

void FarmLoop::RecordUnrunnable(uint32_t scenario_number, results::ScenarioStatus status,
                                const std::string& error) {
  const PlannedScenario* planned = context_.batch->Find(scenario_number);
  results::ScenarioRecord record;
  record.request = planned->request_json;
  record.result = results::UnrunnableResult(scenario_number, status, error, planned->seed);
  record.result.variant = planned->variant;
  record.result.layout = planned->layout;
  record.search = planned->search_record;
  Submit(std::move(record));
}

void FarmLoop::Submit(results::ScenarioRecord record) {
  // The attempts (timing.json) and reruns (result.json) come from the scenario's one state.
  const uint32_t number = record.result.scenario_number;
  const ScenarioState& state = book_.state(number);
  record.result.reruns = state.reruns;
  record.timing = state.Timing();
  // A rerun writes the folder again; the progress and the feed see each scenario once.
  const bool first = !state.recorded;
  if (first) context_.progress->Count(record.result);
  book_.SetRecorded(number, results::ScenarioOutcome{record.result, record.timing});
  const results::ScenarioResult result = record.result;
  context_.writer->Submit(std::move(record));
  if (first && context_.feed != nullptr) {
    const std::vector<uint32_t> next = context_.feed->Recorded(result);
    if (!next.empty()) book_.Add(next);
  }
}

}  // namespace asg::client
