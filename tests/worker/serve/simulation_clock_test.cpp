// Tests for worker/serve/simulation_clock.h: the state machine, stepping, long steps, goals and
// the wall-time pace, over a real LiveRun with a listener that records what the clock tells and a
// wall clock the test moves by hand.
#include "worker/serve/simulation_clock.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/scene/scene_test_util.h"
#include "tests/worker/small_request.h"

namespace asg::worker::serve {
namespace {

using namespace std::chrono_literals;
using Kind = SimulationClock::Work::Kind;

/// Records what the clock tells, one line per call.
class Recorder : public ClockListener {
 public:
  void StateChanged(SimState state, double time) override {
    events.push_back(std::string(SimStateName(state)) + " at " + std::to_string(time));
  }
  void RunEnded() override { events.push_back("run ended"); }
  void GoalFeedback(const SimulateStepsGoal& goal) override {
    events.push_back("feedback " + std::to_string(goal.done) + "/" + std::to_string(goal.steps));
  }
  void GoalFinished(const SimulateStepsGoal& goal, GoalStatus status,
                    const std::string& message) override {
    events.push_back("goal " + std::to_string(goal.id) + " of client " +
                     std::to_string(goal.client_id) + ": " + GoalStatusName(status) + " " +
                     message);
  }
  void LongStepFinished(uint64_t done, uint64_t total) override {
    events.push_back("long step " + std::to_string(done) + "/" + std::to_string(total));
  }

  std::vector<std::string> Take() { return std::exchange(events, {}); }

  std::vector<std::string> events;
};

/// The small scenario with the idle driver and no timeouts: it never ends by itself.
protocol::RunScenarioRequest EndlessRequest() {
  protocol::RunScenarioRequest request = testing::SmallRequest();
  request.driver.type = protocol::DriverSpec::Type::kIdle;
  request.sim_timeout_period = -1.0;
  request.vehicle_idling_timeout_period = -1.0;
  request.vehicle_stuck_timeout_period = -1.0;
  return request;
}

class SimulationClockTest : public ::testing::Test {
 protected:
  SimulationClockTest() : clock_(live_, recorder_, [this] { return now_; }) {}

  /// Loads `request` as the session does: PAUSED, told.
  void Load(const protocol::RunScenarioRequest& request) {
    live_.Load(request);
    clock_.StartPaused();
  }

  /// Advances until the clock is idle; the number of Advance calls that worked.
  int AdvanceUntilIdle() {
    int worked = 0;
    while (clock_.Advance().kind == Kind::kStepped) ++worked;
    return worked;
  }

  scene::LiveRun live_{scene::testing::ShippedCatalog()};
  Recorder recorder_;
  SimulationClock::TimePoint now_{};  // the wall clock, moved by the tests
  SimulationClock clock_;
};

TEST_F(SimulationClockTest, StatesAreToldOnceWhenTheyChange) {
  EXPECT_EQ(clock_.state(), SimState::kStopped);
  Load(EndlessRequest());
  EXPECT_EQ(recorder_.Take(), std::vector<std::string>{"STATE_PAUSED at 0.000000"});
  clock_.SetState(SimState::kPaused);  // no change: not told
  clock_.SetState(SimState::kPlaying);
  clock_.SetState(SimState::kStopped);
  EXPECT_EQ(recorder_.Take(),
            (std::vector<std::string>{"STATE_PLAYING at 0.000000", "STATE_STOPPED at 0.000000"}));
  // A second load is told although the state was PAUSED already.
  clock_.SetState(SimState::kPaused);
  recorder_.Take();
  Load(EndlessRequest());
  EXPECT_EQ(recorder_.Take(), std::vector<std::string>{"STATE_PAUSED at 0.000000"});
  EXPECT_STREQ(SimulationStatusName(SimState::kPlaying), "SIMULATION_STATUS_RUNNING");
  EXPECT_STREQ(RoadRunnerStatus(SimState::kPaused), "SIMULATION_STATUS_PAUSED");
  EXPECT_STREQ(RoadRunnerStatus(SimState::kQuitting), "SIMULATION_STATUS_STOPPED");
  EXPECT_STREQ(SimStateName(SimState::kQuitting), "STATE_QUITTING");
}

TEST_F(SimulationClockTest, NothingIsDoneBeforeALoad) {
  EXPECT_EQ(clock_.StepNow(5), 0u);
  clock_.SetState(SimState::kPlaying);
  // Playing with nothing loaded stops at once.
  EXPECT_EQ(clock_.Advance().kind, Kind::kIdle);
  EXPECT_EQ(clock_.state(), SimState::kStopped);
}

TEST_F(SimulationClockTest, StepNowStopsAtTheRunsEndAndTellsIt) {
  Load(testing::SmallRequest());  // the straight driver reaches its goal in a few seconds
  recorder_.Take();
  EXPECT_EQ(clock_.StepNow(10), 10u);
  EXPECT_EQ(live_.steps(), 10);
  const uint64_t done = clock_.StepNow(5000);
  EXPECT_GT(done, 100u);
  EXPECT_LT(done, 1200u);
  EXPECT_TRUE(live_.ended());
  const std::vector<std::string> events = recorder_.Take();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0], "run ended");
  EXPECT_EQ(events[1].rfind("STATE_STOPPED at ", 0), 0u) << events[1];
  EXPECT_EQ(clock_.StepNow(1), 0u);  // an ended run does not step
}

