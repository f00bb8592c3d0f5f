// A scenario's attempts: beginning and ending them, counting failures, timing.json.
#include "client/farm/scenario_state.h"

#include <array>
#include <cstdio>
#include <utility>

#include "core/check.h"

namespace asg::client {

namespace {

constexpr std::array<std::string_view, 9> kOutcomeNames = {
    "done",      "rerun requested", "invalid scene", "preempted",  "worker lost",
    "timed out", "not started",     "refused",       "invalid run"};

}  // namespace

std::string_view AttemptOutcomeName(AttemptOutcome outcome) {
  return kOutcomeNames.at(static_cast<size_t>(outcome));
}

bool IsFailedAttempt(AttemptOutcome outcome) {
  return outcome != AttemptOutcome::kDone && outcome != AttemptOutcome::kRerunRequested &&
         outcome != AttemptOutcome::kInvalidScene && outcome != AttemptOutcome::kInvalidRun;
}

std::string InvalidRunRule(const protocol::RunScenarioRequest& request,
                           const protocol::AnalyzeScenarioRequest& analysis) {
  if (analysis.vehicle_trajectory.empty() && !request.scene_capture_only) {
    return "empty trajectory";
  }
  const double timeout = request.sim_timeout_period;
  if (timeout >= 0.0 && analysis.vehicle_sim_time > timeout + kInvalidRunTimeSlack) {
    char text[128];
    std::snprintf(text, sizeof text, "sim time %.3f s exceeds the timeout %.3f s + %.2f s",
                  analysis.vehicle_sim_time, timeout, kInvalidRunTimeSlack);
    return text;
  }
  return {};
}

uint32_t ScenarioState::InvalidRuns() const {
  uint32_t invalid = 0;
  for (const Attempt& attempt : attempts) {
    invalid += attempt.outcome == AttemptOutcome::kInvalidRun ? 1 : 0;
  }
  return invalid;
}

uint32_t ScenarioState::FailedAttempts() const {
  uint32_t failed = 0;
  for (const Attempt& attempt : attempts) failed += IsFailedAttempt(attempt.outcome) ? 1 : 0;
  return failed;
}

uint32_t ScenarioState::LatestAttemptNumber() const {
  return static_cast<uint32_t>(attempts.size()) + (current ? 1 : 0);
}

double ScenarioState::CurrentSeconds(SteadyClock::time_point now) const {
  if (!current) return 0.0;
  return std::chrono::duration<double>(now - current->start).count();
}

void ScenarioState::Begin(WorkerKey worker, int32_t worker_id, SteadyClock::time_point now) {
  ASG_CHECK(!current);
  current = CurrentAttempt{worker, worker_id, now};
}

const Attempt& ScenarioState::End(AttemptOutcome outcome, std::string detail,
                                  SteadyClock::time_point now) {
  ASG_CHECK(current.has_value());
  if (outcome == AttemptOutcome::kDone && rerun_pending) outcome = AttemptOutcome::kRerunRequested;
  rerun_pending = false;
  attempts.push_back(Attempt{LatestAttemptNumber(), current->worker_id, CurrentSeconds(now),
                             outcome, std::move(detail)});
  current.reset();
  return attempts.back();
}

results::ScenarioTiming ScenarioState::Timing() const {
  results::ScenarioTiming timing;
  for (const Attempt& attempt : attempts) {
    timing.attempts.push_back({attempt.number, attempt.worker_id, attempt.wall_time_s,
                               std::string(AttemptOutcomeName(attempt.outcome)), attempt.detail});
    timing.wall_time_s += attempt.wall_time_s;
    timing.worker_id = attempt.worker_id;
  }
  return timing;
}

}  // namespace asg::client
