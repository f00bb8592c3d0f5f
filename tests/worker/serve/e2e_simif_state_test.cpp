// End-to-end tests of the simulation_interfaces state and stepping services of the interactive
// worker (worker/serve/services_simif.cpp, worker/serve/simulation_clock.h) over a real socket:
// SetSimulationState's transitions and QUITTING, a reset while playing, StepSimulation (short,
// answered later, past the run's end), the SimulateSteps action with feedback and cancelling, the
// vehicle's acceleration, a run played to its end, the services before a load, and bad requests
// that leave the simulation usable. No assertion depends on how fast the machine is: the tests
// wait for conditions (with generous deadlines) rather than for set times.
#include <gtest/gtest.h>

#include <chrono>

#include "tests/worker/serve/simif_util.h"

namespace asg::worker {
namespace {

using namespace std::chrono_literals;
using testing::Code;
using testing::EndlessScenario;
using testing::Eventually;
using testing::FailureOf;
using testing::Json;
using testing::Later;
using testing::SecondsSince;
using testing::ServedClient;
using testing::ServedWorker;
using testing::StateNumber;
using testing::StateOf;
using testing::Time;
using testing::Xyz;

/// SetSimulationState's result code for `state`.
int SetState(ServedClient& client, int state) {
  return Code(client.Body("SetSimulationState", {{"state", {{"state", state}}}}));
}

/// StepSimulation's result code.
int Step(ServedClient& client, int64_t steps) {
  return Code(client.Body("StepSimulation", {{"steps", steps}}));
}

TEST(ServeSimifStateTest, SetSimulationStateRefusesForbiddenTransitions) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  EXPECT_EQ(StateNumber(*client), 2);    // PAUSED at load
  EXPECT_EQ(SetState(*client, 2), 101);  // ALREADY_IN_TARGET_STATE
  EXPECT_EQ(SetState(*client, 0), 1);
  EXPECT_EQ(StateNumber(*client), 0);
  EXPECT_EQ(SetState(*client, 0), 101);
  EXPECT_EQ(SetState(*client, 2), 103);  // STOPPED -> PAUSED: INCORRECT_TRANSITION
  EXPECT_EQ(StateNumber(*client), 0);
  EXPECT_EQ(SetState(*client, 4), 0);  // a world loading state: FEATURE_UNSUPPORTED
  const std::string error = FailureOf(*client, "SetSimulationState", {{"state", {{"state", 9}}}});
  EXPECT_NE(error.find("state.state = 9"), std::string::npos) << error;
  EXPECT_EQ(StateNumber(*client), 0);
}

TEST(ServeSimifStateTest, PlayPauseStopAndStopReloads) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  ASSERT_EQ(Step(*client, 25), 1);
  const auto played = std::chrono::steady_clock::now();
  EXPECT_EQ(SetState(*client, 1), 1);  // PAUSED -> PLAYING at wall time
  EXPECT_EQ(StateNumber(*client), 1);
  ASSERT_TRUE(Eventually([&] { return Time(*client) > 0.25; })) << "it did not play";
  EXPECT_EQ(SetState(*client, 2), 1);  // PLAYING -> PAUSED
  const double paused_at = Time(*client);
  EXPECT_GT(paused_at, 0.25);  // it played
  // At wall time (pace 1): no more simulated time than the wall time it played, give or take
  // two steps, however fast or slow the machine.
  EXPECT_LE(paused_at - 0.25, SecondsSince(played) + 0.02);
  for (int i = 0; i < 20; ++i) {
    ASSERT_EQ(Time(*client), paused_at);  // and holds while paused, request after request
  }
  EXPECT_EQ(SetState(*client, 0), 1);  // PAUSED -> STOPPED reloads
  EXPECT_EQ(Time(*client), 0.0);
  EXPECT_EQ(client->Body("GetSimulationTime")["steps"], 0);
  EXPECT_EQ(SetState(*client, 1), 1);  // STOPPED -> PLAYING
  EXPECT_EQ(SetState(*client, 0), 1);  // PLAYING -> STOPPED reloads
  EXPECT_EQ(Time(*client), 0.0);
  EXPECT_EQ(StateNumber(*client), 0);
}

