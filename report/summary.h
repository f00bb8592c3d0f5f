// The batch summary: summary.json and summary.csv in the batch's output directory, and a short
// outcome table for the terminal.
//
// summary.json: {"batch": name, "seed": s, "total": n, "status_counts": {"done": .., "invalid":
// .., "failed": ..}, "reason_counts": {"REASON_SUCCESS": .., ...} (done scenarios only),
// "failing_scenarios": f, "distinct_failures": d (when found), "reliable_failures": r,
// "reproduction_runs": k (when failures were reproduced), "contacts": c (when found),
// "wall_time_s": w (every run of the batch, a resumed one's added to the earlier runs'),
// "scenarios_per_s": r (done scenarios / w), "resumed_run": {"wall_time_s", "scenarios_run",
// "scenarios_per_s"} (a resumed run's own, after --resume only),
// "scenarios": [{per-scenario row}, ...]}. Everything
// but wall_time_s, scenarios_per_s, resumed_run and the rows' wall_time_s, worker_id and attempts
// (which a crashed or hung worker raises) is deterministic. summary.csv: header kSummaryCsvHeader,
// one row per scenario by ascending number.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.h"
#include "results/folder.h"

namespace asg::report {

/// The first line of summary.csv (without the newline). `attempts` is the number of attempts in
/// the scenario's timing.json (0 for a scenario never run).
inline constexpr std::string_view kSummaryCsvHeader =
    "scenario_number,status,termination_reason_name,vehicle_sim_time,wall_time_s,worker_id,"
    "attempts,regret,regret_cost_term,regret_time_term,regret_cost_position_term,"
    "regret_time_position_term,cost,time,cost_opt,time_opt,seed,driver,variant,layout,"
    "distance_travelled,"
    "collisions_touched,max_abs_roll,max_abs_pitch,control_messages,physics_steps,settle_time,"
    "error";

/// Outcome counts of one variant of a variant batch (batch.h).
struct VariantCounts {
  std::string name;
  size_t total = 0;
  std::map<std::string, size_t> status_counts;  ///< by results::ScenarioStatusName
  std::map<std::string, size_t> reason_counts;  ///< by termination reason name, done only
};

/// A layout whose variants ended differently: each variant's outcome (the termination reason
/// name when done, else the status), in variant order.
struct VariantDifference {
  uint32_t layout = 0;
  std::vector<std::pair<std::string, std::string>> outcomes;  ///< (variant, outcome)
};

/// How the distinct failures of a batch were reproduced (docs/failures.md, "Reproduction").
struct ReproductionCounts {
  uint32_t reproduce = 0;         ///< failures.reproduce: runs of each representative
  uint32_t reliable_minimum = 0;  ///< the reproducing runs, of `reproduce`, that make it reliable
  size_t reliable_failures = 0;   ///< distinct failures reproduced at least reliable_minimum times
  size_t reproduction_runs = 0;   ///< reproduction runs that ran, beside the batch's scenarios
};

/// The run that resumed a batch (--resume), apart from the batch's own figures.
struct ResumedRun {
  double wall_time_s = 0.0;      ///< [s] this run's wall-clock time
  size_t scenarios_run = 0;      ///< done scenarios this run ran (kept ones not counted)
  double scenarios_per_s = 0.0;  ///< scenarios_run / wall_time_s (0 when no time elapsed)
};

/// Totals of a batch run.
struct BatchSummary {
  std::string batch_name;
  uint64_t seed = 0;  ///< the batch seed
  size_t total = 0;   ///< scenarios in the summary
  std::map<std::string, size_t>
      status_counts;  ///< by results::ScenarioStatusName, all three present
  std::map<std::string, size_t> reason_counts;  ///< by termination reason name, done only
  /// [s] wall-clock time of the whole run; after AddEarlierRuns, of every run of the batch
  double wall_time_s = 0.0;
  size_t kept = 0;      ///< scenarios kept from an earlier run (--resume), not run in this one
  size_t done_run = 0;  ///< done scenarios this run ran (kept ones not counted)
  /// scenarios done in this run / wall_time_s (0 when no time elapsed); kept ones do not count;
  /// after AddEarlierRuns, every done scenario / the batch's wall_time_s
  double scenarios_per_s = 0.0;
  std::optional<ResumedRun> resumed_run;  ///< set by AddEarlierRuns: this run's own figures
  std::vector<VariantCounts> variants;    ///< per variant, in batch order; empty without variants
  size_t layouts = 0;                     ///< layouts of a variant batch
  std::vector<VariantDifference> differences;  ///< layouts whose variants ended differently
  /// Scenarios that are failures (docs/failures.md) and the distinct failures among them
  /// (failures.csv), set by the caller that found them; absent when they were not found.
  std::optional<size_t> failing_scenarios, distinct_failures;
  /// The reproduction runs of the distinct failures, when the batch ran any (failures.reproduce
  /// > 0); not part of `total` or the counts above.
  std::optional<ReproductionCounts> reproduction;
  /// Near misses (docs/failures.md, kind contact): successes below the regret threshold that
  /// touched a non-traversable obstacle; no failures. Set with the failures; absent without.
  std::optional<size_t> contacts;
};

/// Counts `outcomes` (any order) for a batch run that took `wall_time_s` [s]; `kept` of them
/// (`kept_done` of those done) were kept from an earlier run and not run in this one. Results
/// with a variant are also counted per variant and compared layout by layout.
BatchSummary Summarize(const std::string& batch_name, uint64_t seed,
                       const std::vector<results::ScenarioOutcome>& outcomes, double wall_time_s,
                       size_t kept = 0, size_t kept_done = 0);

/// [s] The batch's wall time summary.json in `batch_dir` records (that of every run so far), 0
/// when there is none or it cannot be read: what a resumed run adds its own to.
double EarlierWallTime(const std::filesystem::path& batch_dir);

/// Makes `summary` of a resumed run the batch's: its wall time and throughput become the
/// resumed_run's, and the batch's are `earlier_wall_time_s` [s] plus this run's, and every done
/// scenario (kept ones included) over that time.
void AddEarlierRuns(BatchSummary* summary, double earlier_wall_time_s);

/// summary.json's object; the rows are sorted by scenario number.
json::Json SummaryToJson(const BatchSummary& summary,
                         const std::vector<results::ScenarioOutcome>& outcomes);

/// summary.csv's text; rows sorted by scenario number, empty termination_reason_name,
/// vehicle_sim_time and counters (result.json's "counters": distance_travelled [m],
/// collisions_touched, max_abs_roll and max_abs_pitch [deg], control_messages, physics_steps,
/// settle_time [s]) for scenarios not done, empty worker_id when none ran it. `drivers` gives
/// each scenario's driver ("planner", "straight", "idle", "scripted", or "nodes" for external
/// vehicle nodes); error is quoted as CSV when it holds a comma, a quote or a line break.
std::string SummaryToCsv(const std::vector<results::ScenarioOutcome>& outcomes,
                         const std::map<uint32_t, std::string>& drivers = {});

/// Writes batch_dir/summary.json and batch_dir/summary.csv, each atomically. Throws
/// results::ResultError.
void WriteSummary(const std::filesystem::path& batch_dir, const BatchSummary& summary,
                  const std::vector<results::ScenarioOutcome>& outcomes,
                  const std::map<uint32_t, std::string>& drivers = {});

/// A few lines for the terminal: counts per status and per termination reason with
/// percentages, the failing scenarios beside their distinct and reliable failures and the near
/// misses (when found), the reproduction runs (when any), wall time and throughput, e.g.
///   batch demo (seed 7): 50 scenarios in 312.4 s, 0.16 scenarios/s
///     done      48  96.0%
///     ...
std::string FormatOutcomeTable(const BatchSummary& summary);

}  // namespace asg::report
