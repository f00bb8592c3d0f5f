// The client's log: lines "[YYYY-MM-DD hh:mm:ss.ffffff] [LEVEL] message" (the AutoSceneGen
// client's format; times in UTC, microseconds) appended to a file, usually DIR/asg_log.txt, and
// optionally echoed to stderr. Thread-safe: lines from different threads never interleave.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>

namespace asg::core {

/// Severity of a log line, least severe first.
enum class LogLevel : uint8_t { kDebug, kInfo, kWarning, kError };

/// "DEBUG", "INFO", "WARNING" or "ERROR".
std::string_view LogLevelName(LogLevel level);

/// One log line without the newline, e.g.
/// "[2024-05-01 13:04:05.123456] [INFO] scenario 3 done"; `time` is rendered in UTC.
std::string FormatLogLine(std::chrono::system_clock::time_point time, LogLevel level,
                          std::string_view message);

/// Writes log lines to a file (and stderr when asked). Lines below the minimum level are
/// dropped. Every line is written to the file at once so a crash loses nothing logged before;
/// a line that cannot be written whole (a full disk) is cut off again, so the file always ends
/// with a whole line, and later lines are tried anew.
class Logger {
 public:
  /// Opens `file` for appending, creating its folder when needed; throws std::runtime_error
  /// naming the file when it cannot, or when `file` is a symbolic link (never followed).
  /// `echo_to_stderr` also prints every kept line to stderr.
  Logger(const std::filesystem::path& file, bool echo_to_stderr,
         LogLevel min_level = LogLevel::kInfo);
  ~Logger();
  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;

  /// Writes one line stamped with the current time. Thread-safe.
  void Log(LogLevel level, std::string_view message);
  void Debug(std::string_view message) { Log(LogLevel::kDebug, message); }
  void Info(std::string_view message) { Log(LogLevel::kInfo, message); }
  void Warning(std::string_view message) { Log(LogLevel::kWarning, message); }
  void Error(std::string_view message) { Log(LogLevel::kError, message); }

  /// The log file's path.
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  bool echo_to_stderr_;
  LogLevel min_level_;
  std::mutex mutex_;  // guards writes to fd_ and stderr
  int fd_ = -1;       // the file, opened for appending
};

}  // namespace asg::core
