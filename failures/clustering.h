// Distinct failures: the deterministic clustering of failures by their signatures
// (docs/failures.md, "Clustering"). A pure function, safe to call from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "failures/distance.h"
#include "failures/signature.h"
#include "json/declare.h"

namespace asg::failures {

/// One distinct failure: a cluster of failures that are copies of one another.
struct FailureCluster {
  int id = 0;                                  ///< 1, 2, ... in order of first_found
  FailureKind kind = FailureKind::kCollision;  ///< every member's kind
  uint32_t representative = 0;       ///< the member with the highest regret (ties: lowest number)
  std::vector<uint32_t> members;     ///< every member's scenario number, ascending
  uint32_t first_found = 0;          ///< the smallest member number: the leader's
  double x = 0.0, y = 0.0;           ///< [m] the leader's failure point
  std::optional<double> max_regret;  ///< the highest member regret; absent when none has one
  /// Once the representative's reproduction runs are judged (docs/failures.md, "Reproduction"):
  /// how many of them failed the same way as it did; absent before.
  std::optional<uint32_t> reproduced;
  /// Once judged: how many reproduction runs of the representative ran; absent before.
  std::optional<uint32_t> runs;
  /// Once judged: the folders of those runs, relative to the batch folder, by run.
  std::optional<std::vector<std::string>> reproduction_folders;
};
/// Its JSON object (failures.json's rows): failure_id, kind (its name), representative, members
/// (the count), first_found, x, y, max_regret (when measured), reproduced and runs (when judged),
/// member_scenarios (the numbers), reproduction_folders (when judged). Read strictly: members is
/// derived, so read and not kept; member_scenarios must hold first_found first and the
/// representative; reproduced, runs and reproduction_folders come together, reproduced at most
/// runs, one folder per run.
ASG_DECLARE_JSON(FailureCluster);

/// Leader clustering fed one failure at a time, in ascending scenario number: what
/// ClusterFailures does for a whole set, kept up to date as a batch grows (a search's log counts
/// distinct failures after every generation). Not thread-safe.
class LeaderClustering {
 public:
  /// No clusters yet; failures are compared with `settings`.
  explicit LeaderClustering(const DistanceSettings& settings = {});

  /// Adds `failure`, whose scenario number must be above every one added so far (else throws
  /// std::invalid_argument naming both): it joins the first cluster, in order of creation, whose
  /// leader is the same failure, else it leads a new one. Returns its cluster's id.
  int Add(const Failure& failure);

  /// The clusters so far, by id (1, 2, ...).
  const std::vector<FailureCluster>& clusters() const { return clusters_; }

 private:
  DistanceSettings settings_;
  std::vector<FailureCluster> clusters_;
  std::vector<Signature> leaders_;  // each cluster's first member's signature
  std::optional<uint32_t> last_number_;
};

/// Clusters `failures` (scenario numbers all different) into distinct failures: in ascending
/// scenario number, each failure joins the first cluster, in order of creation, whose leader
/// (first member) is the same failure (SameFailure(leader, failure)), else it leads a new one.
/// The result depends on the set of failures only, never on their order. Throws
/// std::invalid_argument naming a scenario number that appears twice.
std::vector<FailureCluster> ClusterFailures(const std::vector<Failure>& failures,
                                            const DistanceSettings& settings = {});

}  // namespace asg::failures
