// Tests for client/farm/result_writer.h.
#include "client/farm/result_writer.h"

#include <gtest/gtest.h>

#include "results/files.h"
#include "tests/file_size_limit.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

namespace fs = std::filesystem;
using testutil::TempDir;

results::ScenarioRecord Record(uint32_t number, const std::string& outcome) {
  results::ScenarioRecord record;
  record.request = results::Json::object();
  record.result.scenario_number = number;
  record.result.status = results::ScenarioStatus::kDone;
  record.timing.worker_id = 1;
  record.timing.attempts = {{1, 1, 0.5, outcome, ""}};
  return record;
}

TEST(ResultWriter, DrainedRecordsAreCompleteFoldersWithTheirTiming) {
  TempDir dir;
  ResultWriter writer(dir.path() / "out");
  for (uint32_t number = 1; number <= 3; ++number) writer.Submit(Record(number, "done"));
  writer.Drain();
  EXPECT_EQ(writer.error(), "");
  for (uint32_t number = 1; number <= 3; ++number) {
    EXPECT_TRUE(results::ScenarioFolderComplete(dir.path() / "out", number)) << number;
  }
  const auto outcome = results::LoadScenarioOutcome(dir.path() / "out", 2);
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->result.scenario_number, 2u);
  EXPECT_EQ(outcome->timing.attempts, Record(2, "done").timing.attempts);
}

TEST(ResultWriter, ALaterRecordOfTheSameScenarioReplacesItsFolder) {
  TempDir dir;
  ResultWriter writer(dir.path());
  writer.Submit(Record(4, "done"));
  results::ScenarioRecord rerun = Record(4, "rerun requested");
  rerun.timing.attempts.push_back({2, 1, 0.25, "done", ""});
  writer.Submit(rerun);
  writer.Drain();
  const auto outcome = results::LoadScenarioOutcome(dir.path(), 4);
  ASSERT_TRUE(outcome.has_value());
  ASSERT_EQ(outcome->timing.attempts.size(), 2u);
  EXPECT_EQ(outcome->timing.attempts[0].outcome, "rerun requested");
  EXPECT_EQ(results::RemoveStagingFolders(dir.path()), 0u);  // nothing left half-written
}

TEST(ResultWriter, ARecordGivenAFolderIsWrittenThereWhole) {
  TempDir dir;
  ResultWriter writer(dir.path());
  const fs::path folder = dir.path() / "reproduce" / "scenario_0003_run_2";
  writer.Submit(Record(7, "done"), folder);
  writer.Submit(Record(8, "done"));
  writer.Drain();
  EXPECT_EQ(writer.error(), "");
  EXPECT_TRUE(results::ScenarioFolderCompleteAt(folder, 7));
  EXPECT_FALSE(fs::exists(results::ScenarioFolder(dir.path(), 7)));
  EXPECT_TRUE(results::ScenarioFolderComplete(dir.path(), 8));
  EXPECT_EQ(results::LoadScenarioOutcomeAt(folder, 7)->result.scenario_number, 7u);
  EXPECT_EQ(results::RemoveStagingFolders(dir.path() / "reproduce"), 0u);
}

TEST(ResultWriter, AWriteErrorIsKeptAndNothingIsWrittenAfterIt) {
  TempDir dir;
  ResultWriter writer(dir.path());
  results::ScenarioRecord bad = Record(1, "done");
  bad.captures.push_back({"../escape", "png bytes"});  // a capture name that is refused
  writer.Submit(bad);
  writer.Drain();
  writer.Submit(Record(2, "done"));
  writer.Drain();
  EXPECT_NE(writer.error().find("scenario 1: "), std::string::npos) << writer.error();
  EXPECT_NE(writer.error().find("escape"), std::string::npos) << writer.error();
  EXPECT_FALSE(fs::exists(results::ScenarioFolder(dir.path(), 1)));
  EXPECT_FALSE(fs::exists(results::ScenarioFolder(dir.path(), 2)));
  EXPECT_TRUE(writer.TakeWritten().empty());
}

TEST(ResultWriter, AFullDiskIsNamedLeavesNoStagingAndOnlyWhatIsOnDiskIsWritten) {
  TempDir dir;
  ResultWriter writer(dir.path());
  writer.Submit(Record(1, "done"));
  writer.Drain();
  results::ScenarioRecord big = Record(2, "done");
  big.captures.push_back({"front_aerial", std::string(64 * 1024, 'p')});
  {
    // The capture does not fit, as on a full disk (EFBIG here, ENOSPC there).
    const testutil::FileSizeLimit limit(4096);
    writer.Submit(big);
    writer.Drain();
  }
  writer.Submit(Record(3, "done"));
  writer.Drain();
  const std::string error = writer.error();
  EXPECT_EQ(error.rfind("scenario 2: ", 0), 0u) << error;
  EXPECT_NE(error.find("front_aerial.png: cannot write: File too large"), std::string::npos)
      << error;
  EXPECT_TRUE(results::ScenarioFolderComplete(dir.path(), 1));
  EXPECT_FALSE(fs::exists(results::ScenarioFolder(dir.path(), 2)));
  EXPECT_FALSE(fs::exists(results::ScenarioFolder(dir.path(), 3)));
  EXPECT_EQ(results::RemoveStagingFolders(dir.path()), 0u);  // no partial folder was left
  const std::vector<results::ScenarioOutcome> written = writer.TakeWritten();
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(written[0].result.scenario_number, 1u);
  EXPECT_TRUE(writer.TakeWritten().empty());  // each told once
}

}  // namespace
}  // namespace asg::client
