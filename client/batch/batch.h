// Batch files: reading, merging each scenario's overrides over the batch defaults, numbering,
// seeding and strict validation into RunScenario requests.
//
// A batch file is one JSON object:
//   {"name": "demo", "seed": 7,
//    "defaults": {<any RunScenarioRequest fields and extensions>},
//    "scenarios": [{<overrides>, "scenario_number": 4 (optional)}, ...],
//    "generate": {<see generate.h>},
//    "search": {<see search_spec.h>},
//    "vehicle_nodes": {"count": 0, "sync": true, "sensors": [], "max_reruns": 3,
//                      "save_minimal": false},
//    "failures": {"regret_threshold": 0.75, "reproduce": 5},
//    "regret": {"failure_time": "failure_moment"},
//    "max_attempts": 3, "scenario_timeout_s": 300}
// Every key is optional except that at least one scenario must be listed, generated or searched;
// unknown keys are errors (batch_file.h declares the top level). A "search" section adds scenarios
// while the batch runs (client/search/search_run.h): numbered on from one past the highest listed
// or generated number, each seeded like a generated one, from the source "search[<candidate id -
// 1>]". A scenario is DeepMerge(DeepMerge(base, defaults), overrides) plus its number and seed,
// decoded strictly into protocol::RunScenarioRequest, where base is the JSON of a
// default-constructed RunScenarioRequest (so a batch names only what it changes; arrays such as
// ssa_array still replace whole, and each SSA layout must be complete) whose vehicle_nodes is
// BatchNodeSettings::spec, the top-level "vehicle_nodes" without the client-only keys max_reruns
// and save_minimal (so "defaults" or an override can still change it for some scenarios). The
// top-level "vehicle_nodes" is decoded strictly with the batch: a bad value there is a BatchError,
// e.g. "batch.json: vehicle_nodes.max_reruns: expected an unsigned integer, got string "x"".
//
// Numbering: a "scenario_number" in an override is used as given (1..2147483647, the range of
// RunScenario's int32; AnalyzeScenario's uint16 is widened to match; 0 is reserved); the other
// listed scenarios get 1, 2, 3... in order, skipping numbers already given; generated scenarios
// follow, numbered from "start_number" or else from one past the highest listed number. A number
// used twice is a BatchError.
//
// Seeds: every scenario's request.seed is ScenarioSeed(batch seed, number) unless its override
// sets "seed" (for replaying one scenario alone). "seed" and "scenario_number" in "defaults"
// are errors, since they would give every scenario the same value.
//
// Errors: problems that make the batch unusable throw BatchError (see batch_json.h). A scenario
// that does not decode is kept as PlanStatus::kInvalid with the decoder's message prefixed by
// its place in the file, e.g. "scenarios[3].scene_description.ssa_array[0].x: 2 values,
// num_instances is 3" or "generate[12]: ..." for the 13th generated scenario, or by "defaults"
// when the value was written there; the other scenarios are unaffected.
//
// Variants: "variants": [{"name": "planner", "driver": {...}}, {"name": "straight", ...}] crosses
// every layout (each listed or generated scenario) with the variants: each variant's keys besides
// "name" (any RunScenario field or extension) are deep-merged over the layout last (an object
// whose "type" differs, such as a driver of another type, replaces the layout's), and every
// layout runs once per variant with the same seed, so the same scene (generated scenes included).
// Layout n's variant v (0-based) is scenario (n - 1) * V + v + 1 for V variants; its result.json
// names the variant and the layout. A name is 1..32 letters, digits, '_', '-' or '.'; names are
// unique; "scenario_number" and "seed" are not variant keys; a batch with a search has none.
// An error that the variant causes is named there: "variants[1].driver.sensor_range: ...".
//
// Regret: the top-level "regret" (protocol::RegretSpec, docs/regret.md) is every request's
// "regret" extension, written into the requests only when it differs from the default (so the
// requests of a batch without it stay as they were); "defaults", an override or a variant may
// still change it, like vehicle_nodes.
//
// Sim timeout: a scenario left without one (sim_timeout_period negative, the request's default)
// gets kDefaultSimTimeout.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/batch/batch_json.h"
#include "client/batch/search_spec.h"
#include "failures/failure_kind.h"
#include "json/declare.h"
#include "protocol/messages.h"

