// Tests for client/replay/replay_rank.h.
#include "client/replay/replay_rank.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace asg::client
