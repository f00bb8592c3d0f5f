// Local asg-worker processes: launch, watch for exits, kill, and stop them all at the end.
//
// Each process is launched with Boost.Process in its own process group (so a Ctrl-C at the
// terminal reaches the client alone, which then stops the workers in order), with its output
// appended to a log file of its own, and with the token in the environment (ASG_TOKEN) rather
// than on the command line. Not thread-safe: one owner (the farm loop) calls every method.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace asg::client {

/// How local workers are started.
struct WorkerLaunchSettings {
  std::filesystem::path executable;          ///< the asg-worker executable
  std::string connect;                       ///< "HOST:PORT" the workers connect to
  std::string token;                         ///< passed as ASG_TOKEN; empty passes none
  std::vector<std::string> extra_arguments;  ///< appended to every command line
  std::filesystem::path log_folder;          ///< each launch writes worker_<id>.<launch>.txt here
};

/// A worker process that has ended.
struct ExitedWorker {
  uint16_t worker_id = 0;
  int64_t pid = 0;
  std::string description;  ///< e.g. "exited with code 1" or "killed by signal 9 (Killed)"
};

/// The local worker processes of one farm run.
class WorkerPool {
 public:
  /// Checks that the executable exists; throws std::runtime_error naming it otherwise.
  explicit WorkerPool(WorkerLaunchSettings settings);
  /// Kills every process still running.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Starts a worker with --id worker_id and the settings' arguments followed by
  /// `extra_arguments`, and returns its pid; throws std::runtime_error when the process cannot
  /// be started.
  int64_t Launch(uint16_t worker_id, const std::vector<std::string>& extra_arguments);

  /// Collects the processes that have exited since the last call.
  std::vector<ExitedWorker> Reap();

  /// Sends SIGKILL to a running worker; a pid not in the pool is ignored.
  void Kill(int64_t pid);

  /// Waits up to `grace` for every process to exit by itself, then kills the rest; returns the
  /// number killed.
  size_t StopAll(std::chrono::milliseconds grace);

  /// Processes running or not yet reaped.
  size_t size() const { return processes_.size(); }
  /// Whether pid is a process of this pool not yet reaped.
  bool Owns(int64_t pid) const { return processes_.contains(pid); }
  /// Every launch so far.
  uint64_t launches() const { return launches_; }

 private:
  struct Process;
  WorkerLaunchSettings settings_;
  std::map<int64_t, std::unique_ptr<Process>> processes_;
  uint64_t launches_ = 0;
};

}  // namespace asg::client
