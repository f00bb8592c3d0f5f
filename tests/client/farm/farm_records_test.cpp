// Tests for client/farm/farm_records.h: which scenarios are kept, recorded invalid or queued, and
// the records built from each scenario's state, told once to the progress and the feed.
#include "client/farm/farm_records.h"

#include <gtest/gtest.h>

#include <optional>
#include <sstream>

#include "results/files.h"
#include "tests/client/farm/farm_fakes.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

using fakes::FakeFeed;
using std::chrono::seconds;

const SteadyClock::time_point kT0{};

/// Records over a temporary output folder, told to a fake feed.
class FarmRecordsTest : public ::testing::Test {
 protected:
  FarmRecordsTest()
      : logger_(dir_.path() / "asg_log.txt", false),
        progress_(10, ProgressSettings{false}, progress_text_),
        writer_(dir_.path()) {
    settings_.out_dir = dir_.path();
  }

  FarmRecords& Records(uint32_t max_attempts = 3) {
    SchedulerSettings scheduling;
    scheduling.max_attempts = max_attempts;
    records_.emplace(scheduling,
                     RecordsContext{&settings_, &logger_, &progress_, &writer_, &feed_});
    return *records_;
  }

  /// A complete folder of an earlier run for `planned`, with status `status` and `regret`.
  void WriteEarlier(const PlannedScenario& planned, results::ScenarioStatus status, double regret) {
    results::ScenarioRecord record;
    record.request = planned.request_json;
    record.result.scenario_number = planned.scenario_number;
    record.result.status = status;
    record.result.regret.computed = true;
    record.result.regret.regret = regret;
    record.search = planned.search_record;
    results::WriteScenarioFolder(dir_.path(), record);
  }

  testutil::TempDir dir_;
  FarmSettings settings_;
  core::Logger logger_;
  std::ostringstream progress_text_;
  Progress progress_;
  ResultWriter writer_;
  FakeFeed feed_;
  std::optional<FarmRecords> records_;
};

TEST_F(FarmRecordsTest, InvalidScenariosAreRecordedAtOnceAndValidOnesQueued) {
  const Batch batch =
      ParseBatchText(R"({"scenarios": [{}, {"sim_timeout_period": "x"}, {}]})", "b.json", "b");
  ASSERT_EQ(batch.scenarios[1].status, PlanStatus::kInvalid);
  FarmRecords& records = Records();
  for (const PlannedScenario& planned : batch.scenarios) records.Admit(&planned);
  const ScenarioBook& book = records.book();
  EXPECT_EQ(book.scheduler().queued(), 2u);
  ASSERT_TRUE(book.state(2).recorded.has_value());
  EXPECT_EQ(book.state(2).recorded->result.status, results::ScenarioStatus::kInvalid);
  EXPECT_EQ(book.state(2).recorded->result.error, batch.scenarios[1].error);
  EXPECT_FALSE(book.state(2).kept);
  EXPECT_EQ(progress_.finished(), 0u);  // counted once its folder is on disk
  ASSERT_EQ(feed_.told.size(), 1u);
  EXPECT_EQ(feed_.told[0].scenario_number, 2u);
  writer_.Drain();
  records.TakeWritten();
  EXPECT_EQ(progress_.finished(), 1u);
  EXPECT_TRUE(std::filesystem::exists(results::ScenarioFolder(dir_.path(), 2) / "result.json"));
  EXPECT_EQ(book.Outcomes().size(), 1u);
  EXPECT_EQ(records.OutcomesOfBatch().outcomes.size(), 1u);
}

TEST_F(FarmRecordsTest, ARecordNotOnDiskIsNeitherCountedNorInTheBatchsOutcomes) {
  const Batch batch =
      ParseBatchText(R"({"scenarios": [{"sim_timeout_period": "x"}]})", "b.json", "b");
  // The folder cannot be written: a file stands where the batch folder should be.
  settings_.out_dir = dir_.path() / "blocked";
  results::WriteFileSynced(settings_.out_dir, "x");
  ResultWriter writer(settings_.out_dir);
  FarmRecords records(SchedulerSettings{},
                      RecordsContext{&settings_, &logger_, &progress_, &writer, &feed_});
  records.Admit(&batch.scenarios[0]);
  writer.Drain();
  records.TakeWritten();
  EXPECT_TRUE(records.book().state(1).recorded.has_value());  // recorded: it will not run
  EXPECT_EQ(progress_.finished(), 0u);
  EXPECT_TRUE(records.OutcomesOfBatch().outcomes.empty());
  EXPECT_EQ(records.WriteError().rfind("scenario 1: ", 0), 0u) << records.WriteError();
}

