// Tests for client/farm/scenario_state.h.
#include "client/farm/scenario_state.h"

#include <gtest/gtest.h>

namespace asg::client {
namespace {

using std::chrono::milliseconds;

const SteadyClock::time_point kT0{};

TEST(ScenarioState, AttemptsAreNumberedInOrderAndTimedFromTheirBegin) {
  ScenarioState state;
  EXPECT_EQ(state.LatestAttemptNumber(), 0u);
  state.Begin(7, 2, kT0);
  EXPECT_EQ(state.LatestAttemptNumber(), 1u);
  EXPECT_DOUBLE_EQ(state.CurrentSeconds(kT0 + milliseconds(1500)), 1.5);
  const Attempt& first =
      state.End(AttemptOutcome::kWorkerLost, "exit code 3", kT0 + milliseconds(1500));
  EXPECT_EQ(first, (Attempt{1, 2, 1.5, AttemptOutcome::kWorkerLost, "exit code 3"}));
  EXPECT_FALSE(state.current.has_value());
  EXPECT_EQ(state.LatestAttemptNumber(), 1u);
  EXPECT_EQ(state.CurrentSeconds(kT0 + milliseconds(9000)), 0.0);
  state.Begin(8, 3, kT0 + milliseconds(2000));
  EXPECT_EQ(state.LatestAttemptNumber(), 2u);
  EXPECT_EQ(state.End(AttemptOutcome::kDone, "", kT0 + milliseconds(2250)).number, 2u);
  EXPECT_EQ(state.FailedAttempts(), 1u);
}

TEST(ScenarioState, PendingRerunTurnsTheNextDoneIntoRerunRequested) {
  ScenarioState state;
  state.Begin(1, 1, kT0);
  state.rerun_pending = true;
  EXPECT_EQ(state.End(AttemptOutcome::kDone, "", kT0).outcome, AttemptOutcome::kRerunRequested);
  EXPECT_FALSE(state.rerun_pending);
  state.Begin(1, 1, kT0);
  EXPECT_EQ(state.End(AttemptOutcome::kDone, "", kT0).outcome, AttemptOutcome::kDone);
  EXPECT_EQ(state.FailedAttempts(), 0u);
}

TEST(ScenarioState, OnlyFaultsAreFailedAttempts) {
  EXPECT_FALSE(IsFailedAttempt(AttemptOutcome::kDone));
  EXPECT_FALSE(IsFailedAttempt(AttemptOutcome::kRerunRequested));
  EXPECT_FALSE(IsFailedAttempt(AttemptOutcome::kInvalidScene));
  for (const AttemptOutcome fault :
       {AttemptOutcome::kPreempted, AttemptOutcome::kWorkerLost, AttemptOutcome::kTimedOut,
        AttemptOutcome::kNotStarted, AttemptOutcome::kRefused}) {
    EXPECT_TRUE(IsFailedAttempt(fault)) << AttemptOutcomeName(fault);
  }
}

TEST(ScenarioState, TimingListsEveryEndedAttemptByName) {
  ScenarioState state;
  EXPECT_EQ(state.Timing(), results::ScenarioTiming{});  // never ran: worker -1, no attempts
  state.Begin(1, 4, kT0);
  state.End(AttemptOutcome::kNotStarted, "silent", kT0 + milliseconds(500));
  state.Begin(2, 5, kT0);
  state.End(AttemptOutcome::kInvalidScene, "bad", kT0 + milliseconds(250));
  const results::ScenarioTiming timing = state.Timing();
  ASSERT_EQ(timing.attempts.size(), 2u);
  EXPECT_EQ(timing.attempts[0].outcome, "not started");
  EXPECT_EQ(timing.attempts[1].outcome, "invalid scene");
  EXPECT_EQ(timing.attempts[1].detail, "bad");
  EXPECT_EQ(timing.worker_id, 5);
  EXPECT_DOUBLE_EQ(timing.wall_time_s, 0.75);
  EXPECT_EQ(AttemptOutcomeName(AttemptOutcome::kTimedOut), "timed out");
  EXPECT_EQ(AttemptOutcomeName(AttemptOutcome::kRefused), "refused");
}

TEST(ScenarioState, InvalidRunRuleNamesEmptyTrajectoriesAndOverlongSimTimes) {
  protocol::RunScenarioRequest request;
  request.sim_timeout_period = 10.0;
  protocol::AnalyzeScenarioRequest analysis;
  EXPECT_EQ(InvalidRunRule(request, analysis), "empty trajectory");
  request.scene_capture_only = true;
  EXPECT_EQ(InvalidRunRule(request, analysis), "");
  request.scene_capture_only = false;
  analysis.vehicle_trajectory.resize(3);
  analysis.vehicle_sim_time = 10.25;
  EXPECT_EQ(InvalidRunRule(request, analysis), "");
  analysis.vehicle_sim_time = 10.3;
  EXPECT_EQ(InvalidRunRule(request, analysis),
            "sim time 10.300 s exceeds the timeout 10.000 s + 0.25 s");
  request.sim_timeout_period = -1.0;  // no timeout: any sim time is valid
  EXPECT_EQ(InvalidRunRule(request, analysis), "");
  EXPECT_EQ(AttemptOutcomeName(AttemptOutcome::kInvalidRun), "invalid run");
  EXPECT_FALSE(IsFailedAttempt(AttemptOutcome::kInvalidRun));
}

}  // namespace
}  // namespace asg::client
