#include "failures/clustering.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "json/fields.h"

namespace asg::json {

template <>
struct Schema<failures::FailureCluster> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("failure_id", m.id, Between(1, std::numeric_limits<int>::max()));
    v.Required("kind", m.kind, failures::kFailureKindNames);
    v.Required("representative", m.representative);
    // Written for people: the length of member_scenarios, so read and not kept.
    size_t members = m.members.size();
    v.Required("members", members);
    v.Required("first_found", m.first_found);
    v.Required("x", m.x);
    v.Required("y", m.y);
    v.Optional("max_regret", m.max_regret);
    v.Optional("reproduced", m.reproduced);
    v.Optional("runs", m.runs);
    v.Required("member_scenarios", m.members);
    v.Optional("reproduction_folders", m.reproduction_folders);
  }
  static void Check(const failures::FailureCluster& m, const FieldReader& reader) {
    if (m.members.empty() || m.members.front() != m.first_found) {
      throw DecodeError(reader.Child("member_scenarios"),
                        "must start with first_found " + std::to_string(m.first_found));
    }
    if (std::find(m.members.begin(), m.members.end(), m.representative) == m.members.end()) {
      throw DecodeError(reader.Child("member_scenarios"),
                        "must hold the representative " + std::to_string(m.representative));
    }
    CheckReproduction(m, reader);
  }
  /// reproduced, runs and reproduction_folders: all or none, reproduced <= runs, a folder a run.
  static void CheckReproduction(const failures::FailureCluster& m, const FieldReader& reader) {
    const bool runs = m.runs.has_value();
    if (m.reproduced.has_value() != runs || m.reproduction_folders.has_value() != runs) {
      throw DecodeError(reader.Child(runs ? "reproduced" : "runs"),
                        "reproduced, runs and reproduction_folders come together");
    }
    if (runs && *m.reproduced > *m.runs) {
      throw DecodeError(reader.Child("reproduced"), "must be at most runs " +
                                                        std::to_string(*m.runs) + ", got " +
                                                        std::to_string(*m.reproduced));
    }
    if (runs && m.reproduction_folders->size() != *m.runs) {
      throw DecodeError(reader.Child("reproduction_folders"),
                        "must name one folder per run (" + std::to_string(*m.runs) + "), got " +
                            std::to_string(m.reproduction_folders->size()));
    }
  }
};

}  // namespace asg::json

namespace asg::failures {

ASG_DEFINE_JSON(FailureCluster)

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

LeaderClustering::LeaderClustering(const DistanceSettings& settings) : settings_(settings) {}

int LeaderClustering::Add(const Failure& failure) {
  if (last_number_ && failure.scenario_number <= *last_number_) {
    throw std::invalid_argument("scenario " + std::to_string(failure.scenario_number) +
                                " comes after scenario " + std::to_string(*last_number_) +
                                " in the clustering, which takes ascending numbers");
  }
  last_number_ = failure.scenario_number;
  const auto joined = std::find_if(leaders_.begin(), leaders_.end(), [&](const Signature& leader) {
    return SameFailure(leader, failure.signature, settings_);
  });
  if (joined != leaders_.end()) {
    FailureCluster& cluster = clusters_[joined - leaders_.begin()];
    Join(cluster, failure);
    return cluster.id;
  }
  clusters_.push_back(NewCluster(static_cast<int>(clusters_.size()) + 1, failure));
  leaders_.push_back(failure.signature);
  return clusters_.back().id;
}

std::vector<FailureCluster> ClusterFailures(const std::vector<Failure>& failures,
                                            const DistanceSettings& settings) {
  LeaderClustering clustering(settings);
  for (const size_t index : ByScenarioNumber(failures)) clustering.Add(failures[index]);
  return clustering.clusters();
}

}  // namespace asg::failures
