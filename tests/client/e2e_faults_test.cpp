// End-to-end tests of the farm's fault handling (client/farm_loop.h, client/scheduler.h): real
// asg-client and asg-worker processes, faults injected with --fault-inject or from outside.
#include <gtest/gtest.h>

#include "e2e_process.h"
#include "temp_dir.h"

namespace asg::client {
namespace {

using testing::Child;
using testing::Executable;
using testing::ReadText;
using testing::Result;
using testing::RunToEnd;
using testing::SmallBatch;
using testing::TempDir;
using testing::WriteJson;
using Json = nlohmann::json;

/// Runs asg-client on `batch` with `arguments` appended; returns the exit code.
int RunClient(const TempDir& dir, const Json& batch, const std::vector<std::string>& arguments) {
  WriteJson(dir.path() / "batch.json", batch);
  std::vector<std::string> command = {"run", (dir.path() / "batch.json").string(), "--out",
                                      (dir.path() / "out").string(), "-q"};
  command.insert(command.end(), arguments.begin(), arguments.end());
  return RunToEnd(Executable("asg-client"), command, dir.path() / "client.txt");
}

TEST(FarmFaults, WorkerKilledMidRunIsReplacedAndEveryScenarioCompletes) {
  TempDir dir;
  ASSERT_EQ(RunClient(dir, SmallBatch("crash", testing::PlainScenarios(6)),
                      {"--workers", "2", "--fault-inject", "crash-on=3"}),
            0)
      << ReadText(dir.path() / "client.txt");
  const auto out = dir.path() / "out";
  for (int number = 1; number <= 6; ++number) {
    EXPECT_EQ(Result(out, number)["status"], "done") << number;
  }
  EXPECT_GE(Result(out, 3)["attempts"].get<int>(), 2);
  const std::string timing = ReadText(out / "scenario_0003" / "timing.json");
  EXPECT_NE(timing.find("killed by signal 9"), std::string::npos) << timing;
  const std::string log = ReadText(out / "asg_log.txt");
  EXPECT_NE(log.find("killed by signal 9 (Killed) during scenario 3"), std::string::npos) << log;
  EXPECT_NE(log.find("launched worker"), std::string::npos);
}

TEST(FarmFaults, HangingRunIsKilledAtTheWallClockCapAndFailsAfterMaxAttempts) {
  TempDir dir;
  // One attempt allowed and a 1 s cap: scenario 2 fails, the others run on a fresh worker.
  EXPECT_EQ(RunClient(dir, SmallBatch("hang", testing::PlainScenarios(3), 1, 1.0),
                      {"--workers", "1", "--fault-inject", "hang-on=2"}),
            1);
  const auto out = dir.path() / "out";
  EXPECT_EQ(Result(out, 1)["status"], "done");
  EXPECT_EQ(Result(out, 2)["status"], "failed");
  EXPECT_NE(Result(out, 2)["error"].get<std::string>().find("wall-clock cap of 1 s"),
            std::string::npos)
      << Result(out, 2).dump();
  EXPECT_EQ(Result(out, 3)["status"], "done");
  const Json summary = Json::parse(ReadText(out / "summary.json"));
  EXPECT_EQ(summary["status_counts"]["failed"], 1);
}

TEST(FarmFaults, MismatchedResultIsRefusedAndTheScenarioRunsAgain) {
  TempDir dir;
  ASSERT_EQ(RunClient(dir, SmallBatch("mismatch", testing::PlainScenarios(3)),
                      {"--workers", "1", "--fault-inject", "mismatch-on=2"}),
            0)
      << ReadText(dir.path() / "client.txt");
  const auto out = dir.path() / "out";
  EXPECT_EQ(Result(out, 2)["status"], "done");
  EXPECT_EQ(Result(out, 2)["attempts"], 2);
  const std::string log = ReadText(out / "asg_log.txt");
  EXPECT_NE(log.find("refused AnalyzeScenario for scenario 3 but worker 1"), std::string::npos)
      << log;
  EXPECT_NE(log.find("given up after 2 resubmissions"), std::string::npos) << log;
}

TEST(FarmFaults, AcceptedButNeverStartedScenarioIsResubmittedThenMoved) {
  TempDir dir;
  ASSERT_EQ(
      RunClient(dir, SmallBatch("silent", testing::PlainScenarios(2)),
                {"--workers", "1", "--start-timeout", "0.3", "--fault-inject", "silent-on=1"}),
      0)
      << ReadText(dir.path() / "client.txt");
  const auto out = dir.path() / "out";
  EXPECT_EQ(Result(out, 1)["status"], "done");
  const std::string log = ReadText(out / "asg_log.txt");
  EXPECT_NE(log.find("resubmitting scenario 1 to worker 1"), std::string::npos) << log;
  EXPECT_NE(log.find("not started within 0.3 s; given up after 2 resubmissions"), std::string::npos)
      << log;
}

TEST(FarmFaults, WorkerWithAWrongTokenIsRefusedAndOneWithTheRightTokenServes) {
  TempDir dir;
  WriteJson(dir.path() / "batch.json", SmallBatch("token", testing::PlainScenarios(2)));
  const auto out = dir.path() / "out";
  Child client(Executable("asg-client"),
               {"run", (dir.path() / "batch.json").string(), "--out", out.string(), "--workers",
                "0", "--listen", "127.0.0.1:0", "--token", "right-token"},
               dir.path() / "client.txt");
  ASSERT_TRUE(testing::WaitForText(dir.path() / "client.txt", "waiting for workers on ",
                                   std::chrono::seconds(10)));
  const std::string text = client.Output();
  const size_t at =
      text.find("waiting for workers on ") + std::string("waiting for workers on ").size();
  const std::string address = text.substr(at, text.find('\n', at) - at);

  EXPECT_EQ(RunToEnd(Executable("asg-worker"),
                     {"--connect", address, "--id", "7", "--token", "wrong-token"},
                     dir.path() / "bad_worker.txt"),
            1);
  EXPECT_NE(ReadText(out / "asg_log.txt").find("refused worker 7"), std::string::npos);
  EXPECT_NE(ReadText(dir.path() / "bad_worker.txt").find("wrong token"), std::string::npos);

  EXPECT_EQ(RunToEnd(Executable("asg-worker"),
                     {"--connect", address, "--id", "8", "--token", "right-token"},
                     dir.path() / "good_worker.txt"),
            0)
      << ReadText(dir.path() / "good_worker.txt");
  EXPECT_EQ(client.Wait(std::chrono::seconds(30)), 0) << client.Output();
  EXPECT_EQ(Result(out, 2)["status"], "done");
  EXPECT_NE(ReadText(out / "scenario_0002" / "timing.json").find("\"worker_id\": 8"),
            std::string::npos);
}

}  // namespace
}  // namespace asg::client
