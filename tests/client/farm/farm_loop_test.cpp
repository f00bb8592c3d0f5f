// Tests for client/farm/farm_loop.h, driven through its event queue with fake workers behind
// WorkerChannels and a fake launcher, no processes and no connections (the scenario bookkeeping
// it applies is tested in scenario_book_test.cpp).
#include "client/farm/farm_loop.h"

#include <gtest/gtest.h>

#include <optional>
#include <sstream>

#include "results/files.h"
#include "tests/client/farm/farm_fakes.h"
#include "tests/file_size_limit.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

using fakes::FakeFeed;
using fakes::FakeLauncher;
using fakes::FakeWorker;
using fakes::WorkerTrace;
using testutil::TempDir;

/// A farm loop over a batch of `count` scenarios whose workers are fakes, with no vehicle nodes.
class FarmLoopTest : public ::testing::Test {
 protected:
  explicit FarmLoopTest(int count = 2)
      : batch_(ParseBatchText(ScenariosText(count), "loop.json", "loop")),
        logger_(dir_.path() / "asg_log.txt", false),
        progress_(batch_.scenarios.size(), ProgressSettings{false}, progress_text_),
        writer_(dir_.path()) {
    settings_.out_dir = dir_.path();
    settings_.workers = 0;
  }

  /// {"scenarios": [{}, {}, ...]} with `count` scenarios.
  static std::string ScenariosText(int count) {
    std::string scenarios;
    for (int i = 0; i < count; ++i) scenarios += i == 0 ? "{}" : ", {}";
    return R"({"scenarios": [)" + scenarios + "]}";
  }

  /// The records with every scenario of the batch admitted (queued), told to `feed` if any.
  FarmRecords& Records(ScenarioFeed* feed = nullptr) {
    records_.emplace(SchedulerSettingsFor(batch_, settings_),
                     RecordsContext{&settings_, &logger_, &progress_, &writer_, feed});
    for (const PlannedScenario& planned : batch_.scenarios) records_->Admit(&planned);
    return *records_;
  }

  FarmLoopContext Context(ScenarioFeed* feed = nullptr) {
    if (!records_) Records(feed);
    return {&batch_.settings.vehicle_nodes,
            &logger_,
            &events_,
            &launcher_,
            &progress_,
            &*records_,
            nullptr,
            feed};
  }

  const ScenarioBook& book() const { return records_->book(); }

  TempDir dir_;
  Batch batch_;
  FarmSettings settings_;
  core::Logger logger_;
  EventQueue events_;
  std::ostringstream progress_text_;
  Progress progress_;
  ResultWriter writer_;
  FakeLauncher launcher_;
  std::optional<FarmRecords> records_;
  WorkerTrace trace_;
};

TEST_F(FarmLoopTest, ASignalStopsTheLoopWithNothingRecorded) {
  FarmLoop loop(Context());
  events_.Push(FarmEvent{0, farm_event::Signal{15}});
  loop.Run();
  EXPECT_TRUE(loop.interrupted());
  EXPECT_EQ(loop.breakdown(), "");
  EXPECT_TRUE(book().Outcomes().empty());
  ASSERT_EQ(book().states().size(), 2u);
  for (const auto& [number, state] : book().states()) {
    EXPECT_EQ(state.scenario_number, number);
    EXPECT_TRUE(state.attempts.empty()) << number;
    EXPECT_FALSE(state.current.has_value()) << number;
  }
  writer_.Drain();
  EXPECT_NE(results::ReadTextFile(dir_.path() / "asg_log.txt")
                .find("signal 15: stopping; scenarios in flight are abandoned"),
            std::string::npos);
}

TEST_F(FarmLoopTest, EventsOfAConnectionThatNeverRegisteredChangeNothing) {
  FarmLoop loop(Context());
  constexpr WorkerKey kStranger = 7;
  events_.Push(FarmEvent{kStranger, farm_event::Status{protocol::StatusCode::ONLINE_AND_RUNNING}});
  farm_event::Result result;
  result.analysis.scenario_number = 1;
  events_.Push(FarmEvent{kStranger, std::move(result)});
  protocol::RunPreemptedRequest preempted;
  preempted.scenario_number = 1;
  events_.Push(FarmEvent{kStranger, farm_event::Preempted{preempted}});
  events_.Push(FarmEvent{kStranger, farm_event::RunRefused{2, "no reply"}});
  events_.Push(FarmEvent{kStranger, farm_event::Closed{"gone"}});
  events_.Push(FarmEvent{kStranger, farm_event::Node{NodeClosed(kStranger, "gone")}});
  events_.Push(FarmEvent{0, farm_event::Signal{2}});
  loop.Run();
  EXPECT_TRUE(loop.interrupted());
  EXPECT_TRUE(book().Outcomes().empty());
  for (const auto& [number, state] : book().states()) {
    EXPECT_EQ(state.LatestAttemptNumber(), 0u) << number;
    EXPECT_TRUE(state.reruns.empty()) << number;
  }
  writer_.Drain();
  EXPECT_FALSE(std::filesystem::exists(results::ScenarioFolder(dir_.path(), 1)));
}

