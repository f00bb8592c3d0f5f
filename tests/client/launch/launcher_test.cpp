// Tests for client/launch/launcher.h: the table of kinds, and the Slurm launcher against stand-ins
// for sbatch, squeue and scancel (shell scripts first on PATH that record what they were given).
// The launcher against a real Slurm cluster: e2e_slurm_test.cpp.
#include "client/launch/launcher.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/temp_dir.h"

namespace asg::client {
namespace {

namespace fs = std::filesystem;
using testutil::TempDir;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteScript(const fs::path& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  ::chmod(path.c_str(), 0755);
}

TEST(Launcher, TheTableKnowsLocalSlurmAndNoneAndNamesThemForAnUnknownKind) {
  EXPECT_EQ(LauncherNames(), (std::vector<std::string>{"local", "slurm", "none"}));
  TempDir dir;
  core::Logger logger(dir.path() / "log.txt", false);
  LauncherSettings settings;
  try {
    ParseLauncherKind("ssh");
    ADD_FAILURE() << "no error for an unknown launcher";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()), "unknown launcher \"ssh\" (known: local, slurm, none)");
  }
  EXPECT_EQ(ParseLauncherKind("none"), LauncherKind::kNone);
  EXPECT_EQ(LauncherKindName(LauncherKind::kSlurm), "slurm");
  settings.kind = ParseLauncherKind("none");
  const std::unique_ptr<Launcher> none = MakeLauncher(settings, &logger);
  none->Start();
  EXPECT_FALSE(none->Claim(1, 7, 100, "127.0.0.1:5000"));
  const LauncherReport report = none->Poll({});
  EXPECT_TRUE(report.gone.empty());
  EXPECT_TRUE(report.breakdown.empty());
  EXPECT_EQ(none->Status(), "");
  EXPECT_EQ(none->Stop(std::chrono::milliseconds(0)), 0u);
}

TEST(Launcher, LocalMissingExecutableIsRefusedByName) {
  TempDir dir;
  core::Logger logger(dir.path() / "log.txt", false);
  LauncherSettings settings;
  settings.worker_executable = dir.path() / "no-such-worker";
  settings.log_folder = dir.path() / "logs";
  try {
    MakeLauncher(settings, &logger);
    ADD_FAILURE() << "no error for a missing executable";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("no-such-worker"), std::string::npos);
  }
}

/// A Slurm launcher whose sbatch, squeue and scancel are stand-ins in `bin/`: sbatch records its
/// arguments and ASG_TOKEN and prints a job id, squeue prints the lines of `queue.txt`, scancel
/// records its arguments.
class SlurmLauncherTest : public ::testing::Test {
 protected:
  SlurmLauncherTest() : logger_(dir_.path() / "log.txt", false) {
    const fs::path bin = dir_.path() / "bin";
    fs::create_directories(bin);
    const std::string d = dir_.path().string();
    WriteScript(bin / "sbatch", "printf '%s\\n' \"$@\" > " + d +
                                    "/sbatch_args.$$\n"
                                    "echo \"token=$ASG_TOKEN lp=$LP_NUM_THREADS\" > " +
                                    d + "/sbatch_env.$$\ncount=$(ls " + d +
                                    "/sbatch_args.* | wc -l)\necho $((4241 + count))");
    WriteScript(bin / "squeue", "printf '%s\\n' \"$@\" > " + d + "/squeue_args\ncat " + d +
                                    "/queue.txt 2>/dev/null; exit 0");
    WriteScript(bin / "scancel", "printf '%s\\n' \"$@\" >> " + d + "/scancel_args");
    old_path_ = ::getenv("PATH");
    ::setenv("PATH", (bin.string() + ":" + old_path_).c_str(), 1);
    settings_.kind = LauncherKind::kSlurm;
    settings_.workers = 4;
    settings_.worker_executable = "/opt/asg/bin/asg-worker";
    settings_.connect = "10.0.0.5:40000";
    settings_.token = "s3cret-token";
    settings_.worker_arguments = {"--catalog", "/opt/asg/catalog's.json"};
    settings_.log_folder = dir_.path() / "logs";
    settings_.partition = "gpu";
    settings_.time_limit = "01:30:00";
    settings_.cpus_per_worker = 3;
    settings_.sbatch_arguments = {"--account=lab"};
    settings_.poll_period = std::chrono::milliseconds(20);
  }
  ~SlurmLauncherTest() override { ::setenv("PATH", old_path_.c_str(), 1); }

