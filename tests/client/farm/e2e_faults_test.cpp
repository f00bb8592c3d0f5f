// End-to-end tests of the farm's fault handling (client/farm/farm_loop.h, client/farm/scheduler.h):
// real asg-client and asg-worker processes, faults injected with --fault-inject or from outside.
#include <gtest/gtest.h>

#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

/// Runs asg-client on `batch` (written to FOLDER/batch.json) with `arguments` appended, results
/// in FOLDER/out and its output in FOLDER/client.txt; returns the exit code.
int RunClient(const std::filesystem::path& folder, const Json& batch,
              const std::vector<std::string>& arguments) {
  std::filesystem::create_directories(folder);
  WriteJson(folder / "batch.json", batch);
  std::vector<std::string> command = {"run", (folder / "batch.json").string(), "--out",
                                      (folder / "out").string(), "-q"};
  command.insert(command.end(), arguments.begin(), arguments.end());
  return RunToEnd(Executable("asg-client"), command, folder / "client.txt");
}

TEST(FarmFaults, VehicleNodesThatNeverComeEndTheBatchAfterTheReadyTimeout) {
  TempDir dir;
  Json batch = SmallBatch("nodes", testing::PlainScenarios(3));
  batch["vehicle_nodes"] = {{"count", 1}, {"ready_timeout", 1.5}};
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(RunClient(dir.path(), batch, {"--workers", "1"}), 1);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(waited, 1.5);
  EXPECT_LT(waited, 15.0) << "the client kept waiting for vehicle nodes";
  for (int number = 1; number <= 3; ++number) {
    const Json result = Result(dir.path() / "out", number);
    EXPECT_EQ(result["status"], "failed");
    EXPECT_EQ(result["error"],
              "no vehicle nodes ready within vehicle_nodes.ready_timeout 1.5 s: worker 1 (0 of 1 "
              "registered)");
  }
}

TEST(FarmFaults, WorkerKilledMidRunIsReplacedAndEveryScenarioCompletes) {
  TempDir dir;
  ASSERT_EQ(RunClient(dir.path(), SmallBatch("crash", testing::PlainScenarios(6)),
                      {"--workers", "2", "--fault-inject", "crash-on=3"}),
            0)
      << ReadText(dir.path() / "client.txt");
  const auto out = dir.path() / "out";
  for (int number = 1; number <= 6; ++number) {
    EXPECT_EQ(Result(out, number)["status"], "done") << number;
  }
  // Each death is one attempt of scenario 3, in timing.json only: both initial workers carry the
  // crash, so one or two attempts are lost before a replacement (launched without it) runs it.
  const std::vector<std::string> outcomes = AttemptOutcomes(out, 3);
  ASSERT_GE(outcomes.size(), 2u);
  EXPECT_EQ(outcomes.front(), "worker lost");
  EXPECT_EQ(outcomes.back(), "done");
  const Json first = Timing(out, 3)["attempts"][0];
  EXPECT_NE(first["detail"].get<std::string>().find("killed by signal 9"), std::string::npos)
      << first.dump();
  EXPECT_EQ(AttemptOutcomes(out, 1), std::vector<std::string>{"done"});
  EXPECT_FALSE(Result(out, 3).contains("attempts"));
  // Faults change timing.json, never result.json: a run without the crash gives the same bytes.
  const auto clean = dir.path() / "clean";
  ASSERT_EQ(RunClient(clean, SmallBatch("crash", testing::PlainScenarios(6)), {"--workers", "2"}),
            0)
      << ReadText(clean / "client.txt");
  testing::ExpectSameResults(out, clean / "out");
  const std::string log = ReadText(out / "asg_log.txt");
  EXPECT_NE(log.find("killed by signal 9 (Killed) during scenario 3"), std::string::npos) << log;
  EXPECT_NE(log.find("launched worker"), std::string::npos);
}

