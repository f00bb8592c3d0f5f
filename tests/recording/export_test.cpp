// Tests for recording/export.h.
#include "recording/export.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "results/files.h"
#include "tests/temp_dir.h"

namespace asg::recording {
namespace {

namespace fs = std::filesystem;
using testutil::TempDir;

/// A done scenario folder of two samples, or an invalid one.
results::ScenarioRecord Record(uint32_t number, bool done) {
  results::ScenarioRecord record;
  record.request = json::Json{{"scenario_number", number}};
  record.result.scenario_number = number;
  record.result.status = done ? results::ScenarioStatus::kDone : results::ScenarioStatus::kInvalid;
  record.result.error = done ? "" : "goal_radius: must be >= 0, got -1";
  if (done) {
    record.trajectory.resize(2);
    record.trajectory[1].header.stamp = protocol::Time::FromSeconds(0.05);
  }
  return record;
}

/// The message of the RecordingError `action` throws; empty when it throws none.
template <typename F>
std::string ErrorOf(F action) {
  try {
    action();
  } catch (const RecordingError& error) {
    return error.what();
  }
  return {};
}

TEST(ExportTest, ABatchFolderGetsARecordingPerRunAndSkipsTheOthers) {
  TempDir dir;
  results::WriteScenarioFolder(dir.path(), Record(1, true));
  results::WriteScenarioFolder(dir.path(), Record(2, false));
  std::ostringstream log;
  const ExportSummary summary = ExportFolder(dir.path(), {}, nullptr, log);
  EXPECT_EQ(summary.written, 1u);
  EXPECT_EQ(summary.skipped, 1u);
  EXPECT_EQ(summary.bytes, fs::file_size(dir.path() / "scenario_0001" / "run.mcap"));
  EXPECT_FALSE(fs::exists(dir.path() / "scenario_0002" / "run.mcap"));
  EXPECT_NE(log.str().find("scenario_0002: skipped (status invalid)"), std::string::npos);
}

TEST(ExportTest, RefusalsNameTheFile) {
  TempDir dir;
  results::WriteScenarioFolder(dir.path(), Record(1, true));
  results::WriteScenarioFolder(dir.path(), Record(2, false));
  const fs::path ran = dir.path() / "scenario_0001";
  const fs::path invalid = dir.path() / "scenario_0002";
  EXPECT_EQ(
      ErrorOf([&] { ExportScenario(invalid, dir.path() / "x.mcap", nullptr); }),
      (invalid / "result.json").string() +
          ": the scenario did not run (status \"invalid\": goal_radius: must be >= 0, got -1)");
  const std::string unwritable =
      ErrorOf([&] { ExportScenario(ran, dir.path() / "missing" / "x.mcap", nullptr); });
  EXPECT_NE(unwritable.find((dir.path() / "missing").string()), std::string::npos) << unwritable;
  fs::remove(ran / "trajectory.csv");
  EXPECT_EQ(ErrorOf([&] { ExportScenario(ran, dir.path() / "x.mcap", nullptr); }),
            (ran / "trajectory.csv").string() + ": missing: the run has no trajectory to record");
  EXPECT_FALSE(fs::exists(dir.path() / "x.mcap"));
  std::ostringstream log;
  const fs::path empty = dir.path() / "empty";
  fs::create_directory(empty);
  EXPECT_NE(ErrorOf([&] { ExportFolder(empty, {}, nullptr, log); }).find("neither a scenario"),
            std::string::npos);
}

}  // namespace
}  // namespace asg::recording
