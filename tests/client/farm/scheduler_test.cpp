// Tests for client/farm/scheduler.h.
#include "client/farm/scheduler.h"

#include <gtest/gtest.h>

namespace asg::client {
namespace {

using std::chrono::milliseconds;
using Kind = SchedulerAction::Kind;

SchedulerSettings Settings() {
  SchedulerSettings settings;
  settings.max_attempts = 2;
  settings.scenario_timeout = milliseconds(10'000);
  settings.start_timeout = milliseconds(1'000);
  settings.max_resubmissions = 2;
  return settings;
}

const SteadyClock::time_point kT0{};

/// Every attempt began at kT0 (the scenario states' start, which the scheduler reads).
SteadyClock::time_point StartedAtT0(uint32_t) { return kT0; }

TEST(Scheduler, HandsOutScenariosInAscendingOrderOnePerWorker) {
  Scheduler scheduler(Settings(), {7, 3, 5});
  EXPECT_EQ(scheduler.Assign(1, kT0), 3u);
  EXPECT_EQ(scheduler.Assign(1, kT0), std::nullopt);  // worker 1 already holds one
  EXPECT_EQ(scheduler.Assign(2, kT0), 5u);
  EXPECT_EQ(scheduler.Check(1, 3), Scheduler::Verdict::kAccepted);
  EXPECT_EQ(scheduler.Assign(1, kT0), std::nullopt);  // Check changes nothing
  EXPECT_EQ(scheduler.ReleaseWorker(1), 3u);
  EXPECT_EQ(scheduler.Assign(1, kT0), 7u);
  EXPECT_EQ(scheduler.queued(), 0u);
  EXPECT_EQ(scheduler.in_flight(), 2u);
  EXPECT_FALSE(scheduler.Drained());
}

TEST(Scheduler, ReleasedScenarioIsNeitherHeldNorQueuedUntilRequeuedInItsPlace) {
  Scheduler scheduler(Settings(), {1, 2});
  ASSERT_EQ(scheduler.Assign(1, kT0), 1u);
  EXPECT_EQ(scheduler.ReleaseWorker(1), 1u);
  EXPECT_EQ(scheduler.ReleaseWorker(1), std::nullopt);  // idempotent
  EXPECT_EQ(scheduler.AssignedTo(1), std::nullopt);
  EXPECT_EQ(scheduler.queued(), 1u);
  EXPECT_TRUE(scheduler.Requeue(1));
  EXPECT_FALSE(scheduler.Requeue(1));       // queued already
  ASSERT_EQ(scheduler.Assign(2, kT0), 1u);  // before scenario 2
  EXPECT_FALSE(scheduler.Requeue(1));       // held
  EXPECT_EQ(scheduler.Assign(3, kT0), 2u);
}

TEST(Scheduler, GivesUpAtMaxAttemptsFailedAttempts) {
  Scheduler scheduler(Settings(), {1});  // max_attempts 2
  EXPECT_FALSE(scheduler.GivesUp(0));
  EXPECT_FALSE(scheduler.GivesUp(1));
  EXPECT_TRUE(scheduler.GivesUp(2));
}

TEST(Scheduler, UnstartedScenarioIsResubmittedTwiceThenTheWorkerIsDropped) {
  Scheduler scheduler(Settings(), {4});
  ASSERT_EQ(scheduler.Assign(1, kT0), 4u);
  EXPECT_TRUE(scheduler.Poll(kT0 + milliseconds(999), StartedAtT0).empty());
  auto actions = scheduler.Poll(kT0 + milliseconds(1'000), StartedAtT0);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].kind, Kind::kResubmit);
  EXPECT_EQ(actions[0].scenario_number, 4u);
  EXPECT_EQ(actions[0].reason, "scenario 4 not started within 1 s");
  actions = scheduler.Poll(kT0 + milliseconds(2'000), StartedAtT0);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].kind, Kind::kResubmit);
  actions = scheduler.Poll(kT0 + milliseconds(3'000), StartedAtT0);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].kind, Kind::kDropWorker);
  EXPECT_EQ(actions[0].reason, "scenario 4 not started within 1 s; given up after 2 resubmissions");
  EXPECT_EQ(actions[0].outcome, AttemptOutcome::kNotStarted);
}

TEST(Scheduler, StartedScenarioIsNotResubmittedButHitsTheWallClockCap) {
  Scheduler scheduler(Settings(), {4});
  ASSERT_EQ(scheduler.Assign(1, kT0), 4u);
  scheduler.MarkStarted(1);
  EXPECT_TRUE(scheduler.Poll(kT0 + milliseconds(9'999), StartedAtT0).empty());
  const auto actions = scheduler.Poll(kT0 + milliseconds(10'000), StartedAtT0);
  ASSERT_EQ(actions.size(), 1u);
  EXPECT_EQ(actions[0].kind, Kind::kDropWorker);
  EXPECT_EQ(actions[0].reason, "scenario 4 exceeded the wall-clock cap of 10 s");
  EXPECT_EQ(actions[0].outcome, AttemptOutcome::kTimedOut);
}

TEST(Scheduler, MismatchedReportIsResubmittedUntilTheWorkerIsGivenUp) {
  Scheduler scheduler(Settings(), {4, 5});
  ASSERT_EQ(scheduler.Assign(1, kT0), 4u);
  EXPECT_EQ(scheduler.Check(1, 5), Scheduler::Verdict::kMismatch);
  EXPECT_EQ(scheduler.Resubmit(1, kT0, "wrong number").kind, Kind::kResubmit);
  EXPECT_EQ(scheduler.Resubmit(1, kT0, "wrong number").kind, Kind::kResubmit);
  const SchedulerAction drop = scheduler.Resubmit(1, kT0, "wrong number");
  EXPECT_EQ(drop.kind, Kind::kDropWorker);
  EXPECT_EQ(drop.outcome, AttemptOutcome::kRefused);
  EXPECT_EQ(drop.reason, "wrong number; given up after 2 resubmissions");
  EXPECT_EQ(scheduler.Check(2, 4), Scheduler::Verdict::kUnexpected);
  EXPECT_EQ(scheduler.Check(1, 4), Scheduler::Verdict::kAccepted);
}

TEST(Scheduler, StoppedSchedulerHandsOutNothing) {
  Scheduler scheduler(Settings(), {1, 2});
  scheduler.Stop();
  EXPECT_EQ(scheduler.Assign(1, kT0), std::nullopt);
  EXPECT_EQ(scheduler.queued(), 2u);
}

TEST(Scheduler, RejectsBadSettingsAndDuplicateNumbers) {
  SchedulerSettings settings = Settings();
  settings.max_attempts = 0;
  EXPECT_THROW(Scheduler(settings, {1}), std::invalid_argument);
  EXPECT_THROW(Scheduler(Settings(), {1, 1}), std::invalid_argument);
}

TEST(Scheduler, AddedScenariosJoinTheQueueInNumberOrder) {
  Scheduler scheduler(Settings(), {3});
  ASSERT_EQ(scheduler.Assign(1, kT0), 3u);
  scheduler.Add({9, 6});
  EXPECT_EQ(scheduler.queued(), 2u);
  EXPECT_FALSE(scheduler.Drained());
  EXPECT_EQ(scheduler.Assign(2, kT0), 6u);
  EXPECT_THROW(scheduler.Add({9}), std::invalid_argument);
  EXPECT_EQ(scheduler.Assign(3, kT0), 9u);
}

}  // namespace
}  // namespace asg::client
