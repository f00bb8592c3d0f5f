// Tests for failures/clustering.h.
#include "failures/clustering.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "tests/failures/hand_built_runs.h"

namespace asg::failures {
namespace {

using hand_built::MakeRun;
using hand_built::Obstacle;
using protocol::TerminationReason;

/// A failure of scenario `number` (kind `kind`, regret `regret`) that drove `waypoints` in the
/// scene of two rocks: one at (40, 40), one at (10, 70).
Failure FailureOf(uint32_t number, FailureKind kind, std::optional<double> regret,
                  const std::vector<Eigen::Vector2d>& waypoints) {
  const RunFacts run = MakeRun(number, TerminationReason::REASON_VEHICLE_COLLISION, waypoints,
                               {Obstacle("rock", 40, 40), Obstacle("rock", 10, 70)});
  return {number, regret, ComputeSignature(kind, run, hand_built::Flat)};
}

/// Scenarios 2..14 failing in four distinct ways.
std::vector<Failure> FourDistinctFailures() {
  const FailureKind collision = FailureKind::kCollision;
  return {
      // Into the rock at (40, 40) from the west: 9 and 2 tie below 5's regret.
      FailureOf(5, collision, 1.6, {{10, 40}, {38.6, 40}}),
      FailureOf(2, collision, 1.5, {{10, 40.1}, {38.6, 40.1}}),
      FailureOf(9, collision, 1.5, {{10, 39.9}, {38.55, 39.9}}),
      // Into the rock at (10, 70): 3 has no regret, 4 has one.
      FailureOf(3, collision, std::nullopt, {{10, 40}, {10, 68.6}}),
      FailureOf(4, collision, 0.8, {{10.1, 40}, {10.1, 68.6}}),
      // Flipped where 5 collided.
      FailureOf(7, FailureKind::kFlip, 2.0, {{10, 40}, {38.6, 40}}),
      // Into the rock at (40, 40) from the south: 11 and 14 tie.
      FailureOf(14, collision, 0.9, {{40, 10}, {40, 38.6}}),
      FailureOf(11, collision, 0.9, {{40, 10}, {40, 38.6}}),
  };
}

TEST(ClusteringTest, IdsFollowTheFirstAppearanceAndTheRepresentativeHasTheHighestRegret) {
  const std::vector<FailureCluster> clusters = ClusterFailures(FourDistinctFailures());
  ASSERT_EQ(clusters.size(), 4u);
  EXPECT_EQ(clusters[0].id, 1);
  EXPECT_EQ(clusters[0].members, (std::vector<uint32_t>{2, 5, 9}));
  EXPECT_EQ(clusters[0].first_found, 2u);
  EXPECT_EQ(clusters[0].representative, 5u);  // the highest regret, not the first found
  EXPECT_EQ(clusters[0].max_regret, 1.6);
  EXPECT_EQ(clusters[0].kind, FailureKind::kCollision);
  EXPECT_NEAR(clusters[0].x, 38.6, 1e-9);  // the leader's (scenario 2's) point
  EXPECT_NEAR(clusters[0].y, 40.1, 1e-9);

  EXPECT_EQ(clusters[1].id, 2);
  EXPECT_EQ(clusters[1].members, (std::vector<uint32_t>{3, 4}));
  EXPECT_EQ(clusters[1].representative, 4u);  // a measured regret beats none
  EXPECT_EQ(clusters[1].max_regret, 0.8);

  EXPECT_EQ(clusters[2].id, 3);
  EXPECT_EQ(clusters[2].kind, FailureKind::kFlip);
  EXPECT_EQ(clusters[2].members, (std::vector<uint32_t>{7}));

  EXPECT_EQ(clusters[3].id, 4);
  EXPECT_EQ(clusters[3].members, (std::vector<uint32_t>{11, 14}));
  EXPECT_EQ(clusters[3].representative, 11u);  // equal regrets: the lower number
}

TEST(ClusteringTest, EveryOrderOfArrivalGivesTheSameClusters) {
  std::vector<Failure> failures = FourDistinctFailures();
  const std::vector<FailureCluster> expected = ClusterFailures(failures);
  const auto same = [](const FailureCluster& a, const FailureCluster& b) {
    return a.id == b.id && a.kind == b.kind && a.representative == b.representative &&
           a.members == b.members && a.first_found == b.first_found && a.x == b.x && a.y == b.y &&
           a.max_regret == b.max_regret;
  };
  std::vector<size_t> order(failures.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  int orders = 0;
  do {
    std::vector<Failure> shuffled;
    for (const size_t i : order) shuffled.push_back(failures[i]);
    const std::vector<FailureCluster> clusters = ClusterFailures(shuffled);
    ASSERT_EQ(clusters.size(), expected.size());
    for (size_t c = 0; c < clusters.size(); ++c) ASSERT_TRUE(same(clusters[c], expected[c]));
    ++orders;
  } while (std::next_permutation(order.begin(), order.end()));
  EXPECT_EQ(orders, 40320);  // 8!
}

TEST(ClusteringTest, AFailureJoinsOnlyALeaderWithinReachNotAChainOfMembers) {
  // Three collisions driven east along y = 40, stopping 1.6 m apart, no obstacles near: the
  // second is within 3 m of the first, the third only of the second.
  std::vector<Failure> failures;
  for (uint32_t number = 1; number <= 3; ++number) {
    const double stop = 30.0 + 1.6 * number;
    failures.push_back(FailureOf(number, FailureKind::kCollision, 1.0, {{0, 40}, {stop, 40}}));
  }
  const std::vector<FailureCluster> clusters = ClusterFailures(failures);
  ASSERT_EQ(clusters.size(), 2u);
  EXPECT_EQ(clusters[0].members, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(clusters[1].members, (std::vector<uint32_t>{3}));
  EXPECT_NEAR(clusters[1].x, 34.8, 1e-9);
}

TEST(ClusteringTest, NoFailuresGiveNoClustersAndARepeatedNumberIsRefused) {
  EXPECT_TRUE(ClusterFailures({}).empty());
  std::vector<Failure> failures = FourDistinctFailures();
  failures.push_back(failures[3]);
  try {
    ClusterFailures(failures);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "scenario 3 is listed twice among the failures to cluster");
  }
}

TEST(ClusteringTest, LeaderClusteringFedInNumberOrderKeepsTheClustersOfEveryPrefix) {
  std::vector<Failure> failures = FourDistinctFailures();
  std::sort(failures.begin(), failures.end(), [](const Failure& a, const Failure& b) {
    return a.scenario_number < b.scenario_number;
  });
  LeaderClustering clustering;
  // Scenarios 2, 3, 4, 5, 7, 9, 11, 14: the ids they join, new ones in order of appearance.
  std::vector<int> ids;
  for (size_t i = 0; i < failures.size(); ++i) {
    ids.push_back(clustering.Add(failures[i]));
    const std::vector<Failure> prefix(failures.begin(), failures.begin() + i + 1);
    EXPECT_EQ(clustering.clusters().size(), ClusterFailures(prefix).size()) << i;
  }
  EXPECT_EQ(ids, (std::vector<int>{1, 2, 2, 1, 3, 1, 4, 4}));
  const std::vector<FailureCluster> whole = ClusterFailures(failures);
  ASSERT_EQ(clustering.clusters().size(), whole.size());
  for (size_t c = 0; c < whole.size(); ++c) {
    EXPECT_EQ(clustering.clusters()[c].members, whole[c].members);
    EXPECT_EQ(clustering.clusters()[c].representative, whole[c].representative);
  }
  // A number at or below the last one added is refused: the order would change the clusters.
  try {
    clustering.Add(failures[2]);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(),
                 "scenario 4 comes after scenario 14 in the clustering, which takes ascending "
                 "numbers");
  }
}

TEST(ClusteringTest, AClusterRoundTripsThroughItsJsonAndABrokenOneIsRefused) {
  const std::vector<FailureCluster> clusters = ClusterFailures(FourDistinctFailures());
  const json::Json first = clusters[0];
  EXPECT_EQ(first["failure_id"], 1);
  EXPECT_EQ(first["kind"], "collision");
  EXPECT_EQ(first["members"], 3);
  EXPECT_EQ(first["member_scenarios"], json::Json::parse("[2, 5, 9]"));
  std::vector<std::string> keys;
  for (const auto& [key, value] : first.items()) keys.push_back(key);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"failure_id", "kind", "representative", "members",
                                      "first_found", "x", "y", "max_regret", "member_scenarios"}));
  const FailureCluster read = first.get<FailureCluster>();
  EXPECT_EQ(read.members, clusters[0].members);
  EXPECT_EQ(read.max_regret, clusters[0].max_regret);
  EXPECT_EQ(read.x, clusters[0].x);
  // Without a measured regret the key is left out, and reads back as none.
  FailureCluster unmeasured = clusters[1];
  unmeasured.max_regret.reset();
  EXPECT_FALSE(json::Json(unmeasured).contains("max_regret"));
  EXPECT_EQ(json::Json(unmeasured).get<FailureCluster>().max_regret, std::nullopt);
  json::Json broken = first;
  broken["kind"] = "crash";
  EXPECT_THROW(broken.get<FailureCluster>(), json::DecodeError);
  broken = first;
  broken["member_scenarios"] = json::Json::parse("[5, 9]");  // first_found 2 missing
  try {
    FailureCluster ignored;
    Decode(broken, "failures[0]", &ignored);
    FAIL() << "no exception";
  } catch (const json::DecodeError& error) {
    EXPECT_STREQ(error.what(), "failures[0].member_scenarios: must start with first_found 2");
  }
}

