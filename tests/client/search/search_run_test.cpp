// Tests for client/search/search_run.h.
#include "client/search/search_run.h"

#include <gtest/gtest.h>

#include <sstream>

#include "results/files.h"
#include "results/folder.h"
#include "tests/source_catalog.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

// A batch of one listed scenario and a random search of 7 candidates, 3 per generation.
Batch SearchBatch() {
  return ParseBatchText(R"({"seed": 2, "scenarios": [{}],
      "defaults": {"vehicle_start_location": {"x": 10, "y": 10, "z": 0},
                   "vehicle_goal_location": {"x": 50, "y": 50, "z": 0}, "sim_timeout_period": 17,
                   "scene_description": {"landscape": {"nominal_size": 60}}},
      "search": {"strategy": "random", "budget": {"scenarios": 7}, "generation_size": 3,
                 "space": {"classes": [{"path_name": "tree", "max_count": 3}]}}})",
                        "b.json", "b");
}

results::ScenarioResult Done(uint32_t number, double regret) {
  results::ScenarioResult result;
  result.scenario_number = number;
  result.status = results::ScenarioStatus::kDone;
  result.regret.computed = true;
  result.regret.regret = regret;
  return result;
}

/// The scenario numbers of `planned`, in order.
std::vector<uint32_t> Numbers(const std::vector<PlannedScenario>& planned) {
  std::vector<uint32_t> numbers;
  for (const PlannedScenario& scenario : planned) numbers.push_back(scenario.scenario_number);
  return numbers;
}

// What a SearchRun needs of the farm, in a temporary folder.
struct Farm {
  testutil::TempDir dir;
  core::Logger logger{dir.path() / "log.txt", false};
};

TEST(FarmSearchRun, TwoGenerationsAreInFlightAndAGenerationIsToldWhenComplete) {
  Farm farm;
  const Batch batch = SearchBatch();
  SearchRun search({&batch, farm.dir.path(), &farm.logger, "", {}});
  // Numbered after the listed scenario: generations 2..4 and 5..7.
  const std::vector<PlannedScenario> first = search.Take(false);
  EXPECT_EQ(Numbers(first), (std::vector<uint32_t>{2, 3, 4, 5, 6, 7}));
  ASSERT_EQ(first.size(), 6u);
  EXPECT_EQ(batch.scenarios.size(), 1u);  // the batch is not changed
  EXPECT_EQ(first[0].source, "search[0]");
  EXPECT_EQ(first[0].search_record["generation"], 0);
  EXPECT_EQ(first[3].search_record["generation"], 1);
  // The listed scenario is not the search's; the second generation finishing first tells nothing.
  search.Recorded(Done(1, 5.0), nullptr);
  EXPECT_FALSE(search.Busy());
  EXPECT_TRUE(search.Take(false).empty());
  for (const uint32_t number : {5u, 6u, 7u, 2u, 3u}) {
    search.Recorded(Done(number, 0.1 * number), nullptr);
    EXPECT_FALSE(search.Busy()) << number;
  }
  EXPECT_TRUE(search.log().rows().empty());
  // The first generation completes: it is told and the last candidate asked beside the caller,
  // then the second generation is told.
  search.Recorded(Done(4, 0.4), nullptr);
  EXPECT_TRUE(search.Busy());
  EXPECT_EQ(Numbers(search.Take(true)), (std::vector<uint32_t>{8}));
  ASSERT_EQ(search.log().rows().size(), 2u);
  EXPECT_EQ(search.log().rows()[1].best_scenario, 7u);
  EXPECT_TRUE(search.Take(true).empty());
  EXPECT_FALSE(search.finished());
  search.Recorded(Done(8, 0.0), nullptr);
  EXPECT_TRUE(search.Take(true).empty());
  EXPECT_TRUE(search.finished());
  EXPECT_EQ(search.proposed(), 7u);
  EXPECT_TRUE(std::filesystem::exists(farm.dir.path() / "search.csv"));
  EXPECT_EQ(
      search.Summary().rfind("search: random, 7 candidates proposed, 3 generations told, ", 0), 0u)
      << search.Summary();
  EXPECT_EQ(search.generator(), nullptr);
  EXPECT_EQ(search.error(), "");
}

