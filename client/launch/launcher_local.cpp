// --launcher local (the default): `workers` asg-worker processes on this machine, ids 1..N,
// started through a WorkerPool (worker_pool.h). A process that ends is started again with the
// same id while scenarios remain; five in a row that end before they register break the farm
// down (the worker logs say why).
#include <map>
#include <optional>

#include "client/launch/launcher.h"
#include "client/launch/worker_pool.h"
#include "protocol/endpoint.h"

namespace asg::client {

namespace {

/// Consecutive processes ending before they register after which the farm gives up.
constexpr uint32_t kMaxEarlyExits = 5;

/// Whether a connection's peer ("HOST:PORT", as protocol::Connection::peer() gives it) is this
/// machine.
bool IsLoopbackPeer(const std::string& peer) {
  return protocol::IsLoopbackHost(std::string_view(peer).substr(0, peer.rfind(':')));
}

class LocalLauncher final : public Launcher {
 public:
  LocalLauncher(const LauncherSettings& settings, core::Logger* logger)
      : settings_(settings),
        logger_(logger),
        pool_(WorkerLaunchSettings{settings.worker_executable, settings.connect, settings.token,
                                   settings.worker_arguments, settings.log_folder}) {}

  void Start() override {
    for (uint32_t id = 1; id <= settings_.workers; ++id) {
      Launch(static_cast<uint16_t>(id), settings_.first_launch_arguments);
    }
  }

  bool Claim(WorkerKey key, uint16_t, int64_t pid, const std::string& peer) override {
    // A pid counts only when the connection is loopback (a remote host's pids are unrelated)
    // and the process has no connection yet.
    const auto process = processes_.find(pid);
    if (process == processes_.end() || !IsLoopbackPeer(peer) || process->second.key) return false;
    process->second.key = key;
    early_exits_ = 0;
    return true;
  }

  void End(WorkerKey key, uint16_t) override {
    for (const auto& [pid, process] : processes_) {
      if (process.key == key) pool_.Kill(pid);
    }
  }

  LauncherReport Poll(const LauncherTick& tick) override {
    LauncherReport report;
    report.started = std::move(started_);
    started_.clear();
    for (const ExitedWorker& exited : pool_.Reap()) {
      const Process process = processes_.at(exited.pid);
      processes_.erase(exited.pid);
      report.gone.push_back({exited.worker_id, process.key,
                             "worker " + std::to_string(exited.worker_id) + " (pid " +
                                 std::to_string(exited.pid) + ") " + exited.description});
      if (!process.key) ++early_exits_;
      if (!tick.work_remains || !report.breakdown.empty()) continue;
      if (early_exits_ >= kMaxEarlyExits) {
        report.breakdown = std::to_string(early_exits_) +
                           " worker processes in a row ended before registering; see the worker "
                           "logs in " +
                           settings_.log_folder.string();
        continue;
      }
      Launch(exited.worker_id, {});
    }
    return report;
  }

  std::string Status() const override { return ""; }

  size_t Stop(std::chrono::milliseconds grace) override { return pool_.StopAll(grace); }

 private:
  struct Process {
    uint16_t worker_id = 0;
    std::optional<WorkerKey> key;  // its connection once it registered
  };

  void Launch(uint16_t worker_id, const std::vector<std::string>& extra_arguments) {
    const int64_t pid = pool_.Launch(worker_id, extra_arguments);
    processes_[pid] = Process{worker_id, std::nullopt};
    started_.push_back(worker_id);
    logger_->Info("launched worker " + std::to_string(worker_id) + " (pid " + std::to_string(pid) +
                  ")");
  }

  LauncherSettings settings_;
  core::Logger* logger_;
  WorkerPool pool_;
  std::map<int64_t, Process> processes_;
  std::vector<uint16_t> started_;  // since the last Poll
  uint32_t early_exits_ = 0;       // consecutive processes that ended before registering
};

}  // namespace

std::unique_ptr<Launcher> MakeLocalLauncher(const LauncherSettings& settings,
                                            core::Logger* logger) {
  return std::make_unique<LocalLauncher>(settings, logger);
}

}  // namespace asg::client