TEST(FarmFaults, HangingRunIsKilledAtTheWallClockCapAndFailsAfterMaxAttempts) {
  TempDir dir;
  // One attempt allowed and a 1 s cap: scenario 2 fails, the others run on a fresh worker.
  EXPECT_EQ(RunClient(dir.path(), SmallBatch("hang", testing::PlainScenarios(3), 1, 1.0),
                      {"--workers", "1", "--fault-inject", "hang-on=2"}),
            1);
  const auto out = dir.path() / "out";
  EXPECT_EQ(Result(out, 1)["status"], "done");
  EXPECT_EQ(Result(out, 2)["status"], "failed");
  EXPECT_NE(Result(out, 2)["error"].get<std::string>().find("wall-clock cap of 1 s"),
            std::string::npos)
      << Result(out, 2).dump();
  EXPECT_EQ(Result(out, 3)["status"], "done");
  EXPECT_EQ(AttemptOutcomes(out, 2), std::vector<std::string>{"timed out"});
  const Json summary = Json::parse(ReadText(out / "summary.json"));
  EXPECT_EQ(summary["status_counts"]["failed"], 1);
  EXPECT_EQ(summary["scenarios"][1]["attempts"], 1);
}

TEST(FarmFaults, MismatchedResultIsRefusedAndTheScenarioRunsAgain) {
  TempDir dir;
  ASSERT_EQ(RunClient(dir.path(), SmallBatch("mismatch", testing::PlainScenarios(3)),
                      {"--workers", "1", "--fault-inject", "mismatch-on=2"}),
            0)
      << ReadText(dir.path() / "client.txt");
  const auto out = dir.path() / "out";
  EXPECT_EQ(Result(out, 2)["status"], "done");
  // The refused reports end the first attempt when its worker is given up; the second is done.
  EXPECT_EQ(AttemptOutcomes(out, 2), (std::vector<std::string>{"refused", "done"}));
  const std::string log = ReadText(out / "asg_log.txt");
  EXPECT_NE(log.find("refused AnalyzeScenario for scenario 3 but worker 1"), std::string::npos)
      << log;
  EXPECT_NE(log.find("given up after 2 resubmissions"), std::string::npos) << log;
}

TEST(FarmFaults, AcceptedButNeverStartedScenarioIsResubmittedThenMoved) {
  TempDir dir;
  ASSERT_EQ(
      RunClient(dir.path(), SmallBatch("silent", testing::PlainScenarios(2)),
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

// Worker ids and scenario numbers beyond AutoSceneGen's uint8 and uint16 work end to end, and
// a second worker announcing an id a connected worker holds is refused, naming the id.
TEST(FarmFaults, WideIdsAndNumbersWorkAndATakenWorkerIdIsRefused) {
  TempDir dir;
  nlohmann::json scenarios = testing::PlainScenarios(30);
  scenarios[0]["scenario_number"] = 70000;
  nlohmann::json batch = SmallBatch("ids", scenarios);
  // Fine physics steps: each run lasts about 0.1 s, the batch long enough for the second worker.
  batch["defaults"]["simulation"] = {{"physics_rate", 3000.0}, {"control_rate", 20.0}};
  WriteJson(dir.path() / "batch.json", batch);
  const auto out = dir.path() / "out";
  Child client(Executable("asg-client"),
               {"run", (dir.path() / "batch.json").string(), "--out", out.string(), "--launcher",
                "none", "--listen", "127.0.0.1:0"},
               dir.path() / "client.txt");
  const std::string address = testing::ListeningEndpoint(out / "asg_log.txt");
  ASSERT_FALSE(address.empty()) << client.Output();

  // The first worker holds id 40000 until the batch ends (it runs one scenario at a time, and
  // the scenario numbered 70000 comes last).
  Child first(Executable("asg-worker"), {"--connect", address, "--id", "40000"},
              dir.path() / "first_worker.txt");
  ASSERT_TRUE(
      testing::WaitForText(out / "asg_log.txt", "worker 40000 (pid", std::chrono::seconds(10)));
  EXPECT_EQ(RunToEnd(Executable("asg-worker"), {"--connect", address, "--id", "40000"},
                     dir.path() / "second_worker.txt"),
            1);
  EXPECT_NE(ReadText(dir.path() / "second_worker.txt")
                .find("refused: worker id 40000 is taken by another connected worker"),
            std::string::npos)
      << ReadText(dir.path() / "second_worker.txt");
  EXPECT_EQ(first.Wait(std::chrono::seconds(60)), 0) << first.Output();
  EXPECT_EQ(client.Wait(std::chrono::seconds(30)), 0) << client.Output();
  EXPECT_NE(ReadText(out / "asg_log.txt").find("refused: worker id 40000 is taken"),
            std::string::npos);
  EXPECT_EQ(Result(out, 70000)["status"], "done");
  EXPECT_EQ(Result(out, 70000)["scenario_number"], 70000);
  EXPECT_EQ(testing::Timing(out, 70000)["worker_id"], 40000);
}

}  // namespace
}  // namespace asg::client::testing
