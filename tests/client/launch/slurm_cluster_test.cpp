// Tests for tests/client/launch/slurm_cluster.h: a real one-node Slurm cluster runs job arrays with
// the submitter's environment, scancel removes one task and then a whole array, and no daemon or
// job step outlives the cluster.
#include "tests/client/launch/slurm_cluster.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "tests/temp_dir.h"

namespace asg::client::testing {
namespace {

/// Polls `done` every 100 ms; false when it still does not hold after `timeout`.
bool Eventually(const std::function<bool()>& done,
                std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return true;
}

/// The whole content of a file, or "" when it cannot be read.
std::string ReadFile(const std::filesystem::path& file) {
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// The job id sbatch --parsable printed ("12" or "12;cluster").
std::string JobId(const SlurmCommandOutput& sbatch) {
  return sbatch.out.substr(0, sbatch.out.find_first_of(";\n"));
}

/// Whether `jobs` (SlurmCluster::Jobs()) lists the array task `task` (e.g. "12_3").
bool Lists(const std::vector<std::string>& jobs, const std::string& task) {
  return std::any_of(jobs.begin(), jobs.end(),
                     [&](const std::string& job) { return job.rfind(task + " ", 0) == 0; });
}

/// Submits a three-task array of `sleep 300` to `cluster` and returns its job id once squeue
/// lists all three tasks; "" when sbatch fails.
std::string SubmitSleepers(SlurmCluster& cluster) {
  const SlurmCommandOutput sbatch = cluster.Run(
      {"sbatch", "--parsable", "--array=1-3", "--output=/dev/null", "--wrap=sleep 300"});
  EXPECT_EQ(sbatch.exit_code, 0) << sbatch.err;
  const std::string id = JobId(sbatch);
  if (sbatch.exit_code != 0 || id.empty()) return "";
  EXPECT_TRUE(Eventually([&] { return cluster.Jobs().size() == 3; }))
      << "squeue never listed three tasks";
  return id;
}

TEST(SlurmClusterTest, RunsJobArray) {
  testutil::TempDir temp;
  SlurmCluster cluster(temp.path());
  if (!cluster.started()) GTEST_SKIP() << "no Slurm cluster: " << cluster.why_not();
  const std::filesystem::path script = temp.path() / "script.sh";
  std::ofstream(script) << "#!/bin/sh\n"
                           "echo \"$SLURM_ARRAY_TASK_ID $ASG_SLURM_TEST_VALUE\" > "
                           "\"$ASG_SLURM_TEST_OUT/task_$SLURM_ARRAY_TASK_ID.tmp\"\n"
                           "mv \"$ASG_SLURM_TEST_OUT/task_$SLURM_ARRAY_TASK_ID.tmp\" "
                           "\"$ASG_SLURM_TEST_OUT/task_$SLURM_ARRAY_TASK_ID.txt\"\n";
  // sbatch passes its whole environment (--export=ALL) on to the tasks.
  const SlurmCommandOutput sbatch =
      cluster.Run({"sbatch", "--parsable", "--array=1-3", "--output=slurm-%A_%a.out", "script.sh"},
                  {{"ASG_SLURM_TEST_VALUE", "from-the-submitter"},
                   {"ASG_SLURM_TEST_OUT", temp.path().string()}});
  ASSERT_EQ(sbatch.exit_code, 0) << sbatch.err;
  EXPECT_FALSE(JobId(sbatch).empty()) << sbatch.out;

  const auto task_file = [&](int task) {
    return temp.path() / ("task_" + std::to_string(task) + ".txt");
  };
  ASSERT_TRUE(Eventually([&] {
    return std::filesystem::exists(task_file(1)) && std::filesystem::exists(task_file(2)) &&
           std::filesystem::exists(task_file(3));
  })) << "not every task wrote its file; squeue: "
      << cluster.Run({"squeue"}).out;
  for (int task = 1; task <= 3; ++task) {
    EXPECT_EQ(ReadFile(task_file(task)), std::to_string(task) + " from-the-submitter\n");
  }
  EXPECT_TRUE(Eventually([&] { return cluster.Jobs().empty(); })) << "the array never ended";
}

TEST(SlurmClusterTest, CancelsTasks) {
  testutil::TempDir temp;
  SlurmCluster cluster(temp.path());
  if (!cluster.started()) GTEST_SKIP() << "no Slurm cluster: " << cluster.why_not();
  const std::string id = SubmitSleepers(cluster);
  ASSERT_FALSE(id.empty());

  const SlurmCommandOutput cancel_one = cluster.Run({"scancel", id + "_2"});
  EXPECT_EQ(cancel_one.exit_code, 0) << cancel_one.err;
  EXPECT_TRUE(Eventually([&] { return !Lists(cluster.Jobs(), id + "_2"); }))
      << "task 2 is still listed";
  const std::vector<std::string> jobs = cluster.Jobs();
  EXPECT_EQ(jobs.size(), 2u);
  EXPECT_TRUE(Lists(jobs, id + "_1"));
  EXPECT_TRUE(Lists(jobs, id + "_3"));

  const SlurmCommandOutput cancel_all = cluster.Run({"scancel", id});
  EXPECT_EQ(cancel_all.exit_code, 0) << cancel_all.err;
  EXPECT_TRUE(Eventually([&] { return cluster.Jobs().empty(); }));
  const SlurmCommandOutput squeue = cluster.Run({"squeue", "-h"});
  EXPECT_EQ(squeue.exit_code, 0) << squeue.err;
  EXPECT_EQ(squeue.out, "");
}

TEST(SlurmClusterTest, StopsDaemons) {
  testutil::TempDir temp;
  std::vector<int> running;
  {
    SlurmCluster cluster(temp.path());
    if (!cluster.started()) GTEST_SKIP() << "no Slurm cluster: " << cluster.why_not();
    // Running tasks add slurmstepd processes, which are no children of slurmd.
    ASSERT_FALSE(SubmitSleepers(cluster).empty());
    // munged, slurmctld, slurmscriptd, slurmd, and a slurmstepd and a shell per running task:
    // a job shows RUNNING before its slurmstepd and shell exist, so wait for the count itself.
    EXPECT_TRUE(Eventually([&] {
      running = SlurmCluster::ProcessesUsing(temp.path());
      return running.size() >= 6u;
    })) << running.size()
        << " processes";
  }
  EXPECT_EQ(SlurmCluster::ProcessesUsing(temp.path()), std::vector<int>());
}

}  // namespace
}  // namespace asg::client::testing
