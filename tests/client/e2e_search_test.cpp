// End-to-end tests of a batch's search (client/search_run.h): the real asg-client and asg-worker
// run a small search; the folders, search.csv and search.json are the same with 1 and 2 workers
// and after an interrupted run resumed.
#include <gtest/gtest.h>
#include <signal.h>

#include "e2e_process.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

using testing::Executable;
using testing::ReadText;
using testing::RunToEnd;
using testutil::TempDir;
using Json = nlohmann::json;

constexpr const char* kBush = "/Game/Blueprints/BP_SSA_Bush_Barberry_Field_Desktop";

// The small test batch with no listed scenarios and a search of `budget` candidates, 20 per
// generation, over up to 3 trees and 3 bushes.
Json SearchBatch(const std::string& strategy, int budget, const Json& settings) {
  Json batch = testing::SmallBatch("search", Json::array());
  batch.erase("scenarios");
  batch["search"] = {
      {"strategy", strategy},
      {"budget", {{"scenarios", budget}}},
      {"generation_size", 20},
      {"strategy_settings", settings},
      {"space",
       {{"classes",
         {{{"path_name", testing::kTree}, {"max_count", 3}, {"x", {0, 40}}, {"y", {0, 40}}},
          {{"path_name", kBush}, {"max_count", 3}, {"x", {0, 40}}, {"y", {0, 40}}}}},
        {"start_clearance", 6},
        {"goal_clearance", 6},
        {"path_clearance", 2}}}};
  return batch;
}

// Expects `a` and `b` to hold the same folders with the same deterministic files, and the same
// search.csv and search.json.
void ExpectSameSearch(const std::filesystem::path& a, const std::filesystem::path& b) {
  testing::ExpectSameResults(a, b);
  for (const char* file : {"search.csv", "search.json"}) {
    EXPECT_FALSE(ReadText(a / file).empty()) << file;
    EXPECT_EQ(ReadText(a / file), ReadText(b / file)) << file;
  }
  for (int number = 1; number <= 60; ++number) {
    char folder[32];
    std::snprintf(folder, sizeof folder, "scenario_%04d/search.json", number);
    EXPECT_EQ(ReadText(a / folder), ReadText(b / folder)) << folder;
  }
}

TEST(FarmSearch, OneAndTwoWorkersWriteTheSameFoldersAndLog) {
  TempDir dir;
  const auto batch = dir.path() / "batch.json";
  testing::WriteJson(batch, SearchBatch("bacre", 60, {{"seed_count", 20}}));
  const auto one = dir.path() / "one";
  const auto two = dir.path() / "two";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", one.string(), "--workers", "1"},
                     dir.path() / "one.txt"),
            0)
      << ReadText(dir.path() / "one.txt");
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", two.string(), "--workers", "2", "-q"},
                     dir.path() / "two.txt"),
            0)
      << ReadText(dir.path() / "two.txt");
  ExpectSameSearch(one, two);

  // Every candidate ran once, with a regret, and records where it came from.
  EXPECT_EQ(Json::parse(ReadText(one / "summary.json"))["total"], 60);
  size_t children = 0;
  for (int number = 1; number <= 60; ++number) {
    EXPECT_TRUE(testing::Result(one, number).contains("regret")) << number;
    char folder[32];
    std::snprintf(folder, sizeof folder, "scenario_%04d", number);
    const Json record = Json::parse(ReadText(one / folder / "search.json"));
    EXPECT_EQ(record["candidate_id"], number);
    EXPECT_EQ(record["generation"], (number - 1) / 20);
    if (number <= 20) {
      EXPECT_EQ(record["origin"], "seed");
    }
    if (!record["parents"].empty()) {
      ++children;
      // A parent is an earlier scenario of a generation already told.
      EXPECT_LT(record["parents"][0].get<int>(), number - 20) << folder;
    }
  }
  EXPECT_GT(children, 0u);

  // search.csv: a header and one row per generation; the progress line shows the regret.
  const std::string csv = ReadText(one / "search.csv");
  EXPECT_EQ(csv.rfind("generation,proposals,first_scenario,last_scenario,mean_regret", 0), 0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  EXPECT_NE(csv.find("\n2,20,41,60,"), std::string::npos) << csv;
  const Json log = Json::parse(ReadText(one / "search.json"));
  EXPECT_EQ(log["strategy"], "bacre");
  EXPECT_EQ(log["generations"].size(), 3u);
  const std::string output = ReadText(dir.path() / "one.txt");
  EXPECT_NE(output.find("[60/60]"), std::string::npos) << output;
  EXPECT_NE(output.find("regret best "), std::string::npos) << output;
  EXPECT_NE(output.find(">=0.375 "), std::string::npos) << output;
  EXPECT_NE(output.find(">=1 "), std::string::npos) << output;
}

TEST(FarmSearch, InterruptedSearchResumedEqualsAStraightRun) {
  TempDir dir;
  const auto batch = dir.path() / "batch.json";
  testing::WriteJson(batch, SearchBatch("random", 60, Json::object()));
  const auto straight = dir.path() / "straight";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", straight.string(), "--workers", "2", "-q"},
                     dir.path() / "straight.txt"),
            0);

  // The worker hangs on scenario 25 (the second generation), so the search is mid-way.
  const auto resumed = dir.path() / "resumed";
  testing::Child client(Executable("asg-client"),
                        {"run", batch.string(), "--out", resumed.string(), "--workers", "1",
                         "--fault-inject", "hang-on=25"},
                        dir.path() / "first.txt");
  ASSERT_TRUE(testing::WaitForText(resumed / "asg_log.txt", "scenario 25 started",
                                   std::chrono::seconds(30)));
  client.Signal(SIGINT);
  EXPECT_EQ(client.Wait(std::chrono::seconds(30)), 130) << client.Output();
  EXPECT_EQ(Json::parse(ReadText(resumed / "summary.json"))["total"], 24);
  EXPECT_FALSE(std::filesystem::exists(resumed / "scenario_0025"));
  EXPECT_EQ(Json::parse(ReadText(resumed / "search.json"))["generations"].size(), 1u);

  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", resumed.string(), "--workers", "2",
                      "--resume", "-q"},
                     dir.path() / "second.txt"),
            0)
      << ReadText(dir.path() / "second.txt");
  EXPECT_NE(ReadText(resumed / "asg_log.txt").find("resume: 24 scenarios already complete"),
            std::string::npos);
  ExpectSameSearch(straight, resumed);

  // Resuming a finished search runs nothing and writes the same log.
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", resumed.string(), "--workers", "2",
                      "--resume", "-q"},
                     dir.path() / "third.txt"),
            0)
      << ReadText(dir.path() / "third.txt");
  EXPECT_NE(
      ReadText(resumed / "asg_log.txt").find("resume: 60 scenarios already complete, 0 to run"),
      std::string::npos);
  ExpectSameSearch(straight, resumed);
}

}  // namespace
}  // namespace asg::client
