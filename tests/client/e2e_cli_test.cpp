// End-to-end tests of asg-client's command-line conventions and its checks before a run: no
// arguments, a file as --out, invalid scenarios refused (or run with --allow-invalid), `check`,
// output folders of another batch, --force, --retry failed and kept logs.
#include <gtest/gtest.h>

#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

int Client(const TempDir& dir, const std::vector<std::string>& arguments,
           const std::string& output = "client.txt") {
  return RunToEnd(Executable("asg-client"), arguments, dir.path() / output);
}

TEST(ClientCommandLine, NoArgumentsPrintsTheUsageAndExits2) {
  TempDir dir;
  EXPECT_EQ(Client(dir, {}), 2);
  const std::string output = ReadText(dir.path() / "client.txt");
  EXPECT_NE(output.find("asg-client: no command given"), std::string::npos) << output;
  EXPECT_NE(output.find("asg-client run BATCH.json --out DIR"), std::string::npos) << output;
}

TEST(ClientCommandLine, AFileAsOutputFolderExits2NamingIt) {
  TempDir dir;
  WriteJson(dir.path() / "b.json", SmallBatch("b", testing::PlainScenarios(1)));
  std::ofstream(dir.path() / "file") << "x";
  EXPECT_EQ(Client(dir, {"run", (dir.path() / "b.json").string(), "--out",
                         (dir.path() / "file").string()}),
            2);
  EXPECT_NE(ReadText(dir.path() / "client.txt")
                .find((dir.path() / "file").string() + ": exists and is not a folder"),
            std::string::npos);
  EXPECT_EQ(Client(dir, {"run", (dir.path() / "missing.json").string(), "--out",
                         (dir.path() / "out").string()}),
            2);
  EXPECT_NE(ReadText(dir.path() / "client.txt").find("missing.json"), std::string::npos);
}

// The launcher options: each wrong use exits 2 naming the option, before anything is created.
TEST(ClientCommandLine, LauncherOptionsAreCheckedBeforeAnythingRuns) {
  TempDir dir;
  WriteJson(dir.path() / "b.json", SmallBatch("b", testing::PlainScenarios(1)));
  const std::string batch = (dir.path() / "b.json").string();
  const std::string out = (dir.path() / "out").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--launcher", "ssh"}, "--launcher \"ssh\": expected local, slurm or none"},
      {{"--partition", "gpu"}, "--partition is an option of --launcher slurm"},
      {{"--sbatch-arg=--account=lab"}, "--sbatch-arg is an option of --launcher slurm"},
      {{"--cpus-per-worker", "2"}, "--cpus-per-worker is an option of --launcher slurm"},
      {{"--launcher", "slurm", "--workers", "0"}, "--launcher slurm needs --workers 1..65535"},
      {{"--launcher", "slurm", "--cpus-per-worker", "0"}, "--cpus-per-worker 0 is outside 1..1024"},
      {{"--workers", "65536"}, "--workers 65536 is outside 0..65535"},
      {{"--launcher", "none", "--listen", "0.0.0.0:0"}, "give --token (or set ASG_TOKEN)"},
      {{"--listen", "nosuch.invalid:0"},
       "--listen \"nosuch.invalid:0\": host \"nosuch.invalid\" does not resolve"},
  };
  for (const auto& [extra, message] : cases) {
    std::vector<std::string> arguments = {"run", batch, "--out", out};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    EXPECT_EQ(Client(dir, arguments), 2) << message;
    EXPECT_NE(ReadText(dir.path() / "client.txt").find(message), std::string::npos)
        << ReadText(dir.path() / "client.txt");
    EXPECT_FALSE(std::filesystem::exists(out)) << message;
  }
  EXPECT_EQ(Client(dir, {"--help"}), 0);
  for (const char* option : {"--launcher", "--partition", "--time", "--cpus-per-worker",
                             "--sbatch-arg", "SLURM_ARRAY_TASK_ID"}) {
    EXPECT_NE(ReadText(dir.path() / "client.txt").find(option), std::string::npos) << option;
  }
}

