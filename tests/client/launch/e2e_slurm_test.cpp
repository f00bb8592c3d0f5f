// End-to-end tests of `asg-client run --launcher slurm` against a real one-node Slurm cluster
// (tests/client/launch/slurm_cluster.h: munged, slurmctld and slurmd as children of the test): a
// 200-scenario batch on a four-task array gives the bytes of a local run even when one task is
// cancelled mid-batch; Ctrl-C cancels the array and --resume finishes the batch.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>

#include "tests/client/e2e_test.h"
#include "tests/client/launch/slurm_cluster.h"

namespace asg::client::testing {
namespace {

constexpr int kScenarios = 200;

/// Scenario folders in `out` holding a result.json.
int Finished(const fs::path& out) {
  int count = 0;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(out, error)) {
    count += entry.path().filename().string().starts_with("scenario_") &&
             fs::exists(entry.path() / "result.json");
  }
  return count;
}

/// The id of the first array the client submitted, from its log; "" when none yet.
std::string JobId(const fs::path& out) {
  const std::string log = ReadText(out / "asg_log.txt");
  const std::string marker = "submitted Slurm job ";
  const size_t at = log.find(marker);
  if (at == std::string::npos) return "";
  const size_t begin = at + marker.size();
  return log.substr(begin, log.find(':', begin) - begin);
}

/// Polls `done` every 50 ms for at most `timeout`.
template <class F>
bool Eventually(F done, std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

/// A cluster of four CPUs (one per task) whose slurm.conf the client and its sbatch, squeue
/// and scancel use (SLURM_CONF), with the batch and a local run of it to compare with.
class SlurmFarmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The cluster's folder holds Unix sockets: its path must be short.
    char folder[] = "/tmp/asg-slurm-XXXXXX";
    ASSERT_NE(::mkdtemp(folder), nullptr);
    cluster_folder_ = folder;
    cluster_ = std::make_unique<SlurmCluster>(cluster_folder_, 4);
    if (!cluster_->started()) {
      GTEST_SKIP() << "a one-node Slurm cluster cannot start here: " << cluster_->why_not();
    }
    ::setenv("SLURM_CONF", cluster_->conf().c_str(), 1);
    // Fine physics steps make a run last tens of milliseconds, so that a task can be cancelled
    // and the client interrupted mid-batch.
    nlohmann::json batch = SmallBatch("slurm", testing::PlainScenarios(kScenarios));
    batch["defaults"]["simulation"] = {{"physics_rate", 3000.0}, {"control_rate", 20.0}};
    WriteJson(batch_, batch);
  }
  void TearDown() override {
    ::unsetenv("SLURM_CONF");
    cluster_.reset();
    std::error_code ignored;
    if (!cluster_folder_.empty()) fs::remove_all(cluster_folder_, ignored);
  }

  /// The batch run by two local workers: the bytes a Slurm run must give.
  fs::path LocalRun() {
    const fs::path out = dir_.path() / "local";
    EXPECT_EQ(RunToEnd(Executable("asg-client"),
                       {"run", batch_.string(), "--out", out.string(), "--workers", "2", "--quiet"},
                       dir_.path() / "local.txt", std::chrono::seconds(120)),
              0)
        << ReadText(dir_.path() / "local.txt");
    return out;
  }

  std::vector<std::string> SlurmArguments(const fs::path& out) const {
    return {"run", batch_.string(), "--out", out.string(), "--launcher", "slurm", "--workers", "4"};
  }

  TempDir dir_;
  fs::path batch_ = dir_.path() / "batch.json";
  fs::path cluster_folder_;
  std::unique_ptr<SlurmCluster> cluster_;
};

