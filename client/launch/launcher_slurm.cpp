// --launcher slurm: ONE Slurm job array of `workers` tasks, each running
//   asg-worker --connect HOST:PORT --id $SLURM_ARRAY_TASK_ID
// from a job script written 0600 into the log folder; the token reaches the tasks through
// sbatch's environment (ASG_TOKEN, --export=ALL), never a command line or a readable file.
//
// The tasks are remote processes to the farm: a task that dies, is cancelled or preempted
// closes its connection (or misses its heartbeats) and its scenario is queued again for the
// others; a single lost task is not replaced. A thread polls squeue (by the array's job name)
// for the progress line; when no task of this run is left in the queue, none is connected and
// scenarios remain, a new array is submitted for the remainder (at most `workers` tasks), and
// after three arrays in a row that ended without one worker registering the farm breaks down.
// Stop, and the destructor when the client fails, scancel every array of the run.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/env.hpp>
#include <boost/process/environment.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/io.hpp>
#include <boost/process/search_path.hpp>
#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "client/launch/launcher.h"
#include "protocol/token.h"

namespace asg::client {

namespace {

namespace bp = boost::process;

/// Arrays in a row that end without one worker registering, after which the farm gives up.
constexpr uint32_t kMaxArraysWithoutWorkers = 3;

/// What a command printed and how it ended.
struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Runs `program` (found on PATH) with `arguments` and the client's environment plus `extra`;
/// throws std::runtime_error when it cannot be started.
CommandResult RunCommand(const std::string& program, const std::vector<std::string>& arguments,
                         const std::map<std::string, std::string>& extra = {}) {
  const boost::filesystem::path path = bp::search_path(program);
  if (path.empty()) {
    throw std::runtime_error(program + " is not on PATH: is this host a Slurm submit host?");
  }
  bp::environment environment = boost::this_process::environment();
  for (const auto& [name, value] : extra) environment[name] = value;
  bp::ipstream out;
  bp::ipstream err;
  std::error_code error;
  bp::child child(bp::exe = path.string(), bp::args = arguments, bp::env = environment,
                  bp::std_out > out, bp::std_err > err, bp::std_in < bp::null, error);
  if (error) throw std::runtime_error("cannot start " + path.string() + ": " + error.message());
  CommandResult result;
  std::ostringstream out_text;
  std::ostringstream err_text;
  out_text << out.rdbuf();
  err_text << err.rdbuf();
  child.wait(error);
  result.exit_code = error ? -1 : child.exit_code();
  result.out = out_text.str();
  result.err = err_text.str();
  return result;
}

/// `text` in single quotes for sh.
std::string ShellQuoted(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string FirstLine(const std::string& text) {
  const size_t end = text.find('\n');
  return text.substr(0, end);
}

/// The tasks of the run's arrays in the queue, from one squeue call.
struct QueueSnapshot {
  SteadyClock::time_point taken_at;  // when the query started
  bool ok = false;                   // squeue answered
  std::string error;                 // why not
  size_t pending = 0;
  size_t running = 0;
  size_t other = 0;  // completing, suspended, ...
  size_t total() const { return pending + running + other; }
};

class SlurmLauncher final : public Launcher {
 public:
  SlurmLauncher(const LauncherSettings& settings, core::Logger* logger)
      : settings_(settings),
        logger_(logger),
        job_name_("asg-workers-" + protocol::NewToken().substr(0, 8)),
        script_(settings.log_folder / "slurm_workers.sh") {}

  ~SlurmLauncher() override { Stop(std::chrono::milliseconds(0)); }

  void Start() override {
    WriteScript();
    Submit(settings_.workers);
    poller_ = std::thread([this] { PollQueue(); });
  }

  bool Claim(WorkerKey, uint16_t, int64_t, const std::string&) override {
    workers_seen_ = true;
    arrays_without_workers_ = 0;
    return false;  // a remote process: its connection is all the farm watches
  }

  void End(WorkerKey, uint16_t worker_id) override {
    // A worker the farm gave up on (hung, silent) gives its slot back.
    if (arrays_.empty() || worker_id < 1 || worker_id > last_array_size_) return;
    const std::string task = arrays_.back() + "_" + std::to_string(worker_id);
    const CommandResult result = RunCommand("scancel", {task});
    logger_->Info("scancel " + task +
                  (result.exit_code == 0 ? "" : " failed: " + FirstLine(result.err)));
  }

  LauncherReport Poll(const LauncherTick& tick) override {
    LauncherReport report;
    const QueueSnapshot snapshot = Snapshot();
    status_ = StatusOf(snapshot);
    if (!tick.work_remains || stopped_ || !snapshot.ok || snapshot.taken_at < submitted_at_ ||
        snapshot.total() > 0 || tick.connected > 0) {
      return report;
    }
    // Every task of the run is gone, none is connected, and scenarios remain.
    if (!workers_seen_) ++arrays_without_workers_;
    if (arrays_without_workers_ >= kMaxArraysWithoutWorkers) {
      report.breakdown = std::to_string(arrays_without_workers_) +
                         " Slurm arrays in a row ended without a worker registering; see " +
                         (settings_.log_folder / "slurm_*.txt").string();
      return report;
    }
    const auto count = static_cast<uint32_t>(
        std::min<size_t>(settings_.workers, std::max<size_t>(tick.remaining, 1)));
    logger_->Warning("every task of Slurm job " + arrays_.back() + " is gone and " +
                     std::to_string(tick.remaining) +
                     " scenarios remain: submitting a new array of " + std::to_string(count));
    try {
      Submit(count);
    } catch (const std::runtime_error& error) {
      report.breakdown = error.what();
    }
    return report;
  }

  std::string Status() const override { return status_; }

  size_t Stop(std::chrono::milliseconds grace) override {
    if (stopped_) return 0;
    stopped_ = true;
    {
      const std::lock_guard lock(mutex_);
      stop_poller_ = true;
    }
    wake_.notify_all();
    if (poller_.joinable()) poller_.join();
    if (arrays_.empty()) return 0;
    // The workers exit when their connections close; what is still queued is cancelled.
    const auto deadline = SteadyClock::now() + grace;
    QueueSnapshot left = Query();
    while (left.ok && left.total() > left.pending && SteadyClock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      left = Query();
    }
    const CommandResult result = RunCommand("scancel", {"--name=" + job_name_});
    logger_->Info("scancel of Slurm job " + JobList() + " (" + std::to_string(left.pending) +
                  " tasks pending, " + std::to_string(left.total() - left.pending) +
                  " not yet ended)" +
                  (result.exit_code == 0 ? "" : ": scancel failed: " + FirstLine(result.err)));
    return left.ok ? left.total() : 0;
  }

 private:
  void WriteScript() {
    std::error_code error;
    std::filesystem::create_directories(settings_.log_folder, error);
    std::ostringstream script;
    script << "#!/bin/sh\n"
           << "# asg-client: each task of this Slurm array is one asg-worker connecting back to\n"
           << "# the client; ASG_TOKEN comes from sbatch's environment.\n"
           << "export LP_NUM_THREADS=" << settings_.cpus_per_worker << "\n"
           << "exec " << ShellQuoted(settings_.worker_executable.string()) << " --connect "
           << ShellQuoted(settings_.connect) << " --id \"$SLURM_ARRAY_TASK_ID\"";
    for (const std::string& argument : settings_.worker_arguments) {
      script << " " << ShellQuoted(argument);
    }
    script << "\n";
    const std::string text = script.str();
    // 0600 from its creation: the script is the user's alone.
    const int fd =
        ::open(script_.c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0 || ::fchmod(fd, 0600) != 0 ||
        ::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
      if (fd >= 0) ::close(fd);
      throw std::runtime_error("cannot write the job script " + script_.string());
    }
    ::close(fd);
  }

  /// Submits an array of `count` tasks; throws std::runtime_error when sbatch refuses.
  void Submit(uint32_t count) {
    std::vector<std::string> arguments = {
        "--parsable",
        "--array=1-" + std::to_string(count),
        "--job-name=" + job_name_,
        "--output=" + (settings_.log_folder / "slurm_%A_%a.txt").string(),
        "--cpus-per-task=" + std::to_string(settings_.cpus_per_worker),
        "--export=ALL"};
    if (!settings_.partition.empty()) arguments.push_back("--partition=" + settings_.partition);
    if (!settings_.time_limit.empty()) arguments.push_back("--time=" + settings_.time_limit);
    arguments.insert(arguments.end(), settings_.sbatch_arguments.begin(),
                     settings_.sbatch_arguments.end());
    arguments.push_back(script_.string());
    std::map<std::string, std::string> environment = {
        {"LP_NUM_THREADS", std::to_string(settings_.cpus_per_worker)}};
    if (!settings_.token.empty()) environment["ASG_TOKEN"] = settings_.token;
    const CommandResult result = RunCommand("sbatch", arguments, environment);
    // --parsable prints "JOBID" or "JOBID;CLUSTER".
    const std::string line = FirstLine(result.out);
    const std::string id = line.substr(0, line.find(';'));
    if (result.exit_code != 0 || id.empty() ||
        id.find_first_not_of("0123456789") != std::string::npos) {
      throw std::runtime_error("sbatch refused the worker array (exit " +
                               std::to_string(result.exit_code) + "): " + FirstLine(result.err));
    }
    arrays_.push_back(id);
    last_array_size_ = count;
    submitted_at_ = SteadyClock::now();
    workers_seen_ = false;
    logger_->Info("submitted Slurm job " + id + ": array 1-" + std::to_string(count) +
                  " of asg-worker (job name " + job_name_ + ", script " + script_.string() +
                  ", output " + (settings_.log_folder / "slurm_%A_%a.txt").string() + ")");
  }

  /// The run's tasks in the queue now (blocking, one squeue call).
  QueueSnapshot Query() const {
    QueueSnapshot snapshot;
    snapshot.taken_at = SteadyClock::now();
    try {
      const CommandResult result =
          RunCommand("squeue", {"--noheader", "--array", "--name=" + job_name_, "--format=%T"});
      if (result.exit_code != 0) {
        snapshot.error = "squeue failed: " + FirstLine(result.err);
        return snapshot;
      }
      std::istringstream lines(result.out);
      for (std::string state; std::getline(lines, state);) {
        if (state.empty()) continue;
        if (state == "PENDING" || state == "REQUEUED" || state == "REQUEUE_HOLD") {
          ++snapshot.pending;
        } else if (state == "RUNNING" || state == "CONFIGURING") {
          ++snapshot.running;
        } else {
          ++snapshot.other;
        }
      }
      snapshot.ok = true;
    } catch (const std::runtime_error& error) {
      snapshot.error = error.what();
    }
    return snapshot;
  }

  /// The poll thread: one squeue call per poll period until stopped.
  void PollQueue() {
    std::unique_lock lock(mutex_);
    while (!stop_poller_) {
      lock.unlock();
      QueueSnapshot snapshot = Query();
      lock.lock();
      if (!snapshot.ok && snapshot.error != last_error_) {
        logger_->Warning(snapshot.error);
      }
      last_error_ = snapshot.error;
      snapshot_ = std::move(snapshot);
      wake_.wait_for(lock, settings_.poll_period, [this] { return stop_poller_; });
    }
  }

  QueueSnapshot Snapshot() const {
    const std::lock_guard lock(mutex_);
    return snapshot_;
  }

  /// The run's job ids, oldest first: "812, 815".
  std::string JobList() const {
    std::string jobs;
    for (const std::string& id : arrays_) jobs += (jobs.empty() ? "" : ", ") + id;
    return jobs;
  }

  std::string StatusOf(const QueueSnapshot& snapshot) const {
    if (arrays_.empty()) return "";
    std::string status = (arrays_.size() > 1 ? "slurm jobs " : "slurm job ") + JobList() + ": ";
    if (!snapshot.ok)
      return status + (snapshot.error.empty() ? "queue not read yet" : snapshot.error);
    status += std::to_string(snapshot.running) + " running, " + std::to_string(snapshot.pending) +
              " pending";
    if (snapshot.other > 0) status += ", " + std::to_string(snapshot.other) + " ending";
    return status;
  }

  LauncherSettings settings_;
  core::Logger* logger_;
  std::string job_name_;  // every array of the run has it: squeue and scancel use it
  std::filesystem::path script_;
  std::vector<std::string> arrays_;  // job ids submitted, oldest first
  uint32_t last_array_size_ = 0;
  SteadyClock::time_point submitted_at_;
  bool workers_seen_ = false;  // a worker registered since the last submission
  uint32_t arrays_without_workers_ = 0;
  bool stopped_ = false;
  std::string status_;

  mutable std::mutex mutex_;  // guards the poll thread's state below
  std::condition_variable wake_;
  bool stop_poller_ = false;
  QueueSnapshot snapshot_;
  std::string last_error_;
  std::thread poller_;
};

}  // namespace

std::unique_ptr<Launcher> MakeSlurmLauncher(const LauncherSettings& settings,
                                            core::Logger* logger) {
  return std::make_unique<SlurmLauncher>(settings, logger);
}

}  // namespace asg::client
