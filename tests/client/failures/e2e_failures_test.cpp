// End-to-end tests of the distinct failures of a batch (client/failures/batch_failures.h, the
// farm's finish stage, `asg-client failures`): the real asg-client and asg-worker run a small
// batch with copies of one crash, another crash and a timeout, with 1 and 2 workers and after
// an interruption and --resume, and `asg-client failures` rebuilds the files from the folders.
#include <gtest/gtest.h>

#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

// Scenarios 1..8 of the straight driver from (8, 8) to (32, 32): 2, 3 and 7 hit a tree at
// (20, 20), 5 hits one at (26, 26), 6 idles until its sim timeout; 1, 4 and 8 reach the goal.
Json FailingBatch() {
  const Json tree_at_20 = {
      {"scene_description", {{"ssa_array", {testing::Actors(testing::kTree, {20.0}, {20.0})}}}}};
  const Json tree_at_26 = {
      {"scene_description", {{"ssa_array", {testing::Actors(testing::kTree, {26.0}, {26.0})}}}}};
  const Json idle = {{"sim_timeout_period", 3.0}, {"driver", {{"type", "idle"}}}};
  const Json plain = Json::object();
  return testing::SmallBatch("failures", Json::array({plain, tree_at_20, tree_at_20, plain,
                                                      tree_at_26, idle, tree_at_20, plain}));
}

TEST(FailuresEndToEnd, ABatchWritesItsDistinctFailuresTheSameWithOneOrTwoWorkers) {
  TempDir dir;
  const fs::path batch = dir.path() / "batch.json";
  testing::WriteJson(batch, FailingBatch());
  const fs::path one = dir.path() / "one";
  const fs::path two = dir.path() / "two";
  ASSERT_EQ(RunBatch(batch, one, 1, dir.path() / "one.txt"), 0) << ReadText(dir.path() / "one.txt");
  ASSERT_EQ(RunBatch(batch, two, 2, dir.path() / "two.txt"), 0) << ReadText(dir.path() / "two.txt");

  EXPECT_EQ(FailureFiles(one), FailureFiles(two));
  testing::ExpectSameResults(one, two);
  const Json failures = Json::parse(ReadText(two / "failures.json"));
  EXPECT_EQ(failures["regret_threshold"], 0.75);
  ASSERT_EQ(failures["failures"].size(), 3u) << failures.dump(2);
  EXPECT_EQ(failures["failures"][0]["kind"], "collision");
  EXPECT_EQ(failures["failures"][0]["member_scenarios"], Json::parse("[2, 3, 7]"));
  EXPECT_EQ(failures["failures"][0]["first_found"], 2);
  EXPECT_EQ(failures["failures"][1]["member_scenarios"], Json::parse("[5]"));
  EXPECT_EQ(failures["failures"][2]["kind"], "timeout");
  EXPECT_EQ(failures["failures"][2]["member_scenarios"], Json::parse("[6]"));
  int members = 0;
  for (const Json& failure : failures["failures"]) members += failure["members"].get<int>();
  EXPECT_EQ(members, 5);
  EXPECT_EQ(failures["failing_scenarios"], members);

  for (const int number : {2, 3, 7}) EXPECT_EQ(Result(two, number)["failure_id"], 1) << number;
  EXPECT_EQ(Result(two, 5)["failure_id"], 2);
  EXPECT_EQ(Result(two, 6)["failure_id"], 3);
  EXPECT_FALSE(Result(two, 1).contains("failure_id"));
  const Json summary = Json::parse(ReadText(two / "summary.json"));
  EXPECT_EQ(summary["failing_scenarios"], 5);
  EXPECT_EQ(summary["distinct_failures"], 3);
  EXPECT_NE(ReadText(dir.path() / "two.txt").find("3 distinct, 3 reliable (failures.csv)"),
            std::string::npos)
      << ReadText(dir.path() / "two.txt");
  EXPECT_EQ(ReadText(two / "failures.csv").substr(0, 82),
            "failure_id,kind,representative,members,first_found,x,y,max_regret,reproduced,runs\n");

  // `asg-client failures` gives the same bytes from the folders alone, and prints the table.
  const std::string csv = ReadText(two / "failures.csv");
  const std::string result = ReadText(two / "scenario_0003" / "result.json");
  fs::remove(two / "failures.csv");
  ASSERT_EQ(
      RunToEnd(Executable("asg-client"), {"failures", two.string()}, dir.path() / "failures.txt"),
      0)
      << ReadText(dir.path() / "failures.txt");
  EXPECT_EQ(FailureFiles(two), FailureFiles(one));
  EXPECT_EQ(ReadText(two / "scenario_0003" / "result.json"), result);
  const std::string table = ReadText(dir.path() / "failures.txt");
  EXPECT_TRUE(table.starts_with("5 failing scenarios (regret threshold 0.75), 3 distinct"))
      << table;
  EXPECT_NE(table.find("  timeout "), std::string::npos) << table;
}

