// Tests for client/replay/replay_rank.h.
#include "client/replay/replay_rank.h"

#include <gtest/gtest.h>

#include "client/failures/failures_file.h"
#include "results/folder.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

namespace fs = std::filesystem;
using testutil::TempDir;

// Writes scenario `number`'s folder: done with `regret` when given, done without one otherwise.
void WriteScenario(const fs::path& dir, uint32_t number, std::optional<double> regret,
                   const std::string& variant = "") {
  results::ScenarioRecord record;
  record.request = results::Json::object();
  record.result.scenario_number = number;
  record.result.variant = variant;
  record.result.status = results::ScenarioStatus::kDone;
  if (regret) {
    record.result.regret.computed = true;
    record.result.regret.regret = *regret;
  }
  record.timing.attempts = {{1, 1, 0.1, "done", ""}};
  results::WriteScenarioFolder(dir, record);
}

TEST(ReplayRank, FoldersOfVariantsAreFoundWithTheirVariant) {
  TempDir dir;
  WriteScenario(dir.path(), 1, 0.5, "planner");
  WriteScenario(dir.path(), 2, 0.75, "straight");
  fs::create_directories(dir.path() / "scenario_0003_");   // no variant after the underscore
  fs::create_directories(dir.path() / "scenario_04_x");    // not the folder name of number 4
  fs::create_directories(dir.path() / "scenario_0005-x");  // not an underscore
  EXPECT_TRUE(fs::is_directory(dir.path() / "scenario_0001_planner"));
  const std::vector<std::pair<uint32_t, std::string>> expected = {{1, "planner"}, {2, "straight"}};
  EXPECT_EQ(ListScenarioFolders(dir.path()), expected);
  const std::vector<RankedScenario> ranked = {{2, 0.75, "straight"}, {1, 0.5, "planner"}};
  EXPECT_EQ(RankByRegret(dir.path()), ranked);
}

TEST(ReplayRank, SortsByRegretDescendingAndTiesByScenarioNumber) {
  std::vector<RankedScenario> scenarios = {{4, 0.5, ""}, {2, 0.9, ""}, {3, 0.5, ""}, {1, 0.1, ""}};
  SortByRegret(&scenarios);
  const std::vector<RankedScenario> expected = {
      {2, 0.9, ""}, {3, 0.5, ""}, {4, 0.5, ""}, {1, 0.1, ""}};
  EXPECT_EQ(scenarios, expected);
}

TEST(ReplayRank, RanksTheFoldersWithARegretAndSkipsTheOthers) {
  TempDir dir;
  WriteScenario(dir.path(), 1, 0.25);
  WriteScenario(dir.path(), 2, std::nullopt);
  WriteScenario(dir.path(), 3, 0.75);
  WriteScenario(dir.path(), 10, 0.25);
  fs::create_directories(dir.path() / "logs");
  fs::create_directories(dir.path() / "scenario_x");
  EXPECT_EQ(ListScenarioNumbers(dir.path()), (std::vector<uint32_t>{1, 2, 3, 10}));
  const std::vector<RankedScenario> expected = {{3, 0.75, ""}, {1, 0.25, ""}, {10, 0.25, ""}};
  EXPECT_EQ(RankByRegret(dir.path()), expected);
}

TEST(ReplayRank, TopScenariosTakesAtMostTheRankedOnes) {
  const std::vector<RankedScenario> ranked = {{3, 0.75, ""}, {1, 0.25, ""}, {10, 0.25, ""}};
  EXPECT_EQ(TopScenarios(ranked, 2), (std::vector<RankedScenario>{{3, 0.75, ""}, {1, 0.25, ""}}));
  EXPECT_EQ(TopScenarios(ranked, 10), ranked);
}

TEST(ReplayRank, AFolderWithoutScenariosOrRegretsIsAnErrorNamingIt) {
  TempDir dir;
  try {
    RankByRegret(dir.path());
    FAIL() << "expected ReplayError";
  } catch (const ReplayError& error) {
    EXPECT_EQ(std::string(error.what()),
              dir.path().string() + ": no scenario folders (scenario_NNNN) to replay");
  }
  WriteScenario(dir.path(), 1, std::nullopt);
  try {
    RankByRegret(dir.path());
    FAIL() << "expected ReplayError";
  } catch (const ReplayError& error) {
    EXPECT_EQ(std::string(error.what()),
              dir.path().string() + ": none of its 1 scenario folders has a regret in result.json");
  }
  EXPECT_THROW(RankByRegret(dir.path() / "missing"), ReplayError);
}

// A distinct failure `id` of `members` (the first is first_found), represented by
// `representative` with `max_regret`.
failures::FailureCluster Failure(int id, std::vector<uint32_t> members, uint32_t representative,
                                 std::optional<double> max_regret) {
  failures::FailureCluster cluster;
  cluster.id = id;
  cluster.first_found = members.front();
  cluster.members = std::move(members);
  cluster.representative = representative;
  cluster.max_regret = max_regret;
  return cluster;
}

TEST(ReplayRank, DistinctFailuresRankByMaxRegretThenIdWithOneRepresentativeEach) {
  TempDir dir;
  // Copies of failure 1 hold the highest raw regrets; failure 3 ties failure 2's max_regret and
  // comes after it by id; failure 4 has no measured regret.
  for (const auto& [number, regret] : std::vector<std::pair<uint32_t, double>>{
           {1, 1.5}, {2, 1.6}, {3, 1.55}, {4, 0.9}, {5, 0.9}, {6, 0.2}}) {
    WriteScenario(dir.path(), number, regret, number == 5 ? "planner" : "");
  }
  BatchFailures found;
  found.failing_scenarios = 7;
  found.clusters = {Failure(1, {1, 2, 3}, 2, 1.6), Failure(2, {4}, 4, 0.9), Failure(3, {5}, 5, 0.9),
                    Failure(4, {7}, 7, std::nullopt)};
  WriteFailuresFiles(dir.path(), found);
  const std::vector<RankedScenario> expected = {
      {2, 1.6, ""}, {4, 0.9, ""}, {5, 0.9, "planner"}, {7, 0.0, ""}};
  EXPECT_EQ(RankDistinctFailures(dir.path()), expected);
  // Ranked by runs instead, the copies of failure 1 come first.
  EXPECT_EQ(TopScenarios(RankByRegret(dir.path()), 3),
            (std::vector<RankedScenario>{{2, 1.6, ""}, {3, 1.55, ""}, {1, 1.5, ""}}));
  try {
    RankDistinctFailures(dir.path() / "missing");
    FAIL() << "expected ReplayError";
  } catch (const ReplayError& error) {
    EXPECT_NE(std::string(error.what()).find("failures.json"), std::string::npos);
  }
}

}  // namespace
}  // namespace asg::client