TEST_F(SlurmFarmTest, FourTaskArrayGivesTheBytesOfALocalRunEvenWithATaskCancelled) {
  const fs::path out = dir_.path() / "slurm_out";
  Child client(Executable("asg-client"), SlurmArguments(out), dir_.path() / "client.txt");
  ASSERT_TRUE(Eventually([&] { return !JobId(out).empty(); }, std::chrono::seconds(30)))
      << client.Output();
  const std::string job = JobId(out);
  // Every task registers; then one is cancelled mid-batch.
  ASSERT_TRUE(Eventually(
      [&] {
        const std::string log = ReadText(out / "asg_log.txt");
        for (int id = 1; id <= 4; ++id) {
          if (log.find("worker " + std::to_string(id) + " (pid") == std::string::npos) return false;
        }
        return true;
      },
      std::chrono::seconds(60)))
      << ReadText(out / "asg_log.txt");
  ASSERT_TRUE(Eventually([&] { return Finished(out) >= 20; }, std::chrono::seconds(60)));
  ASSERT_LT(Finished(out), kScenarios) << "the batch ended before a task could be cancelled";
  const testing::SlurmCommandOutput scancel = cluster_->Run({"scancel", job + "_2"});
  EXPECT_EQ(scancel.exit_code, 0) << scancel.err;

  EXPECT_EQ(client.Wait(std::chrono::seconds(240)), 0) << client.Output();
  // The progress line shows the array's tasks (from squeue).
  EXPECT_NE(client.Output().find("| slurm job " + job + ": "), std::string::npos)
      << client.Output();
  const std::string log = ReadText(out / "asg_log.txt");
  EXPECT_NE(log.find("connection to worker 2 (pid"), std::string::npos) << log;
  EXPECT_NE(log.find("scancel of Slurm job " + job), std::string::npos) << log;
  EXPECT_EQ(log.find("submitting a new array"), std::string::npos) << log;
  // The job script is the user's alone and holds no token.
  struct stat info {};
  ASSERT_EQ(::stat((out / "logs" / "slurm_workers.sh").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  EXPECT_EQ(ReadText(out / "logs" / "slurm_workers.sh").find("ASG_TOKEN="), std::string::npos);

  const nlohmann::json summary = nlohmann::json::parse(ReadText(out / "summary.json"));
  EXPECT_EQ(summary["status_counts"]["done"], kScenarios) << summary.dump();
  testing::ExpectSameResults(out, LocalRun());
  // Nothing of the run is left in the queue.
  EXPECT_TRUE(Eventually([&] { return cluster_->Jobs().empty(); }, std::chrono::seconds(20)));
}

TEST_F(SlurmFarmTest, CtrlCCancelsTheArrayAndResumeFinishesTheBatch) {
  const fs::path out = dir_.path() / "slurm_out";
  Child client(Executable("asg-client"), SlurmArguments(out), dir_.path() / "client.txt");
  ASSERT_TRUE(Eventually([&] { return Finished(out) >= 10; }, std::chrono::seconds(90)))
      << client.Output();
  client.Signal(SIGINT);
  EXPECT_EQ(client.Wait(std::chrono::seconds(60)), 130) << client.Output();
  EXPECT_NE(ReadText(out / "asg_log.txt").find("scancel of Slurm job " + JobId(out)),
            std::string::npos);
  EXPECT_TRUE(Eventually([&] { return cluster_->Jobs().empty(); }, std::chrono::seconds(20)))
      << "left in the queue: " << cluster_->Jobs().size() << " tasks";

  std::vector<std::string> resume = SlurmArguments(out);
  resume.push_back("--resume");
  EXPECT_EQ(RunToEnd(Executable("asg-client"), resume, dir_.path() / "resume.txt",
                     std::chrono::seconds(240)),
            0)
      << ReadText(dir_.path() / "resume.txt");
  EXPECT_NE(ReadText(out / "asg_log.txt").find("resume: "), std::string::npos);
  testing::ExpectSameResults(out, LocalRun());
  EXPECT_TRUE(Eventually([&] { return cluster_->Jobs().empty(); }, std::chrono::seconds(20)));
}

}  // namespace
}  // namespace asg::client::testing
