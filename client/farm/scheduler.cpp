// The scheduler's queue, assignments and deadlines.
#include "client/farm/scheduler.h"

#include <stdexcept>

namespace asg::client {

namespace {

std::string Seconds(std::chrono::milliseconds duration) {
  const double seconds = static_cast<double>(duration.count()) / 1000.0;
  std::string text = std::to_string(seconds);
  // Trim trailing zeros of the fixed notation: "30.000000" -> "30", "2.500000" -> "2.5".
  text.erase(text.find_last_not_of('0') + 1);
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text + " s";
}

}  // namespace

Scheduler::Scheduler(const SchedulerSettings& settings,
                     const std::vector<uint32_t>& scenario_numbers)
    : settings_(settings), queue_(scenario_numbers.begin(), scenario_numbers.end()) {
  if (settings_.max_attempts < 1) {
    throw std::invalid_argument("SchedulerSettings: max_attempts is 0, expected >= 1");
  }
  if (settings_.scenario_timeout.count() <= 0 || settings_.start_timeout.count() <= 0) {
    throw std::invalid_argument(
        "SchedulerSettings: scenario_timeout and start_timeout must be > 0");
  }
  if (queue_.size() != scenario_numbers.size()) {
    throw std::invalid_argument("Scheduler: a scenario number is listed twice");
  }
}

std::optional<uint32_t> Scheduler::Assign(WorkerKey worker, SteadyClock::time_point now) {
  if (stopped_ || queue_.empty() || assignments_.contains(worker)) return std::nullopt;
  const uint32_t number = *queue_.begin();
  queue_.erase(queue_.begin());
  assignments_[worker] = Assignment{number, now, false, 0};
  return number;
}

void Scheduler::Add(const std::vector<uint32_t>& scenario_numbers) {
  for (const uint32_t number : scenario_numbers) {
    if (!queue_.insert(number).second) {
      throw std::invalid_argument("Scheduler: scenario " + std::to_string(number) +
                                  " is queued already");
    }
  }
}

void Scheduler::MarkStarted(WorkerKey worker) {
  const auto it = assignments_.find(worker);
  if (it != assignments_.end()) it->second.started = true;
}

Scheduler::Verdict Scheduler::Check(WorkerKey worker, uint32_t scenario_number) const {
  const auto it = assignments_.find(worker);
  if (it == assignments_.end()) return Verdict::kUnexpected;
  if (it->second.scenario_number != scenario_number) return Verdict::kMismatch;
  return Verdict::kAccepted;
}

SchedulerAction Scheduler::Resubmit(WorkerKey worker, SteadyClock::time_point now,
                                    const std::string& reason) {
  Assignment& assignment = assignments_.at(worker);
  SchedulerAction action{SchedulerAction::Kind::kResubmit, worker, assignment.scenario_number,
                         reason, AttemptOutcome::kRefused};
  if (assignment.resubmissions >= settings_.max_resubmissions) {
    action.kind = SchedulerAction::Kind::kDropWorker;
    action.reason =
        reason + "; given up after " + std::to_string(assignment.resubmissions) + " resubmissions";
    return action;
  }
  ++assignment.resubmissions;
  assignment.last_send = now;
  assignment.started = false;
  return action;
}

std::optional<uint32_t> Scheduler::ReleaseWorker(WorkerKey worker) {
  const auto it = assignments_.find(worker);
  if (it == assignments_.end()) return std::nullopt;
  const uint32_t number = it->second.scenario_number;
  assignments_.erase(it);
  return number;
}

bool Scheduler::Requeue(uint32_t scenario_number) {
  if (queue_.contains(scenario_number)) return false;
  for (const auto& [worker, assignment] : assignments_) {
    if (assignment.scenario_number == scenario_number) return false;
  }
  queue_.insert(scenario_number);
  return true;
}

std::vector<SchedulerAction> Scheduler::Poll(SteadyClock::time_point now,
                                             const AttemptStart& attempt_start) {
  std::vector<SchedulerAction> actions;
  for (auto& [worker, assignment] : assignments_) {
    const std::string scenario = "scenario " + std::to_string(assignment.scenario_number);
    if (now - attempt_start(assignment.scenario_number) >= settings_.scenario_timeout) {
      actions.push_back(
          {SchedulerAction::Kind::kDropWorker, worker, assignment.scenario_number,
           scenario + " exceeded the wall-clock cap of " + Seconds(settings_.scenario_timeout),
           AttemptOutcome::kTimedOut});
      continue;
    }
    if (assignment.started || now - assignment.last_send < settings_.start_timeout) continue;
    const std::string reason = scenario + " not started within " + Seconds(settings_.start_timeout);
    if (assignment.resubmissions >= settings_.max_resubmissions) {
      actions.push_back({SchedulerAction::Kind::kDropWorker, worker, assignment.scenario_number,
                         reason + "; given up after " + std::to_string(assignment.resubmissions) +
                             " resubmissions",
                         AttemptOutcome::kNotStarted});
      continue;
    }
    ++assignment.resubmissions;
    assignment.last_send = now;
    actions.push_back(
        {SchedulerAction::Kind::kResubmit, worker, assignment.scenario_number, reason});
  }
  return actions;
}

std::vector<uint32_t> Scheduler::TakeQueued() {
  std::vector<uint32_t> taken(queue_.begin(), queue_.end());
  queue_.clear();
  return taken;
}

std::optional<uint32_t> Scheduler::AssignedTo(WorkerKey worker) const {
  const auto it = assignments_.find(worker);
  if (it == assignments_.end()) return std::nullopt;
  return it->second.scenario_number;
}

}  // namespace asg::client