TEST(ServeSimifStateTest, ResetWhilePlayingKeepsPlayingAtWallTime) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  ASSERT_EQ(SetState(*client, 1), 1);  // at pace 1
  ASSERT_TRUE(Eventually([&] { return Time(*client) > 0.2; })) << "it did not play";
  for (const int scope : {1, 3}) {  // SCOPE_TIME, with SCOPE_STATE: the clock restarts at 0
    const auto reset = std::chrono::steady_clock::now();
    ASSERT_EQ(Code(client->Body("ResetSimulation", {{"scope", scope}})), 1);
    double time = 0.0;
    ASSERT_TRUE(Eventually([&] { return (time = Time(*client)) > 0.0; })) << "scope " << scope;
    // Simulated time follows wall time from the reset on; it does not race to catch up with
    // the time played before it.
    EXPECT_LT(time, SecondsSince(reset) + 0.05) << "scope " << scope;
    EXPECT_EQ(StateNumber(*client), 1);
    // It plays on, long enough before the next reset that a race would show.
    ASSERT_TRUE(Eventually([&] { return Time(*client) > 0.2; })) << "scope " << scope;
  }
}

TEST(ServeSimifStateTest, ResetAllWhilePlayingIsAFreshLaunchPausedAtTimeZero) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  ASSERT_EQ(StateNumber(*client), 2);  // a fresh load is PAUSED at time 0
  for (const int scope : {255, 0}) {   // SCOPE_ALL, SCOPE_DEFAULT
    ASSERT_EQ(SetState(*client, 1), 1);
    ASSERT_TRUE(Eventually([&] { return Time(*client) > 0.05; })) << "it did not play";
    ASSERT_EQ(Code(client->Body("ResetSimulation", {{"scope", scope}})), 1);
    EXPECT_EQ(StateNumber(*client), 2) << "scope " << scope;
    EXPECT_EQ(Time(*client), 0.0) << "scope " << scope;
  }
}

TEST(ServeSimifStateTest, QuittingRefusesEveryTransitionAndExits) {
  ServedWorker worker;
  {
    auto client = worker.Connect();
    ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
    // Both on one connection, the second sent before the first is answered.
    auto quit = Later(*client, "SetSimulationState", {{"state", {{"state", 3}}}});
    auto play = Later(*client, "SetSimulationState", {{"state", {{"state", 1}}}});
    const protocol::RequestResult quit_reply = quit.get();
    const protocol::RequestResult play_reply = play.get();
    ASSERT_TRUE(quit_reply.success) << quit_reply.description;
    ASSERT_TRUE(play_reply.success) << play_reply.description;
    EXPECT_EQ(Code(quit_reply.reply.message), 1);
    EXPECT_EQ(Code(play_reply.reply.message), 103);  // QUITTING -> PLAYING
    EXPECT_EQ(SetState(*client, 2), 103);
    EXPECT_EQ(SetState(*client, 0), 103);
    EXPECT_EQ(SetState(*client, 3), 103);
    EXPECT_EQ(StateNumber(*client), 3);
    const std::string error = client->ErrorOf("StepSimulation", {{"steps", 1}});
    EXPECT_NE(error.find("quitting"), std::string::npos) << error;
  }
  // The clients are gone: it exits by itself (-1 would be a kill after the deadline).
  EXPECT_EQ(worker.Wait(20s), 0) << worker.Output();
}

TEST(ServeSimifStateTest, StepSimulationRefusesWhilePlaying) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  // Played at a step per wall second, so that 500 steps cannot have been played meanwhile.
  ASSERT_EQ(client->Body("SetSimulationPace", {{"simulation_pace", 0.01}})["success"], true);
  ASSERT_EQ(SetState(*client, 1), 1);
  const Json reply = client->Body("StepSimulation", {{"steps", 500}});
  EXPECT_LT(Time(*client), 5.0);              // refused at once, not after the steps
  EXPECT_EQ(Code(reply), 4) << reply.dump();  // OPERATION_FAILED
  EXPECT_NE(reply["result"]["error_message"].get<std::string>().find("STATE_PLAYING"),
            std::string::npos);
  ASSERT_EQ(SetState(*client, 0), 1);
  EXPECT_EQ(Step(*client, 1), 4);  // nor while STOPPED
}

