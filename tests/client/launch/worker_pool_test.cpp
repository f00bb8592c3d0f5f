// Tests for client/launch/worker_pool.h.
#include "client/launch/worker_pool.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/temp_dir.h"

namespace asg::client {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;
using testutil::TempDir;

/// Writes an executable shell script standing in for asg-worker.
fs::path Script(const TempDir& dir, const std::string& name, const std::string& body) {
  const fs::path path = dir.path() / name;
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

std::string ReadText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Reaps until `count` processes have ended or 10 s pass.
std::vector<ExitedWorker> ReapAll(WorkerPool& pool, size_t count) {
  std::vector<ExitedWorker> exited;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (exited.size() < count && std::chrono::steady_clock::now() < deadline) {
    for (ExitedWorker& worker : pool.Reap()) exited.push_back(std::move(worker));
    std::this_thread::sleep_for(milliseconds(10));
  }
  return exited;
}

TEST(WorkerPool, MissingExecutableIsRefusedByName) {
  TempDir dir;
  try {
    WorkerPool pool({dir.path() / "no-such-worker", "127.0.0.1:1", "", {}, dir.path() / "logs"});
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("no-such-worker does not exist"), std::string::npos)
        << error.what();
  }
}

TEST(WorkerPool, LaunchPassesArgumentsAndTokenAndLogsOutputPerLaunch) {
  TempDir dir;
  const fs::path exe =
      Script(dir, "worker.sh", "echo \"args: $*\"\necho \"token: $ASG_TOKEN\"\nexit 3");
  WorkerPool pool({exe, "127.0.0.1:4000", "secret", {"--quiet"}, dir.path() / "logs"});
  const int64_t pid = pool.Launch(2, {"--fault-inject", "crash-on=1"});
  EXPECT_TRUE(pool.Owns(pid));
  const std::vector<ExitedWorker> exited = ReapAll(pool, 1);
  ASSERT_EQ(exited.size(), 1u);
  EXPECT_EQ(exited[0].worker_id, 2u);
  EXPECT_EQ(exited[0].pid, pid);
  EXPECT_EQ(exited[0].description, "exited with code 3");
  EXPECT_FALSE(pool.Owns(pid));
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_EQ(ReadText(dir.path() / "logs" / "worker_2.1.txt"),
            "args: --connect 127.0.0.1:4000 --id 2 --quiet --fault-inject crash-on=1\n"
            "token: secret\n");
  pool.Launch(2, {});
  EXPECT_EQ(pool.launches(), 2u);
  ASSERT_EQ(ReapAll(pool, 1).size(), 1u);
  EXPECT_TRUE(fs::exists(dir.path() / "logs" / "worker_2.2.txt"));
}

TEST(WorkerPool, ALinkInPlaceOfTheLogIsNotFollowed) {
  TempDir dir;
  const fs::path exe = Script(dir, "worker.sh", "echo written");
  WorkerPool pool({exe, "127.0.0.1:4000", "", {}, dir.path() / "logs"});
  const fs::path outside = dir.path() / "outside.txt";
  std::ofstream(outside) << "kept\n";
  fs::create_symlink(outside, dir.path() / "logs" / "worker_1.1.txt");
  try {
    pool.Launch(1, {});
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("worker_1.1.txt"), std::string::npos) << error.what();
  }
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_EQ(ReadText(outside), "kept\n");
}

TEST(WorkerPool, KilledProcessIsReapedAsKilledBySignal9) {
  TempDir dir;
  const fs::path exe = Script(dir, "sleeper.sh", "exec sleep 30");
  WorkerPool pool({exe, "127.0.0.1:1", "", {}, dir.path() / "logs"});
  const int64_t pid = pool.Launch(1, {});
  EXPECT_TRUE(pool.Reap().empty());  // still running
  pool.Kill(pid);
  pool.Kill(pid + 100000);  // not in the pool: ignored
  const std::vector<ExitedWorker> exited = ReapAll(pool, 1);
  ASSERT_EQ(exited.size(), 1u);
  EXPECT_EQ(exited[0].description.rfind("killed by signal 9", 0), 0u) << exited[0].description;
}

TEST(WorkerPool, StopAllWaitsForProcessesThatExitAndKillsTheRest) {
  TempDir dir;
  const fs::path quick = Script(dir, "quick.sh", "exit 0");
  WorkerPool quick_pool({quick, "127.0.0.1:1", "", {}, dir.path() / "logs"});
  quick_pool.Launch(1, {});
  EXPECT_EQ(quick_pool.StopAll(milliseconds(5000)), 0u);
  EXPECT_EQ(quick_pool.size(), 0u);

  const fs::path sleeper = Script(dir, "sleeper.sh", "exec sleep 30");
  WorkerPool pool({sleeper, "127.0.0.1:1", "", {}, dir.path() / "logs"});
  pool.Launch(1, {});
  pool.Launch(2, {});
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(pool.StopAll(milliseconds(200)), 2u);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
  EXPECT_EQ(pool.size(), 0u);
}

}  // namespace
}  // namespace asg::client