TEST_F(SimulationClockTest, ALongStepAdvancesOneStepPerCallAndTellsItsEnd) {
  Load(EndlessRequest());
  recorder_.Take();
  clock_.StartLongStep(5);
  EXPECT_TRUE(clock_.long_step_running());
  EXPECT_EQ(AdvanceUntilIdle(), 6);  // five steps, then the answer
  EXPECT_FALSE(clock_.long_step_running());
  EXPECT_EQ(live_.steps(), 5);
  EXPECT_EQ(recorder_.Take(), std::vector<std::string>{"long step 5/5"});
}

TEST_F(SimulationClockTest, ALongStepPastTheRunsEndTellsTheStepsDone) {
  Load(testing::SmallRequest());
  recorder_.Take();
  clock_.StartLongStep(5000);
  AdvanceUntilIdle();
  const std::vector<std::string> events = recorder_.Take();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0], "run ended");
  EXPECT_EQ(events[2], "long step " + std::to_string(live_.steps()) + "/5000");
}

TEST_F(SimulationClockTest, AGoalGivesFeedbackAndAResult) {
  Load(EndlessRequest());
  recorder_.Take();
  const uint64_t id = clock_.StartGoal(7, 3);
  EXPECT_EQ(id, 1u);
  EXPECT_TRUE(clock_.goal_running());
  EXPECT_EQ(clock_.StartGoal(8, 3), 0u);  // one at a time
  EXPECT_EQ(AdvanceUntilIdle(), 3);
  EXPECT_EQ(recorder_.Take(),
            (std::vector<std::string>{"feedback 1/3", "feedback 2/3", "feedback 3/3",
                                      "goal 1 of client 7: STATUS_SUCCEEDED "}));
  EXPECT_FALSE(clock_.goal_running());
  EXPECT_EQ(clock_.StartGoal(7, 1), 2u);  // the next goal gets the next id
}

TEST_F(SimulationClockTest, ALongGoalGivesFeedbackAfterEachStep) {
  Load(EndlessRequest());
  recorder_.Take();
  clock_.StartGoal(1, 3000);
  EXPECT_EQ(AdvanceUntilIdle(), 3000);
  const std::vector<std::string> events = recorder_.Take();
  ASSERT_EQ(events.size(), 3001u);  // every step, then the result
  for (size_t i = 0; i < 3000; ++i) {
    ASSERT_EQ(events[i], "feedback " + std::to_string(i + 1) + "/3000");
  }
  EXPECT_EQ(events[3000], "goal 1 of client 1: STATUS_SUCCEEDED ");
}

TEST_F(SimulationClockTest, ACoarserFeedbackRateGivesFeedbackEveryNStepsAndAtTheLast) {
  Load(EndlessRequest());
  recorder_.Take();
  clock_.StartGoal(1, 3000, 100);
  EXPECT_EQ(AdvanceUntilIdle(), 3000);
  std::vector<std::string> events = recorder_.Take();
  ASSERT_EQ(events.size(), 31u);
  EXPECT_EQ(events[0], "feedback 100/3000");
  EXPECT_EQ(events[29], "feedback 3000/3000");
  // A last stretch shorter than the rate still ends with a feedback.
  clock_.StartGoal(1, 250, 100);
  AdvanceUntilIdle();
  events = recorder_.Take();
  EXPECT_EQ(events,
            (std::vector<std::string>{"feedback 100/250", "feedback 200/250", "feedback 250/250",
                                      "goal 2 of client 1: STATUS_SUCCEEDED "}));
}

