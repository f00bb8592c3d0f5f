// Scenario states and the scheduler kept in step: assignments begin attempts, ends apply the
// give-up rule, reruns queue a scenario again.
#include "client/farm/scenario_book.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "core/check.h"

namespace asg::client {

ScenarioBook::ScenarioBook(const SchedulerSettings& settings,
                           const std::vector<uint32_t>& scenario_numbers)
    : scheduler_(settings, scenario_numbers) {
  for (const uint32_t number : scenario_numbers) states_[number].scenario_number = number;
}

void ScenarioBook::Add(const std::vector<uint32_t>& scenario_numbers) {
  for (const uint32_t number : scenario_numbers) {
    if (states_.contains(number)) {
      throw std::invalid_argument("ScenarioBook: scenario " + std::to_string(number) +
                                  " is in the book already");
    }
  }
  scheduler_.Add(scenario_numbers);
  for (const uint32_t number : scenario_numbers) states_[number].scenario_number = number;
}

std::optional<uint32_t> ScenarioBook::Assign(WorkerKey worker, int32_t worker_id,
                                             SteadyClock::time_point now) {
  const std::optional<uint32_t> number = scheduler_.Assign(worker, now);
  if (number) Mutable(*number).Begin(worker, worker_id, now);
  return number;
}

std::optional<AttemptEnd> ScenarioBook::EndAttempt(WorkerKey worker, AttemptOutcome outcome,
                                                   std::string detail,
                                                   SteadyClock::time_point now) {
  const std::optional<uint32_t> number = scheduler_.ReleaseWorker(worker);
  if (!number) return std::nullopt;
  ScenarioState& state = Mutable(*number);
  AttemptEnd end{*number, state.End(outcome, std::move(detail), now), AfterAttempt::kFinished};
  if (end.attempt.outcome == AttemptOutcome::kRerunRequested ||
      (end.attempt.outcome == AttemptOutcome::kInvalidRun &&
       state.InvalidRuns() <= kMaxInvalidRuns)) {
    scheduler_.Requeue(*number);
    end.next = AfterAttempt::kQueued;
  } else if (IsFailedAttempt(end.attempt.outcome)) {
    if (scheduler_.GivesUp(state.FailedAttempts())) {
      end.next = AfterAttempt::kFailed;
    } else {
      scheduler_.Requeue(*number);
      end.next = AfterAttempt::kQueued;
    }
  }
  return end;
}

RerunEffect ScenarioBook::AcceptRerun(uint32_t scenario_number, const std::string& node_name,
                                      const std::string& reason) {
  const auto it = states_.find(scenario_number);
  if (it == states_.end()) return RerunEffect::kIgnored;
  ScenarioState& state = it->second;
  if (state.current) {
    if (state.rerun_pending) return RerunEffect::kIgnored;
    state.rerun_pending = true;
    state.reruns.push_back({state.LatestAttemptNumber(), node_name, reason});
    return RerunEffect::kAfterCurrent;
  }
  if (state.attempts.empty() || state.attempts.back().outcome != AttemptOutcome::kDone) {
    return RerunEffect::kIgnored;
  }
  state.attempts.back().outcome = AttemptOutcome::kRerunRequested;
  state.reruns.push_back({state.LatestAttemptNumber(), node_name, reason});
  scheduler_.Requeue(scenario_number);
  return RerunEffect::kQueued;
}

bool ScenarioBook::RerunPossible(uint32_t scenario_number) const {
  const auto it = states_.find(scenario_number);
  if (it == states_.end()) return false;
  const ScenarioState& state = it->second;
  if (state.current) return !state.rerun_pending;
  return !state.attempts.empty() && state.attempts.back().outcome == AttemptOutcome::kDone;
}

const ScenarioState& ScenarioBook::state(uint32_t scenario_number) const {
  const auto it = states_.find(scenario_number);
  ASG_CHECK(it != states_.end());
  return it->second;
}

void ScenarioBook::SetRecorded(uint32_t scenario_number, results::ScenarioOutcome recorded) {
  Mutable(scenario_number).recorded = std::move(recorded);
}

ScenarioState& ScenarioBook::Mutable(uint32_t scenario_number) {
  const auto it = states_.find(scenario_number);
  ASG_CHECK(it != states_.end());
  return it->second;
}

}  // namespace asg::client
