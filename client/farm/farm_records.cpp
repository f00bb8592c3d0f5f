// The farm's records: admission into the book (kept, invalid, queued) and the records handed to
// the writer, built from each scenario's plan and state.
#include "client/farm/farm_records.h"

#include <cstdio>
#include <optional>
#include <utility>

#include "client/farm/output_folder.h"

namespace asg::client {

namespace {

/// The record of a scenario that does not run: its request and seed, `status` and `error`.
results::ScenarioRecord UnrunnableRecord(const PlannedScenario& planned,
                                         results::ScenarioStatus status, const std::string& error) {
  results::ScenarioRecord record;
  record.request = planned.request_json;
  record.result = results::UnrunnableResult(planned.scenario_number, status, error, planned.seed);
  record.result.variant = planned.variant;
  record.result.layout = planned.layout;
  record.search = planned.search_record;
  return record;
}

}  // namespace

SchedulerSettings SchedulerSettingsFor(const Batch& batch, const FarmSettings& settings) {
  SchedulerSettings scheduler;
  scheduler.max_attempts = batch.settings.max_attempts;
  scheduler.scenario_timeout = std::chrono::milliseconds(
      static_cast<int64_t>(batch.settings.scenario_timeout_s * 1000.0 + 0.5));
  scheduler.start_timeout = settings.start_timeout;
  return scheduler;
}

FarmRecords::FarmRecords(const SchedulerSettings& scheduling, const RecordsContext& context)
    : context_(context), book_(scheduling) {}

void FarmRecords::Admit(const PlannedScenario* planned) {
  book_.Add(planned);
  Settle(planned->scenario_number);
}

void FarmRecords::Admit(PlannedScenario planned) {
  const uint32_t number = planned.scenario_number;
  book_.Add(std::move(planned));
  Settle(number);
}

void FarmRecords::AdmitReproduction(PlannedScenario planned, std::filesystem::path folder) {
  const uint32_t number = planned.scenario_number;
  book_.Add(std::move(planned));
  reproduction_folders_[number] = std::move(folder);
  SettleReproduction(number);
}

void FarmRecords::SettleReproduction(uint32_t scenario_number) {
  const FarmSettings& settings = *context_.settings;
  std::optional<results::ScenarioOutcome> kept;
  std::string problem;
  if (settings.resume) {
    kept = KeptOutcomeAt(reproduction_folders_.at(scenario_number), scenario_number,
                         settings.retry_failed, &problem);
  }
  if (!problem.empty()) NameFolderRunAgain(problem);
  if (kept) {
    book_.Keep(scenario_number, std::move(*kept));
    ++reproduction_recorded_;
  } else {
    book_.Queue(scenario_number);
  }
  ShowReproduction();
}

void FarmRecords::ShowReproduction() {
  context_.progress->SetStatus("reproduction runs " + std::to_string(reproduction_recorded_) + "/" +
                               std::to_string(reproduction_folders_.size()));
}

BatchOutcomes FarmRecords::OutcomesOfBatch() const {
  BatchOutcomes batch;
  for (const auto& [number, state] : book_.states()) {
    if (!state.recorded || IsReproduction(number)) continue;
    if (!state.kept) {
      if (const auto written = written_.find(number); written != written_.end()) {
        batch.outcomes.push_back(written->second);
      }
      continue;
    }
    batch.outcomes.push_back(*state.recorded);
    ++batch.kept;
    batch.kept_done += state.recorded->result.status == results::ScenarioStatus::kDone ? 1 : 0;
  }
  return batch;
}

void FarmRecords::Settle(uint32_t scenario_number) {
  const PlannedScenario& planned = book_.planned(scenario_number);
  const FarmSettings& settings = *context_.settings;
  std::optional<results::ScenarioOutcome> kept;
  std::string problem;
  if (settings.resume) {
    kept = KeptOutcome(settings.out_dir, scenario_number, settings.retry_failed, planned.variant,
                       &problem);
  }
  if (!problem.empty()) NameFolderRunAgain(problem);
  if (kept) {
    const results::ScenarioResult result = kept->result;
    context_.progress->CountPrevious(result);
    book_.Keep(scenario_number, std::move(*kept));
    if (context_.feed != nullptr) context_.feed->Recorded(result, nullptr);
  } else if (planned.status == PlanStatus::kInvalid) {
    context_.logger->Warning("scenario " + std::to_string(scenario_number) +
                             " invalid: " + planned.error);
    Submit(UnrunnableRecord(planned, results::ScenarioStatus::kInvalid, planned.error));
  } else {
    book_.Queue(scenario_number);
  }
}

void FarmRecords::NameFolderRunAgain(const std::string& problem) {
  context_.logger->Warning("resume: " + problem + "; run again");
  // The terminal names the first few; the log names every one.
  constexpr size_t kNamedOnTerminal = 10;
  if (++folders_run_again_ <= kNamedOnTerminal) {
    context_.progress->Note("warning: " + problem + "; run again");
  } else if (folders_run_again_ == kNamedOnTerminal + 1) {
    context_.progress->Note("warning: more folders are run again (asg_log.txt names each)");
  }
}

void FarmRecords::TakeWritten() {
  for (results::ScenarioOutcome& outcome : context_.writer->TakeWritten()) {
    const uint32_t number = outcome.result.scenario_number;
    if (IsReproduction(number)) continue;
    if (!written_.contains(number)) context_.progress->Count(outcome.result);
    written_[number] = std::move(outcome);
  }
}

void FarmRecords::RecordDone(const AttemptEnd& end, protocol::AnalyzeScenarioRequest analysis,
                             std::vector<protocol::CaptureImage> captures) {
  const uint32_t number = end.scenario_number;
  const PlannedScenario& planned = book_.planned(number);
  results::ScenarioRecord record;
  record.request = planned.request_json;
  record.result = results::DoneResult(analysis, planned.seed);
  record.result.variant = planned.variant;
  record.result.layout = planned.layout;
  record.search = planned.search_record;
  record.trajectory = std::move(analysis.vehicle_trajectory);
  record.captures = std::move(captures);
  char line[160];
  std::snprintf(line, sizeof line, "scenario %u done on worker %d: %s, sim %.2f s, wall %.2f s",
                number, end.attempt.worker_id,
                std::string(protocol::TerminationReasonName(analysis.termination_reason)).c_str(),
                analysis.vehicle_sim_time, end.attempt.wall_time_s);
  context_.logger->Info(line);
  if (!analysis.capture_error.empty()) {
    context_.logger->Warning("scenario " + std::to_string(number) +
                             ": captures missing: " + analysis.capture_error);
  }
  Submit(std::move(record));
}

void FarmRecords::RecordUnrunnable(uint32_t scenario_number, results::ScenarioStatus status,
                                   const std::string& error) {
  Submit(UnrunnableRecord(book_.planned(scenario_number), status, error));
}

void FarmRecords::Submit(results::ScenarioRecord record) {
  // The attempts (timing.json) and reruns (result.json) come from the scenario's one state.
  const uint32_t number = record.result.scenario_number;
  const ScenarioState& state = book_.state(number);
  record.result.reruns = state.reruns;
  record.timing = state.Timing();
  if (const auto reproduction = reproduction_folders_.find(number);
      reproduction != reproduction_folders_.end()) {
    if (!state.recorded) ++reproduction_recorded_;
    book_.SetRecorded(number, results::ScenarioOutcome{record.result, record.timing});
    ShowReproduction();
    context_.writer->Submit(std::move(record), reproduction->second);
    return;
  }
  // A rerun writes the folder again; the feed sees each scenario once.
  const bool first = !state.recorded;
  book_.SetRecorded(number, results::ScenarioOutcome{record.result, record.timing});
  // The feed sees the record before it goes to the writer, which takes it.
  if (first && context_.feed != nullptr) context_.feed->Recorded(record.result, &record);
  context_.writer->Submit(std::move(record));
}

}  // namespace asg::client
