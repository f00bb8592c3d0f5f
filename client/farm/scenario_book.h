// The farm's scenarios: one ScenarioState per scenario (scenario_state.h), with the scheduler as
// the policy over them (scheduler.h: queue order, deadlines, the give-up rule).
//
// Every change of a scenario's attempts goes through here, so an attempt begins when the
// scenario is handed to a worker (Assign), ends exactly once (EndAttempt) and is counted the same
// way by timing.json, by result.json's reruns and by the give-up rule.
//
// Not thread-safe: one owner (the farm loop) drives it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "client/farm/scenario_state.h"
#include "client/farm/scheduler.h"

namespace asg::client {

/// What becomes of a scenario after one of its attempts ended.
enum class AfterAttempt : uint8_t {
  kFinished,  ///< its result stands (done, an invalid scene, or an invalid run past the limit)
  kQueued,    ///< it runs again (a failed attempt below max_attempts, an accepted rerun, or
              ///< an invalid run, at most kMaxInvalidRuns of them)
  kFailed,    ///< it has had max_attempts failed attempts: finished as failed
};

/// An ended attempt and what follows from it.
struct AttemptEnd {
  uint32_t scenario_number = 0;
  Attempt attempt;  ///< as recorded in the scenario's state
  AfterAttempt next = AfterAttempt::kFinished;
};

/// What an accepted rerun request does.
enum class RerunEffect : uint8_t {
  kQueued,        ///< the last attempt had ended done: it is marked rerun requested, and queued
  kAfterCurrent,  ///< the attempt is still running: the scenario is queued again when it ends
  kIgnored,       ///< the last attempt did not end done (it is queued or failed already)
};

/// The scenarios of one farm run and their scheduling.
class ScenarioBook {
 public:
  /// Queues `scenario_numbers` (unique) with a fresh state each; throws std::invalid_argument
  /// for bad settings (see Scheduler).
  ScenarioBook(const SchedulerSettings& settings, const std::vector<uint32_t>& scenario_numbers);

  /// Queues new scenarios (not in this book yet) with a fresh state each; throws
  /// std::invalid_argument for a number already in the book.
  void Add(const std::vector<uint32_t>& scenario_numbers);

  /// The scheduling policy, for deadlines (Poll), starts, resubmissions and queries.
  Scheduler& scheduler() { return scheduler_; }
  const Scheduler& scheduler() const { return scheduler_; }

  /// Hands the lowest queued scenario to an idle worker and begins its next attempt there;
  /// nullopt when the scheduler gives the worker nothing.
  std::optional<uint32_t> Assign(WorkerKey worker, int32_t worker_id, SteadyClock::time_point now);

  /// Ends the attempt `worker` holds with `outcome` (and `detail`, for people), and applies the
  /// policy: a kDone with a rerun pending, a failed attempt below max_attempts, or one of the
  /// first kMaxInvalidRuns kInvalidRun attempts queues the scenario again (a later kInvalidRun
  /// finishes it: its result is kept). nullopt when the worker holds nothing (e.g. it was released
  /// already).
  std::optional<AttemptEnd> EndAttempt(WorkerKey worker, AttemptOutcome outcome, std::string detail,
                                       SteadyClock::time_point now);

  /// A vehicle node's rerun of the scenario's latest attempt was accepted by the node registry:
  /// records it (RerunRecord with that attempt's number) unless it is ignored; see RerunEffect.
  RerunEffect AcceptRerun(uint32_t scenario_number, const std::string& node_name,
                          const std::string& reason);
  /// Whether AcceptRerun would honour a rerun of the scenario now (not kIgnored).
  bool RerunPossible(uint32_t scenario_number) const;

  /// A scenario's state. Requires a scenario of this book.
  const ScenarioState& state(uint32_t scenario_number) const;
  /// Sets the record last handed to the result writer for a scenario of this book.
  void SetRecorded(uint32_t scenario_number, results::ScenarioOutcome recorded);
  /// Every scenario's state, by number.
  const std::map<uint32_t, ScenarioState>& states() const { return states_; }

 private:
  ScenarioState& Mutable(uint32_t scenario_number);

  Scheduler scheduler_;
  std::map<uint32_t, ScenarioState> states_;
};

}  // namespace asg::client
