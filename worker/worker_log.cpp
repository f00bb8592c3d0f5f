// Timestamped log lines on stderr.
#include "worker/worker_log.h"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

namespace asg::worker {

void Log(core::LogLevel level, std::string_view message) {
  static std::mutex mutex;
  const std::string line =
      core::FormatLogLine(std::chrono::system_clock::now(), level, message) + "\n";
  std::lock_guard lock(mutex);
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace asg::worker
