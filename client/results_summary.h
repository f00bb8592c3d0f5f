// The batch summary: summary.json and summary.csv in the batch's output directory, and a short
// outcome table for the terminal.
//
// summary.json: {"batch": name, "seed": s, "total": n, "status_counts": {"done": .., "invalid":
// .., "failed": ..}, "reason_counts": {"REASON_SUCCESS": .., ...} (done scenarios only),
// "wall_time_s": w, "scenarios_per_s": r, "scenarios": [{per-scenario row}, ...]}. Everything
// but wall_time_s, scenarios_per_s and the rows' wall_time_s and worker_id is deterministic.
// summary.csv: header kSummaryCsvHeader, one row per scenario by ascending number.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "client/batch_json.h"
#include "results/folder.h"

namespace asg::client {

/// The first line of summary.csv (without the newline). `attempts` is the number of attempts in
/// the scenario's timing.json (0 for a scenario never run).
inline constexpr std::string_view kSummaryCsvHeader =
    "scenario_number,status,termination_reason_name,vehicle_sim_time,wall_time_s,worker_id,"
    "attempts,regret,regret_cost_term,regret_time_term,regret_cost_position_term,"
    "regret_time_position_term,cost,time,cost_opt,time_opt";

/// Totals of a batch run.
struct BatchSummary {
  std::string batch_name;
  uint64_t seed = 0;  ///< the batch seed
  size_t total = 0;   ///< scenarios in the summary
  std::map<std::string, size_t>
      status_counts;  ///< by results::ScenarioStatusName, all three present
  std::map<std::string, size_t> reason_counts;  ///< by termination reason name, done only
  double wall_time_s = 0.0;                     ///< [s] wall-clock time of the whole run
  double scenarios_per_s = 0.0;  ///< done scenarios / wall_time_s (0 when no time elapsed)
};

/// Counts `outcomes` (any order) for a batch run that took `wall_time_s` [s].
BatchSummary Summarize(const std::string& batch_name, uint64_t seed,
                       const std::vector<results::ScenarioOutcome>& outcomes, double wall_time_s);

/// summary.json's object; the rows are sorted by scenario number.
Json SummaryToJson(const BatchSummary& summary,
                   const std::vector<results::ScenarioOutcome>& outcomes);

/// summary.csv's text; rows sorted by scenario number, empty termination_reason_name and
/// vehicle_sim_time for scenarios not done, empty worker_id when none ran it.
std::string SummaryToCsv(const std::vector<results::ScenarioOutcome>& outcomes);

/// Writes batch_dir/summary.json and batch_dir/summary.csv, each atomically. Throws
/// results::ResultError.
void WriteSummary(const std::filesystem::path& batch_dir, const BatchSummary& summary,
                  const std::vector<results::ScenarioOutcome>& outcomes);

/// A few lines for the terminal: counts per status and per termination reason with
/// percentages, wall time and throughput, e.g.
///   batch demo (seed 7): 50 scenarios in 312.4 s, 0.16 scenarios/s
///     done      48  96.0%
///     ...
std::string FormatOutcomeTable(const BatchSummary& summary);

}  // namespace asg::client
