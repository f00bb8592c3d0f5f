// Leader clusterings per regret threshold.
#include "client/failures/distinct_counts.h"

#include <algorithm>

#include "core/check.h"

namespace asg::client {

DistinctFailureCounts::DistinctFailureCounts(std::vector<double> thresholds)
    : thresholds_(std::move(thresholds)), clusterings_(thresholds_.size()) {
  ASG_CHECK(!thresholds_.empty() && std::is_sorted(thresholds_.begin(), thresholds_.end()));
}

void DistinctFailureCounts::Add(const failures::Failure& failure) {
  const bool high_regret = failure.signature.kind == failures::FailureKind::kHighRegret;
  for (size_t t = 0; t < thresholds_.size(); ++t) {
    // A run that reached the goal fails only where its regret reaches the threshold.
    if (high_regret && !(failure.regret && *failure.regret >= thresholds_[t])) continue;
    clusterings_[t].Add(failure);
  }
}

std::vector<size_t> DistinctFailureCounts::Counts() const {
  std::vector<size_t> counts;
  for (const failures::LeaderClustering& clustering : clusterings_) {
    counts.push_back(clustering.clusters().size());
  }
  return counts;
}

}  // namespace asg::client
