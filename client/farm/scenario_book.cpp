// Plans, scenario states and the scheduler kept in step: assignments begin attempts, ends apply
// the give-up rule, reruns queue a scenario again, outcomes are recorded in the states.
#include "client/farm/scenario_book.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "core/check.h"

namespace asg::client {

ScenarioBook::ScenarioBook(const SchedulerSettings& settings) : scheduler_(settings, {}) {}

void ScenarioBook::Add(const PlannedScenario* planned) {
  AddState(planned->scenario_number);
  plans_[planned->scenario_number] = planned;
}

void ScenarioBook::Add(PlannedScenario planned) {
  AddState(planned.scenario_number);
  fed_.push_back(std::move(planned));
  plans_[fed_.back().scenario_number] = &fed_.back();
}

void ScenarioBook::AddState(uint32_t scenario_number) {
  if (states_.contains(scenario_number)) {
    throw std::invalid_argument("ScenarioBook: scenario " + std::to_string(scenario_number) +
                                " is in the book already");
  }
  states_[scenario_number].scenario_number = scenario_number;
}

const PlannedScenario& ScenarioBook::planned(uint32_t scenario_number) const {
  const auto it = plans_.find(scenario_number);
  ASG_CHECK(it != plans_.end());
  return *it->second;
}

void ScenarioBook::Queue(uint32_t scenario_number) {
  ASG_CHECK(states_.contains(scenario_number));
  scheduler_.Add({scenario_number});
}

void ScenarioBook::Keep(uint32_t scenario_number, results::ScenarioOutcome kept) {
  ScenarioState& state = Mutable(scenario_number);
  state.recorded = std::move(kept);
  state.kept = true;
}

std::vector<SchedulerAction> ScenarioBook::Poll(SteadyClock::time_point now) {
  return scheduler_.Poll(now, [this](uint32_t number) { return state(number).current->start; });
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

std::vector<results::ScenarioOutcome> ScenarioBook::Outcomes() const {
  std::vector<results::ScenarioOutcome> outcomes;
  for (const auto& [number, state] : states_) {
    if (state.recorded) outcomes.push_back(*state.recorded);
  }
  return outcomes;
}

size_t ScenarioBook::KeptCount() const {
  size_t kept = 0;
  for (const auto& [number, state] : states_) kept += state.kept ? 1 : 0;
  return kept;
}

size_t ScenarioBook::KeptDoneCount() const {
  size_t done = 0;
  for (const auto& [number, state] : states_) {
    done += state.kept && state.recorded->result.status == results::ScenarioStatus::kDone ? 1 : 0;
  }
  return done;
}

ScenarioState& ScenarioBook::Mutable(uint32_t scenario_number) {
  const auto it = states_.find(scenario_number);
  ASG_CHECK(it != states_.end());
  return it->second;
}

}  // namespace asg::client