TEST(ClusteringTest, AClustersReproductionRoundTripsAndMustHoldTogether) {
  FailureCluster cluster = ClusterFailures(FourDistinctFailures())[0];
  cluster.reproduced = 2;
  cluster.runs = 3;
  cluster.reproduction_folders =
      std::vector<std::string>{"reproduce/scenario_0002_run_1", "reproduce/scenario_0002_run_2",
                               "reproduce/scenario_0002_run_4"};
  const json::Json json = cluster;
  std::vector<std::string> keys;
  for (const auto& [key, value] : json.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"failure_id", "kind", "representative", "members",
                                            "first_found", "x", "y", "max_regret", "reproduced",
                                            "runs", "member_scenarios", "reproduction_folders"}));
  const FailureCluster read = json.get<FailureCluster>();
  EXPECT_EQ(read.reproduced, 2u);
  EXPECT_EQ(read.runs, 3u);
  EXPECT_EQ(read.reproduction_folders, cluster.reproduction_folders);
  const auto error_of = [](const json::Json& broken) {
    try {
      FailureCluster ignored;
      Decode(broken, "failures[0]", &ignored);
      return std::string("no exception");
    } catch (const json::DecodeError& error) {
      return std::string(error.what());
    }
  };
  json::Json broken = json;
  broken["reproduced"] = 4;
  EXPECT_EQ(error_of(broken), "failures[0].reproduced: must be at most runs 3, got 4");
  broken = json;
  broken.erase("runs");
  EXPECT_EQ(error_of(broken),
            "failures[0].runs: reproduced, runs and reproduction_folders come together");
  broken = json;
  broken["reproduction_folders"].erase(0);
  EXPECT_EQ(error_of(broken),
            "failures[0].reproduction_folders: must name one folder per run (3), got 2");
}

}  // namespace
}  // namespace asg::failures
