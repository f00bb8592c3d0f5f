// Tests for worker/serve/logs.h: both logs in memory, their filters, the switch of the
// communication log, and the JSON-lines files of a folder.
#include "worker/serve/logs.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/log_clip.h"
#include "results/files.h"
#include "tests/temp_dir.h"

namespace asg::worker::serve {
namespace {

/// The lines of a file.
std::vector<std::string> Lines(const std::filesystem::path& file) {
  std::istringstream text(results::ReadTextFile(file));
  std::vector<std::string> lines;
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  return lines;
}

TEST(SessionLogsTest, CommunicationEntriesAreFilteredByClientTypeAndLevel) {
  SessionLogs logs;
  logs.Communication(1, "StepSimulation", "request", "info", 5);
  logs.Communication(1, "StepSimulationResponse", "reply", "info", 5);
  logs.Communication(2, "Error", "reply", "error", 9);
  const json::Json all = logs.QueryCommunication({});
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0]["type"], "StepSimulation");
  EXPECT_EQ(all[0]["direction"], "request");
  EXPECT_EQ(all[0]["reference"], 5);
  EXPECT_GE(all[0]["time"].get<double>(), 0.0);
  EXPECT_LE(all[0]["time"].get<double>(), all[2]["time"].get<double>());
  EXPECT_EQ(logs.QueryCommunication({1, std::nullopt, std::nullopt}).size(), 2u);
  EXPECT_EQ(logs.QueryCommunication({std::nullopt, "Error", std::nullopt}).size(), 1u);
  const json::Json errors = logs.QueryCommunication({std::nullopt, std::nullopt, "error"});
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0]["client_id"], 2);
  EXPECT_EQ(logs.QueryCommunication({2, "Error", "info"}).size(), 0u);
}

TEST(SessionLogsTest, TheCommunicationLogCanBeTurnedOff) {
  SessionLogs logs;
  EXPECT_TRUE(logs.communication_enabled());
  logs.EnableCommunication(false);
  logs.Communication(1, "GetSimulationState", "request", "info", 1);
  EXPECT_TRUE(logs.QueryCommunication({}).empty());
  logs.Diagnostic(1, "info", "still logged");  // the diagnostic log is always on
  EXPECT_EQ(logs.QueryDiagnostics({}).size(), 1u);
  logs.EnableCommunication(true);
  logs.Communication(1, "GetSimulationState", "request", "info", 2);
  EXPECT_EQ(logs.QueryCommunication({}).size(), 1u);
}

TEST(SessionLogsTest, DiagnosticsAreFilteredByClientAndLevel) {
  SessionLogs logs;
  logs.Diagnostic(0, "warning", "vehicle nodes are not attached");
  logs.Diagnostic(3, "info", "client 3 is viewer");
  const json::Json warnings = logs.QueryDiagnostics({std::nullopt, std::nullopt, "warning"});
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0]["message"], "vehicle nodes are not attached");
  EXPECT_EQ(warnings[0]["client_id"], 0);
  EXPECT_EQ(logs.QueryDiagnostics({3, std::nullopt, std::nullopt})[0]["level"], "info");
}

TEST(SessionLogsTest, OnlyTheLatestEntriesAreKept) {
  SessionLogs logs;
  for (size_t i = 0; i < SessionLogs::kMaxEntries + 2; ++i) {
    logs.Communication(1, "T", "request", "info", static_cast<int64_t>(i));
  }
  const json::Json entries = logs.QueryCommunication({});
  ASSERT_EQ(entries.size(), SessionLogs::kMaxEntries);
  EXPECT_EQ(entries[0]["reference"], 2);
}

TEST(SessionLogsTest, AFolderGetsBothLogsAsJsonLinesAppendedFromThenOn) {
  testutil::TempDir dir;
  SessionLogs logs;
  logs.Diagnostic(0, "info", "before the folder");
  const std::filesystem::path folder = dir.path() / "interactive";
  logs.SetFolder(folder);
  logs.Communication(4, "GetEntities", "request", "info", 7);
  logs.Diagnostic(4, "error", "in the folder");
  logs.Flush();
  const std::vector<std::string> communication = Lines(folder / "communication_log.jsonl");
  ASSERT_EQ(communication.size(), 1u);
  EXPECT_EQ(json::Json::parse(communication[0])["type"], "GetEntities");
  const std::vector<std::string> diagnostics = Lines(folder / "diagnostic_log.jsonl");
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(json::Json::parse(diagnostics[0])["message"], "in the folder");

  logs.SetFolder({});  // no more files
  logs.Diagnostic(4, "info", "not in the folder");
  logs.Flush();
  EXPECT_EQ(Lines(folder / "diagnostic_log.jsonl").size(), 1u);
  logs.SetFolder(folder);  // appended, not replaced
  logs.Diagnostic(4, "info", "again");
  logs.Flush();
  EXPECT_EQ(Lines(folder / "diagnostic_log.jsonl").size(), 2u);
}

TEST(SessionLogsTest, WhatAClientSendsIsClippedAndMemoryIsBoundedInBytes) {
  SessionLogs logs;
  logs.Communication(1, std::string(4 << 20, 't'), "request", "info", 1);
  EXPECT_EQ(logs.QueryCommunication({})[0]["type"],
            std::string(core::kLogFieldBytes, 't') + "... (4194304 bytes)");
  const std::string message(core::kLogMessageBytes, 'm');
  for (size_t i = 0; i < SessionLogs::kMaxEntries; ++i) logs.Diagnostic(1, "info", message);
  // 100,000 messages of 2,000 bytes would take 200 MB: only the latest 16 MiB's worth are kept.
  const size_t kept = logs.QueryDiagnostics({}).size();
  EXPECT_GT(kept, 1000u);
  EXPECT_LE(kept * message.size(), SessionLogs::kMaxBytes);
}

TEST(SessionLogsTest, TheFilesTakeAtMostTheirBytesPerSecond) {
  testutil::TempDir dir;
  SessionLogs logs;
  const std::filesystem::path folder = dir.path() / "interactive";
  const auto start = std::chrono::steady_clock::now();
  logs.SetFolder(folder);
  const std::string message(core::kLogMessageBytes, 'm');
  for (int i = 0; i < 20'000; ++i) logs.Diagnostic(1, "info", message);  // 40 MB of lines
  logs.Flush();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::vector<std::string> lines = Lines(folder / "diagnostic_log.jsonl");
  const auto written =
      static_cast<double>(std::filesystem::file_size(folder / "diagnostic_log.jsonl"));
  EXPECT_LE(written, (1.0 + seconds) * SessionLogs::kMaxFileBytesPerSecond + 100.0);
  // The lines left out are counted: written and counted add up.
  ASSERT_TRUE(json::Json::parse(lines.back()).contains("not_written")) << lines.back();
  size_t entries = 0;
  for (const std::string& line : lines) {
    const json::Json parsed = json::Json::parse(line);
    entries += parsed.contains("not_written") ? parsed["not_written"].get<size_t>() : 1;
  }
  EXPECT_EQ(entries, 20'000u);
}

TEST(SessionLogsTest, AFolderThatCannotBeMadeIsNamed) {
  testutil::TempDir dir;
  results::WriteFileUnsynced(dir.path() / "file", "x");
  SessionLogs logs;
  try {
    logs.SetFolder(dir.path() / "file" / "interactive");
    FAIL() << "a folder under a file was made";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("interactive"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace asg::worker::serve
