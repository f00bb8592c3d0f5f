// Leader clusterings per regret threshold.
#include "client/failures/distinct_counts.h"

#include <algorithm>

#include "core/check.h"

namespace asg::client {

DistinctFailureCounts::DistinctFailureCounts(std::vector<double> thresholds)
    : thresholds_(std::move(thresholds)), clusterings_(thresholds_.size()) {
  ASG_CHECK(!thresholds_.empty() && std::is_sorted(thresholds_.begin(), thresholds_.end()));
}

bool FailsAt(const failures::Failure& failure, double threshold) {
  // A run that reached the goal fails only where its regret reaches the threshold.
  if (failure.signature.kind != failures::FailureKind::kHighRegret) return true;
  return failure.regret && *failure.regret >= threshold;
}

void DistinctFailureCounts::Add(const failures::Failure& failure) {
  for (size_t t = 0; t < thresholds_.size(); ++t) {
    if (FailsAt(failure, thresholds_[t])) clusterings_[t].Add(failure);
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
