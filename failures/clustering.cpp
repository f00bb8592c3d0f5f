#include "failures/clustering.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace asg::failures {
namespace {

/// The indices of `failures` in ascending scenario number; throws on a repeated number.
std::vector<size_t> ByScenarioNumber(const std::vector<Failure>& failures) {
  std::vector<size_t> order(failures.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return failures[a].scenario_number < failures[b].scenario_number;
  });
  for (size_t i = 1; i < order.size(); ++i) {
    const uint32_t number = failures[order[i]].scenario_number;
    if (number == failures[order[i - 1]].scenario_number) {
      throw std::invalid_argument("scenario " + std::to_string(number) +
                                  " is listed twice among the failures to cluster");
    }
  }
  return order;
}

/// Whether regret `a` ranks above `b`: a measured regret above an absent one, else the larger.
bool HigherRegret(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a) return false;
  return !b || *a > *b;
}

FailureCluster NewCluster(int id, const Failure& leader) {
  FailureCluster cluster;
  cluster.id = id;
  cluster.kind = leader.signature.kind;
  cluster.representative = leader.scenario_number;
  cluster.first_found = leader.scenario_number;
  cluster.x = leader.signature.point.x();
  cluster.y = leader.signature.point.y();
  cluster.max_regret = leader.regret;
  cluster.members = {leader.scenario_number};
  return cluster;
}

/// Adds `failure`, which comes after every member in scenario number, to `cluster`.
void Join(FailureCluster& cluster, const Failure& failure) {
  cluster.members.push_back(failure.scenario_number);
  // Members arrive in ascending number, so a tie keeps the lower-numbered representative.
  if (HigherRegret(failure.regret, cluster.max_regret)) {
    cluster.max_regret = failure.regret;
    cluster.representative = failure.scenario_number;
  }
}

}  // namespace

std::vector<FailureCluster> ClusterFailures(const std::vector<Failure>& failures,
                                            const DistanceSettings& settings) {
  std::vector<FailureCluster> clusters;
  std::vector<const Failure*> leaders;
  for (const size_t index : ByScenarioNumber(failures)) {
    const Failure& failure = failures[index];
    const auto joined = std::find_if(leaders.begin(), leaders.end(), [&](const Failure* leader) {
      return SameFailure(leader->signature, failure.signature, settings);
    });
    if (joined == leaders.end()) {
      clusters.push_back(NewCluster(static_cast<int>(clusters.size()) + 1, failure));
      leaders.push_back(&failure);
    } else {
      Join(clusters[joined - leaders.begin()], failure);
    }
  }
  return clusters;
}

}  // namespace asg::failures