TEST_F(SimulationClockTest, AGoalIsCancelledOrFailedOnlyByItsId) {
  Load(EndlessRequest());
  recorder_.Take();
  const uint64_t id = clock_.StartGoal(2, 100);
  clock_.Advance();
  clock_.Advance();
  CancelOutcome outcome = clock_.CancelGoals(id + 1);
  EXPECT_EQ(outcome.code, CancelCode::kUnknownGoalId);  // never given
  EXPECT_TRUE(outcome.cancelled.empty());
  EXPECT_TRUE(clock_.goal_running());
  outcome = clock_.CancelGoals(id);
  EXPECT_EQ(outcome.code, CancelCode::kNone);
  EXPECT_EQ(outcome.cancelled, std::vector<uint64_t>{id});
  EXPECT_EQ(clock_.CancelGoals(id).code, CancelCode::kGoalTerminated);
  EXPECT_EQ(recorder_.Take().back(),
            "goal 1 of client 2: STATUS_CANCELED cancelled after 2 of 100 steps");
  const uint64_t second = clock_.StartGoal(2, 100);
  EXPECT_FALSE(clock_.FailGoal(id, "old"));
  EXPECT_TRUE(clock_.FailGoal(second, "the simulation is not paused (STATE_PLAYING)"));
  EXPECT_EQ(recorder_.Take(),
            std::vector<std::string>{"goal 2 of client 2: STATUS_ABORTED the simulation is not "
                                     "paused (STATE_PLAYING)"});
  EXPECT_EQ(clock_.CancelGoals(second).code, CancelCode::kGoalTerminated);
  EXPECT_EQ(live_.steps(), 2);
}

TEST_F(SimulationClockTest, GoalIdZeroCancelsEveryRunningGoal) {
  Load(EndlessRequest());
  recorder_.Take();
  CancelOutcome outcome = clock_.CancelGoals(0);
  EXPECT_EQ(outcome.code, CancelCode::kNone);  // none runs: nothing to cancel, no error
  EXPECT_TRUE(outcome.cancelled.empty());
  const uint64_t id = clock_.StartGoal(5, 100);
  clock_.Advance();
  outcome = clock_.CancelGoals(0);
  EXPECT_EQ(outcome.code, CancelCode::kNone);
  EXPECT_EQ(outcome.cancelled, std::vector<uint64_t>{id});
  EXPECT_FALSE(clock_.goal_running());
  EXPECT_EQ(recorder_.Take(),
            (std::vector<std::string>{"feedback 1/100",
                                      "goal 1 of client 5: STATUS_CANCELED cancelled after 1 of "
                                      "100 steps"}));
}

TEST_F(SimulationClockTest, AGoalStepsOnlyWhilePaused) {
  Load(EndlessRequest());
  clock_.SetState(SimState::kPlaying);
  recorder_.Take();
  clock_.StartGoal(1, 10);
  EXPECT_EQ(clock_.Advance().kind, Kind::kIdle);  // waits for its failure, playing nothing
  EXPECT_EQ(live_.steps(), 0);
  EXPECT_TRUE(recorder_.Take().empty());
}

TEST_F(SimulationClockTest, AGoalPastTheRunsEndFails) {
  Load(testing::SmallRequest());
  recorder_.Take();
  clock_.StartGoal(3, 5000);
  AdvanceUntilIdle();
  const std::string last = recorder_.Take().back();
  EXPECT_EQ(last, "goal 1 of client 3: STATUS_ABORTED the run ended after " +
                      std::to_string(live_.steps()) + " steps");
  EXPECT_EQ(clock_.state(), SimState::kStopped);
}

TEST_F(SimulationClockTest, QuittingDropsTheGoalWithoutAResult) {
  Load(EndlessRequest());
  clock_.StartGoal(1, 10);
  recorder_.Take();
  clock_.Quit();
  EXPECT_FALSE(clock_.goal_running());
  EXPECT_EQ(recorder_.Take(), std::vector<std::string>{"STATE_QUITTING at 0.000000"});
  EXPECT_EQ(clock_.Advance().kind, Kind::kIdle);
}

