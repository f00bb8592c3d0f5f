// Tests for scene/scenario_stages.h: each stage on a run state built by hand.
#include "scene/scenario_stages.h"

#include <gtest/gtest.h>

#include "scene/run_stepper.h"
#include "scene/scenario_runner.h"
#include "scene/simple_drivers.h"
#include "scene/world.h"
#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using protocol::TerminationReason;
using testing::ReferenceRequest;
using testing::ShippedCatalog;

// A run state over the world of `request` (the reference world by default), the vehicle placed
// at its start.
struct StagesRig {
  explicit StagesRig(protocol::RunScenarioRequest scenario = ReferenceRequest())
      : request(std::move(scenario)),
        world(BuildWorld(request, ShippedCatalog())),
        terrain(world.landscape),
        state(world, terrain, request.vehicle, TerminationSettingsFor(request, world), timing) {
    state.vehicle->Place(world.start, world.start_yaw);
    state.previous_xy = state.vehicle->State().position.head<2>();
  }
  protocol::RunScenarioRequest request;
  RunTiming timing;
  World world;
  TerrainCollision terrain;
  RunState state;
};

// A driver that gives up at once.
class AbortingDriver : public Driver {
 public:
  DriverVerdict Tick(const DriverInput&) override { return DriverAbort{"node 'x' disconnected"}; }
};

TEST(ScenarioStagesTest, RecordOdometryStampsTheTickTime) {
  StagesRig rig;
  rig.state.tick = 3;
  RecordOdometry(rig.timing, &rig.state);
  ASSERT_EQ(rig.state.analysis.vehicle_trajectory.size(), 1u);
  const auto& sample = rig.state.analysis.vehicle_trajectory.back();
  EXPECT_DOUBLE_EQ(sample.header.stamp.Seconds(), 3 * rig.timing.period);
  EXPECT_EQ(sample.header.frame_id, "world");
  EXPECT_EQ(sample.child_frame_id, kVehicleFrame);
  EXPECT_EQ(sample.pose.position.x, rig.state.vehicle_state.position.x());
}

TEST(ScenarioStagesTest, UpdateCountersAddsTheXyStepAndKeepsTheLargestAttitude) {
  StagesRig rig;
  rig.state.previous_xy = rig.state.vehicle->State().position.head<2>() - Eigen::Vector2d(3, 4);
  rig.state.vehicle_state = rig.state.vehicle->State();
  rig.state.vehicle_state.roll = -12.0;
  rig.state.vehicle_state.pitch = 7.0;
  UpdateCounters(&rig.state);
  const protocol::RunCounters& counters = rig.state.analysis.counters;
  EXPECT_NEAR(counters.distance_travelled, 5.0, 1e-12);
  EXPECT_EQ(counters.max_abs_roll, 12.0);
  EXPECT_EQ(counters.max_abs_pitch, 7.0);
  rig.state.vehicle_state.roll = 2.0;
  UpdateCounters(&rig.state);  // no movement since
  EXPECT_NEAR(counters.distance_travelled, 5.0, 1e-12);
  EXPECT_EQ(counters.max_abs_roll, 12.0);
}

TEST(ScenarioStagesTest, CheckTerminationStopsAtTheTickLimit) {
  StagesRig rig;
  rig.timing.max_ticks = 2;
  for (long tick = 0; tick < 2; ++tick) {
    rig.state.tick = tick;
    RecordOdometry(rig.timing, &rig.state);
    EXPECT_FALSE(CheckTermination(rig.timing, &rig.state).has_value()) << tick;
  }
  rig.state.tick = 2;
  RecordOdometry(rig.timing, &rig.state);
  EXPECT_EQ(CheckTermination(rig.timing, &rig.state), TerminationReason::REASON_SIM_TIMEOUT);
}

TEST(ScenarioStagesTest, AskDriverCountsControlsButNotAborts) {
  StagesRig rig;
  RecordOdometry(rig.timing, &rig.state);
  StraightDriver straight(5.0, DriverTask{});
  EXPECT_TRUE(
      std::holds_alternative<protocol::PhysXControl>(AskDriver(rig.timing, straight, &rig.state)));
  EXPECT_EQ(rig.state.analysis.counters.control_messages, 1u);
  EXPECT_EQ(rig.state.vehicle->target_speed(), 5.0);
  AbortingDriver aborting;
  const DriverVerdict verdict = AskDriver(rig.timing, aborting, &rig.state);
  ASSERT_TRUE(std::holds_alternative<DriverAbort>(verdict));
  EXPECT_EQ(std::get<DriverAbort>(verdict).reason, "node 'x' disconnected");
  EXPECT_EQ(rig.state.analysis.counters.control_messages, 1u);
  EXPECT_EQ(rig.state.vehicle->target_speed(), 5.0);  // the last control is kept
}

