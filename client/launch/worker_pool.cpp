// Worker processes through Boost.Process v1.
#include "client/launch/worker_pool.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/env.hpp>
#include <boost/process/environment.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/io.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace asg::client {

namespace bp = boost::process;

namespace {

/// A worker's log file, created (or emptied) for writing without following a symbolic link
/// planted in its place: the log stays inside the log folder. Throws std::runtime_error naming
/// the file.
std::unique_ptr<FILE, int (*)(FILE*)> OpenLog(const std::filesystem::path& log) {
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  FILE* file = fd < 0 ? nullptr : ::fdopen(fd, "w");
  if (file == nullptr) {
    const int error = errno;
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("cannot create " + log.string() + ": " + std::strerror(error));
  }
  return {file, &std::fclose};
}

/// Puts the child in a process group of its own before it executes the worker.
struct NewProcessGroup : bp::extend::handler {
  template <class Executor>
  void on_exec_setup(Executor& /*executor*/) const {
    ::setpgid(0, 0);
  }
};

std::string DescribeStatus(int status) {
  if (WIFSIGNALED(status)) {
    const int signal_number = WTERMSIG(status);
    const char* name = ::strsignal(signal_number);
    return "killed by signal " + std::to_string(signal_number) + " (" +
           (name != nullptr ? name : "unknown") + ")";
  }
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  return "ended with status " + std::to_string(status);
}

}  // namespace

struct WorkerPool::Process {
  uint16_t worker_id = 0;
  bp::child child;
};

WorkerPool::WorkerPool(WorkerLaunchSettings settings) : settings_(std::move(settings)) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(settings_.executable, error)) {
    throw std::runtime_error("worker executable " + settings_.executable.string() +
                             " does not exist (use --worker-exe)");
  }
  std::filesystem::create_directories(settings_.log_folder, error);
  if (error) {
    throw std::runtime_error("cannot create " + settings_.log_folder.string() + ": " +
                             error.message());
  }
}

WorkerPool::~WorkerPool() {
  for (auto& [pid, process] : processes_) {
    std::error_code ignored;
    if (process->child.running(ignored)) process->child.terminate(ignored);
    process->child.wait(ignored);
  }
}

int64_t WorkerPool::Launch(uint16_t worker_id, const std::vector<std::string>& extra_arguments) {
  ++launches_;
  std::vector<std::string> arguments = {"--connect", settings_.connect, "--id",
                                        std::to_string(worker_id)};
  arguments.insert(arguments.end(), settings_.extra_arguments.begin(),
                   settings_.extra_arguments.end());
  arguments.insert(arguments.end(), extra_arguments.begin(), extra_arguments.end());
  const std::filesystem::path log =
      settings_.log_folder /
      ("worker_" + std::to_string(worker_id) + "." + std::to_string(launches_) + ".txt");
  bp::environment environment = boost::this_process::environment();
  if (!settings_.token.empty()) environment["ASG_TOKEN"] = settings_.token;
  auto process = std::make_unique<Process>();
  process->worker_id = worker_id;
  const auto log_file = OpenLog(log);
  std::error_code error;
  process->child = bp::child(bp::exe = settings_.executable.string(), bp::args = arguments,
                             bp::env = environment, (bp::std_out & bp::std_err) > log_file.get(),
                             bp::std_in < bp::null, NewProcessGroup{}, error);
  if (error) {
    throw std::runtime_error("cannot start " + settings_.executable.string() + ": " +
                             error.message());
  }
  const int64_t pid = process->child.id();
  processes_[pid] = std::move(process);
  return pid;
}

std::vector<ExitedWorker> WorkerPool::Reap() {
  std::vector<ExitedWorker> exited;
  for (auto it = processes_.begin(); it != processes_.end();) {
    std::error_code error;
    if (it->second->child.running(error) && !error) {
      ++it;
      continue;
    }
    exited.push_back({it->second->worker_id, it->first,
                      error ? "lost: " + error.message()
                            : DescribeStatus(it->second->child.native_exit_code())});
    it = processes_.erase(it);
  }
  return exited;
}

void WorkerPool::Kill(int64_t pid) {
  const auto it = processes_.find(pid);
  if (it == processes_.end()) return;
  // A plain kill: Reap() collects the exit status ("killed by signal 9") on its next call.
  ::kill(static_cast<pid_t>(pid), SIGKILL);
}

size_t WorkerPool::StopAll(std::chrono::milliseconds grace) {
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while (std::chrono::steady_clock::now() < deadline) {
    Reap();
    if (processes_.empty()) return 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const size_t killed = processes_.size();
  for (auto& [pid, process] : processes_) {
    std::error_code ignored;
    process->child.terminate(ignored);
    process->child.wait(ignored);
  }
  processes_.clear();
  return killed;
}

}  // namespace asg::client