TEST_F(SimulationClockTest, PlayingAtPaceOneStepsWhenEachStepIsDue) {
  Load(EndlessRequest());
  const double dt = live_.timing().dt;
  clock_.SetState(SimState::kPlaying);
  // The first step is due at once, the second dt of wall time later.
  EXPECT_EQ(clock_.Advance().kind, Kind::kStepped);
  const SimulationClock::Work wait = clock_.Advance();
  ASSERT_EQ(wait.kind, Kind::kWaiting);
  EXPECT_EQ(wait.due - now_, std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::duration<double>(dt)));
  EXPECT_EQ(live_.steps(), 1);
  now_ = wait.due;
  EXPECT_EQ(clock_.Advance().kind, Kind::kStepped);
  EXPECT_EQ(clock_.Advance().kind, Kind::kWaiting);
  // A second of wall time later, the steps due meanwhile are taken one by one, then it waits.
  now_ += 1s;
  EXPECT_EQ(AdvanceUntilIdle(), std::llround(1.0 / dt));
  EXPECT_EQ(clock_.Advance().kind, Kind::kWaiting);
}

TEST_F(SimulationClockTest, PaceHalfTakesTwiceTheWallTimeAndZeroTakesNone) {
  Load(EndlessRequest());
  const double dt = live_.timing().dt;
  clock_.SetPace(0.5);
  clock_.SetState(SimState::kPlaying);
  clock_.Advance();
  EXPECT_EQ(clock_.Advance().due - now_, std::chrono::duration_cast<std::chrono::nanoseconds>(
                                             std::chrono::duration<double>(2.0 * dt)));
  clock_.SetPace(0.0);  // as fast as possible: never waits
  for (int i = 0; i < 50; ++i) EXPECT_EQ(clock_.Advance().kind, Kind::kStepped);
  EXPECT_EQ(live_.steps(), 51);
  EXPECT_EQ(clock_.pace(), 0.0);
}

TEST_F(SimulationClockTest, TheDueTimeRestartsAfterAPauseAResetAReloadOrARestart) {
  Load(EndlessRequest());
  clock_.SetState(SimState::kPlaying);
  clock_.Advance();
  now_ += 10s;  // a long stretch without advancing
  clock_.SetState(SimState::kPaused);
  clock_.SetState(SimState::kPlaying);
  // Not ten seconds of steps to catch up with: one, then a wait.
  EXPECT_EQ(clock_.Advance().kind, Kind::kStepped);
  EXPECT_EQ(clock_.Advance().kind, Kind::kWaiting);
  EXPECT_EQ(live_.steps(), 2);

  now_ += 10s;
  live_.ResetTime();  // the run's steps back to 0: noticed
  EXPECT_EQ(clock_.Advance().kind, Kind::kStepped);
  EXPECT_EQ(clock_.Advance().kind, Kind::kWaiting);
  EXPECT_EQ(live_.steps(), 1);

  now_ += 10s;
  clock_.Reload();  // the state is kept, the run starts over
  EXPECT_EQ(clock_.state(), SimState::kPlaying);
  EXPECT_EQ(clock_.Advance().kind, Kind::kStepped);
  EXPECT_EQ(clock_.Advance().kind, Kind::kWaiting);
  EXPECT_EQ(live_.steps(), 1);

  now_ += 10s;
  live_.ResetTime();
  clock_.RestartPace();
  EXPECT_EQ(clock_.Advance().kind, Kind::kStepped);
  EXPECT_EQ(clock_.Advance().kind, Kind::kWaiting);
  EXPECT_EQ(live_.steps(), 1);
}

TEST_F(SimulationClockTest, APlayedRunStopsAtItsEnd) {
  Load(testing::SmallRequest());
  clock_.SetPace(0.0);
  clock_.SetState(SimState::kPlaying);
  recorder_.Take();
  AdvanceUntilIdle();
  EXPECT_TRUE(live_.ended());
  EXPECT_EQ(clock_.state(), SimState::kStopped);
  const std::vector<std::string> events = recorder_.Take();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0], "run ended");
  EXPECT_EQ(clock_.Advance().kind, Kind::kIdle);
}

}  // namespace
}  // namespace asg::worker::serve
