// Thread-safe line logger.
#include "core/log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <stdexcept>

namespace asg::core {

std::string_view LogLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "DEBUG";
    case LogLevel::kInfo:
      return "INFO";
    case LogLevel::kWarning:
      return "WARNING";
    case LogLevel::kError:
      return "ERROR";
  }
  return "INFO";
}

std::string FormatLogLine(std::chrono::system_clock::time_point time, LogLevel level,
                          std::string_view message) {
  using std::chrono::duration_cast;
  using std::chrono::microseconds;
  using std::chrono::seconds;
  // Split into whole seconds (floored, also before 1970) and microseconds.
  const auto since_epoch = duration_cast<microseconds>(time.time_since_epoch());
  auto whole = duration_cast<seconds>(since_epoch);
  if (whole > since_epoch) whole -= seconds(1);
  const auto micros = (since_epoch - whole).count();
  const std::time_t t = static_cast<std::time_t>(whole.count());
  std::tm utc{};
  gmtime_r(&t, &utc);
  char stamp[64];
  std::snprintf(stamp, sizeof(stamp), "[%04d-%02d-%02d %02d:%02d:%02d.%06lld] ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<long long>(micros));
  std::string line = stamp;
  line += '[';
  line += LogLevelName(level);
  line += "] ";
  line += message;
  return line;
}

Logger::Logger(const std::filesystem::path& file, bool echo_to_stderr, LogLevel min_level)
    : file_(file), echo_to_stderr_(echo_to_stderr), min_level_(min_level) {
  std::error_code error;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), error);
  // Created here unless it exists; a symbolic link in its place is refused, not followed.
  fd_ = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    throw std::runtime_error(
        file.string() + ": cannot open the log file for appending: " +
        (errno == ELOOP ? "it is a symbolic link (not followed)" : std::strerror(errno)));
  }
}

Logger::~Logger() { ::close(fd_); }

namespace {

// Appends `line` to `fd` whole, or not at all: a write cut short (a full disk) is cut off again.
void AppendWhole(int fd, std::string_view line) {
  const off_t end = ::lseek(fd, 0, SEEK_END);
  size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(fd, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      // Nothing more fits: the part written is cut off again, as far as that is possible.
      if (written > 0 && end >= 0 && ::ftruncate(fd, end) != 0) errno = 0;
      return;
    }
    written += static_cast<size_t>(n);
  }
}

}  // namespace

void Logger::Log(LogLevel level, std::string_view message) {
  if (level < min_level_) return;
  const std::string line = FormatLogLine(std::chrono::system_clock::now(), level, message) + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  AppendWhole(fd_, line);
  if (echo_to_stderr_) std::cerr << line << std::flush;
}

}  // namespace asg::core