namespace asg::client {

struct ActorClasses;

/// The batch's top-level "vehicle_nodes": the nodes every request offers, and the control
/// plane's own settings (which requests do not carry).
struct BatchNodeSettings {
  /// count (0..255 per worker), sync, realtime_factor, step_deadline and sensors: every request's
  /// vehicle_nodes unless "defaults" or an override change them.
  protocol::VehicleNodesSpec spec;
  uint32_t max_reruns = 3;    ///< "max_reruns": accepted reruns per scenario at most, 0..255
  bool save_minimal = false;  ///< "save_minimal": told to the nodes in the operating info
  /// "ready_timeout": [s] how long scenarios may wait, none running, while workers wait for
  /// their nodes to register and be ready; past it the waiting scenarios are recorded failed
  /// and the batch ends. > 0.
  double ready_timeout = 60.0;
  bool operator==(const BatchNodeSettings&) const = default;
};
ASG_DECLARE_JSON(BatchNodeSettings);

/// The batch's top-level "failures": how the distinct failures of failures.csv are counted
/// (docs/failures.md).
struct BatchFailureSettings {
  /// "regret_threshold": a run that reaches the goal with a regret at or above it is a failure;
  /// dimensionless like regret, > 0.
  double regret_threshold = failures::kDefaultRegretThreshold;
  /// "reproduce": runs of each distinct failure's representative again at the end of the run,
  /// variation.run 1..reproduce (docs/failures.md, "Reproduction"); 0 runs none. 0..1000.
  uint32_t reproduce = 5;
  bool operator==(const BatchFailureSettings&) const = default;
};
ASG_DECLARE_JSON(BatchFailureSettings);

/// The batch's top-level "regret": how every request measures regret (docs/regret.md).
struct BatchRegretSettings {
  /// Every request's "regret" extension unless "defaults", an entry or a variant change it;
  /// written into the requests only when not the default.
  protocol::RegretSpec spec;
  bool operator==(const BatchRegretSettings&) const = default;
};
ASG_DECLARE_JSON(BatchRegretSettings);

/// The batch's top-level "record": the recordings each run's folder gets (docs/recordings.md).
struct BatchRecordSettings {
  bool mcap = false;  ///< "mcap": write scenario_NNNN/run.mcap, the run's MCAP recording
  bool operator==(const BatchRecordSettings&) const = default;
};
ASG_DECLARE_JSON(BatchRecordSettings);

/// Client settings of a batch beside its scenarios, for the orchestrator.
struct BatchSettings {
  std::string name;                   ///< "name", or the file's stem when absent
  uint64_t seed = 0;                  ///< "seed": the batch seed, a non-negative integer
  BatchNodeSettings vehicle_nodes;    ///< "vehicle_nodes", decoded strictly
  uint32_t max_attempts = 3;          ///< "max_attempts": tries per scenario before failed, >= 1
  double scenario_timeout_s = 300.0;  ///< "scenario_timeout_s": [s] wall-clock cap per try, > 0
  BatchFailureSettings failures;      ///< "failures", decoded strictly
  BatchRegretSettings regret;         ///< "regret", decoded strictly
  BatchRecordSettings record;         ///< "record", decoded strictly
};

/// Whether a planned scenario can be sent to a worker.
enum class PlanStatus : uint8_t {
  kValid,    ///< decoded into a request
  kInvalid,  ///< failed validation; `error` says why
};

/// One scenario of a batch, ready to run or explaining why it cannot.
struct PlannedScenario {
  uint32_t scenario_number = 0;  ///< 1..2147483647, unique in the batch
  uint64_t seed = 0;             ///< the request's seed (derived or given)
  std::string source;            ///< place in the batch file: "scenarios[2]" or "generate[0]"
  PlanStatus status = PlanStatus::kValid;
  std::string error;  ///< kInvalid only: "<source>.<json path>: <problem>"
  /// kValid only: what may run but hardly means anything (scene_checks.h SceneWarnings), each
  /// located like `error`.
  std::vector<std::string> warnings;
  /// The request as it will be written to request.json: the re-encoded decoded request when
  /// valid (every field present), the merged JSON as found when invalid.
  Json request_json;
  protocol::RunScenarioRequest request;  ///< the decoded request; meaningful when kValid
  Json search_record;   ///< a searched scenario's search.json (search_plan.h); null otherwise
  std::string variant;  ///< the "variants" entry it runs as; empty in a batch without variants
  uint32_t layout = 0;  ///< with a variant: the layout's number (its scene); 0 without
};

/// A loaded batch: settings, the defaults and every scenario sorted by scenario number.
struct Batch {
  std::string origin;  ///< the file it came from (or the origin given to ParseBatch)
  BatchSettings settings;
  Json defaults = Json::object();          ///< "defaults" as written in the file
  std::vector<PlannedScenario> scenarios;  ///< ascending scenario_number
  /// The JSON every scenario is merged over: a default request with the batch's vehicle_nodes,
  /// merged with "defaults".
  Json base_request = Json::object();
  std::vector<std::string> variants;  ///< the "variants" names, in order; empty without
  std::optional<SearchSpec> search;   ///< the "search" section, when given
  uint32_t search_first_number = 0;   ///< the first searched scenario's number (search only)