TEST_F(FarmRecordsTest, ResumeNamesAKeptFolderThatIsNotWholeAndRunsItAgain) {
  const Batch batch = ParseBatchText(R"({"scenarios": [{}, {}]})", "b.json", "b");
  WriteEarlier(batch.scenarios[0], results::ScenarioStatus::kDone, 0.1);
  WriteEarlier(batch.scenarios[1], results::ScenarioStatus::kDone, 0.2);
  const std::filesystem::path trajectory =
      results::ScenarioFolder(dir_.path(), 2) / "trajectory.csv";
  results::WriteFileSynced(trajectory, "");
  settings_.resume = true;
  FarmRecords& records = Records();
  for (const PlannedScenario& planned : batch.scenarios) records.Admit(&planned);
  EXPECT_EQ(records.book().KeptCount(), 1u);
  EXPECT_EQ(records.book().scheduler().queued(), 1u);  // scenario 2 runs again
  const std::string named = trajectory.string() + ": no header line (the file is empty); run again";
  EXPECT_NE(progress_text_.str().find("warning: " + named), std::string::npos)
      << progress_text_.str();
  EXPECT_NE(results::ReadTextFile(dir_.path() / "asg_log.txt").find("resume: " + named),
            std::string::npos);
}

TEST_F(FarmRecordsTest, ResumeKeepsCompleteFoldersAndTellsTheirResultsWithoutRunningThem) {
  // Scenario 2 (a feed's) has a complete folder: it is kept and its stored result told; scenario
  // 3's failed one is kept too, and run again with --retry failed.
  const Batch batch = ParseBatchText(R"({"scenarios": [{}, {}, {}]})", "b.json", "b");
  PlannedScenario fed = batch.scenarios[1];
  fed.search_record = {{"candidate_id", 1}};
  WriteEarlier(fed, results::ScenarioStatus::kDone, 0.9);
  WriteEarlier(batch.scenarios[2], results::ScenarioStatus::kFailed, 0.0);
  settings_.resume = true;
  FarmRecords& records = Records();
  records.Admit(&batch.scenarios[0]);
  records.Admit(fed);
  records.Admit(&batch.scenarios[2]);
  const ScenarioBook& book = records.book();
  EXPECT_EQ(book.scheduler().queued(), 1u);  // scenario 1 only
  EXPECT_EQ(book.KeptCount(), 2u);
  EXPECT_EQ(book.KeptDoneCount(), 1u);
  ASSERT_TRUE(book.state(2).kept);
  EXPECT_EQ(book.state(2).recorded->result.regret.regret, 0.9);
  EXPECT_EQ(book.planned(2).request_json, batch.scenarios[1].request_json);
  ASSERT_EQ(feed_.told.size(), 2u);
  EXPECT_EQ(feed_.told[0].scenario_number, 2u);
  EXPECT_EQ(feed_.told[0].regret.regret, 0.9);
  EXPECT_EQ(progress_.finished(), 2u);

  settings_.retry_failed = true;
  FarmRecords& retried = Records();
  for (const PlannedScenario& planned : batch.scenarios) retried.Admit(&planned);
  EXPECT_EQ(retried.book().scheduler().queued(), 2u);  // scenarios 1 and 3
  EXPECT_EQ(retried.book().KeptCount(), 1u);
}

TEST_F(FarmRecordsTest, ARecordTakesItsAttemptsFromTheStateAndIsToldOnceThoughWrittenAgain) {
  const Batch batch = ParseBatchText(R"({"scenarios": [{}]})", "b.json", "b");
  FarmRecords& records = Records(/*max_attempts=*/1);
  records.Admit(&batch.scenarios[0]);
  ScenarioBook& book = records.book();
  ASSERT_EQ(book.Assign(100, 4, kT0), 1u);
  protocol::AnalyzeScenarioRequest analysis;
  analysis.scenario_number = 1;
  analysis.vehicle_sim_time = 2.5;
  analysis.vehicle_trajectory.resize(3);
  records.RecordDone(*book.EndAttempt(100, AttemptOutcome::kDone, "", kT0 + seconds(2)), analysis,
                     {});
  ASSERT_TRUE(book.state(1).recorded.has_value());
  const results::ScenarioOutcome& outcome = *book.state(1).recorded;
  EXPECT_EQ(outcome.result.status, results::ScenarioStatus::kDone);
  EXPECT_EQ(outcome.result.seed, batch.scenarios[0].seed);
  ASSERT_EQ(outcome.timing.attempts.size(), 1u);
  EXPECT_EQ(outcome.timing.attempts[0], (results::AttemptTiming{1, 4, 2.0, "done", ""}));
  // A node's rerun runs it again and its worker is lost: past max_attempts the scenario is
  // recorded failed, the folder written again, the result told once.
  ASSERT_EQ(book.AcceptRerun(1, "lidar", "bad data"), RerunEffect::kQueued);
  ASSERT_EQ(book.Assign(200, 5, kT0 + seconds(3)), 1u);
  ASSERT_EQ(book.EndAttempt(200, AttemptOutcome::kWorkerLost, "gone", kT0 + seconds(4))->next,
            AfterAttempt::kFailed);
  records.RecordUnrunnable(1, results::ScenarioStatus::kFailed, "gone");
  EXPECT_EQ(book.state(1).recorded->result.status, results::ScenarioStatus::kFailed);
  EXPECT_EQ(book.state(1).recorded->result.reruns.size(), 1u);
  EXPECT_EQ(book.state(1).recorded->timing.attempts.size(), 2u);
  EXPECT_EQ(feed_.told.size(), 1u);
  writer_.Drain();
  records.TakeWritten();
  EXPECT_EQ(progress_.finished(), 1u);
  EXPECT_EQ(writer_.error(), "");
  EXPECT_NE(results::ReadTextFile(results::ScenarioFolder(dir_.path(), 1) / "result.json")
                .find("\"failed\""),
            std::string::npos);
}

