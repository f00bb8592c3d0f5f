// Tests for client/search/search_log.h.
#include "client/search/search_log.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "tests/failures/hand_built_runs.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

std::string Read(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(FarmSearchLog, RowsCarryTheGenerationAndTheRunningBestAndCounts) {
  testutil::TempDir dir;
  SearchSpec spec;
  spec.strategy = "random";
  spec.seed = 3;
  spec.budget_scenarios = 5;
  SearchLog log(spec, dir.path());
  const SearchGenerationRow first =
      log.Add(0, {MakeCandidateRow(1, 0, {1}, {0.4}, 0), MakeCandidateRow(2, 0, {2}, {0.8}, 1),
                  MakeCandidateRow(3, 0, {3}, {0.1}, 0)});
  EXPECT_EQ(first.proposals, 3u);
  EXPECT_EQ(first.first_scenario, 1u);
  EXPECT_EQ(first.last_scenario, 3u);
  EXPECT_NEAR(first.mean_regret, 1.3 / 3, 1e-12);
  EXPECT_EQ(first.max_regret, 0.8);
  EXPECT_EQ(first.best_scenario, 2u);
  EXPECT_EQ(first.at_or_above[0], 2u);  // 0.375
  EXPECT_EQ(first.at_or_above[1], 1u);  // 0.5
  EXPECT_EQ(first.at_or_above[2], 1u);  // 0.75
  EXPECT_EQ(first.at_or_above[3], 0u);  // 1.0
  const SearchGenerationRow second =
      log.Add(1, {MakeCandidateRow(4, 1, {4}, {1.0}, 0), MakeCandidateRow(5, 1, {5}, {0.5}, 0)});
  EXPECT_EQ(second.max_regret, 1.0);
  EXPECT_EQ(second.best_regret, 1.0);
  EXPECT_EQ(second.best_scenario, 4u);
  EXPECT_EQ(second.at_or_above[0], 4u);
  EXPECT_EQ(second.at_or_above[1], 3u);
  EXPECT_EQ(second.at_or_above[3], 1u);
  log.Write();
  EXPECT_EQ(Read(dir.path() / "search.csv"),
            "generation,proposals,first_scenario,last_scenario,mean_regret,max_regret,failures,"
            "best_regret,best_scenario,at_or_above_0.375,at_or_above_0.5,at_or_above_0.75,"
            "at_or_above_1.0,distinct_failures_0.375,distinct_failures_0.5,"
            "distinct_failures_0.75,distinct_failures_1.0\n"
            "0,3,1,3,0.433333,0.800000,1,0.800000,2,2,1,1,0,0,0,0,0\n"
            "1,2,4,5,0.750000,1.000000,0,1.000000,4,4,3,2,1,0,0,0,0\n");
  const Json json = Json::parse(Read(dir.path() / "search.json"));
  EXPECT_EQ(json["strategy"], "random");
  EXPECT_EQ(json["generations"].size(), 2u);
  EXPECT_EQ(json["generations"][1]["at_or_above_0.75"], 2);
  EXPECT_EQ(json["best"]["scenario_number"], 4);
}

using failures::hand_built::EastboundFailure;

TEST(FarmSearchLog, RowsCountTheDistinctFailuresSoFarPerThreshold) {
  testutil::TempDir dir;
  SearchSpec spec;
  spec.strategy = "random";
  SearchLog log(spec, dir.path());
  using failures::FailureKind;
  // Generation 0: a crash and a copy of it; a success of regret 0.6 elsewhere.
  const SearchGenerationRow first =
      log.Add(0,
              {MakeCandidateRow(1, 0, {1}, {1.2}, 1), MakeCandidateRow(2, 0, {2}, {1.3}, 1),
               MakeCandidateRow(3, 0, {3}, {0.6}, 0)},
              {EastboundFailure(1, FailureKind::kCollision, 1.2, 20),
               EastboundFailure(2, FailureKind::kCollision, 1.3, 20.1),
               EastboundFailure(3, FailureKind::kHighRegret, 0.6, 40)});
  EXPECT_EQ(
      std::vector<size_t>(std::begin(first.distinct_failures), std::end(first.distinct_failures)),
      (std::vector<size_t>{2, 2, 1, 1}));
  // Generation 1: a third copy of the crash, nothing new.
  const SearchGenerationRow second =
      log.Add(1, {MakeCandidateRow(4, 1, {4}, {1.1}, 1)},
              {EastboundFailure(4, FailureKind::kCollision, 1.1, 20)});
  EXPECT_EQ(second.distinct_failures[0], 2u);
  EXPECT_EQ(second.distinct_failures[3], 1u);
  log.Write();
  const std::string csv = Read(dir.path() / "search.csv");
  EXPECT_NE(csv.find("\n1,1,4,4,1.100000,1.100000,1,1.300000,2,4,4,3,3,2,2,1,1\n"),
            std::string::npos)
      << csv;
  const Json json = Json::parse(Read(dir.path() / "search.json"));
  EXPECT_EQ(json["generations"][0]["distinct_failures_0.375"], 2);
  EXPECT_EQ(json["generations"][0]["distinct_failures_0.75"], 1);
}

TEST(FarmSearchLog, CandidatesWithSeveralRunsAreScoredByTheirMeanAndKeepTheirSpread) {
  testutil::TempDir dir;
  SearchSpec spec;
  spec.strategy = "random";
  spec.runs_per_scenario = 3;
  SearchLog log(spec, dir.path());
  const SearchCandidateRow a = MakeCandidateRow(1, 0, {1, 2, 3}, {0.2, 0.4, 0.6}, 0);
  EXPECT_NEAR(a.mean_regret, 0.4, 1e-12);
  EXPECT_NEAR(a.std_regret, std::sqrt(0.08 / 3), 1e-12);
  EXPECT_EQ(a.min_regret, 0.2);
  EXPECT_EQ(a.max_regret, 0.6);
  const SearchGenerationRow row =
      log.Add(0, {a, MakeCandidateRow(2, 0, {4, 5, 6}, {0.0, 1.0, 1.0}, 2)});
  EXPECT_EQ(row.first_scenario, 1u);
  EXPECT_EQ(row.last_scenario, 6u);
  EXPECT_EQ(row.failures, 1u);  // one candidate, with two failed runs
  EXPECT_NEAR(row.max_regret, 2.0 / 3, 1e-12);
  EXPECT_EQ(row.best_scenario, 4u);
  log.Write();
  EXPECT_EQ(Read(dir.path() / "search_candidates.csv"),
            "candidate_id,generation,scenarios,mean_regret,std_regret,min_regret,max_regret,"
            "failures\n"
            "1,0,1 2 3,0.400000,0.163299,0.200000,0.600000,0\n"
            "2,0,4 5 6,0.666667,0.471405,0.000000,1.000000,2\n");
}

}  // namespace
}  // namespace asg::client