TEST(ServeSimifStateTest, StepSimulationChecksStepsAndAdvancesTenMillisecondsEach) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  // Out of range: the service's Result (OPERATION_FAILED) names the field and the value.
  std::string error = FailureOf(*client, "StepSimulation", {{"steps", 0}});
  EXPECT_NE(error.find("steps = 0"), std::string::npos) << error;
  error = FailureOf(*client, "StepSimulation", {{"steps", 1000000000}});
  EXPECT_NE(error.find("steps = 1000000000"), std::string::npos) << error;
  EXPECT_EQ(Time(*client), 0.0);  // the refusals did nothing
  ASSERT_EQ(Step(*client, 1), 1);
  Json time = client->Body("GetSimulationTime");
  EXPECT_NEAR(time["simulation_time"].get<double>(), 0.01, 1e-12);
  EXPECT_EQ(time["steps"], 1);
  EXPECT_EQ(time["step_size"], 0.01);
  ASSERT_EQ(Code(client->Body("StepSimulation")), 1);  // steps defaults to 1
  ASSERT_EQ(Step(*client, 7), 1);
  time = client->Body("GetSimulationTime");
  EXPECT_NEAR(time["simulation_time"].get<double>(), 0.09, 1e-12);
  EXPECT_EQ(time["steps"], 9);
}

TEST(ServeSimifStateTest, LongStepSimulationIsAnsweredLaterAndOthersWait) {
  ServedWorker worker;
  auto stepper = worker.Connect();
  auto other = worker.Connect();
  ASSERT_EQ(testing::Load(*stepper, EndlessScenario())["success"], true);
  ASSERT_EQ(Step(*stepper, 10), 1);
  // 2000 > kInlineSteps: answered when done.
  ASSERT_EQ(Step(*stepper, 2000), 1);
  EXPECT_EQ(other->Body("GetSimulationTime")["steps"], 2010);
  EXPECT_NEAR(Time(*other), 20.1, 1e-9);

  // A request of another client that arrives during a long step waits for it and sees all of its
  // steps; one that arrives before it began sees none. Nothing in between is ever seen, however
  // fast the machine (100000 steps take a few tenths of a second on a usual one).
  auto long_step = Later(*stepper, "StepSimulation", {{"steps", 100000}});
  Json time;
  ASSERT_TRUE(Eventually([&] {
    time = other->Body("GetSimulationTime");
    EXPECT_TRUE(time["steps"] == 2010 || time["steps"] == 102010) << time.dump();
    return time["steps"] != 2010;
  }));
  EXPECT_EQ(time["steps"], 102010) << time.dump();
  EXPECT_NEAR(time["simulation_time"].get<double>(), 1020.1, 1e-6);
  ASSERT_EQ(long_step.wait_for(20s), std::future_status::ready);
  const protocol::RequestResult reply = long_step.get();
  ASSERT_TRUE(reply.success) << reply.description;
  EXPECT_EQ(Code(reply.reply.message), 1) << reply.reply.message.dump();
  EXPECT_EQ(Step(*other, 1), 1);
  EXPECT_EQ(other->Body("GetSimulationTime")["steps"], 102011);
}