TEST_F(FarmRecordsTest, AReproductionRunGoesToItsFolderAndStaysOutOfTheBatchsCounts) {
  const Batch batch = ParseBatchText(R"({"scenarios": [{}]})", "b.json", "b");
  FarmRecords& records = Records();
  records.Admit(&batch.scenarios[0]);
  PlannedScenario again = batch.scenarios[0];
  again.scenario_number = 2;
  again.request.scenario_number = 2;
  again.request_json["scenario_number"] = 2;
  const std::filesystem::path folder = dir_.path() / "reproduce" / "scenario_0001_run_1";
  records.AdmitReproduction(again, folder);
  ScenarioBook& book = records.book();
  EXPECT_TRUE(records.IsReproduction(2));
  EXPECT_FALSE(records.IsReproduction(1));
  EXPECT_EQ(book.scheduler().queued(), 2u);
  for (const uint32_t number : {1u, 2u}) {
    ASSERT_EQ(book.Assign(100, 4, kT0), number);
    protocol::AnalyzeScenarioRequest analysis;
    analysis.scenario_number = number;
    analysis.vehicle_trajectory.resize(2);
    records.RecordDone(*book.EndAttempt(100, AttemptOutcome::kDone, "", kT0), analysis, {});
  }
  writer_.Drain();
  records.TakeWritten();
  EXPECT_EQ(writer_.error(), "");
  // Its folder is the one given, not scenario_0002; the batch's counts and feed know scenario 1.
  EXPECT_TRUE(results::ScenarioFolderCompleteAt(folder, 2));
  EXPECT_FALSE(std::filesystem::exists(results::ScenarioFolder(dir_.path(), 2)));
  EXPECT_EQ(progress_.finished(), 1u);
  ASSERT_EQ(feed_.told.size(), 1u);
  EXPECT_EQ(feed_.told[0].scenario_number, 1u);
  const BatchOutcomes outcomes = records.OutcomesOfBatch();
  ASSERT_EQ(outcomes.outcomes.size(), 1u);
  EXPECT_EQ(outcomes.outcomes[0].result.scenario_number, 1u);
  EXPECT_EQ(records.reproduction_runs(), 1u);
  EXPECT_EQ(records.reproduction_recorded(), 1u);

  // Resumed: the complete folder is kept, not queued, and still not the batch's.
  settings_.resume = true;
  FarmRecords& resumed = Records();
  resumed.Admit(&batch.scenarios[0]);
  resumed.AdmitReproduction(again, folder);
  EXPECT_EQ(resumed.book().scheduler().queued(), 0u);
  EXPECT_TRUE(resumed.book().state(2).kept);
  EXPECT_EQ(resumed.reproduction_recorded(), 1u);
  EXPECT_EQ(resumed.OutcomesOfBatch().kept, 1u);
  EXPECT_EQ(resumed.OutcomesOfBatch().outcomes.size(), 1u);
}

TEST(FarmRecords, SchedulerSettingsComeFromTheBatchAndTheFarm) {
  const Batch batch = ParseBatchText(R"({"scenarios": [{}], "max_attempts": 5,
                                        "scenario_timeout_s": 12.5})",
                                     "b.json", "b");
  FarmSettings settings;
  settings.start_timeout = std::chrono::milliseconds(750);
  const SchedulerSettings scheduling = SchedulerSettingsFor(batch, settings);
  EXPECT_EQ(scheduling.max_attempts, 5u);
  EXPECT_EQ(scheduling.scenario_timeout, std::chrono::milliseconds(12'500));
  EXPECT_EQ(scheduling.start_timeout, std::chrono::milliseconds(750));
}

}  // namespace
}  // namespace asg::client
