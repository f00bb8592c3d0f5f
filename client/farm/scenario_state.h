// One scenario's state in a farm run: the one place where its attempts, their outcomes, its
// reruns, its current assignment and its recorded outcome are kept. The scenario book holds one
// ScenarioState per scenario the farm knows (see scenario_book.h); everything else (timing.json's
// attempt list, result.json's reruns, the count of failed attempts the scheduler's policy looks at)
// is derived from it.
//
// Attempts are counted one way everywhere: an attempt begins when the scenario is handed to a
// worker and ends exactly once, with an AttemptOutcome. Attempts are numbered 1, 2, 3... in the
// order they begin; a rerun names the number of the attempt that is run again.
//
// Invalid runs: a done result is an invalid run (InvalidRunRule) when its trajectory is empty
// though the request was not scene_capture_only, or when its vehicle_sim_time exceeds the
// request's sim_timeout_period + kInvalidRunTimeSlack (a timeout >= 0 only). Such an attempt ends
// kInvalidRun (detail: the rule) and the scenario runs again, at most kMaxInvalidRuns times; an
// invalid run after that ends kInvalidRun too but its result is kept as the scenario's (done)
// result, so the scenario finishes with its last result and timing.json shows every invalid run.
// Invalid runs are not failed attempts: they do not count toward max_attempts.
//
// Not thread-safe: one owner (the farm loop) changes it.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/launch/worker_key.h"
#include "protocol/messages.h"
#include "results/folder.h"
#include "results/record.h"

namespace asg::client {

/// How one attempt of a scenario ended.
enum class AttemptOutcome : uint8_t {
  kDone,            ///< its result was accepted and is the scenario's result
  kRerunRequested,  ///< its result was accepted, then a vehicle node's rerun of it was accepted
  kInvalidScene,    ///< the worker could not create the scene: the scenario is invalid
  kPreempted,       ///< a vehicle node of the worker left during the run (RunPreempted)
  kWorkerLost,      ///< the worker's process ended or its connection closed during the run
  kTimedOut,        ///< the run passed the wall-clock cap and the worker was dropped
  kNotStarted,      ///< the worker never started it, even after resubmissions, and was dropped
  kRefused,         ///< the worker's reports were refused (malformed, mismatched) too often
  kInvalidRun,      ///< its result was an invalid run (InvalidRunRule): run again, or kept last
};

/// Invalid runs of one scenario that are run again; the next one's result is kept.
inline constexpr uint32_t kMaxInvalidRuns = 3;
/// [s] how far a run's vehicle_sim_time may pass its sim_timeout_period and still be valid.
inline constexpr double kInvalidRunTimeSlack = 0.25;

/// Why a done result `analysis` of `request` is an invalid run: "empty trajectory" (the request
/// is not scene_capture_only) or "sim time <t> s exceeds the timeout <T> s + 0.25 s" (a timeout
/// >= 0); empty when the run is valid.
std::string InvalidRunRule(const protocol::RunScenarioRequest& request,
                           const protocol::AnalyzeScenarioRequest& analysis);

/// The name written to timing.json: "done", "rerun requested", "invalid scene", "preempted",
/// "worker lost", "timed out", "not started", "refused" or "invalid run".
std::string_view AttemptOutcomeName(AttemptOutcome outcome);

/// Whether an attempt with this outcome is a failed attempt (counts toward max_attempts): every
/// outcome except kDone, kRerunRequested, kInvalidScene and kInvalidRun.
bool IsFailedAttempt(AttemptOutcome outcome);

/// One ended attempt.
struct Attempt {
  uint32_t number = 0;       ///< 1-based, in the order attempts began
  int32_t worker_id = -1;    ///< the worker that had it, -1 when unknown
  double wall_time_s = 0.0;  ///< [s] from its first send to its end
  AttemptOutcome outcome = AttemptOutcome::kWorkerLost;
  std::string detail;  ///< what happened, for people (e.g. "killed by signal 9"); may be empty
  bool operator==(const Attempt&) const = default;
};

/// The attempt in progress: the scenario's assignment.
struct CurrentAttempt {
  WorkerKey worker = 0;           ///< the connection that holds the scenario
  int32_t worker_id = -1;         ///< that worker's id
  SteadyClock::time_point start;  ///< first send of this attempt (resubmissions keep it)
};

/// Everything a farm run knows about one scenario.
struct ScenarioState {
  uint32_t scenario_number = 0;
  std::vector<Attempt> attempts;             ///< ended attempts, in order
  std::optional<CurrentAttempt> current;     ///< the attempt in progress, if the scenario is held
  std::vector<results::RerunRecord> reruns;  ///< accepted reruns, in order
  bool rerun_pending = false;  ///< a rerun of the current attempt was accepted before it ended
  /// The record last handed to the result writer (result.json and timing.json), or the outcome
  /// kept from an earlier run's folder, if any.
  std::optional<results::ScenarioOutcome> recorded;
  bool kept = false;  ///< `recorded` was kept from an earlier run (--resume): it is not run

  /// Failed attempts so far (IsFailedAttempt over `attempts`).
  uint32_t FailedAttempts() const;
  /// Attempts so far that ended kInvalidRun.
  uint32_t InvalidRuns() const;
  /// The number of the attempt in progress, else of the last ended one; 0 before the first.
  uint32_t LatestAttemptNumber() const;
  /// [s] since the current attempt began at `now`; 0 when none is in progress.
  double CurrentSeconds(SteadyClock::time_point now) const;

  /// Begins attempt LatestAttemptNumber() + 1 on `worker`. Requires no attempt in progress.
  void Begin(WorkerKey worker, int32_t worker_id, SteadyClock::time_point now);
  /// Ends the attempt in progress with `outcome` (kDone becomes kRerunRequested when a rerun
  /// is pending, which clears it) and returns it as recorded. Requires an attempt in progress.
  const Attempt& End(AttemptOutcome outcome, std::string detail, SteadyClock::time_point now);

  /// timing.json: every ended attempt with its outcome name, the total wall time and the
  /// worker of the last attempt.
  results::ScenarioTiming Timing() const;
};

}  // namespace asg::client
