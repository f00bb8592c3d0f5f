// The log of a search, one row per generation: DIR/search.csv and DIR/search.json, and one row
// per candidate: DIR/search_candidates.csv, all rewritten whole (atomically) after each
// generation is told. Every value is deterministic: the same
// search with the same seed writes the same files with 1 or N workers, and after --resume.
//
// A candidate's regret is the mean over its runs (runs_per_scenario; a run without a regret,
// failed or invalid, counts 0); a candidate fails when any of its runs ran to an end other than
// success (a collision, a flip, a timeout; runs recorded invalid or failed are not failures).
// search.csv columns: generation, proposals, first_scenario, last_scenario (of all its runs),
// mean_regret and max_regret (over the generation's candidates), failures (candidates that
// failed), best_regret and best_scenario (so far; a candidate is named by its first run's
// scenario), at_or_above_0.375, _0.5, _0.75, _1.0 (candidates so far), and
// distinct_failures_0.375, _0.5, _0.75, _1.0: the distinct failures (docs/failures.md) among the
// runs so far at each of those regret thresholds (client/failures/distinct_counts.h).
// search_candidates.csv columns: candidate_id, generation, scenarios (its runs' scenario numbers,
// separated by spaces), mean_regret, std_regret (population standard deviation over its runs),
// min_regret, max_regret, failures (its runs that ran to an end other than success).
// search.json: {"strategy", "strategy_settings", "seed", "budget": {"scenarios"},
// "generation_size", "runs_per_scenario", "space", "generations": [<the rows as objects>],
// "best": {"scenario_number", "regret"}}.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "client/batch/search_spec.h"
#include "client/failures/distinct_counts.h"
#include "client/farm/progress.h"

namespace asg::client {

/// One told candidate: the figures over its runs.
struct SearchCandidateRow {
  uint64_t candidate_id = 0;        ///< the strategy's id
  uint32_t generation = 0;          ///< the farm's generation it was asked in
  std::vector<uint32_t> scenarios;  ///< its runs' scenario numbers, in run order (>= 1)
  double mean_regret = 0.0;         ///< over its runs; what the strategy is told
  double std_regret = 0.0;          ///< population standard deviation over its runs
  double min_regret = 0.0;          ///< over its runs
  double max_regret = 0.0;          ///< over its runs
  size_t failures = 0;              ///< its runs that ran to an end other than success
};

/// The row of a candidate with runs `scenarios` and their `regrets` and `failures` (same order).
SearchCandidateRow MakeCandidateRow(uint64_t candidate_id, uint32_t generation,
                                    std::vector<uint32_t> scenarios,
                                    const std::vector<double>& regrets, size_t failures);

/// One told generation.
struct SearchGenerationRow {
  uint32_t generation = 0;      ///< 0, 1, 2... in the order asked
  size_t proposals = 0;         ///< candidates in it
  uint32_t first_scenario = 0;  ///< its lowest scenario number
  uint32_t last_scenario = 0;   ///< its highest scenario number
  double mean_regret = 0.0;     ///< over its candidates
  double max_regret = 0.0;      ///< over its candidates
  size_t failures = 0;          ///< candidates with a run that ran to an end other than success
  double best_regret = 0.0;     ///< over every candidate so far
  uint32_t best_scenario = 0;   ///< the first scenario with best_regret
  size_t at_or_above[std::size(kRegretThresholds)] = {};  ///< candidates so far, per threshold
  /// Distinct failures among the runs so far, per threshold.
  size_t distinct_failures[std::size(kRegretThresholds)] = {};
};

/// Accumulates the rows of a search and writes its files.
class SearchLog {
 public:
  /// Logs the search `spec` into `out_dir`.
  SearchLog(const SearchSpec& spec, std::filesystem::path out_dir);

  /// Adds generation `generation`'s candidates (ascending scenario numbers, at least one) and
  /// its `failures`: its runs that are failures at the lowest threshold (kRegretThresholds[0]),
  /// by ascending scenario number. Returns its row.
  const SearchGenerationRow& Add(uint32_t generation,
                                 const std::vector<SearchCandidateRow>& candidates,
                                 const std::vector<failures::Failure>& failures = {});
  /// Rewrites search.csv, search.json and search_candidates.csv. Throws results::ResultError on
  /// an I/O error.
  void Write() const;

  /// The rows so far.
  const std::vector<SearchGenerationRow>& rows() const { return rows_; }
  /// The candidates so far, in the order told.
  const std::vector<SearchCandidateRow>& candidates() const { return candidates_; }

 private:
  const SearchSpec& spec_;
  std::filesystem::path out_dir_;
  std::vector<SearchGenerationRow> rows_;
  std::vector<SearchCandidateRow> candidates_;
  SearchGenerationRow totals_;  // the running best and counts
  bool any_ = false;
  DistinctFailureCounts distinct_;  // the runs' failures clustered per threshold
};

}  // namespace asg::client