TEST_F(FarmLoopTest, TheNextStagesScenariosRunBeforeTheLoopEnds) {
  // Once scenarios 1 and 2 are done, the next stage admits a third, once: it runs too.
  int stages = 0;
  FarmLoopContext context = Context();
  context.next_stage = [&] {
    ++stages;
    if (stages > 1) return;
    EXPECT_TRUE(book().state(1).recorded.has_value());
    EXPECT_TRUE(book().state(2).recorded.has_value());
    PlannedScenario again = batch_.scenarios[0];
    again.scenario_number = 3;
    again.request.scenario_number = 3;
    again.request_json["scenario_number"] = 3;
    records_->AdmitReproduction(again, dir_.path() / "reproduce" / "scenario_0001_run_1");
  };
  FarmLoop loop(context);
  FakeWorker::Register(1, 11, &events_, &trace_);
  loop.Run();
  EXPECT_FALSE(loop.interrupted());
  EXPECT_EQ(stages, 2);  // the second call finds nothing more to do, and the loop ends
  EXPECT_EQ(trace_.sent, (std::vector<std::pair<uint16_t, uint32_t>>{{11, 1}, {11, 2}, {11, 3}}));
  ASSERT_TRUE(book().state(3).recorded.has_value());
  EXPECT_EQ(book().state(3).recorded->result.status, results::ScenarioStatus::kDone);
}

/// A batch of three scenarios.
class FarmLoopThreeTest : public FarmLoopTest {
 protected:
  FarmLoopThreeTest() : FarmLoopTest(3) {}
};

TEST_F(FarmLoopThreeTest, RegisteredWorkersGetScenariosInAscendingOrderUntilTheBatchEnds) {
  FarmLoop loop(Context());
  FakeWorker::Register(1, 11, &events_, &trace_);
  FakeWorker::Register(2, 12, &events_, &trace_);
  loop.Run();  // returns once every scenario is recorded
  EXPECT_FALSE(loop.interrupted());
  EXPECT_EQ(loop.breakdown(), "");
  EXPECT_EQ(launcher_.starts, 1);
  EXPECT_EQ(launcher_.claimed, (std::map<WorkerKey, uint16_t>{{1, 11}, {2, 12}}));
  // Each idle worker is given the lowest queued scenario; a result frees its worker for the next.
  EXPECT_EQ(trace_.sent, (std::vector<std::pair<uint16_t, uint32_t>>{{11, 1}, {12, 2}, {11, 3}}));
  EXPECT_EQ(trace_.accepted.size(), 3u);
  EXPECT_TRUE(trace_.refused.empty());
  EXPECT_TRUE(book().scheduler().Drained());
  const std::vector<results::ScenarioOutcome> outcomes = book().Outcomes();
  ASSERT_EQ(outcomes.size(), 3u);
  for (const results::ScenarioOutcome& outcome : outcomes) {
    EXPECT_EQ(outcome.result.status, results::ScenarioStatus::kDone);
    EXPECT_EQ(outcome.result.vehicle_sim_time, 1.5);
    ASSERT_EQ(outcome.timing.attempts.size(), 1u);
    EXPECT_EQ(outcome.timing.attempts[0].outcome, "done");
  }
  EXPECT_EQ(book().state(3).attempts[0].worker_id, 11);
  writer_.Drain();
  records_->TakeWritten();
  EXPECT_EQ(progress_.finished(), 3u);  // each counted once its folder is on disk
  for (uint32_t number = 1; number <= 3; ++number) {
    EXPECT_TRUE(
        std::filesystem::exists(results::ScenarioFolder(dir_.path(), number) / "result.json"))
        << number;
  }
  loop.CloseAll("batch finished");
  EXPECT_EQ(trace_.closed,
            (std::vector<std::string>{"worker 11: batch finished", "worker 12: batch finished"}));
}

TEST_F(FarmLoopThreeTest, AWorkerGetsItsNextScenarioOnceItsReportIsAcceptedNotAfterItsReady) {
  FarmLoop loop(Context());
  auto worker = std::make_unique<FakeWorker>(1, 11, &events_, &trace_);
  worker->StopSayingReady();  // says READY once, at registration
  events_.Push(FarmEvent{1, farm_event::Registered{std::move(worker)}});
  events_.Push(FarmEvent{1, farm_event::Status{protocol::StatusCode::ONLINE_AND_READY}});
  loop.Run();  // returns once every scenario is recorded
  EXPECT_EQ(trace_.sent, (std::vector<std::pair<uint16_t, uint32_t>>{{11, 1}, {11, 2}, {11, 3}}));
  EXPECT_EQ(trace_.accepted.size(), 3u);
  EXPECT_TRUE(book().scheduler().Drained());
}

/// The loop over a batch of 200 scenarios.
class FarmLoopManyTest : public FarmLoopTest {
 protected:
  FarmLoopManyTest() : FarmLoopTest(200) {}
};

