// Tests for client/farm/scenario_book.h.
#include "client/farm/scenario_book.h"

#include <gtest/gtest.h>

namespace asg::client {
namespace {

using std::chrono::seconds;

SchedulerSettings Settings(uint32_t max_attempts) {
  SchedulerSettings settings;
  settings.max_attempts = max_attempts;
  return settings;
}

const SteadyClock::time_point kT0{};

/// A valid planned scenario numbered `number`.
PlannedScenario Planned(uint32_t number) {
  PlannedScenario planned;
  planned.scenario_number = number;
  return planned;
}

/// Adds a planned scenario for each of `numbers` to the book (which keeps them) and queues it.
void AddQueued(ScenarioBook* book, std::initializer_list<uint32_t> numbers) {
  for (const uint32_t number : numbers) {
    book->Add(Planned(number));
    book->Queue(number);
  }
}

TEST(ScenarioBook, PreemptionWorkerDeathAndRerunAreEachOneAttemptCountedOnce) {
  ScenarioBook book(Settings(3));
  AddQueued(&book, {1});
  // Attempt 1: preempted on worker 10 after 2 s; queued again.
  ASSERT_EQ(book.Assign(100, 10, kT0), 1u);
  auto end = book.EndAttempt(100, AttemptOutcome::kPreempted, "node left", kT0 + seconds(2));
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(end->attempt.number, 1u);
  EXPECT_EQ(end->next, AfterAttempt::kQueued);
  // Attempt 2: its worker dies after 3 s; queued again.
  ASSERT_EQ(book.Assign(200, 20, kT0 + seconds(10)), 1u);
  end = book.EndAttempt(200, AttemptOutcome::kWorkerLost, "killed by signal 9", kT0 + seconds(13));
  EXPECT_EQ(end->attempt.number, 2u);
  EXPECT_EQ(end->next, AfterAttempt::kQueued);
  EXPECT_EQ(book.EndAttempt(200, AttemptOutcome::kWorkerLost, "again", kT0 + seconds(14)),
            std::nullopt);  // a second report of the same loss counts nothing
  // Attempt 3: done, then a node's rerun of it is accepted: queued again.
  ASSERT_EQ(book.Assign(300, 30, kT0 + seconds(20)), 1u);
  end = book.EndAttempt(300, AttemptOutcome::kDone, "", kT0 + seconds(24));
  EXPECT_EQ(end->next, AfterAttempt::kFinished);
  EXPECT_EQ(book.AcceptRerun(1, "lidar", "bad data"), RerunEffect::kQueued);
  // Attempt 4: done, and that result stands.
  ASSERT_EQ(book.Assign(300, 30, kT0 + seconds(30)), 1u);
  end = book.EndAttempt(300, AttemptOutcome::kDone, "", kT0 + seconds(35));
  EXPECT_EQ(end->attempt.number, 4u);
  EXPECT_EQ(end->next, AfterAttempt::kFinished);
  EXPECT_TRUE(book.scheduler().Drained());

  const ScenarioState& state = book.state(1);
  EXPECT_EQ(state.FailedAttempts(), 2u);  // the preemption and the death, not the rerun
  const results::ScenarioTiming timing = state.Timing();
  ASSERT_EQ(timing.attempts.size(), 4u);
  EXPECT_EQ(timing.attempts[0], (results::AttemptTiming{1, 10, 2.0, "preempted", "node left"}));
  EXPECT_EQ(timing.attempts[1],
            (results::AttemptTiming{2, 20, 3.0, "worker lost", "killed by signal 9"}));
  EXPECT_EQ(timing.attempts[2], (results::AttemptTiming{3, 30, 4.0, "rerun requested", ""}));
  EXPECT_EQ(timing.attempts[3], (results::AttemptTiming{4, 30, 5.0, "done", ""}));
  EXPECT_EQ(timing.worker_id, 30);
  EXPECT_DOUBLE_EQ(timing.wall_time_s, 14.0);
  // The rerun names the attempt that ran again, numbered as in timing.json.
  ASSERT_EQ(state.reruns.size(), 1u);
  EXPECT_EQ(state.reruns[0], (results::RerunRecord{3, "lidar", "bad data"}));
}

TEST(ScenarioBook, RerunAcceptedWhileRunningQueuesTheScenarioWhenItsResultArrives) {
  ScenarioBook book(Settings(3));
  AddQueued(&book, {5});
  ASSERT_EQ(book.Assign(1, 1, kT0), 5u);
  EXPECT_TRUE(book.RerunPossible(5));
  EXPECT_EQ(book.AcceptRerun(5, "cam", "early"), RerunEffect::kAfterCurrent);
  EXPECT_FALSE(book.RerunPossible(5));
  EXPECT_EQ(book.AcceptRerun(5, "cam", "twice"), RerunEffect::kIgnored);  // one per attempt
  EXPECT_EQ(book.scheduler().queued(), 0u);                               // still held
  const auto end = book.EndAttempt(1, AttemptOutcome::kDone, "", kT0 + seconds(1));
  EXPECT_EQ(end->attempt.outcome, AttemptOutcome::kRerunRequested);
  EXPECT_EQ(end->next, AfterAttempt::kQueued);
  EXPECT_EQ(book.scheduler().queued(), 1u);
  EXPECT_FALSE(book.state(5).rerun_pending);
  ASSERT_EQ(book.state(5).reruns.size(), 1u);
  EXPECT_EQ(book.state(5).reruns[0].attempt, 1u);
}

TEST(ScenarioBook, FailedAttemptsUpToMaxAttemptsFailTheScenario) {
  ScenarioBook book(Settings(2));
  AddQueued(&book, {1, 2});
  ASSERT_EQ(book.Assign(1, 1, kT0), 1u);
  EXPECT_EQ(book.EndAttempt(1, AttemptOutcome::kTimedOut, "cap", kT0)->next, AfterAttempt::kQueued);
  ASSERT_EQ(book.Assign(1, 1, kT0), 1u);  // back in its place, before scenario 2
  const auto end = book.EndAttempt(1, AttemptOutcome::kRefused, "mismatch", kT0);
  EXPECT_EQ(end->next, AfterAttempt::kFailed);
  EXPECT_EQ(book.state(1).FailedAttempts(), 2u);
  EXPECT_EQ(book.Assign(1, 1, kT0), 2u);  // scenario 1 is not queued again
}

TEST(ScenarioBook, InvalidSceneFinishesAndIgnoresLaterReruns) {
  ScenarioBook book(Settings(3));
  AddQueued(&book, {1});
  ASSERT_EQ(book.Assign(1, 1, kT0), 1u);
  const auto end = book.EndAttempt(1, AttemptOutcome::kInvalidScene, "no terrain", kT0);
  EXPECT_EQ(end->next, AfterAttempt::kFinished);
  EXPECT_EQ(book.state(1).FailedAttempts(), 0u);
  EXPECT_FALSE(book.RerunPossible(1));  // so a node asking is answered accepted: false
  EXPECT_EQ(book.AcceptRerun(1, "n", "why"), RerunEffect::kIgnored);
  EXPECT_TRUE(book.state(1).reruns.empty());
  EXPECT_TRUE(book.scheduler().Drained());
  EXPECT_FALSE(book.RerunPossible(99));
  EXPECT_EQ(book.AcceptRerun(99, "n", "unknown scenario"), RerunEffect::kIgnored);
}

TEST(ScenarioBook, AddedScenariosAreQueuedInNumberOrderAfterTheFirstOnes) {
  ScenarioBook book(Settings(3));
  AddQueued(&book, {2});
  ASSERT_EQ(book.Assign(100, 10, kT0), 2u);
  EXPECT_TRUE(book.scheduler().Drained() == false);
  AddQueued(&book, {5, 4});
  EXPECT_EQ(book.states().size(), 3u);
  EXPECT_EQ(book.state(4).scenario_number, 4u);
  EXPECT_EQ(book.Assign(200, 20, kT0), 4u);
  EXPECT_EQ(book.Assign(300, 30, kT0), 5u);
  EXPECT_THROW(book.Add(Planned(4)), std::invalid_argument);
}

TEST(ScenarioBook, InvalidRunsRunAgainThreeTimesThenTheLastResultIsKept) {
  ScenarioBook book(Settings(1));
  AddQueued(&book, {1});
  for (uint32_t run = 1; run <= kMaxInvalidRuns; ++run) {
    ASSERT_EQ(book.Assign(100, 10, kT0), 1u);
    const auto end =
        book.EndAttempt(100, AttemptOutcome::kInvalidRun, "empty trajectory", kT0 + seconds(1));
    ASSERT_TRUE(end.has_value());
    EXPECT_EQ(end->attempt.number, run);
    EXPECT_EQ(end->next, AfterAttempt::kQueued);
  }
  // The fourth invalid run is not run again: its result is kept.
  ASSERT_EQ(book.Assign(100, 10, kT0), 1u);
  const auto end = book.EndAttempt(100, AttemptOutcome::kInvalidRun, "sim time", kT0 + seconds(1));
  EXPECT_EQ(end->next, AfterAttempt::kFinished);
  EXPECT_TRUE(book.scheduler().Drained());
  const ScenarioState& state = book.state(1);
  EXPECT_EQ(state.InvalidRuns(), 4u);
  EXPECT_EQ(state.FailedAttempts(), 0u);  // max_attempts 1 did not give up
  const results::ScenarioTiming timing = state.Timing();
  ASSERT_EQ(timing.attempts.size(), 4u);
  EXPECT_EQ(timing.attempts[0],
            (results::AttemptTiming{1, 10, 1.0, "invalid run", "empty trajectory"}));
  EXPECT_EQ(timing.attempts[3].outcome, "invalid run");
}

TEST(ScenarioBook, AValidRunAfterAnInvalidOneIsTheResult) {
  ScenarioBook book(Settings(3));
  AddQueued(&book, {1});
  ASSERT_EQ(book.Assign(100, 10, kT0), 1u);
  EXPECT_EQ(book.EndAttempt(100, AttemptOutcome::kInvalidRun, "empty trajectory", kT0)->next,
            AfterAttempt::kQueued);
  ASSERT_EQ(book.Assign(200, 20, kT0), 1u);
  const auto end = book.EndAttempt(200, AttemptOutcome::kDone, "", kT0);
  EXPECT_EQ(end->attempt.number, 2u);
  EXPECT_EQ(end->next, AfterAttempt::kFinished);
  EXPECT_EQ(book.state(1).Timing().attempts[0].outcome, "invalid run");
  EXPECT_EQ(book.state(1).Timing().attempts[1].outcome, "done");
}

TEST(ScenarioBook, HoldsTheBatchsPlansAndKeepsThoseAFeedAdds) {
  const Batch batch = ParseBatchText(R"({"scenarios": [{}, {}]})", "b.json", "b");
  ScenarioBook book(Settings(3));
  for (const PlannedScenario& planned : batch.scenarios) book.Add(&planned);
  PlannedScenario fed = Planned(7);
  fed.source = "search[0]";
  book.Add(std::move(fed));
  EXPECT_EQ(&book.planned(1), &batch.scenarios[0]);  // the batch's, not a copy
  EXPECT_EQ(book.planned(7).source, "search[0]");
  EXPECT_EQ(book.plans().size(), 3u);
  EXPECT_EQ(book.states().size(), 3u);
  // Added scenarios are neither queued nor recorded until the caller says.
  EXPECT_TRUE(book.scheduler().Drained());
  EXPECT_THROW(book.Add(&batch.scenarios[1]), std::invalid_argument);
  book.Queue(7);
  EXPECT_EQ(book.Assign(100, 10, kT0), 7u);
}

TEST(ScenarioBook, EveryOutcomeIsReadFromTheBookKeptOnesCounted) {
  ScenarioBook book(Settings(3));
  AddQueued(&book, {3});
  book.Add(Planned(1));
  book.Add(Planned(2));
  results::ScenarioOutcome kept;
  kept.result.scenario_number = 1;
  kept.result.status = results::ScenarioStatus::kDone;
  book.Keep(1, kept);
  results::ScenarioOutcome invalid;
  invalid.result.scenario_number = 2;
  invalid.result.status = results::ScenarioStatus::kInvalid;
  book.SetRecorded(2, invalid);
  EXPECT_EQ(book.Outcomes().size(), 2u);  // scenario 3 is not recorded yet
  ASSERT_EQ(book.Assign(100, 10, kT0), 3u);
  book.EndAttempt(100, AttemptOutcome::kDone, "", kT0 + seconds(1));
  results::ScenarioOutcome run;
  run.result.scenario_number = 3;
  run.result.status = results::ScenarioStatus::kDone;
  book.SetRecorded(3, run);
  const std::vector<results::ScenarioOutcome> outcomes = book.Outcomes();
  ASSERT_EQ(outcomes.size(), 3u);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(outcomes[i].result.scenario_number, i + 1);
  EXPECT_EQ(book.KeptCount(), 1u);
  EXPECT_EQ(book.KeptDoneCount(), 1u);
  EXPECT_TRUE(book.state(1).kept);
  EXPECT_FALSE(book.state(3).kept);
}

TEST(ScenarioBook, TheWallClockCapCountsFromTheAttemptsStartInItsState) {
  SchedulerSettings settings = Settings(3);
  settings.scenario_timeout = seconds(10);
  settings.start_timeout = seconds(100);
  ScenarioBook book(settings);
  AddQueued(&book, {1});
  ASSERT_EQ(book.Assign(100, 10, kT0 + seconds(5)), 1u);
  book.MarkStarted(100);
  EXPECT_EQ(book.state(1).current->start, kT0 + seconds(5));
  EXPECT_TRUE(book.Poll(kT0 + seconds(14)).empty());
  const std::vector<SchedulerAction> actions = book.Poll(kT0 + seconds(15));
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].kind, SchedulerAction::Kind::kDropWorker);
  EXPECT_EQ(actions[0].outcome, AttemptOutcome::kTimedOut);
}

}  // namespace
}  // namespace asg::client
