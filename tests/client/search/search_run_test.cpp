// Tests for client/search/search_run.h.
#include "client/search/search_run.h"

#include <gtest/gtest.h>

#include <sstream>

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

// The farm side of a search: the services a SearchRun needs, in a temporary folder.
struct Farm {
  testutil::TempDir dir;
  core::Logger logger{dir.path() / "log.txt", false};
  std::ostringstream out;
  Progress progress{8, ProgressSettings{false}, out};
  ResultWriter writer{dir.path()};
};

TEST(FarmSearchRun, TwoGenerationsAreInFlightAndAGenerationIsToldWhenComplete) {
  Farm farm;
  Batch batch = SearchBatch();
  SearchRun search({&batch, farm.dir.path(), false, &farm.logger, &farm.progress, &farm.writer});
  // Numbered after the listed scenario: generations 2..4 and 5..7.
  EXPECT_EQ(search.Start(), (std::vector<uint32_t>{2, 3, 4, 5, 6, 7}));
  ASSERT_EQ(batch.scenarios.size(), 7u);
  EXPECT_EQ(batch.scenarios[1].source, "search[0]");
  EXPECT_EQ(batch.scenarios[1].search_record["generation"], 0);
  EXPECT_EQ(batch.scenarios[4].search_record["generation"], 1);
  // The listed scenario is not the search's; the second generation finishing first tells nothing.
  EXPECT_TRUE(search.Recorded(Done(1, 5.0)).empty());
  for (const uint32_t number : {5u, 6u, 7u, 2u, 3u}) {
    EXPECT_TRUE(search.Recorded(Done(number, 0.1 * number)).empty());
  }
  EXPECT_TRUE(search.log().rows().empty());
  // The first generation completes: it is told and the last candidate asked beside the caller,
  // then the second generation is told.
  EXPECT_TRUE(search.Recorded(Done(4, 0.4)).empty());
  EXPECT_EQ(search.Await(), (std::vector<uint32_t>{8}));
  ASSERT_EQ(search.log().rows().size(), 2u);
  EXPECT_EQ(search.log().rows()[1].best_scenario, 7u);
  EXPECT_TRUE(search.Await().empty());
  EXPECT_FALSE(search.finished());
  EXPECT_TRUE(search.Recorded(Done(8, 0.0)).empty());
  EXPECT_TRUE(search.Await().empty());
  EXPECT_TRUE(search.finished());
  EXPECT_EQ(search.proposed(), 7u);
  EXPECT_TRUE(std::filesystem::exists(farm.dir.path() / "search.csv"));
}

TEST(FarmSearchRun, ResumeTellsKeptFoldersWithoutRunningThem) {
  Farm farm;
  Batch straight = SearchBatch();
  SearchRun first({&straight, farm.dir.path(), false, &farm.logger, &farm.progress, &farm.writer});
  first.Start();
  // Scenario 2's folder is complete; a resumed search keeps it and runs the others.
  results::ScenarioRecord record;
  record.request = straight.scenarios[1].request_json;
  record.result = Done(2, 0.9);
  record.search = straight.scenarios[1].search_record;
  results::WriteScenarioFolder(farm.dir.path(), record);
  Batch batch = SearchBatch();
  SearchRun resumed({&batch, farm.dir.path(), true, &farm.logger, &farm.progress, &farm.writer});
  EXPECT_EQ(resumed.Start(), (std::vector<uint32_t>{3, 4, 5, 6, 7}));
  ASSERT_EQ(resumed.kept().size(), 1u);
  EXPECT_EQ(resumed.resumed(), 1u);
  EXPECT_EQ(resumed.kept().at(2).result.regret.regret, 0.9);
  EXPECT_EQ(batch.scenarios[1].request_json, straight.scenarios[1].request_json);
  resumed.Recorded(Done(3, 0.0));
  resumed.Recorded(Done(4, 0.0));
  EXPECT_EQ(resumed.Await(), (std::vector<uint32_t>{8}));
  ASSERT_EQ(resumed.log().rows().size(), 1u);
  EXPECT_EQ(resumed.log().rows()[0].best_scenario, 2u);
}

}  // namespace
}  // namespace asg::client
