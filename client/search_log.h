// The log of a search, one row per generation: DIR/search.csv and DIR/search.json, rewritten
// whole (atomically) after each generation is told. Every value is deterministic: the same
// search with the same seed writes the same files with 1 or N workers, and after --resume.
//
// search.csv columns: generation, proposals, first_scenario, last_scenario, mean_regret and
// max_regret (of the generation's candidates; a candidate without a regret, failed or invalid,
// counts 0), failures (candidates whose run did not end in success), best_regret and
// best_scenario (so far), and at_or_above_0.375, _0.5, _0.75, _1.0 (candidates so far).
// search.json: {"strategy", "strategy_settings", "seed", "budget": {"scenarios"},
// "generation_size", "runs_per_scenario", "space", "generations": [<the rows as objects>],
// "best": {"scenario_number", "regret"}}.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "client/progress.h"
#include "client/search_spec.h"

namespace asg::client {

/// One told generation.
struct SearchGenerationRow {
  uint32_t generation = 0;      ///< 0, 1, 2... in the order asked
  size_t proposals = 0;         ///< candidates in it
  uint32_t first_scenario = 0;  ///< its lowest scenario number
  uint32_t last_scenario = 0;   ///< its highest scenario number
  double mean_regret = 0.0;     ///< over its candidates
  double max_regret = 0.0;      ///< over its candidates
  size_t failures = 0;          ///< candidates whose run did not end in success
  double best_regret = 0.0;     ///< over every candidate so far
  uint32_t best_scenario = 0;   ///< the first scenario with best_regret
  size_t at_or_above[std::size(kRegretThresholds)] = {};  ///< candidates so far, per threshold
};

/// Accumulates the rows of a search and writes its files.
class SearchLog {
 public:
  /// Logs the search `spec` into `out_dir`.
  SearchLog(const SearchSpec& spec, std::filesystem::path out_dir);

  /// Adds generation `generation`'s regrets (by scenario number, ascending) and failures, and
  /// returns its row.
  const SearchGenerationRow& Add(uint32_t generation,
                                 const std::vector<std::pair<uint32_t, double>>& regrets,
                                 size_t failures);
  /// Rewrites search.csv and search.json. Throws results::ResultError on an I/O error.
  void Write() const;

  /// The rows so far.
  const std::vector<SearchGenerationRow>& rows() const { return rows_; }

 private:
  const SearchSpec& spec_;
  std::filesystem::path out_dir_;
  std::vector<SearchGenerationRow> rows_;
  SearchGenerationRow totals_;  // the running best and counts
  bool any_ = false;
};

}  // namespace asg::client