TEST(ServeSimifStateTest, SimulateStepsSendsFeedbackAndAResult) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  const Json accepted = client->Body("SimulateSteps", {{"steps", 50}});
  ASSERT_EQ(accepted["accepted"], true) << accepted.dump();
  const Json goal_id = accepted.at("goal_id");
  EXPECT_GT(goal_id.get<int64_t>(), 0);
  const Json result = client->Next("SimulateStepsResult").message;
  EXPECT_EQ(result["goal_id"], goal_id);
  EXPECT_EQ(Code(result), 1) << result.dump();
  EXPECT_EQ(result["completed_steps"], 50);
  EXPECT_EQ(result["status"], 4);
  EXPECT_EQ(result["status_name"], "STATUS_SUCCEEDED");
  const std::vector<protocol::Message> feedback = client->Take("SimulateStepsFeedback");
  ASSERT_EQ(feedback.size(), 50u);  // one per step
  for (size_t i = 0; i < feedback.size(); ++i) {
    const Json& frame = feedback[i].message;
    EXPECT_EQ(frame["goal_id"], goal_id);
    EXPECT_EQ(frame["completed_steps"], i + 1);
    EXPECT_EQ(frame["completed_steps"].get<int64_t>() + frame["remaining_steps"].get<int64_t>(),
              50);
  }
  EXPECT_NEAR(Time(*client), 0.5, 1e-9);
  // The next goal gets another id.
  const Json again = client->Body("SimulateSteps", {{"steps", 2}});
  EXPECT_NE(again["goal_id"], goal_id);
  EXPECT_EQ(Code(client->Next("SimulateStepsResult").message), 1);
}

TEST(ServeSimifStateTest, SimulateStepsGivesFeedbackPerStepOrEveryNSteps) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  ASSERT_EQ(client->Body("SimulateSteps", {{"steps", 3000}})["accepted"], true);
  EXPECT_EQ(Code(client->Next("SimulateStepsResult").message), 1);
  std::vector<protocol::Message> feedback = client->Take("SimulateStepsFeedback");
  ASSERT_EQ(feedback.size(), 3000u);
  EXPECT_EQ(feedback.front().message["completed_steps"], 1);
  EXPECT_EQ(feedback.back().message["remaining_steps"], 0);
  const Json coarse =
      client->Body("SimulateSteps", {{"steps", 3000}, {"feedback_every_steps", 100}});
  ASSERT_EQ(coarse["accepted"], true) << coarse.dump();
  EXPECT_EQ(Code(client->Next("SimulateStepsResult").message), 1);
  feedback = client->Take("SimulateStepsFeedback");
  ASSERT_EQ(feedback.size(), 30u);
  for (size_t i = 0; i < feedback.size(); ++i) {
    EXPECT_EQ(feedback[i].message["completed_steps"], 100 * (i + 1));
  }
  EXPECT_EQ(client->Body("GetSimulationTime")["steps"], 6000);
}

TEST(ServeSimifStateTest, SimulateStepsWhilePlayingIsAcceptedAndFails) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  ASSERT_EQ(SetState(*client, 1), 1);
  const Json accepted = client->Body("SimulateSteps", {{"steps", 10}});
  EXPECT_EQ(accepted["accepted"], true) << accepted.dump();
  const Json result = client->Next("SimulateStepsResult").message;
  EXPECT_EQ(result["goal_id"], accepted["goal_id"]);
  EXPECT_EQ(Code(result), 4) << result.dump();
  EXPECT_NE(result["result"]["error_message"].get<std::string>().find("not paused"),
            std::string::npos);
  EXPECT_EQ(result["status"], 6);
  EXPECT_EQ(result["status_name"], "STATUS_ABORTED");
  EXPECT_EQ(StateNumber(*client), 1);  // still playing, and no goal is left over
  EXPECT_EQ(SetState(*client, 2), 1);
}