TEST(FarmSearchRun, AResultKeptFromAnEarlierRunIsToldLikeARunOne) {
  // A resumed search plans the same scenarios; the farm keeps scenario 2's complete folder and
  // tells its stored result (regret 0.9), which counts in its generation like a run one.
  Farm farm;
  const Batch straight = SearchBatch();
  SearchRun first({&straight, farm.dir.path(), &farm.logger, "", {}});
  const std::vector<PlannedScenario> planned = first.Take(false);
  const Batch batch = SearchBatch();
  SearchRun resumed({&batch, farm.dir.path(), &farm.logger, "", {}});
  const std::vector<PlannedScenario> again = resumed.Take(false);
  ASSERT_EQ(Numbers(again), (std::vector<uint32_t>{2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(again[0].request_json, planned[0].request_json);
  EXPECT_EQ(again[0].search_record, planned[0].search_record);
  resumed.Recorded(Done(2, 0.9), nullptr);
  resumed.Recorded(Done(3, 0.0), nullptr);
  resumed.Recorded(Done(4, 0.0), nullptr);
  EXPECT_EQ(Numbers(resumed.Take(true)), (std::vector<uint32_t>{8}));
  ASSERT_EQ(resumed.log().rows().size(), 1u);
  EXPECT_EQ(resumed.log().rows()[0].best_scenario, 2u);
}

TEST(FarmSearchRun, AnExternalSearchOwnsTheGeneratorLinkTheFarmsPortHandsItsGenerator) {
  Farm farm;
  Batch batch = SearchBatch();
  batch.search->strategy = kExternalStrategy;
  batch.search->strategy_settings = {{"connect_timeout", 0.05}};
  SearchRun search({&batch, farm.dir.path(), &farm.logger, "secret", {}});
  ASSERT_NE(search.generator(), nullptr);
  EXPECT_EQ(search.generator()->search()["budget_scenarios"], 7);
  // No generator registers: the first generations are none, and the search says why.
  EXPECT_TRUE(search.Take(false).empty());
  EXPECT_EQ(search.error(), "no scenario generator registered within 0.05 s");
  EXPECT_FALSE(search.interrupted());
  search.End(false);
}

// The record of run `planned` ending in a collision after driving east from (10, 30) to (24, 30).
results::ScenarioRecord CrashRecord(const PlannedScenario& planned) {
  results::ScenarioRecord record;
  record.request = planned.request_json;
  record.result.scenario_number = planned.scenario_number;
  record.result.status = results::ScenarioStatus::kDone;
  record.result.termination_reason = protocol::TerminationReason::REASON_VEHICLE_COLLISION;
  record.result.regret.computed = true;
  record.result.regret.regret = 1.5;
  for (int k = 0; k <= 56; ++k) {
    protocol::OdometryWithoutCovariance sample;
    sample.header.stamp = {k / 20, static_cast<uint32_t>(k % 20) * 50'000'000u};
    sample.pose.position = {10.0 + 0.25 * k, 30.0, 0.0};
    record.trajectory.push_back(sample);
  }
  return record;
}

TEST(FarmSearchRun, ARunsFailureIsCountedTheSameFromItsRecordOrFromItsFolder) {
  Farm farm;
  const Batch batch = SearchBatch();
  const std::string catalog = testing::SourceCatalogPath();
  SearchRun search({&batch, farm.dir.path(), &farm.logger, "", catalog});
  const std::vector<PlannedScenario> planned = search.Take(false);
  const results::ScenarioRecord crash = CrashRecord(planned[0]);
  search.Recorded(crash.result, &crash);
  search.Recorded(Done(3, 0.0), nullptr);  // successes: nothing to read
  search.Recorded(Done(4, 0.0), nullptr);
  search.Take(true);
  ASSERT_EQ(search.log().rows().size(), 1u);
  const size_t* counts = search.log().rows()[0].distinct_failures;
  EXPECT_EQ(std::vector<size_t>(counts, counts + 4), (std::vector<size_t>{1, 1, 1, 1}));

  // Resumed: scenario 2 is kept from the earlier run, so its folder is read.
  results::WriteScenarioFolder(farm.dir.path(), crash);
  SearchRun resumed({&batch, farm.dir.path(), &farm.logger, "", catalog});
  resumed.Take(false);
  resumed.Recorded(crash.result, nullptr);
  resumed.Recorded(Done(3, 0.0), nullptr);
  resumed.Recorded(Done(4, 0.0), nullptr);
  resumed.Take(true);
  ASSERT_EQ(resumed.log().rows().size(), 1u);
  EXPECT_EQ(std::vector<size_t>(resumed.log().rows()[0].distinct_failures,
                                resumed.log().rows()[0].distinct_failures + 4),
            (std::vector<size_t>{1, 1, 1, 1}));
  EXPECT_NE(search.Summary().find(", distinct failures 0.375: 1 0.5: 1 0.75: 1 1: 1 "),
            std::string::npos)
      << search.Summary();
}

TEST(FarmSearchRun, ARunThatCannotBeJudgedStopsTheSearchSayingWhy) {
  Farm farm;
  const Batch batch = SearchBatch();
  SearchRun search({&batch, farm.dir.path(), &farm.logger, "", testing::SourceCatalogPath()});
  search.Take(false);
  // A high-regret success told as kept, but its folder is not there.
  search.Recorded(Done(2, 0.9), nullptr);
  const std::string error = search.error();
  EXPECT_TRUE(error.starts_with("judging the failures: ")) << error;
  EXPECT_NE(error.find("scenario_0002"), std::string::npos) << error;
}

TEST(FarmSearchRun, AMapElitesSearchWritesItsArchiveAfterEachToldGeneration) {
  // The crash (scenario 2) fails at its signature's point, where it ended (24, 30): cell (3, 4)
  // of the 8 x 8 grid over the 60 m landscape, a collision; the two successes share the goal's
  // cell (6, 6), where the higher regret is the elite. No run has a reference path here.
  Farm farm;
  Batch batch = SearchBatch();
  batch.search->strategy = "map-elites";
  SearchRun search({&batch, farm.dir.path(), &farm.logger, "", testing::SourceCatalogPath()});
  const std::vector<PlannedScenario> planned = search.Take(false);
  const results::ScenarioRecord crash = CrashRecord(planned[0]);
  search.Recorded(crash.result, &crash);
  search.Recorded(Done(3, 0.2), nullptr);
  EXPECT_FALSE(std::filesystem::exists(farm.dir.path() / "archive.csv"));
  search.Recorded(Done(4, 0.3), nullptr);
  search.Take(true);
  EXPECT_EQ(results::ReadTextFile(farm.dir.path() / "archive.csv"),
            "generation,cell_x,cell_y,outcome,near_path,candidate_id,scenario,regret\n"
            "0,3,4,collision,0,1,2,1.500000\n"
            "0,6,6,none,0,3,4,0.300000\n");
}

}  // namespace
}  // namespace asg::client
