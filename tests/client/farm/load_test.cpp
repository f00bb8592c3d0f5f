// Load test of asg-client (client/farm/farm.h, --launcher none): 100 fake worker connections
// (experiments/client/fake_workers.cpp, one process speaking the farm protocol as asg-worker
// does and answering at once) through a real client, 2,000 scenarios.
#include <gtest/gtest.h>

#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

constexpr int kWorkers = 100;
constexpr int kScenarios = 2000;

/// `count` generated scenarios of a flat landscape without actors: the fake workers simulate
/// nothing, the content only has to be valid.
Json LoadBatch(int count) {
  return {{"name", "load"},
          {"seed", 11},
          {"max_attempts", 3},
          {"scenario_timeout_s", 60},
          {"defaults",
           {{"sim_timeout_period", 20},
            {"vehicle_start_location", {{"x", 10}, {"y", 10}, {"z", 0}}},
            {"vehicle_start_yaw", 45},
            {"vehicle_goal_location", {{"x", 50}, {"y", 50}, {"z", 0}}},
            {"goal_radius", 5},
            {"driver", {{"type", "straight"}, {"speed", 5}}}}},
          {"generate", {{"count", count}}}};
}

/// Lines of `text` that contain `needle`.
size_t CountLines(const std::string& text, const std::string& needle) {
  size_t count = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    count += line.find(needle) != std::string::npos ? 1 : 0;
  }
  return count;
}

TEST(ClientLoad, HundredFakeWorkersServeTwoThousandScenariosIntoCompleteFolders) {
  TempDir dir;
  testing::WriteJson(dir.path() / "batch.json", LoadBatch(kScenarios));
  const auto out = dir.path() / "out";
  const auto started = std::chrono::steady_clock::now();
  Child client(Executable("asg-client"),
               {"run", (dir.path() / "batch.json").string(), "--out", out.string(), "--launcher",
                "none", "--listen", "127.0.0.1:0", "--token", "load-test", "--quiet"},
               dir.path() / "client.txt");
  const std::string address = testing::ListeningEndpoint(out / "asg_log.txt");
  ASSERT_FALSE(address.empty()) << client.Output();

  const int fake_exit = testing::RunToEnd(
      Executable("fake_workers"),
      {"--connect", address, "--workers", std::to_string(kWorkers), "--token", "load-test"},
      dir.path() / "fake_workers.txt", std::chrono::seconds(60));
  const std::string fake_output = ReadText(dir.path() / "fake_workers.txt");
  ASSERT_EQ(fake_exit, 0) << fake_output;
  ASSERT_EQ(client.Wait(std::chrono::seconds(60)), 0) << client.Output();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  // The fake workers' own count: every connection made and registered, every report accepted.
  const Json fake = Json::parse(fake_output.substr(fake_output.rfind('{')));
  EXPECT_EQ(fake["connections"], kWorkers) << fake_output;
  EXPECT_EQ(fake["registered"], kWorkers) << fake_output;
  EXPECT_EQ(fake["scenarios_answered"], kScenarios) << fake_output;
  EXPECT_EQ(fake["results_refused"], 0) << fake_output;

  const Json summary = Json::parse(ReadText(out / "summary.json"));
  EXPECT_EQ(summary["total"], kScenarios);
  EXPECT_EQ(summary["status_counts"]["done"], kScenarios);
  EXPECT_EQ(summary["status_counts"]["failed"], 0);

  // Every worker registered once; no connection dropped, lost or silent, nothing refused.
  const std::string log = ReadText(out / "asg_log.txt");
  EXPECT_EQ(CountLines(log, " connected from "), static_cast<size_t>(kWorkers));
  EXPECT_EQ(CountLines(log, "[WARNING]"), 0u) << log.substr(0, 4000);
  EXPECT_EQ(CountLines(log, "[ERROR]"), 0u);
  EXPECT_EQ(CountLines(log, "dropping"), 0u);
  EXPECT_EQ(CountLines(log, "closed"), 0u);
  EXPECT_EQ(CountLines(log, " done on worker "), static_cast<size_t>(kScenarios));

  // Every folder complete: its four files, the result done under its own number, one attempt by
  // one of the fake workers, and the ten samples of the fake trajectory.
  size_t complete = 0;
  for (int number = 1; number <= kScenarios; ++number) {
    char name[32];
    std::snprintf(name, sizeof name, "scenario_%04d", number);
    const auto folder = out / name;
    const Json result = testing::Result(out, number);
    const Json timing = testing::Timing(out, number);
    const std::string request = ReadText(folder / "request.json");
    const std::string trajectory = ReadText(folder / "trajectory.csv");
    const bool ok = result["status"] == "done" && result["scenario_number"] == number &&
                    result["termination_reason_name"] == "REASON_SUCCESS" &&
                    timing["attempts"].size() == 1 && timing["worker_id"] >= 1 &&
                    timing["worker_id"] <= kWorkers && !request.empty() &&
                    std::count(trajectory.begin(), trajectory.end(), '\n') == 11;
    EXPECT_TRUE(ok) << name << ": " << result.dump() << " " << timing.dump();
    complete += ok ? 1 : 0;
  }
  EXPECT_EQ(complete, static_cast<size_t>(kScenarios));
  // A few seconds on two cores; the bound only catches a client gone quadratic.
  EXPECT_LT(seconds, 30.0);
}

}  // namespace
}  // namespace asg::client::testing