TEST(ServeSimifStateTest, CancelSimulateStepsStopsARunningGoal) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  const Json accepted = client->Body("SimulateSteps", {{"steps", 300000}});
  ASSERT_EQ(accepted["accepted"], true) << accepted.dump();
  const Json goal_id = accepted["goal_id"];
  EXPECT_EQ(client->Next("SimulateStepsFeedback").message["completed_steps"], 1);
  const Json cancel = client->Body("CancelSimulateSteps", {{"goal_id", goal_id}});
  EXPECT_EQ(Code(cancel), 1) << cancel.dump();
  EXPECT_EQ(cancel["return_code"], 0);  // ERROR_NONE
  EXPECT_EQ(cancel["goals_canceling"], Json::array({{{"goal_id", goal_id}}})) << cancel.dump();
  const Json result = client->Next("SimulateStepsResult").message;
  EXPECT_EQ(result["goal_id"], goal_id);
  EXPECT_EQ(Code(result), 4) << result.dump();
  EXPECT_EQ(result["status"], 5);
  EXPECT_EQ(result["status_name"], "STATUS_CANCELED");
  EXPECT_NE(result["result"]["error_message"].get<std::string>().find("cancelled"),
            std::string::npos)
      << result.dump();
  const int64_t done = result["completed_steps"].get<int64_t>();
  EXPECT_GE(done, 1);
  EXPECT_LT(done, 300000);
  EXPECT_EQ(client->Body("GetSimulationTime")["steps"], done);
  const Json finished = client->Body("CancelSimulateSteps", {{"goal_id", goal_id}});
  EXPECT_EQ(Code(finished), 2) << finished.dump();
  EXPECT_EQ(finished["return_code"], 3);  // ERROR_GOAL_TERMINATED
  EXPECT_EQ(finished["goals_canceling"], Json::array());
  const Json unknown = client->Body("CancelSimulateSteps", {{"goal_id", 999}});
  EXPECT_EQ(Code(unknown), 2) << unknown.dump();
  EXPECT_EQ(unknown["return_code"], 2);  // ERROR_UNKNOWN_GOAL_ID
}

TEST(ServeSimifStateTest, CancellingGoalIdZeroCancelsEveryRunningGoal) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  const Json none = client->Body("CancelSimulateSteps", {{"goal_id", 0}});
  EXPECT_EQ(Code(none), 1) << none.dump();
  EXPECT_EQ(none["return_code"], 0);
  EXPECT_EQ(none["goals_canceling"], Json::array());
  const Json accepted =
      client->Body("SimulateSteps", {{"steps", 300000}, {"feedback_every_steps", 1000}});
  ASSERT_EQ(accepted["accepted"], true) << accepted.dump();
  client->Next("SimulateStepsFeedback");
  const Json all = client->Body("CancelSimulateSteps");  // goal_id defaults to 0
  EXPECT_EQ(all["return_code"], 0) << all.dump();
  EXPECT_EQ(all["goals_canceling"], Json::array({{{"goal_id", accepted["goal_id"]}}}));
  EXPECT_EQ(client->Next("SimulateStepsResult").message["status"], 5);
}

TEST(ServeSimifStateTest, RequestsDuringAGoalAreRefusedAndTheSimulationStaysUsable) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  const Json accepted = client->Body("SimulateSteps", {{"steps", 300000}});
  ASSERT_EQ(accepted["accepted"], true) << accepted.dump();
  client->Next("SimulateStepsFeedback");
  EXPECT_EQ(SetState(*client, 1), 3);  // INCORRECT_STATE
  EXPECT_EQ(SetState(*client, 0), 3);
  EXPECT_EQ(Step(*client, 1), 3);
  EXPECT_EQ(Code(client->Body("ResetSimulation", {{"scope", 255}})), 3);
  const Json second = client->Body("SimulateSteps", {{"steps", 5}});
  EXPECT_EQ(second["accepted"], false) << second.dump();
  EXPECT_EQ(StateNumber(*client), 2);
  ASSERT_EQ(Code(client->Body("CancelSimulateSteps", {{"goal_id", accepted["goal_id"]}})), 1);
  const int64_t done = client->Next("SimulateStepsResult").message["completed_steps"];
  ASSERT_EQ(Step(*client, 1), 1);
  EXPECT_EQ(client->Body("GetSimulationTime")["steps"], done + 1);
  EXPECT_EQ(SetState(*client, 1), 1);
  EXPECT_EQ(SetState(*client, 0), 1);
  EXPECT_EQ(Time(*client), 0.0);
}

