// Which scenario goes to which worker, and what happens when a worker does not deliver.
//
// A pure state machine over scenario numbers and opaque worker keys, driven by the farm with the
// current time: no sockets, no processes, no threads. Scenarios are handed out in ascending
// number order (a re-queued scenario goes back in its place). Rules, after AutoSceneGen's client:
//   - a worker that accepted a scenario but has not started it (no StatusCode RUNNING) within
//     start_timeout gets it again, as the original request; after max_resubmissions such
//     resubmissions the worker is given up;
//   - a result naming another scenario than the worker was given is refused and the scenario
//     resubmitted to that worker (counted as a resubmission);
//   - an attempt that runs longer than scenario_timeout has its worker dropped;
//   - a worker that is dropped or lost puts its scenario back in the queue; once a scenario has
//     had max_attempts failed attempts it is finished as failed with the last reason.
// Not thread-safe: one owner drives it.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace asg::client {

/// Identifies one worker connection for the scheduler's lifetime; never reused.
using WorkerKey = uint64_t;
/// The clock of every scheduler deadline.
using SteadyClock = std::chrono::steady_clock;

/// Limits of the scheduler.
struct SchedulerSettings {
  uint32_t max_attempts = 3;  ///< failed attempts after which a scenario is failed, >= 1
  std::chrono::milliseconds scenario_timeout{300'000};  ///< [ms] wall-clock cap per attempt
  std::chrono::milliseconds start_timeout{30'000};      ///< [ms] accepted but not started: resubmit
  uint32_t max_resubmissions = 2;  ///< resubmissions to one worker before it is given up
};

/// Something the owner must do for a worker.
struct SchedulerAction {
  enum class Kind : uint8_t {
    kResubmit,    ///< send the worker its scenario again, as the original request
    kDropWorker,  ///< stop the worker (kill or close) and then call ReleaseWorker
  };
  Kind kind = Kind::kResubmit;
  WorkerKey worker = 0;
  uint32_t scenario_number = 0;
  std::string reason;  ///< why, for the log and for a failed scenario's record
};

/// A scenario that used up its attempts.
struct ScenarioFailure {
  uint32_t scenario_number = 0;
  uint32_t attempts = 0;  ///< failed attempts, == max_attempts
  std::string reason;     ///< the last attempt's failure
};

/// The scheduling state of a batch.
class Scheduler {
 public:
  /// Queues `scenario_numbers` (unique); throws std::invalid_argument for bad settings.
  Scheduler(const SchedulerSettings& settings, const std::vector<uint32_t>& scenario_numbers);

  /// Gives an idle worker the lowest queued scenario and starts its timers; nullopt when the
  /// queue is empty, the scheduler is stopped or the worker already holds one.
  std::optional<uint32_t> Assign(WorkerKey worker, SteadyClock::time_point now);

  /// The worker reported StatusCode RUNNING: its scenario has started.
  void MarkStarted(WorkerKey worker);

  /// Outcome of a worker reporting the end of a scenario.
  enum class Verdict : uint8_t {
    kAccepted,    ///< it was the worker's scenario, which is now finished
    kMismatch,    ///< the worker holds another scenario; call Resubmit
    kUnexpected,  ///< the worker holds none (e.g. already dropped); ignore the report
  };
  /// A worker reports scenario_number finished (a result or a scene-creation issue).
  Verdict Finish(WorkerKey worker, uint32_t scenario_number);

  /// Resubmits the worker's scenario after a refused report; returns kResubmit, or kDropWorker
  /// once the worker has had max_resubmissions. Requires the worker to hold a scenario.
  SchedulerAction Resubmit(WorkerKey worker, SteadyClock::time_point now,
                           const std::string& reason);

  /// The worker is gone or being dropped: its scenario (if any) counts a failed attempt and is
  /// queued again, or fails for good (returned) after max_attempts. Idempotent per worker.
  std::optional<ScenarioFailure> ReleaseWorker(WorkerKey worker, const std::string& reason);

  /// Queues a scenario again that is neither queued nor held (a rerun asked for by a vehicle
  /// node); returns false when it is queued or held already, or the scheduler is stopped.
  bool Requeue(uint32_t scenario_number);

  /// Checks the deadlines of every assignment at `now`; returns what the owner must do.
  std::vector<SchedulerAction> Poll(SteadyClock::time_point now);

  /// Stops handing out scenarios (an interrupted batch); assignments stay as they are.
  void Stop() { stopped_ = true; }

  /// The scenario a worker holds, if any.
  std::optional<uint32_t> AssignedTo(WorkerKey worker) const;
  /// Scenarios waiting for a worker.
  size_t queued() const { return queue_.size(); }
  /// Scenarios held by workers.
  size_t in_flight() const { return assignments_.size(); }
  /// Nothing queued and nothing in flight.
  bool Drained() const { return queue_.empty() && assignments_.empty(); }
  /// Failed attempts so far of a scenario.
  uint32_t FailedAttempts(uint32_t scenario_number) const;

 private:
  struct Assignment {
    uint32_t scenario_number = 0;
    SteadyClock::time_point attempt_start;  // first send of this attempt
    SteadyClock::time_point last_send;      // latest (re)submission
    bool started = false;
    uint32_t resubmissions = 0;
  };

  SchedulerSettings settings_;
  std::set<uint32_t> queue_;
  std::map<WorkerKey, Assignment> assignments_;
  std::map<uint32_t, uint32_t> failed_attempts_;
  bool stopped_ = false;
};

}  // namespace asg::client
