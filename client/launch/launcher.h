// Where a farm's workers come from. A Launcher starts them, claims the registered connections of
// the processes it watches, tells the farm loop which of its workers are gone, ends a worker the
// loop gives up on, and stops them all when the batch ends (or the client is interrupted or
// fails: the destructor stops what is left).
//
// Kinds, one file each:
//   local  processes on this machine, relaunched when they die       (launcher_local.cpp)
//   slurm  one Slurm job array whose tasks connect back               (launcher_slurm.cpp)
//   none   nothing is launched; workers started by other means connect (launcher_none.cpp)
// A new kind (ssh, a Kubernetes Job) is one new file defining its class and factory, and its
// line in the table of launcher.cpp. Not thread-safe: the farm loop calls every method.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/launch/worker_key.h"
#include "core/log.h"

namespace asg::client {

/// Where workers come from: `asg-client run --launcher KIND`.
enum class LauncherKind : uint8_t {
  kLocal,  ///< "local": processes on this machine (the default)
  kSlurm,  ///< "slurm": one Slurm job array
  kNone,   ///< "none": nothing is launched
};

/// The name of a kind on the command line: "local", "slurm" or "none".
std::string_view LauncherKindName(LauncherKind kind);

/// The kind named `name`; throws std::invalid_argument naming it and the known kinds, e.g.
/// `unknown launcher "ssh" (known: local, slurm, none)`.
LauncherKind ParseLauncherKind(std::string_view name);

/// How workers are launched: `asg-client run --launcher KIND` and the options of each kind.
struct LauncherSettings {
  LauncherKind kind = LauncherKind::kLocal;  ///< where the workers come from
  uint32_t workers = 1;  ///< workers to start (local: processes; slurm: array tasks)
  std::filesystem::path worker_executable;          ///< asg-worker
  std::string connect;                              ///< "HOST:PORT" workers connect to
  std::string token;                                ///< given to workers as ASG_TOKEN
  std::vector<std::string> worker_arguments;        ///< appended to every worker's command
  std::vector<std::string> first_launch_arguments;  ///< local: appended to the first launches
  std::filesystem::path log_folder;                 ///< workers' output files go here
  // Slurm.
  std::string partition;                        ///< --partition; empty: the cluster's default
  std::string time_limit;                       ///< --time HH:MM:SS; empty: the partition's
  uint32_t cpus_per_worker = 1;                 ///< --cpus-per-task, and LP_NUM_THREADS
  std::vector<std::string> sbatch_arguments;    ///< passed to sbatch as they are
  std::chrono::milliseconds poll_period{2000};  ///< [ms] between squeue polls
};

/// A worker of the launcher that is gone (its process ended, its task left the queue).
struct WorkerGone {
  uint16_t worker_id = 0;
  std::optional<WorkerKey> key;  ///< the connection it registered, when it was claimed
  std::string description;       ///< e.g. "worker 3 (pid 812) exited with code 1"
};

/// What a launcher tells the farm loop on every tick.
struct LauncherReport {
  std::vector<WorkerGone> gone;   ///< its workers gone since the last tick
  std::vector<uint16_t> started;  ///< ids of the workers it started since (vehicle nodes may
                                  ///< register for them before they connect)
  std::string breakdown;          ///< set when the farm cannot go on, e.g. workers that keep
                                  ///< dying before they register
};

/// What the farm loop tells its launcher on every tick.
struct LauncherTick {
  SteadyClock::time_point now;
  bool work_remains = true;  ///< scenarios remain to run and the batch is not interrupted
  size_t connected = 0;      ///< registered worker connections still open
  size_t remaining = 0;      ///< scenarios queued or running
};

/// Starts and stops the workers of one farm run.
class Launcher {
 public:
  virtual ~Launcher() = default;

  /// Starts the first workers; throws std::runtime_error when it cannot (a missing
  /// executable, a refused submission).
  virtual void Start() = 0;

  /// A worker registered on connection `key`; returns true when this launcher watches its
  /// process, so that a closed connection waits for the process to end (Poll reports it) and
  /// End(key) ends the process.
  virtual bool Claim(WorkerKey key, uint16_t worker_id, int64_t pid, const std::string& peer) = 0;

  /// Ends worker `worker_id` (connection `key`), which the loop gave up on or whose connection
  /// closed while its process lives on; a worker the launcher does not know is ignored.
  virtual void End(WorkerKey key, uint16_t worker_id) = 0;

  /// Workers of this launcher gone and started since the last call; starts new ones as the
  /// kind does (only while tick.work_remains).
  virtual LauncherReport Poll(const LauncherTick& tick) = 0;

  /// The workers' state for the progress line, e.g. "slurm job 42: 3 running, 1 pending"; ""
  /// when there is nothing to say.
  virtual std::string Status() const = 0;

  /// Stops every worker still running, giving them `grace` to exit after their connections
  /// closed; returns how many had to be killed or cancelled.
  virtual size_t Stop(std::chrono::milliseconds grace) = 0;
};

/// The kinds MakeLauncher knows, in the order of the table.
std::vector<std::string> LauncherNames();

/// A launcher of `settings.kind`. `logger` must outlive it.
std::unique_ptr<Launcher> MakeLauncher(const LauncherSettings& settings, core::Logger* logger);

// The factories of the table, each defined in its kind's file.
std::unique_ptr<Launcher> MakeLocalLauncher(const LauncherSettings& settings, core::Logger* logger);
std::unique_ptr<Launcher> MakeSlurmLauncher(const LauncherSettings& settings, core::Logger* logger);
std::unique_ptr<Launcher> MakeNoLauncher(const LauncherSettings& settings, core::Logger* logger);

}  // namespace asg::client