TEST(ServeSimifStateTest, BrakingGivesANegativeAcceleration) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, scene::testing::ReferenceRequest())["success"], true);
  ASSERT_EQ(Step(*client, 300), 1);  // the straight driver at 5 m/s for 3 s
  const std::vector<double> v = Xyz(StateOf(*client, "vehicle")["twist"]["linear"]);
  const double speed = std::hypot(v[0], v[1], v[2]);
  ASSERT_GT(speed, 1.0);
  const Json brake = client->Body(
      "EgoControl_ID",
      {{"forward_amount", 0.0}, {"brake_amount", 1.0}, {"drive_mode", 1}, {"right_amount", 0.0}});
  ASSERT_EQ(brake["success"], true) << brake.dump();
  ASSERT_EQ(Step(*client, 1), 1);
  const std::vector<double> a = Xyz(StateOf(*client, "vehicle")["acceleration"]["linear"]);
  const double along = (a[0] * v[0] + a[1] * v[1] + a[2] * v[2]) / speed;
  EXPECT_LT(along, -1.0) << "acceleration (" << a[0] << ", " << a[1] << ", " << a[2] << ")";
}

TEST(ServeSimifStateTest, PlayingRunsToTheEndAndKeepsTheResult) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, testing::SmallRequest())["success"], true);
  EXPECT_EQ(client->Body("GetResult")["available"], false);
  ASSERT_EQ(client->Body("SetSimulationPace", {{"simulation_pace", 0}})["success"], true);
  ASSERT_EQ(SetState(*client, 1), 1);
  ASSERT_TRUE(Eventually([&] { return StateNumber(*client) == 0; }))
      << "the run did not end within 20 s";
  const Json result = client->Body("GetResult");
  EXPECT_EQ(result["available"], true) << result.dump();
  EXPECT_EQ(result["analysis"]["termination_reason_name"], "REASON_SUCCESS");
  EXPECT_GT(result["analysis"]["vehicle_sim_time"].get<double>(), 1.0);
  EXPECT_EQ(Step(*client, 1), 4);  // STOPPED
}

TEST(ServeSimifStateTest, StepsPastTheRunsEndFailAndStopTheRun) {
  ServedWorker worker;
  auto client = worker.Connect();
  // A goal longer than the run: the straight driver reaches the goal within 12 s.
  ASSERT_EQ(testing::Load(*client, testing::SmallRequest())["success"], true);
  const Json accepted = client->Body("SimulateSteps", {{"steps", 5000}});
  ASSERT_EQ(accepted["accepted"], true) << accepted.dump();
  const Json result = client->Next("SimulateStepsResult").message;
  EXPECT_EQ(Code(result), 4) << result.dump();
  EXPECT_EQ(result["status"], 6);  // ABORTED
  EXPECT_NE(result["result"]["error_message"].get<std::string>().find("the run ended"),
            std::string::npos)
      << result.dump();
  const int64_t done = result["completed_steps"].get<int64_t>();
  EXPECT_GT(done, 100);
  EXPECT_LT(done, 1200);
  EXPECT_EQ(client->Body("GetSimulationTime")["steps"], done);
  EXPECT_EQ(StateNumber(*client), 0);  // STOPPED at the end
  EXPECT_EQ(client->Body("GetResult")["analysis"]["termination_reason_name"], "REASON_SUCCESS");
  EXPECT_EQ(Step(*client, 1), 4);

  // The same run as one long StepSimulation (answered later): the same end, steps left undone.
  ASSERT_EQ(testing::Load(*client, testing::SmallRequest())["success"], true);
  const Json reply = client->Body("StepSimulation", {{"steps", 5000}});
  EXPECT_EQ(Code(reply), 4) << reply.dump();
  EXPECT_EQ(client->Body("GetSimulationTime")["steps"], done);
  // And as short ones: the step that meets the end fails.
  ASSERT_EQ(testing::Load(*client, testing::SmallRequest())["success"], true);
  ASSERT_EQ(Step(*client, done), 1);
  EXPECT_EQ(Step(*client, 1), 4);
  EXPECT_EQ(StateNumber(*client), 0);
}