TEST(ScenarioStagesTest, CountNewContactsCountsEachContactOnceWhileItLasts) {
  StagesRig rig;
  RunState& state = rig.state;
  state.touching = {2, 5};
  CountNewContacts(&state);
  EXPECT_EQ(state.analysis.counters.collisions_touched, 2u);
  EXPECT_TRUE(state.touched_in_period);
  state.touching = {2, 5, 7};  // 2 and 5 still touching, 7 begins
  CountNewContacts(&state);
  EXPECT_EQ(state.analysis.counters.collisions_touched, 3u);
  state.touching = {};  // all contacts end
  CountNewContacts(&state);
  state.touching = {2};  // 2 begins again
  CountNewContacts(&state);
  EXPECT_EQ(state.analysis.counters.collisions_touched, 4u);
  EXPECT_EQ(state.previously_touching, std::vector<int>{2});
}

TEST(ScenarioStagesTest, RecordFirstContactKeepsTheFirstActorOfTheRequestTouched) {
  // Request order: tree 0 (invisible), tree 1, bush 2; the world holds tree 1 and bush 2 only.
  protocol::RunScenarioRequest request = ReferenceRequest();
  testing::AddActors(&request, testing::kTree, {40.0, 20.0}, {20.0, 40.0});
  request.scene_description.ssa_array[0].visible[0] = false;
  testing::AddActors(&request, testing::kBush, {45.0}, {30.0});
  StagesRig rig(request);
  RunState& state = rig.state;
  ASSERT_EQ(rig.world.actors.size(), 2u);
  EXPECT_EQ(rig.world.actors[0].request_index, 1);
  EXPECT_EQ(rig.world.actors[1].request_index, 2);
  const Eigen::Vector3d position = state.vehicle->State().position;
  state.tick = 2;
  state.analysis.counters.physics_steps = 2 * rig.timing.steps_per_tick + 3;  // 3rd step of tick 2
  state.touching = {0, 1};  // both begin in one step: the first in the request is named
  RecordFirstContact(rig.timing, &state);
  ASSERT_TRUE(state.analysis.counters.first_contact.has_value());
  const protocol::FirstContact first = *state.analysis.counters.first_contact;
  EXPECT_EQ(first.actor_index, 1u);
  EXPECT_DOUBLE_EQ(first.t, 2 * rig.timing.period + 3 * rig.timing.dt);
  EXPECT_EQ(first.x, position.x());
  EXPECT_EQ(first.y, position.y());
  state.tick = 3;
  state.analysis.counters.physics_steps = 3 * rig.timing.steps_per_tick + 1;
  state.touching = {1};  // a later contact changes nothing
  RecordFirstContact(rig.timing, &state);
  EXPECT_EQ(state.analysis.counters.first_contact, first);
}

TEST(ScenarioStagesTest, RecordFirstContactPassesOverActorsTheRequestDoesNotHold) {
  protocol::RunScenarioRequest request = ReferenceRequest();
  testing::AddActors(&request, testing::kTree, {40.0}, {20.0});
  StagesRig rig(request);
  RunState& state = rig.state;
  rig.world.actors[0].request_index = -1;  // as one spawned into an interactive run
  state.analysis.counters.physics_steps = 1;
  state.touching = {0};
  RecordFirstContact(rig.timing, &state);
  EXPECT_FALSE(state.analysis.counters.first_contact.has_value());
}

// Counts the ticks it is asked for and answers a gentle forward control.
class CountingDriver : public Driver {
 public:
  DriverVerdict Tick(const DriverInput& input) override {
    times.push_back(input.time);
    protocol::PhysXControl control;
    control.longitudinal_velocity = 1.0;
    return control;
  }
  std::vector<double> times;
};

TEST(ScenarioStagesTest, RunStepperAsksTheDriverOncePerTickAndStepsPhysicsBetween) {
  StagesRig rig;
  rig.state.touched_in_period = true;
  RunStepper stepper(rig.timing, &rig.state);
  CountingDriver driver;
  EXPECT_TRUE(stepper.AtTickBoundary());
  for (int step = 0; step < rig.timing.steps_per_tick; ++step) {
    ASSERT_FALSE(stepper.Step(driver).has_value());
  }
  EXPECT_TRUE(stepper.AtTickBoundary());
  EXPECT_EQ(rig.state.tick, 1);
  EXPECT_EQ(rig.state.analysis.counters.physics_steps,
            static_cast<uint32_t>(rig.timing.steps_per_tick));
  EXPECT_EQ(driver.times, std::vector<double>{0.0});
  EXPECT_EQ(rig.state.analysis.vehicle_trajectory.size(), 1u);
  EXPECT_FALSE(rig.state.touched_in_period);  // nothing to touch on the bare reference landscape
  ASSERT_FALSE(stepper.Step(driver).has_value());  // the second tick's first step
  EXPECT_EQ(stepper.sub_step(), 1);
  EXPECT_DOUBLE_EQ(stepper.Time(), rig.timing.period + rig.timing.dt);
  EXPECT_EQ(stepper.StepsDone(), rig.timing.steps_per_tick + 1);
  EXPECT_EQ(driver.times.size(), 2u);
}

}  // namespace
}  // namespace asg::scene
