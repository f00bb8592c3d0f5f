// Distinct failures: the deterministic clustering of failures by their signatures
// (docs/failures.md, "Clustering"). A pure function, safe to call from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "failures/distance.h"
#include "failures/signature.h"

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
};

/// Clusters `failures` (scenario numbers all different) into distinct failures: in ascending
/// scenario number, each failure joins the first cluster, in order of creation, whose leader
/// (first member) is the same failure (SameFailure(leader, failure)), else it leads a new one.
/// The result depends on the set of failures only, never on their order. Throws
/// std::invalid_argument naming a scenario number that appears twice.
std::vector<FailureCluster> ClusterFailures(const std::vector<Failure>& failures,
                                            const DistanceSettings& settings = {});

}  // namespace asg::failures
