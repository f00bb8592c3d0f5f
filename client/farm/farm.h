// The farm: runs a batch on a pool of workers and writes one result folder per scenario plus a
// summary. The entry point of `asg-client run` (composed there with a search's feed) and of
// `asg-client replay`.
//
// RunFarm runs in stages (farm.cpp): prepare (output folder, log, the scenarios kept from an
// earlier run, recorded invalid or queued), listen (workers, vehicle nodes, a generator;
// signals), launch (the feed's first scenarios, the workers), loop (farm_loop.h: hands scenarios
// out in ascending number order, survives workers that crash, hang or misbehave, see
// scheduler.h, writes every result as it arrives), reproduce (farm_reproduce.cpp: once the batch's
// scenarios are done, each distinct failure's representative runs again failures.reproduce times
// in the same loop: client/failures/reproduction.h) and finish (farm_finish.cpp: tear down, the
// distinct failures (failures.csv, failures.json and the failing scenarios' failure_id, from the
// folders: client/failures/batch_failures.h), the summary, JUnit, the HTML report, the outcome
// table, the exit code). SIGINT/SIGTERM stop it
// gracefully: no new scenarios are handed out, runs in flight are abandoned, results already
// received are written, the summary is written and the workers are stopped.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "client/batch/batch.h"
#include "client/farm/scenario_feed.h"
#include "client/launch/launcher.h"
#include "protocol/connection.h"

namespace asg::client {

/// Exit codes of asg-client.
inline constexpr int kExitCompleted = 0;   ///< every scenario done or invalid, as recorded
inline constexpr int kExitSomeFailed = 1;  ///< some scenario failed, or the farm broke down
inline constexpr int kExitUsage = 2;       ///< usage or batch-file error; nothing ran
/// A scenario folder, the summary or the JUnit report could not be written (a full disk): no
/// more scenarios were handed out; the folders on disk are whole, --resume runs the rest.
inline constexpr int kExitOutputFailed = 3;
inline constexpr int kExitInterrupted = 130;  ///< stopped by SIGINT/SIGTERM; summary written

/// How to run a batch.
struct FarmSettings {
  std::filesystem::path out_dir;                 ///< results go here (created when missing)
  LauncherKind launcher = LauncherKind::kLocal;  ///< where workers come from (launcher.h)
  uint32_t workers = 1;       ///< workers to launch (local processes, Slurm array tasks)
  bool resume = false;        ///< keep complete scenario folders, run the rest
  bool retry_failed = false;  ///< with resume: run failed scenarios again
  bool force = false;         ///< empty a non-empty out_dir first
  /// Scenarios recorded invalid do not make the batch fail (exit 0): --allow-invalid. Without
  /// it, one a worker finds invalid (its scene cannot be built) counts as failed for the exit.
  bool allow_invalid = false;
  bool output_checked = false;              ///< out_dir was checked and written (replay)
  std::string listen_host = "127.0.0.1";    ///< address workers connect to
  uint16_t listen_port = 0;                 ///< 0 picks a free port
  std::string token;                        ///< required of every worker when not empty
  std::filesystem::path worker_executable;  ///< asg-worker, for local workers
  /// The actor catalog failures are judged with (failures.csv): the workers' own, --catalog or
  /// the one next to asg-worker.
  std::filesystem::path catalog;
  std::vector<std::string> worker_arguments;        ///< appended to every local worker's command
  std::vector<std::string> first_launch_arguments;  ///< appended to the initial launches only
  std::string slurm_partition;                      ///< slurm: --partition, empty for default
  std::string slurm_time;                           ///< slurm: --time, empty for default
  uint32_t cpus_per_worker = 1;                     ///< slurm: --cpus-per-task, LP_NUM_THREADS
  std::vector<std::string> sbatch_arguments;        ///< slurm: more sbatch arguments
  bool quiet = false;                               ///< no progress output
  bool live_progress = false;  ///< one line redrawn in place (a terminal) instead of plain lines
  std::chrono::milliseconds start_timeout{30'000};  ///< [ms] accepted but not started: resubmit
  std::chrono::milliseconds shutdown_grace{3'000};  ///< [ms] workers get this long to exit
  protocol::ConnectionSettings connection;          ///< heartbeats of worker connections
};

/// Runs `batch` (already loaded and validated) and returns the exit code. Prints progress and
/// the outcome table to `out`; everything else goes to out_dir/asg_log.txt. `make_feed`, when
/// set, makes the source of more scenarios (a search) the run owns. Throws OutputFolderError
/// when out_dir cannot be used (output_folder.h), std::runtime_error when the farm cannot start
/// (port, worker executable).
int RunFarm(const Batch& batch, const FarmSettings& settings, std::ostream& out,
            const FeedMaker& make_feed = {});

}  // namespace asg::client
