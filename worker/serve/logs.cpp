// The communication and diagnostic logs.
#include "worker/serve/logs.h"

#include <stdexcept>

namespace asg::worker::serve {
namespace {

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

SessionLogs::SessionLogs() : start_(std::chrono::steady_clock::now()) {}

SessionLogs::~SessionLogs() { Flush(); }

double SessionLogs::Now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void SessionLogs::SetFolder(const std::filesystem::path& dir) {
  if (communication_file_.is_open()) communication_file_.close();
  if (diagnostic_file_.is_open()) diagnostic_file_.close();
  if (dir.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw std::runtime_error(dir.string() + ": " + error.message());
  OpenAppend(dir / "communication_log.jsonl", &communication_file_);
  OpenAppend(dir / "diagnostic_log.jsonl", &diagnostic_file_);
}

void SessionLogs::Communication(int client_id, const std::string& type, const char* direction,
                                const char* level, int64_t reference) {
  if (!communication_enabled_) return;
  CommunicationEntry entry{Now(), client_id, type, direction, level, reference};
  if (communication_file_.is_open()) communication_file_ << ToJson(entry).dump() << '\n';
  communication_.push_back(std::move(entry));
  if (communication_.size() > kMaxEntries) communication_.pop_front();
}

void SessionLogs::Diagnostic(int client_id, const std::string& level, const std::string& message) {
  DiagnosticEntry entry{Now(), client_id, level, message};
  if (diagnostic_file_.is_open()) diagnostic_file_ << ToJson(entry).dump() << '\n';
  diagnostics_.push_back(std::move(entry));
  if (diagnostics_.size() > kMaxEntries) diagnostics_.pop_front();
}

json::Json SessionLogs::QueryCommunication(const LogQuery& query) const {
  json::Json entries = json::Json::array();
  for (const CommunicationEntry& entry : communication_) {
    if (query.client_id && *query.client_id != entry.client_id) continue;
    if (query.type && *query.type != entry.type) continue;
    if (query.level && *query.level != entry.level) continue;
    entries.push_back(ToJson(entry));
  }
  return entries;
}

json::Json SessionLogs::QueryDiagnostics(const LogQuery& query) const {
  json::Json entries = json::Json::array();
  for (const DiagnosticEntry& entry : diagnostics_) {
    if (query.client_id && *query.client_id != entry.client_id) continue;
    if (query.level && *query.level != entry.level) continue;
    entries.push_back(ToJson(entry));
  }
  return entries;
}

void SessionLogs::Flush() {
  if (communication_file_.is_open()) communication_file_.flush();
  if (diagnostic_file_.is_open()) diagnostic_file_.flush();
}

}  // namespace asg::worker::serve