TEST(ServeSimifStateTest, BeforeALoadNothingRuns) {
  ServedWorker worker;
  auto client = worker.Connect();
  EXPECT_EQ(StateNumber(*client), 0);
  EXPECT_EQ(SetState(*client, 1), 102);  // STATE_TRANSITION_ERROR: nothing to play
  EXPECT_EQ(SetState(*client, 2), 103);
  EXPECT_EQ(SetState(*client, 0), 101);
  EXPECT_EQ(Step(*client, 1), 4);
  EXPECT_EQ(Code(client->Body("GetEntities")), 3);  // INCORRECT_STATE
  EXPECT_EQ(Code(client->Body("GetEntityState", {{"entity", "vehicle"}})), 3);
  EXPECT_EQ(Code(client->Body("ResetSimulation")), 3);
  EXPECT_EQ(Code(client->Body("SpawnEntity", testing::SpawnBody("r", "asg://actor/rock", 1, 1))),
            3);
  const Json accepted = client->Body("SimulateSteps", {{"steps", 3}});
  EXPECT_EQ(accepted["accepted"], true);
  EXPECT_EQ(Code(client->Next("SimulateStepsResult").message), 4);
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  EXPECT_EQ(Step(*client, 1), 1);
}

TEST(ServeSimifStateTest, BadRequestsKeepTheSimulationUsable) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, EndlessScenario())["success"], true);
  std::string error = client->ErrorOf("StepSimulations", {{"steps", 1}});
  EXPECT_NE(error.find("StepSimulations"), std::string::npos) << error;
  error = FailureOf(*client, "StepSimulation", {{"steps", "ten"}});
  EXPECT_NE(error.find("steps = \"ten\""), std::string::npos) << error;
  error = FailureOf(*client, "StepSimulation", {{"steps", 1.5}});
  EXPECT_NE(error.find("steps = 1.5"), std::string::npos) << error;
  const Json refused = client->Body("SimulateSteps", {{"steps", 0}});
  EXPECT_EQ(Code(refused), 4) << refused.dump();
  EXPECT_EQ(refused["accepted"], false);
  error = refused["result"]["error_message"].get<std::string>();
  EXPECT_NE(error.find("steps = 0"), std::string::npos) << error;
  const Json coarse = client->Body("SimulateSteps", {{"steps", 5}, {"feedback_every_steps", 0}});
  EXPECT_EQ(coarse["accepted"], false) << coarse.dump();
  error = coarse["result"]["error_message"].get<std::string>();
  EXPECT_NE(error.find("feedback_every_steps = 0"), std::string::npos) << error;
  error = FailureOf(*client, "StepSimulation", {{"steps", 5}, {"feedback_every_steps", 1}});
  EXPECT_NE(error.find("feedback_every_steps: unknown field"), std::string::npos) << error;
  const Json cancel = client->Body("CancelSimulateSteps", {{"goal_id", -1}});
  EXPECT_EQ(Code(cancel), 4) << cancel.dump();
  EXPECT_EQ(cancel["return_code"], 1);  // ERROR_REJECTED
  error = FailureOf(*client, "StepSimulation", {{"stepz", 5}});
  EXPECT_NE(error.find("stepz"), std::string::npos) << error;
  error = FailureOf(*client, "SetSimulationState", {{"state", 2}});
  EXPECT_NE(error.find("state = 2"), std::string::npos) << error;
  error = FailureOf(*client, "SpawnEntity", {{"name", 7}});
  EXPECT_NE(error.find("name = 7"), std::string::npos) << error;
  error = FailureOf(*client, "GetEntities", {{"filters", {{"categories", {{{"category", -1}}}}}}});
  EXPECT_NE(error.find("filters.categories[0].category = -1"), std::string::npos) << error;
  error = FailureOf(*client, "GetSpawnables", {{"sources", {1}}});
  EXPECT_NE(error.find("sources[0] = 1"), std::string::npos) << error;
  EXPECT_EQ(StateNumber(*client), 2);
  EXPECT_EQ(Time(*client), 0.0);  // none of them stepped
  EXPECT_EQ(Step(*client, 1), 1);
}

}  // namespace
}  // namespace asg::worker
