// Distinct failures counted at several regret thresholds at once, kept up to date as runs are
// told in ascending scenario number: a search's log (client/search/search_log.h) adds each
// generation's failing runs and writes the counts so far in every row of search.csv.
//
// A run is judged once, at the lowest threshold (failure_reader.h): its signature does not depend
// on the threshold, only whether it is a failure does (a run that reached the goal is one, of kind
// high_regret, where its regret is at or above the threshold; a run that did not is one at every
// threshold). Each threshold has its own leader clustering (failures/clustering.h) of the runs
// that are failures there, so its count is what failures.csv would list at that threshold for
// the runs told so far.
#pragma once

#include <cstddef>
#include <vector>

#include "failures/clustering.h"

namespace asg::client {

/// Whether `failure`, judged at a threshold at or below `threshold`, is a failure at
/// `threshold` too: a run that did not reach the goal is one at every threshold, one that did
/// (high_regret) where its regret is at or above it.
bool FailsAt(const failures::Failure& failure, double threshold);

/// Distinct failures at each of a few regret thresholds (see above). Not thread-safe.
class DistinctFailureCounts {
 public:
  /// Counts at `thresholds` (ascending, at least one).
  explicit DistinctFailureCounts(std::vector<double> thresholds);

  /// The threshold runs are judged at before they are added: the lowest.
  double lowest() const { return thresholds_.front(); }

  /// Adds `failure` (judged at lowest() or below, numbered above every failure added so far) to
  /// the clustering of every threshold at which it is a failure (FailsAt).
  void Add(const failures::Failure& failure);

  /// The distinct failures so far at each threshold, in the thresholds' order.
  std::vector<size_t> Counts() const;

 private:
  std::vector<double> thresholds_;
  std::vector<failures::LeaderClustering> clusterings_;  // one per threshold
};

}  // namespace asg::client