TEST(ClientCommandLine, AHostNameToListenOnIsResolved) {
  TempDir dir;
  WriteJson(dir.path() / "b.json", SmallBatch("b", testing::PlainScenarios(1)));
  EXPECT_EQ(
      Client(dir, {"run", (dir.path() / "b.json").string(), "--out", (dir.path() / "out").string(),
                   "--workers", "1", "--listen", "localhost:0"}),
      0)
      << ReadText(dir.path() / "client.txt");
  EXPECT_NE(ReadText(dir.path() / "out" / "asg_log.txt").find("listening on 127.0.0.1:"),
            std::string::npos);
  EXPECT_EQ(Result(dir.path() / "out", 1)["status"], "done");
}

TEST(ClientChecks, AnInvalidScenarioStopsTheRunBeforeAnythingRunsUnlessAllowed) {
  TempDir dir;
  Json batch = SmallBatch("typo", testing::PlainScenarios(3));
  batch["defaults"]["goal_radious"] = 4.0;
  WriteJson(dir.path() / "typo.json", batch);
  const std::string file = (dir.path() / "typo.json").string();
  EXPECT_EQ(Client(dir, {"run", file, "--out", (dir.path() / "out").string()}), 2);
  const std::string output = ReadText(dir.path() / "client.txt");
  // The typo in "defaults" is named once, with the scenarios it makes invalid.
  EXPECT_NE(output.find(file + ": defaults.goal_radious: unknown field; did you mean "
                               "\"goal_radius\"? (in all 3 scenarios)\n"),
            std::string::npos)
      << output;
  EXPECT_EQ(output.find("scenario 2"), std::string::npos) << output;
  EXPECT_NE(output.find(file + ": 3 scenarios: 0 valid, 3 invalid"), std::string::npos);
  EXPECT_NE(output.find("nothing was run"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out"));

  // check says the same and exits 2; on a valid batch it exits 0.
  EXPECT_EQ(Client(dir, {"check", file}, "check.txt"), 2);
  EXPECT_NE(ReadText(dir.path() / "check.txt").find("3 scenarios: 0 valid, 3 invalid"),
            std::string::npos);
  WriteJson(dir.path() / "ok.json", SmallBatch("ok", testing::PlainScenarios(3)));
  EXPECT_EQ(Client(dir, {"check", (dir.path() / "ok.json").string()}, "check_ok.txt"), 0);
  EXPECT_NE(ReadText(dir.path() / "check_ok.txt").find("3 scenarios: 3 valid, 0 invalid"),
            std::string::npos);

  // --allow-invalid records them as invalid and runs the rest (none here).
  EXPECT_EQ(Client(dir, {"run", file, "--out", (dir.path() / "out").string(), "--workers", "1",
                         "--allow-invalid"}),
            0);
  EXPECT_EQ(Result(dir.path() / "out", 2)["status"], "invalid");
}

TEST(ClientChecks, AScenarioAWorkerFindsInvalidFailsTheRunUnlessAllowed) {
  // A planner grid of 0.01 m cells over 40 m passes the decoders; only the worker's planner,
  // which caps its grid at 1024 cells a side, finds it invalid.
  TempDir dir;
  Json scenarios = testing::PlainScenarios(2);
  scenarios[1]["driver"] = {{"type", "planner"}, {"grid_resolution", 0.01}};
  WriteJson(dir.path() / "b.json", SmallBatch("b", scenarios));
  const std::string file = (dir.path() / "b.json").string();
  EXPECT_EQ(Client(dir, {"run", file, "--out", (dir.path() / "out").string(), "--workers", "1"}),
            1);
  EXPECT_EQ(Result(dir.path() / "out", 1)["status"], "done");
  EXPECT_EQ(Result(dir.path() / "out", 2)["status"], "invalid");
  EXPECT_NE(
      ReadText(dir.path() / "client.txt").find("1 scenarios were found invalid by the workers"),
      std::string::npos);
  EXPECT_EQ(Client(dir,
                   {"run", file, "--out", (dir.path() / "allowed").string(), "--workers", "1",
                    "--allow-invalid"},
                   "allowed.txt"),
            0);
}

TEST(ClientChecks, OutputFoldersAreNotMixedAndResumeRefusesAnotherBatch) {
  TempDir dir;
  WriteJson(dir.path() / "a.json", SmallBatch("a", testing::PlainScenarios(2)));
  Json other = SmallBatch("a", testing::PlainScenarios(2));
  other["scenarios"][1]["goal_radius"] = 6.0;
  WriteJson(dir.path() / "other.json", other);
  const std::string out = (dir.path() / "out").string();
  const std::string a = (dir.path() / "a.json").string();
  ASSERT_EQ(Client(dir, {"run", a, "--out", out, "--workers", "1"}), 0);

  // Again into the same folder: refused without --resume or --force.
  EXPECT_EQ(Client(dir, {"run", a, "--out", out, "--workers", "1"}), 2);
  EXPECT_NE(ReadText(dir.path() / "client.txt").find(out + " is not empty"), std::string::npos);
  // Another batch resumed into it: refused, naming the scenario that differs.
  EXPECT_EQ(Client(dir, {"run", (dir.path() / "other.json").string(), "--out", out, "--workers",
                         "1", "--resume"}),
            2);
  EXPECT_NE(ReadText(dir.path() / "client.txt").find("scenario 2 (scenarios[1]) differs"),
            std::string::npos)
      << ReadText(dir.path() / "client.txt");
  // The same batch resumed: nothing to run; the throughput does not count kept scenarios.
  ASSERT_EQ(Client(dir, {"run", a, "--out", out, "--workers", "1", "--resume"}), 0);
  EXPECT_NE(ReadText(dir.path() / "client.txt").find("2 scenarios (2 kept from an earlier run)"),
            std::string::npos)
      << ReadText(dir.path() / "client.txt");
  EXPECT_NE(ReadText(dir.path() / "client.txt").find(" 0.00 scenarios/s"), std::string::npos);
  // --force empties it and runs everything again.
  std::ofstream(dir.path() / "out" / "stray.txt") << "x";
  ASSERT_EQ(Client(dir, {"run", a, "--out", out, "--workers", "1", "--force"}), 0);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out" / "stray.txt"));
  EXPECT_EQ(Result(dir.path() / "out", 2)["status"], "done");
}

TEST(ClientChecks, RetryFailedRunsExactlyTheFailedScenariosAgainAndKeepsTheLogs) {
  TempDir dir;
  WriteJson(dir.path() / "b.json", SmallBatch("b", testing::PlainScenarios(3), /*max_attempts=*/1));
  const std::string b = (dir.path() / "b.json").string();
  const std::string out = (dir.path() / "out").string();
  // Scenario 2's worker kills itself; with one attempt the scenario is recorded as failed.
  EXPECT_EQ(Client(dir, {"run", b, "--out", out, "--workers", "1", "--fault-inject", "crash-on=2"}),
            1);
  EXPECT_EQ(Result(dir.path() / "out", 2)["status"], "failed");
  // The terminal says that the worker died and what became of its scenario.
  const std::string terminal = ReadText(dir.path() / "client.txt");
  EXPECT_NE(terminal.find("warning: worker 1 (pid "), std::string::npos) << terminal;
  EXPECT_NE(terminal.find("error: scenario 2 failed after 1 failed attempts"), std::string::npos)
      << terminal;
  const std::string first_result = ReadText(dir.path() / "out" / "scenario_0001" / "result.json");
  ASSERT_EQ(Client(dir, {"run", b, "--out", out, "--workers", "1", "--retry", "failed"}), 0)
      << ReadText(dir.path() / "client.txt");
  EXPECT_EQ(Result(dir.path() / "out", 2)["status"], "done");
  EXPECT_EQ(ReadText(dir.path() / "out" / "scenario_0001" / "result.json"), first_result);
  EXPECT_NE(ReadText(dir.path() / "out" / "asg_log.txt")
                .find("resume: 2 scenarios already complete, 1 to run"),
            std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "out" / "logs.1"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "out" / "logs"));
}

}  // namespace
}  // namespace asg::client::testing
