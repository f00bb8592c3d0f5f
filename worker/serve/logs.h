// The interactive worker's two logs, after RoadRunner SSE: the communication log (every request
// and reply, with time, client and type) and the diagnostic log (info / warning / error messages
// clients add). Both are kept in memory (the latest kMaxEntries of each, at most kMaxBytes of
// text) and, while a scenario opened from a result folder is loaded, appended to JSON-lines files
// in that folder, at most kMaxFileBytesPerSecond a second each.
//
// Bounds: what a client sends is clipped before it is kept (core::ClipForLog: a type to
// core::kLogFieldBytes, a diagnostic message to core::kLogMessageBytes). Lines past a file's
// budget are not written; the next line that is written, or the next Flush, writes first
// {"time", "not_written": N} with the count of those left out.
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
  /// [bytes] Text of the entries kept in memory per log, at most.
  static constexpr size_t kMaxBytes = size_t{16} << 20;
  /// [bytes/s] Lines written to each file, at most, with a burst of one second's worth.
  static constexpr size_t kMaxFileBytesPerSecond = size_t{2} << 20;

  SessionLogs();
  ~SessionLogs();

  /// Appends from now on to DIR/communication_log.jsonl and DIR/diagnostic_log.jsonl (DIR is
  /// created); an empty path stops writing files. Throws std::runtime_error naming the file when
  /// it cannot be opened.
  void SetFolder(const std::filesystem::path& dir);
  /// Turns the communication log on or off (on at start).
  void EnableCommunication(bool enabled) { communication_enabled_ = enabled; }
  bool communication_enabled() const { return communication_enabled_; }

  /// Logs one frame (when the communication log is on); `type` is clipped.
  void Communication(int client_id, const std::string& type, const char* direction,
                     const char* level, int64_t reference);
  /// Logs one diagnostic message; `message` is clipped.
  void Diagnostic(int client_id, const std::string& level, const std::string& message);

  /// Communication entries matching `query` (type and level and client), oldest first.
  json::Json QueryCommunication(const LogQuery& query) const;
  /// Diagnostic entries matching `query` (level and client), oldest first.
  json::Json QueryDiagnostics(const LogQuery& query) const;
  /// Writes buffered file lines out.
  void Flush();

 private:
  /// One JSON-lines file and its budget of bytes (kMaxFileBytesPerSecond).
  struct LogFile {
    std::ofstream stream;
    double budget = kMaxFileBytesPerSecond;  // [bytes] may be written now
    double refilled_at = 0.0;                // [s] session time of the budget's last refill
    uint64_t not_written = 0;                // lines left out since the last one written
    /// Appends `line` and a newline when the budget allows, else counts it as not written.
    void Write(const std::string& line, double now);
    /// Writes the count of lines not written, if any; the budget does not apply.
    void WriteNote(double now);
    /// The line {"time", "not_written"} with its newline, or "" when every line was written.
    std::string Note(double now) const;
  };
  /// Entries of one log in memory and the bytes of their text.
  template <class Entry>
  struct Kept {
    std::deque<Entry> entries;
    size_t bytes = 0;
    /// Appends `entry`, then drops the oldest while over kMaxEntries or kMaxBytes.
    void Add(Entry entry);
  };

  double Now() const;

  std::chrono::steady_clock::time_point start_;
  bool communication_enabled_ = true;
  Kept<CommunicationEntry> communication_;
  Kept<DiagnosticEntry> diagnostics_;
  LogFile communication_file_;
  LogFile diagnostic_file_;
};

}  // namespace asg::worker::serve