TEST_F(FarmLoopManyTest, AResultThatCannotBeWrittenStopsTheLoopAndIsNamed) {
  FarmLoop loop(Context());
  // Before each scenario after the first the writer has tried the folders submitted so far, so
  // the loop meets the failure of scenario 1's folder while scenarios remain to hand out.
  FakeWorker::Register(1, 11, &events_, &trace_, nullptr, [this](uint32_t number) {
    if (number > 1) writer_.Drain();
  });
  {
    const testutil::FileSizeLimit limit(1);  // no file can be written, as on a full disk
    loop.Run();  // returns at the first failure, not after the 200 scenarios
    writer_.Drain();
  }
  EXPECT_EQ(loop.breakdown().rfind("writing results failed: scenario 1: ", 0), 0u)
      << loop.breakdown();
  EXPECT_NE(loop.breakdown().find("File too large"), std::string::npos) << loop.breakdown();
  EXPECT_NE(progress_text_.str().find("error: writing results failed: scenario 1: "),
            std::string::npos);
  EXPECT_LT(trace_.sent.size(), 200u);  // no more scenarios handed out
  EXPECT_FALSE(book().scheduler().Drained());
  records_->TakeWritten();
  EXPECT_EQ(progress_.finished(), 0u);  // nothing is on disk, nothing counted as done
  EXPECT_TRUE(records_->OutcomesOfBatch().outcomes.empty());
  EXPECT_EQ(results::RemoveStagingFolders(dir_.path()), 0u);
}

TEST_F(FarmLoopTest, AWorkerLostMidRunHasItsScenarioQueuedAgainForAnother) {
  FarmLoop loop(Context());
  FakeWorker::Register(1, 11, &events_, &trace_, [] {});
  FakeWorker::Register(2, 12, &events_, &trace_);
  loop.Run();
  EXPECT_FALSE(loop.interrupted());
  // Worker 11's connection closes during scenario 1, which then runs on worker 12 after its 2.
  EXPECT_EQ(trace_.sent, (std::vector<std::pair<uint16_t, uint32_t>>{{11, 1}, {12, 2}, {12, 1}}));
  const ScenarioState& state = book().state(1);
  ASSERT_EQ(state.attempts.size(), 2u);
  EXPECT_EQ(state.attempts[0].outcome, AttemptOutcome::kWorkerLost);
  EXPECT_EQ(state.attempts[0].worker_id, 11);
  EXPECT_NE(state.attempts[0].detail.find("connection to worker 11 (pid 1011) closed"),
            std::string::npos)
      << state.attempts[0].detail;
  EXPECT_EQ(state.attempts[1].outcome, AttemptOutcome::kDone);
  EXPECT_EQ(state.attempts[1].worker_id, 12);
  ASSERT_TRUE(state.recorded.has_value());
  EXPECT_EQ(state.recorded->result.status, results::ScenarioStatus::kDone);
  EXPECT_EQ(state.recorded->timing.attempts.size(), 2u);
}

TEST_F(FarmLoopTest, AWatchedWorkerThatTheLauncherReportsGoneIsClosedAndItsScenarioRunsAgain) {
  launcher_.watched = {11};
  FarmLoop loop(Context());
  // The watched worker's closed connection waits for its process, which the launcher reports.
  FakeWorker::Register(1, 11, &events_, &trace_, [this] {
    launcher_.gone.push_back({11, WorkerKey{1}, "worker 11 (pid 1011) exited with code 1"});
  });
  FakeWorker::Register(2, 12, &events_, &trace_);
  loop.Run();
  EXPECT_EQ(book().state(1).attempts.size(), 2u);
  EXPECT_EQ(book().state(1).attempts[0].outcome, AttemptOutcome::kWorkerLost);
  EXPECT_EQ(book().state(1).attempts[0].detail,
            "worker 11 (pid 1011) exited with code 1 during scenario 1");
  EXPECT_EQ(book().state(1).recorded->result.status, results::ScenarioStatus::kDone);
  ASSERT_FALSE(trace_.closed.empty());
  EXPECT_EQ(trace_.closed[0], "worker 11: worker process ended");
}

TEST_F(FarmLoopTest, AFeedsScenariosRunAfterTheResultThatPlannedThem) {
  // The feed plans scenario 3 once scenario 2 is recorded: the loop takes it and runs it.
  const Batch larger = ParseBatchText(ScenariosText(3), "loop.json", "loop");
  FakeFeed feed;
  feed.after.emplace(2, larger.scenarios[2]);
  FarmLoop loop(Context(&feed));
  FakeWorker::Register(1, 11, &events_, &trace_);
  loop.Run();
  EXPECT_EQ(trace_.sent, (std::vector<std::pair<uint16_t, uint32_t>>{{11, 1}, {11, 2}, {11, 3}}));
  ASSERT_EQ(feed.told.size(), 3u);
  EXPECT_EQ(feed.told[2].scenario_number, 3u);
  EXPECT_EQ(book().planned(3).request_json, larger.scenarios[2].request_json);
  EXPECT_EQ(book().Outcomes().size(), 3u);
}

}  // namespace
}  // namespace asg::client