  /// Number of scenarios with PlanStatus::kInvalid.
  size_t CountInvalid() const;
  /// The scenario with that number, or nullptr. Pointer into `scenarios`.
  const PlannedScenario* Find(uint32_t scenario_number) const;
};

/// Reads and plans the batch file `file`. Throws BatchError (see above).
Batch LoadBatchFile(const std::filesystem::path& file, const ActorClasses* classes = nullptr);

/// Plans a batch from text; `origin` names it in error messages (e.g. the file name) and
/// `default_name` is used when the batch has no "name". Throws BatchError.
Batch ParseBatchText(std::string_view text, const std::string& origin,
                     const std::string& default_name, const ActorClasses* classes = nullptr);

/// Plans a batch from parsed JSON. Throws BatchError naming `origin` and the JSON path.
/// With `classes`, every scene's actor classes are checked against them (scene_checks.h); the
/// landscape extent is checked always.
Batch ParseBatch(const Json& root, const std::string& origin, const std::string& default_name,
                 const ActorClasses* classes = nullptr);

/// The variant of scenario `scenario_number` (>= 1) in a batch whose variants are `variants`
/// (numbered as above: layout n's variant v is (n - 1) * V + v + 1); "" without variants.
inline std::string_view VariantOfNumber(uint32_t scenario_number,
                                        const std::vector<std::string>& variants) {
  if (variants.empty() || scenario_number == 0) return {};
  return variants[(scenario_number - 1) % variants.size()];
}

/// [s] the sim_timeout_period of a scenario whose batch gives none (or a negative one): a stuck
/// vehicle is stopped after two simulated minutes rather than the worker's hour.
inline constexpr double kDefaultSimTimeout = 120.0;

/// Gives a request without a sim timeout (negative sim_timeout_period) kDefaultSimTimeout.
void ResolveSimTimeout(protocol::RunScenarioRequest* request);

/// Decodes `merged` (a full request as JSON) into `planned` (request, request_json, status,
/// error), with ResolveSimTimeout; `source` prefixes error paths. When the offending value was
/// written in `defaults` (the batch's "defaults") rather than in `overrides` (the scenario's
/// own), the error names it there: "defaults.goal_radious: unknown field (in scenarios[0])".
/// Exposed for re-planning a single scenario.
void DecodePlannedRequest(const Json& merged, const std::string& source, PlannedScenario* planned,
                          const Json* overrides = nullptr, const Json* defaults = nullptr);

/// What `asg-client check` prints: the invalid scenarios' errors (CheckErrors), the warnings
/// (CheckWarnings), the timeouts left off (TimeoutNote), and a last line "<origin>: S scenarios:
/// V valid, I invalid" (plus the search, if any).
std::string CheckReport(const Batch& batch, size_t max_errors = 10);

/// The invalid scenarios' errors, one line each: an error written in "defaults" once, for every
/// scenario it makes invalid, "<origin>: defaults.<path>: <problem> (in all 200 scenarios)" (or
/// "(in 2 scenarios: 1, 4)"); any other as "<origin>: scenario N: <error>". At most `max_lines`
/// lines, then "... and K more invalid scenarios".
std::string CheckErrors(const Batch& batch, size_t max_lines);

/// The valid scenarios' warnings, grouped like CheckErrors' lines with "warning: " after the
/// origin; at most `max_lines` lines, then "... and K more warnings".
std::string CheckWarnings(const Batch& batch, size_t max_lines);

/// One line when the stuck or idling timeout (or both) is off (negative, the request's default)
/// in some valid scenario: "<origin>: note: the stuck and idling timeouts are off (-1) in all 24
/// scenarios: ..."; "" when every valid scenario sets both.
std::string TimeoutNote(const Batch& batch);

/// An error of a planned scenario at JSON `path` (relative to the request): "<source>.<path>:
/// <problem>", or "defaults.<path>: <problem> (in <source>)" when the value was written in
/// `defaults` rather than `overrides`.
std::string LocatedError(const std::string& path, const std::string& problem,
                         const std::string& source, const Json* overrides, const Json* defaults);

/// Marks a valid planned scenario invalid when its scene cannot run, else records its scene's
/// warnings (scene_checks.h).
void CheckPlannedScene(const ActorClasses* classes, const Json* overrides, const Json* defaults,
                       PlannedScenario* planned);

/// How many leading components of `path` ("a.b[2].c", as DecodeError::path) exist in `json`.
size_t JsonPathDepth(const Json& json, const std::string& path);

}  // namespace asg::client
