// The interactive worker's two logs, after RoadRunner SSE: the communication log (every request
// and reply, with time, client and type) and the diagnostic log (info / warning / error messages
// clients add). Both are kept in memory (the latest kMaxEntries of each) and, while a scenario
// opened from a result folder is loaded, appended to JSON-lines files in that folder.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "protocol/frame.h"

namespace asg::worker::serve {

/// One logged frame.
struct CommunicationEntry {
  double time = 0.0;      ///< [s] since the session started
  int client_id = 0;      ///< the connection's client id
  std::string type;       ///< the frame's type
  std::string direction;  ///< "request", "reply" or "event"
  std::string level;      ///< "info", or "error" for Error replies and failed results
  int64_t reference = 0;  ///< the frame's reference
};

/// One diagnostic message.
struct DiagnosticEntry {
  double time = 0.0;  ///< [s] since the session started
  int client_id = 0;
  std::string level;  ///< "info", "warning" or "error"
  std::string message;
};

/// Filters of a query; absent fields match everything.
struct LogQuery {
  std::optional<int> client_id;
  std::optional<std::string> type;
  std::optional<std::string> level;
};

/// Both logs. Not thread-safe (the session's thread owns it).
class SessionLogs {
 public:
  /// Entries kept in memory per log.
  static constexpr size_t kMaxEntries = 100'000;

  SessionLogs();
  ~SessionLogs();

  /// Appends from now on to DIR/communication_log.jsonl and DIR/diagnostic_log.jsonl (DIR is
  /// created); an empty path stops writing files. Throws std::runtime_error naming the file when
  /// it cannot be opened.
  void SetFolder(const std::filesystem::path& dir);
  /// Turns the communication log on or off (on at start).
  void EnableCommunication(bool enabled) { communication_enabled_ = enabled; }
  bool communication_enabled() const { return communication_enabled_; }

  /// Logs one frame (when the communication log is on).
  void Communication(int client_id, const std::string& type, const char* direction,
                     const char* level, int64_t reference);
  /// Logs one diagnostic message.
  void Diagnostic(int client_id, const std::string& level, const std::string& message);

  /// Communication entries matching `query` (type and level and client), oldest first.
  json::Json QueryCommunication(const LogQuery& query) const;
  /// Diagnostic entries matching `query` (level and client), oldest first.
  json::Json QueryDiagnostics(const LogQuery& query) const;
  /// Writes buffered file lines out.
  void Flush();

 private:
  double Now() const;

  std::chrono::steady_clock::time_point start_;
  bool communication_enabled_ = true;
  std::deque<CommunicationEntry> communication_;
  std::deque<DiagnosticEntry> diagnostics_;
  std::ofstream communication_file_;
  std::ofstream diagnostic_file_;
};

}  // namespace asg::worker::serve
