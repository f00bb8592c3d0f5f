// What a scenario's folder records, as values and as JSON: the deterministic outcome
// (result.json) and the timing facts that differ from run to run (timing.json).
//
// result.json holds only what the same request gives every time, so a batch run with one worker
// and with many gives byte-identical result.json files: the worker that ran a scenario and the
// wall time it took are in timing.json instead, as is the history of its attempts (the one
// record of how many tries a scenario took: faults change timing.json, never result.json).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/messages.h"
#include "protocol/messages_json.h"
#include "protocol/node_messages.h"

namespace asg::results {

using json::Json;

/// A result folder or summary that cannot be written or read back; the message names the file.
class ResultError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Final state of a scenario.
enum class ScenarioStatus : uint8_t {
  kDone,     ///< ran to a termination reason (any reason, including collisions)
  kInvalid,  ///< rejected before running (batch validation)
  kFailed,   ///< could not be run within max_attempts (worker error, timeout, scene problem)
};
/// "done", "invalid" or "failed".
std::string_view ScenarioStatusName(ScenarioStatus status);
/// Parses a status name; returns false when unknown.
bool ScenarioStatusFromName(std::string_view name, ScenarioStatus* status);

/// A rerun requested by a vehicle node (NotifyReady.request_rerun) and accepted.
struct RerunRecord {
  uint32_t attempt = 0;   ///< the attempt that was run again, 1-based
  std::string node_name;  ///< the node that asked
  std::string reason;     ///< its reason_for_rerun
  bool operator==(const RerunRecord&) const = default;
};

/// A change a person made to an interactive run (docs/interactive.md, "Interventions"): what,
/// when and through which service. Only the fields of its kind are set (written when set).
struct Intervention {
  double sim_time_s = 0.0;  ///< [s] the run's simulated time when it was made
  std::string service;      ///< the service that made it, e.g. "SetEntityState"
  std::string entity;       ///< the entity changed, e.g. "vehicle", "tree_0_0"; "all" for a reset
  /// "teleport", "velocity", "entity_moved", "entity_spawned", "entity_deleted", "reset" or
  /// "ego_control".
  std::string kind;
  std::optional<std::array<double, 3>> from;  ///< [m] where the entity was (moves, deletions)
  std::optional<std::array<double, 3>> to;    ///< [m] where it was put (moves, spawns)
  std::optional<std::array<double, 3>> linear_velocity;   ///< [m/s] velocity: set, world frame
  std::optional<std::array<double, 3>> angular_velocity;  ///< [rad/s] velocity: set
  std::optional<std::string> uri;                         ///< entity_spawned: the class spawned
  std::optional<int> scope;                               ///< reset: ResetSimulation's scope
  std::optional<protocol::EgoControl> control;            ///< ego_control: the command
  bool operator==(const Intervention&) const = default;
};

/// An intervention as result.json writes it, and back strictly (errors name the JSON path).
void to_json(Json& j, const Intervention& value);
void Decode(const Json& j, const std::string& path, Intervention* value);

/// The deterministic outcome of one scenario: exactly the content of result.json. The fields
/// termination_reason, vehicle_sim_time and counters are meaningful (and written) only when
/// status is kDone; error only when it is not.
struct ScenarioResult {
  uint32_t scenario_number = 0;  ///< 1..2147483647
  ScenarioStatus status = ScenarioStatus::kFailed;
  std::string error;    ///< why the scenario is invalid or failed
  uint64_t seed = 0;    ///< the request's seed
  std::string variant;  ///< the batch variant it ran as; empty without variants
  uint32_t layout = 0;  ///< with a variant: the scenario number of its layout (the
                        ///< scene every variant of it shares); 0 without
  /// Why the run ended; JSON: its number.
  protocol::TerminationReason termination_reason = protocol::TerminationReason::REASON_SUCCESS;
  double vehicle_sim_time = 0.0;   ///< [s] from AnalyzeScenario
  protocol::RunCounters counters;  ///< from AnalyzeScenario
  protocol::RegretReport regret;   ///< from AnalyzeScenario (docs/regret.md); written when
                                   ///< done and regret.computed
  /// The distinct failure (failures.csv's failure_id) a done run is a copy of; 0 when the run is
  /// no failure or none was assigned yet (then not written). Set by the batch's final pass.
  uint32_t failure_id = 0;
  std::vector<RerunRecord> reruns;    ///< accepted rerun requests, in order (attempt numbers
                                      ///< as in ScenarioTiming::attempts)
  std::vector<std::string> captures;  ///< file names in captures/, e.g. "ortho_aerial_pad0.png"
  std::string capture_error;          ///< why captures asked for are missing; empty when none
  /// An interactive run's interventions in sim-time order; empty (not written) for a run nobody
  /// changed, as every batch run.
  std::vector<Intervention> interventions;
  bool operator==(const ScenarioResult&) const = default;
};

/// A kDone result from a worker's AnalyzeScenario (its trajectory and worker_id are not part of
/// the result; see ScenarioRecord and ScenarioTiming).
ScenarioResult DoneResult(const protocol::AnalyzeScenarioRequest& analysis, uint64_t seed);

/// The result of a scenario that did not run to a termination reason: `status` kInvalid or
/// kFailed, with the error that says why.
ScenarioResult UnrunnableResult(uint32_t scenario_number, ScenarioStatus status, std::string error,
                                uint64_t seed);

/// One try of a scenario on a worker.
struct AttemptTiming {
  uint32_t attempt = 0;      ///< 1-based
  int32_t worker_id = -1;    ///< the worker that ran it, -1 when none
  double wall_time_s = 0.0;  ///< [s] wall-clock time of this try
  std::string outcome;       ///< how it ended: "done", "rerun requested", "worker lost"...
  std::string detail;        ///< what happened, for people (e.g. the exit signal); may be empty
  bool operator==(const AttemptTiming&) const = default;
};

/// Facts about a scenario that vary between runs of the same batch: the content of timing.json.
struct ScenarioTiming {
  int32_t worker_id = -1;               ///< worker of the final attempt; -1 when it never ran
  double wall_time_s = 0.0;             ///< [s] wall-clock time over all attempts
  std::vector<AttemptTiming> attempts;  ///< every try, in order; the count of tries
  bool operator==(const ScenarioTiming&) const = default;
};

/// result.json's object, in this order: scenario_number, status, seed, variant and layout (in a
/// variant batch only), reruns, captures, then termination_reason, termination_reason_name,
/// vehicle_sim_time, counters, regret (when computed) and failure_id (when set) when done, or
/// error when not, capture_error when captures failed, and interventions when there were any.
Json ResultToJson(const ScenarioResult& result);
/// Reads a result.json object back strictly (the messages' schema rules: every field of its
/// status, no unknown key); throws ResultError "<origin>: <json path>: <problem>".
ScenarioResult ResultFromJson(const Json& json, const std::string& origin);

/// timing.json's object: worker_id, wall_time_s, attempts.
Json TimingToJson(const ScenarioTiming& timing);
/// Reads a timing.json object back strictly; throws ResultError "<origin>: <json path>: <problem>".
ScenarioTiming TimingFromJson(const Json& json, const std::string& origin);

}  // namespace asg::results