  void SetQueue(const std::string& lines) { std::ofstream(dir_.path() / "queue.txt") << lines; }
  /// Polls until the status shows `text` (the poll thread read the queue) or 5 s pass.
  LauncherReport PollUntil(Launcher& launcher, const std::string& text, const LauncherTick& tick) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    LauncherReport report = launcher.Poll(tick);
    while (launcher.Status().find(text) == std::string::npos &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      report = launcher.Poll(tick);
    }
    return report;
  }
  std::vector<std::string> Lines(const fs::path& path) {
    std::vector<std::string> lines;
    std::istringstream text(ReadText(path));
    for (std::string line; std::getline(text, line);) lines.push_back(line);
    return lines;
  }

  TempDir dir_;
  core::Logger logger_;
  LauncherSettings settings_;
  std::string old_path_;
};

TEST_F(SlurmLauncherTest, SubmitsOneArrayWithTheTokenInTheEnvironmentOnlyAndAPrivateScript) {
  const std::unique_ptr<Launcher> launcher = MakeLauncher(settings_, &logger_);
  launcher->Start();
  std::vector<std::string> args;
  for (const auto& entry : fs::directory_iterator(dir_.path())) {
    if (entry.path().filename().string().starts_with("sbatch_args.")) args = Lines(entry.path());
  }
  ASSERT_FALSE(args.empty());
  const fs::path script = settings_.log_folder / "slurm_workers.sh";
  EXPECT_EQ(args.front(), "--parsable");
  EXPECT_NE(std::find(args.begin(), args.end(), "--array=1-4"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "--cpus-per-task=3"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "--partition=gpu"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "--time=01:30:00"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "--export=ALL"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "--account=lab"), args.end());
  EXPECT_EQ(args.back(), script.string());
  for (const std::string& arg : args) EXPECT_EQ(arg.find("s3cret"), std::string::npos) << arg;

  // The token and the renderer's threads reach sbatch through its environment.
  bool saw_environment = false;
  for (const auto& entry : fs::directory_iterator(dir_.path())) {
    if (!entry.path().filename().string().starts_with("sbatch_env.")) continue;
    EXPECT_EQ(ReadText(entry.path()), "token=s3cret-token lp=3\n");
    saw_environment = true;
  }
  EXPECT_TRUE(saw_environment);

  struct stat info {};
  ASSERT_EQ(::stat(script.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  const std::string text = ReadText(script);
  EXPECT_EQ(text.find("s3cret"), std::string::npos) << text;
  EXPECT_NE(text.find("export LP_NUM_THREADS=3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("exec '/opt/asg/bin/asg-worker' --connect '10.0.0.5:40000' --id "
                      "\"$SLURM_ARRAY_TASK_ID\" '--catalog' '/opt/asg/catalog'\\''s.json'\n"),
            std::string::npos)
      << text;
  EXPECT_NE(ReadText(dir_.path() / "log.txt").find("submitted Slurm job 4242: array 1-4"),
            std::string::npos);
}

TEST_F(SlurmLauncherTest, ShowsTheQueueResubmitsOnlyWhenEveryTaskIsGoneAndCancelsAtTheEnd) {
  SetQueue("PENDING\nPENDING\nRUNNING\nCOMPLETING\n");
  const std::unique_ptr<Launcher> launcher = MakeLauncher(settings_, &logger_);
  launcher->Start();
  LauncherTick tick;
  tick.work_remains = true;
  tick.remaining = 3;
  tick.connected = 1;
  PollUntil(*launcher, "1 running", tick);
  EXPECT_EQ(launcher->Status(), "slurm job 4242: 1 running, 2 pending, 1 ending");
  const std::vector<std::string> squeue = Lines(dir_.path() / "squeue_args");
  ASSERT_FALSE(squeue.empty());
  EXPECT_NE(std::find(squeue.begin(), squeue.end(), "--array"), squeue.end());

  // A claimed worker is a remote process: its connection is all the farm watches.
  EXPECT_FALSE(launcher->Claim(1, 2, 1234, "10.0.0.9:5000"));
  // One lost task is not replaced; a worker given up on gives its slot back.
  launcher->End(1, 2);
  EXPECT_EQ(Lines(dir_.path() / "scancel_args"), (std::vector<std::string>{"4242_2"}));

  // The queue is empty but a worker is still connected: nothing is submitted.
  SetQueue("");
  LauncherReport report = PollUntil(*launcher, "0 running, 0 pending", tick);
  EXPECT_TRUE(report.breakdown.empty());
  EXPECT_EQ(launcher->Status(), "slurm job 4242: 0 running, 0 pending");
  // Every task gone, none connected, three scenarios left: a new array of three.
  tick.connected = 0;
  report = PollUntil(*launcher, "slurm jobs 4242, 4243", tick);
  EXPECT_TRUE(report.breakdown.empty());
  EXPECT_NE(ReadText(dir_.path() / "log.txt")
                .find("every task of Slurm job 4242 is gone and 3 scenarios remain: submitting "
                      "a new array of 3"),
            std::string::npos);
  EXPECT_NE(ReadText(dir_.path() / "log.txt").find("submitted Slurm job 4243: array 1-3"),
            std::string::npos);

  // Stop cancels every array of the run by its job name.
  SetQueue("PENDING\n");
  launcher->Stop(std::chrono::milliseconds(0));
  const std::vector<std::string> scancel = Lines(dir_.path() / "scancel_args");
  ASSERT_EQ(scancel.size(), 2u);
  EXPECT_TRUE(scancel[1].starts_with("--name=asg-workers-")) << scancel[1];
  EXPECT_NE(ReadText(dir_.path() / "log.txt").find("scancel of Slurm job 4242, 4243"),
            std::string::npos);
}

TEST_F(SlurmLauncherTest, ArraysThatNeverRegisterAWorkerBreakTheFarmDown) {
  SetQueue("");
  const std::unique_ptr<Launcher> launcher = MakeLauncher(settings_, &logger_);
  launcher->Start();
  LauncherTick tick;
  tick.work_remains = true;
  tick.remaining = 10;
  std::string breakdown;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (breakdown.empty() && std::chrono::steady_clock::now() < deadline) {
    breakdown = launcher->Poll(tick).breakdown;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_NE(breakdown.find("3 Slurm arrays in a row ended without a worker registering"),
            std::string::npos)
      << breakdown;
  EXPECT_NE(launcher->Status().find("slurm jobs 4242, 4243, 4244"), std::string::npos)
      << launcher->Status();
}

TEST_F(SlurmLauncherTest, TheDestructorCancelsWhatAFailedClientLeftQueued) {
  SetQueue("PENDING\n");
  {
    const std::unique_ptr<Launcher> launcher = MakeLauncher(settings_, &logger_);
    launcher->Start();
  }
  const std::vector<std::string> scancel = Lines(dir_.path() / "scancel_args");
  ASSERT_EQ(scancel.size(), 1u);
  EXPECT_TRUE(scancel[0].starts_with("--name=asg-workers-"));
}

TEST_F(SlurmLauncherTest, ARefusedSubmissionNamesSbatchAndItsError) {
  WriteScript(dir_.path() / "bin" / "sbatch",
              "echo 'sbatch: error: invalid partition' >&2\nexit 1");
  const std::unique_ptr<Launcher> launcher = MakeLauncher(settings_, &logger_);
  try {
    launcher->Start();
    ADD_FAILURE() << "no error for a refused submission";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()),
              "sbatch refused the worker array (exit 1): sbatch: error: invalid partition");
  }
}

}  // namespace
}  // namespace asg::client
