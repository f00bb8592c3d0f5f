// Which scenario goes to which worker, and what happens when a worker does not deliver.
//
// A pure state machine over scenario numbers and opaque worker keys, driven by the farm with the
// current time: no sockets, no processes, no threads. It keeps the queue order and each
// assignment's sends and deadlines; a scenario's attempts are kept by its ScenarioState
// (scenario_state.h): the wall-clock cap is measured from the start of the attempt that state
// keeps, and the give-up rule (GivesUp) is applied to the count of failed attempts it derives.
// ScenarioBook (scenario_book.h) keeps the two in step. Scenarios
// are handed out in ascending number order (a re-queued scenario goes back in its place). Rules,
// after AutoSceneGen's client:
//   - a worker that accepted a scenario but has not started it (no StatusCode RUNNING) within
//     start_timeout gets it again, as the original request; after max_resubmissions such
//     resubmissions the worker is given up;
//   - a result naming another scenario than the worker was given is refused and the scenario
//     resubmitted to that worker (counted as a resubmission);
//   - an attempt that runs longer than scenario_timeout has its worker dropped;
//   - a worker that is dropped or lost releases its scenario (ReleaseWorker); the owner queues
//     it again (Requeue), or finishes it as failed once it has had max_attempts failed attempts.
// Not thread-safe: one owner drives it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "client/farm/scenario_state.h"

namespace asg::client {

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
  /// kDropWorker: how the attempt ends (kTimedOut, kNotStarted or kRefused).
  AttemptOutcome outcome = AttemptOutcome::kWorkerLost;
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
    kAccepted,    ///< it is the worker's scenario: end its attempt (ScenarioBook::EndAttempt)
    kMismatch,    ///< the worker holds another scenario; call Resubmit
    kUnexpected,  ///< the worker holds none (e.g. already dropped); ignore the report
  };
  /// Judges a worker's report that scenario_number ended (a result or a scene-creation issue);
  /// changes nothing.
  Verdict Check(WorkerKey worker, uint32_t scenario_number) const;

  /// Resubmits the worker's scenario after a refused report; returns kResubmit, or kDropWorker
  /// once the worker has had max_resubmissions. Requires the worker to hold a scenario.
  SchedulerAction Resubmit(WorkerKey worker, SteadyClock::time_point now,
                           const std::string& reason);

  /// The worker is gone or being dropped: returns the scenario it held, if any, which is now
  /// neither held nor queued (see Requeue and GivesUp). Idempotent per worker.
  std::optional<uint32_t> ReleaseWorker(WorkerKey worker);

  /// The give-up rule: whether a scenario with `failed_attempts` failed attempts is finished as
  /// failed rather than queued again (failed_attempts >= max_attempts).
  bool GivesUp(uint32_t failed_attempts) const { return failed_attempts >= settings_.max_attempts; }

  /// Queues a scenario that is neither queued nor held (after a failed attempt, or a rerun asked
  /// for by a vehicle node); returns false when it is queued or held already.
  bool Requeue(uint32_t scenario_number);

  /// Queues new scenarios (unique, not known to the scheduler yet), e.g. a search's next
  /// generation; throws std::invalid_argument when one is queued already.
  void Add(const std::vector<uint32_t>& scenario_numbers);

  /// When the attempt of a held scenario began (its first send), by scenario number.
  using AttemptStart = std::function<SteadyClock::time_point(uint32_t scenario_number)>;
  /// Checks the deadlines of every assignment at `now`, the wall-clock cap from `attempt_start`
  /// of its scenario; returns what the owner must do.
  std::vector<SchedulerAction> Poll(SteadyClock::time_point now, const AttemptStart& attempt_start);

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
  /// Removes every queued scenario from the queue and returns them, ascending (a batch that can
  /// no longer run them records them as failed).
  std::vector<uint32_t> TakeQueued();

 private:
  struct Assignment {
    uint32_t scenario_number = 0;
    SteadyClock::time_point last_send;  // latest (re)submission
    bool started = false;
    uint32_t resubmissions = 0;
  };

  SchedulerSettings settings_;
  std::set<uint32_t> queue_;
  std::map<WorkerKey, Assignment> assignments_;
  bool stopped_ = false;
};

}  // namespace asg::client
