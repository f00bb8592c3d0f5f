// The communication and diagnostic logs.
#include "worker/serve/logs.h"

#include <algorithm>
#include <stdexcept>

#include "core/log_clip.h"

namespace asg::worker::serve {
namespace {

/// [bytes] An entry's share of SessionLogs::kMaxBytes: its text and its fixed part.
size_t TextBytes(const CommunicationEntry& entry) {
  return sizeof entry + entry.type.size() + entry.direction.size() + entry.level.size();
}
size_t TextBytes(const DiagnosticEntry& entry) {
  return sizeof entry + entry.level.size() + entry.message.size();
}

json::Json ToJson(const CommunicationEntry& entry) {
  return {{"time", entry.time},   {"client_id", entry.client_id},
          {"type", entry.type},   {"direction", entry.direction},
          {"level", entry.level}, {"reference", entry.reference}};
}

json::Json ToJson(const DiagnosticEntry& entry) {
  return {{"time", entry.time},
          {"client_id", entry.client_id},
          {"level", entry.level},
          {"message", entry.message}};
}

void OpenAppend(const std::filesystem::path& path, std::ofstream* file) {
  file->open(path, std::ios::app);
  if (!*file) throw std::runtime_error(path.string() + ": cannot be opened for appending");
}

}  // namespace

void SessionLogs::LogFile::Write(const std::string& line, double now) {
  if (!stream.is_open()) return;
  // The budget refills at kMaxFileBytesPerSecond, up to one second's worth; the count of the
  // lines left out, written before the line, takes from it too.
  const double rate = static_cast<double>(kMaxFileBytesPerSecond);
  budget = std::min(rate, budget + (now - refilled_at) * rate);
  refilled_at = now;
  const std::string note = Note(now);
  const double bytes = static_cast<double>(note.size() + line.size() + 1);
  if (bytes > budget) {
    ++not_written;
    return;
  }
  stream << note << line << '\n';
  not_written = 0;
  budget -= bytes;
}

std::string SessionLogs::LogFile::Note(double now) const {
  if (not_written == 0) return {};
  return json::Json{{"time", now}, {"not_written", not_written}}.dump() + '\n';
}

void SessionLogs::LogFile::WriteNote(double now) {
  if (not_written == 0 || !stream.is_open()) return;
  stream << Note(now);
  not_written = 0;
}

template <class Entry>
void SessionLogs::Kept<Entry>::Add(Entry entry) {
  bytes += TextBytes(entry);
  entries.push_back(std::move(entry));
  while (entries.size() > kMaxEntries || (bytes > kMaxBytes && entries.size() > 1)) {
    bytes -= TextBytes(entries.front());
    entries.pop_front();
  }
}

SessionLogs::SessionLogs() : start_(std::chrono::steady_clock::now()) {}

SessionLogs::~SessionLogs() { Flush(); }

double SessionLogs::Now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void SessionLogs::SetFolder(const std::filesystem::path& dir) {
  for (LogFile* file : {&communication_file_, &diagnostic_file_}) {
    file->WriteNote(Now());
    if (file->stream.is_open()) file->stream.close();
    *file = LogFile{};
    file->refilled_at = Now();
  }
  if (dir.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw std::runtime_error(dir.string() + ": " + error.message());
  OpenAppend(dir / "communication_log.jsonl", &communication_file_.stream);
  OpenAppend(dir / "diagnostic_log.jsonl", &diagnostic_file_.stream);
}

void SessionLogs::Communication(int client_id, const std::string& type, const char* direction,
                                const char* level, int64_t reference) {
  if (!communication_enabled_) return;
  CommunicationEntry entry{Now(), client_id, core::ClipForLog(type), direction, level, reference};
  communication_file_.Write(ToJson(entry).dump(), entry.time);
  communication_.Add(std::move(entry));
}

void SessionLogs::Diagnostic(int client_id, const std::string& level, const std::string& message) {
  DiagnosticEntry entry{Now(), client_id, level, core::ClipForLog(message, core::kLogMessageBytes)};
  diagnostic_file_.Write(ToJson(entry).dump(), entry.time);
  diagnostics_.Add(std::move(entry));
}

json::Json SessionLogs::QueryCommunication(const LogQuery& query) const {
  json::Json entries = json::Json::array();
  for (const CommunicationEntry& entry : communication_.entries) {
    if (query.client_id && *query.client_id != entry.client_id) continue;
    if (query.type && *query.type != entry.type) continue;
    if (query.level && *query.level != entry.level) continue;
    entries.push_back(ToJson(entry));
  }
  return entries;
}

json::Json SessionLogs::QueryDiagnostics(const LogQuery& query) const {
  json::Json entries = json::Json::array();
  for (const DiagnosticEntry& entry : diagnostics_.entries) {
    if (query.client_id && *query.client_id != entry.client_id) continue;
    if (query.level && *query.level != entry.level) continue;
    entries.push_back(ToJson(entry));
  }
  return entries;
}

void SessionLogs::Flush() {
  const double now = Now();
  for (LogFile* file : {&communication_file_, &diagnostic_file_}) {
    file->WriteNote(now);
    if (file->stream.is_open()) file->stream.flush();
  }
}

}  // namespace asg::worker::serve