TEST(FailuresEndToEnd, AResumedBatchWritesTheFailuresOfAStraightRun) {
  TempDir dir;
  const fs::path batch = dir.path() / "batch.json";
  testing::WriteJson(batch, FailingBatch());
  const fs::path straight = dir.path() / "straight";
  ASSERT_EQ(RunBatch(batch, straight, 2, dir.path() / "straight.txt"), 0);
  // Interrupted once scenario 5 runs: the failures so far are written, then --resume.
  const fs::path resumed = dir.path() / "resumed";
  std::string first_output;
  ASSERT_EQ(testing::RunInterruptedAt(batch, resumed, 5, dir.path() / "first.txt", &first_output),
            130)
      << first_output;
  EXPECT_EQ(Json::parse(ReadText(resumed / "failures.json"))["failures"].size(), 1u);
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", resumed.string(), "--workers", "2",
                      "--resume", "-q"},
                     dir.path() / "second.txt"),
            0)
      << ReadText(dir.path() / "second.txt");
  EXPECT_EQ(FailureFiles(resumed), FailureFiles(straight));
  testing::ExpectSameResults(straight, resumed);
}

TEST(FailuresEndToEnd, TheCommandNamesWhatItCannotUse) {
  TempDir dir;
  const fs::path log = dir.path() / "out.txt";
  EXPECT_EQ(RunToEnd(Executable("asg-client"), {"failures", dir.path().string()}, log), 2);
  EXPECT_NE(ReadText(log).find(dir.path().string() + ": not a batch folder"), std::string::npos)
      << ReadText(log);
  EXPECT_EQ(RunToEnd(Executable("asg-client"), {"failures"}, log), 2);
  EXPECT_NE(ReadText(log).find("failures needs a batch folder DIR"), std::string::npos);
  EXPECT_EQ(RunToEnd(Executable("asg-client"), {"failures", "--help"}, log), 0);
  EXPECT_TRUE(ReadText(log).starts_with("Usage:\n  asg-client failures DIR [--catalog FILE]"))
      << ReadText(log);
  // A batch folder with a scenario folder whose result cannot be read: exit 1, naming it.
  const fs::path batch = dir.path() / "batch";
  fs::create_directories(batch / "scenario_0001");
  testing::WriteJson(batch / "batch_identity.json", {{"batch", "b"}});
  std::ofstream(batch / "scenario_0001" / "result.json") << "{";
  EXPECT_EQ(RunToEnd(Executable("asg-client"), {"failures", batch.string()}, log), 1);
  EXPECT_NE(ReadText(log).find((batch / "scenario_0001" / "result.json").string()),
            std::string::npos)
      << ReadText(log);
  EXPECT_EQ(
      RunToEnd(Executable("asg-client"),
               {"failures", batch.string(), "--catalog", (dir.path() / "no.json").string()}, log),
      2);
  EXPECT_NE(ReadText(log).find("no.json"), std::string::npos) << ReadText(log);
}

}  // namespace
}  // namespace asg::client::testing
