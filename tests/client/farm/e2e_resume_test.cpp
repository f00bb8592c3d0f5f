// End-to-end test of interrupting and resuming a batch (client/farm/farm.h): SIGINT mid-batch, then
// --resume, ends with the same result folders as one run straight through.
#include <gtest/gtest.h>
#include <signal.h>

#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

TEST(FarmResume, InterruptedRunResumedEqualsAStraightRun) {
  TempDir dir;
  Json scenarios = testing::PlainScenarios(8);
  scenarios[4] = {
      {"scene_description", {{"ssa_array", {testing::Actors(testing::kTree, {20.0}, {20.0})}}}}};
  const auto batch = dir.path() / "batch.json";
  testing::WriteJson(batch, testing::SmallBatch("resume", scenarios));
  const auto straight = dir.path() / "straight";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", straight.string(), "--workers", "2", "-q"},
                     dir.path() / "straight.txt"),
            0);

  // The first worker hangs on scenario 5, so the batch is surely mid-way when interrupted.
  const auto resumed = dir.path() / "resumed";
  std::string first_output;
  ASSERT_EQ(testing::RunInterruptedAt(batch, resumed, 5, dir.path() / "first.txt", &first_output),
            130)
      << first_output;
  EXPECT_NE(first_output.find("--resume"), std::string::npos);
  const Json summary = Json::parse(ReadText(resumed / "summary.json"));
  EXPECT_EQ(summary["total"], 4);
  EXPECT_FALSE(std::filesystem::exists(resumed / "scenario_0005"));

  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", resumed.string(), "--workers", "2",
                      "--resume", "-q"},
                     dir.path() / "second.txt"),
            0)
      << ReadText(dir.path() / "second.txt");
  EXPECT_NE(ReadText(resumed / "asg_log.txt").find("resume: 4 scenarios already complete"),
            std::string::npos);
  testing::ExpectSameResults(straight, resumed);
  EXPECT_EQ(Json::parse(ReadText(resumed / "summary.json"))["total"], 8);
}

}  // namespace
}  // namespace asg::client::testing
