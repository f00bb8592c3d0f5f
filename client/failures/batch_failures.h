// The distinct failures of a batch, from its scenario folders alone: every done scenario read
// back (result.json first; request.json and trajectory.csv only for a run that result.json says
// fails), judged at the batch's regret threshold (failure_reader.h) and clustered
// (failures/clustering.h), each representative's reproduction runs judged (reproduction.h), then
// written as failures.csv and failures.json (failures_file.h) and as the failure_id in each
// failing scenario's result.json. The farm ends every run with this pass and `asg-client
// failures DIR` makes it again: the same folders give the same bytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "client/failures/failure_reader.h"
#include "failures/clustering.h"

namespace asg::client {

/// A done scenario of the batch and the failure_id its result.json holds (0: none).
struct DoneScenario {
  uint32_t scenario_number = 0;
  std::string variant;  ///< its variant ("" when none): part of its folder's name
  uint32_t stored_failure_id = 0;
};

/// The distinct failures of a batch folder.
struct BatchFailures {
  double regret_threshold = failures::kDefaultRegretThreshold;  ///< the one they were judged at
  uint32_t failing_scenarios = 0;  ///< scenarios that are failures: every cluster's members
  std::vector<failures::FailureCluster> clusters;  ///< the distinct failures, by id
  std::vector<DoneScenario> done;                  ///< every done scenario, by ascending number
  std::vector<failures::Failure> failing;  ///< every failing scenario as judged, ascending number
  /// failures.reproduce: the reproduction runs of each representative that were judged
  /// (reproduction.h); 0 when none were.
  uint32_t reproduce = 0;
  /// The near misses: successes below the threshold that touched a non-traversable obstacle
  /// (kind contact, not failures), by ascending scenario number.
  std::vector<uint32_t> contact_scenarios;
};

/// Finds the distinct failures of the scenario folders under `batch_dir` at regret `threshold`
/// (see above), and the near misses; invalid and failed scenarios, which did not run, are
/// skipped. Throws FailuresError or results::ResultError naming the file that cannot be read or
/// judged.
BatchFailures FindBatchFailures(const std::filesystem::path& batch_dir, FailureReader& reader,
                                double threshold);

/// The id of the distinct failure each failing scenario belongs to, by scenario number.
std::map<uint32_t, uint32_t> FailureIds(const BatchFailures& batch_failures);

/// Sets the failure_id of every done scenario's result.json to FailureIdOf (0 removes it),
/// rewriting only the files that change, as one group of atomic writes. Returns how many were
/// rewritten. Throws results::ResultError naming the file.
size_t WriteFailureIds(const std::filesystem::path& batch_dir, const BatchFailures& batch_failures);

/// The end of the pass over `found` (FindBatchFailures' result): the representatives'
/// reproduction runs 1..`reproduce` judged (CheckReproductions, none when 0), then failures.csv,
/// failures.json and the failure_ids written. Throws FailuresError or results::ResultError
/// naming the file.
void WriteBatchFailures(const std::filesystem::path& batch_dir, FailureReader& reader,
                        uint32_t reproduce, BatchFailures* found);

/// The whole pass: FindBatchFailures, then WriteBatchFailures. Throws FailuresError or
/// results::ResultError naming the file.
BatchFailures UpdateBatchFailures(const std::filesystem::path& batch_dir, FailureReader& reader,
                                  double threshold, uint32_t reproduce);

}  // namespace asg::client
