// Tests for scene/scenario_runner.h: the reference page's termination behaviour end to end.
#include "scene/scenario_runner.h"

#include <gtest/gtest.h>

#include <numbers>

#include "scene/simple_drivers.h"
#include "tests/scene/run_test_util.h"
#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using protocol::TerminationReason;
using testing::AddActors;
using testing::kBush;
using testing::kTree;
using testing::ReferenceRequest;
using testing::ShippedCatalog;

constexpr double kTick = 0.05;  // [s] default control period

RunResult RunOnce(const protocol::RunScenarioRequest& request) {
  ScenarioRunner runner(ShippedCatalog());
  runner.Build(request);
  return runner.Run();
}

// Straight east along y = 10 from x = 10 toward a goal at x = 50, a tree at x = 30 in the way.
protocol::RunScenarioRequest TreeInTheWay(bool allow_collisions) {
  auto request = ReferenceRequest();
  request.vehicle_start_yaw = 0.0;
  request.vehicle_goal_location = {50.0, 10.0, 0.0};
  request.sim_timeout_period = 30.0;
  request.allow_collisions = allow_collisions;
  AddActors(&request, kTree, {30.0}, {10.0});
  return request;
}

const protocol::Point& FinalPosition(const RunResult& result) {
  return result.analysis.vehicle_trajectory.back().pose.position;
}

TEST(ScenarioRunnerTest, StraightOnOpenGroundReachesTheGoal) {
  const RunResult result = RunOnce(ReferenceRequest());
  const auto& analysis = result.analysis;
  EXPECT_EQ(result.reason(), TerminationReason::REASON_SUCCESS);
  EXPECT_EQ(static_cast<int>(analysis.termination_reason), 0);
  EXPECT_EQ(analysis.scenario_number, 1);
  // 51.6 m to the goal circle at 5 m/s plus the acceleration phase.
  EXPECT_GT(analysis.vehicle_sim_time, 10.3);
  EXPECT_LT(analysis.vehicle_sim_time, 11.5);
  const auto& first = analysis.vehicle_trajectory.front();
  const auto& last = analysis.vehicle_trajectory.back();
  EXPECT_EQ(first.header.frame_id, "world");
  EXPECT_EQ(first.child_frame_id, "vehicle");
  EXPECT_EQ(first.header.stamp.Seconds(), 0.0);
  EXPECT_NEAR(first.pose.position.x, 10.0, 0.05);
  EXPECT_NEAR(first.pose.position.y, 10.0, 0.05);
  EXPECT_NEAR(std::hypot(last.pose.position.x - 50.0, last.pose.position.y - 50.0), 5.0, 0.3);
  EXPECT_NEAR(last.twist.linear.x, 5.0, 0.1);  // body frame: all forward
  EXPECT_NEAR(last.twist.linear.y, 0.0, 0.05);
  const auto& counters = analysis.counters;
  EXPECT_EQ(counters.control_messages, analysis.vehicle_trajectory.size() - 1);
  EXPECT_EQ(counters.physics_steps, counters.control_messages * 5);
  EXPECT_NEAR(analysis.vehicle_sim_time, counters.control_messages * kTick, 1e-9);
  EXPECT_NEAR(counters.distance_travelled, 51.6, 0.6);
  EXPECT_EQ(counters.collisions_touched, 0u);
  EXPECT_GE(counters.settle_time, 0.5);
}

TEST(ScenarioRunnerTest, CollisionEndsTheRunNextToTheTree) {
  const RunResult result = RunOnce(TreeInTheWay(false));
  EXPECT_EQ(result.reason(), TerminationReason::REASON_VEHICLE_COLLISION);
  const double front = FinalPosition(result).x + 0.5 * 3.5;
  const double trunk_face = 30.0 - 0.3;
  EXPECT_GT(front, trunk_face - 0.3);
  EXPECT_LT(front, trunk_face + 1.0);
  EXPECT_GE(result.analysis.counters.collisions_touched, 1u);
}

TEST(ScenarioRunnerTest, TheFirstContactNamesTheTreeByItsPlaceInTheRequest) {
  // Before the tree: two invisible bushes and another tree far from the path, so the tree is the
  // request's fourth actor (index 3) but the world's second.
  auto request = TreeInTheWay(false);
  const protocol::StructuralSceneActorLayout tree = request.scene_description.ssa_array.back();
  request.scene_description.ssa_array.pop_back();
  AddActors(&request, kBush, {55.0, 5.0}, {55.0, 55.0}, 1.0, /*visible=*/false);
  AddActors(&request, kTree, {5.0}, {50.0});
  request.scene_description.ssa_array.push_back(tree);
  const RunResult result = RunOnce(request);
  ASSERT_EQ(result.reason(), TerminationReason::REASON_VEHICLE_COLLISION);
  const auto& contact = result.analysis.counters.first_contact;
  ASSERT_TRUE(contact.has_value());
  EXPECT_EQ(contact->actor_index, 3u);
  // The front (half a body length ahead) at the trunk's face, on the line driven; the contact
  // is found within the last control period of the run.
  EXPECT_NEAR(contact->x + 0.5 * 3.5, 30.0 - 0.3, 0.5);
  EXPECT_NEAR(contact->y, 10.0, 0.1);
  EXPECT_LE(contact->t, result.analysis.vehicle_sim_time);
  EXPECT_GT(contact->t, result.analysis.vehicle_sim_time - 2 * kTick);
  // Open ground: no contact.
  EXPECT_FALSE(RunOnce(ReferenceRequest()).analysis.counters.first_contact.has_value());
}

TEST(ScenarioRunnerTest, AllowedCollisionEndsStuckAfterTheStuckPeriod) {
  const RunResult blocked = RunOnce(TreeInTheWay(false));
  const RunResult stuck = RunOnce(TreeInTheWay(true));
  EXPECT_EQ(stuck.reason(), TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT);
  // Reaching the tree takes as long as in the blocked run; then the vehicle pushes against it
  // (commanding 5 m/s, moving <= 2 cm/s) for the 5 s stuck period.
  const double time_to_tree = blocked.analysis.vehicle_sim_time;
  EXPECT_NEAR(stuck.analysis.vehicle_sim_time, time_to_tree + 5.0, 0.75);
  EXPECT_GE(stuck.analysis.counters.collisions_touched, 1u);
  EXPECT_LT(std::abs(FinalPosition(stuck).y - 10.0), 1.0);
}

TEST(ScenarioRunnerTest, StoppingAfterMovingEndsByIdling) {
  auto request = ReferenceRequest();
  request.vehicle_start_yaw = 0.0;
  request.vehicle_goal_location = {55.0, 10.0, 0.0};
  request.driver.type = protocol::DriverSpec::Type::kScripted;
  request.driver.commands = {{0.0, 5.0, 0.0, false}, {3.0, 0.0, 0.0, false}};
  const RunResult result = RunOnce(request);
  EXPECT_EQ(result.reason(), TerminationReason::REASON_VEHICLE_IDLING_TIMEOUT);
  // The idle timer starts at the first tick after 3 s at which the vehicle is stopped.
  double stopped_at = -1.0;
  for (const auto& sample : result.analysis.vehicle_trajectory) {
    const double t = sample.header.stamp.Seconds();
    if (t > 3.0 && std::abs(sample.twist.linear.x) <= 0.02) {
      stopped_at = t;
      break;
    }
  }
  ASSERT_GT(stopped_at, 3.0);
  EXPECT_LT(stopped_at, 5.0);  // braking from 5 m/s takes about a second
  EXPECT_NEAR(result.analysis.vehicle_sim_time, stopped_at + 5.0, kTick + 1e-9);
}

TEST(ScenarioRunnerTest, IdleDriverEndsBySimTimeoutWithoutMoving) {
  auto request = ReferenceRequest();
  request.driver.type = protocol::DriverSpec::Type::kIdle;
  const RunResult result = RunOnce(request);
  EXPECT_EQ(result.reason(), TerminationReason::REASON_SIM_TIMEOUT);
  EXPECT_NEAR(result.analysis.vehicle_sim_time, 17.0, 1e-9);
  const auto& first = result.analysis.vehicle_trajectory.front().pose.position;
  const auto& last = FinalPosition(result);
  EXPECT_LT(std::hypot(last.x - first.x, last.y - first.y), 0.05);
  EXPECT_LT(std::hypot(first.x - 10.0, first.y - 10.0), 0.05);
  EXPECT_EQ(result.analysis.vehicle_trajectory.size(), 341u);
}

TEST(ScenarioRunnerTest, CrossingAHillFlankBeyondTheRollLimitFlips) {
  auto request = ReferenceRequest();
  request.scene_description.landscape.relief.push_back(testing::Hill(30.0, 17.0, 12.0, 4.0));
  request.vehicle_start_yaw = 0.0;
  request.vehicle_goal_location = {55.0, 10.0, 0.0};
  request.max_vehicle_roll = 10.0;
  const RunResult result = RunOnce(request);
  EXPECT_EQ(result.reason(), TerminationReason::REASON_VEHICLE_FLIPPED);
  const auto& samples = result.analysis.vehicle_trajectory;
  const Eigen::Quaterniond last(
      samples.back().pose.orientation.w, samples.back().pose.orientation.x,
      samples.back().pose.orientation.y, samples.back().pose.orientation.z);
  const double roll = std::atan2(2 * (last.w() * last.x() + last.y() * last.z()),
                                 1 - 2 * (last.x() * last.x() + last.y() * last.y()));
  EXPECT_GT(std::abs(roll) * 180 / std::numbers::pi, 10.0);
  EXPECT_GT(result.analysis.counters.max_abs_roll, 10.0);
  EXPECT_GT(FinalPosition(result).x, 18.0);  // on the hill's flank, not at the start
}

TEST(ScenarioRunnerTest, DrivingOffTheLandscapeIsOutOfBounds) {
  auto request = ReferenceRequest(30.0, 5);
  request.vehicle_start_location = {15.0, 15.0, 0.0};
  request.vehicle_start_yaw = 0.0;
  request.vehicle_goal_location = {100.0, 15.0, 0.0};
  const RunResult result = RunOnce(request);
  EXPECT_EQ(result.reason(), TerminationReason::REASON_VEHICLE_OUT_OF_BOUNDS);
  EXPECT_EQ(static_cast<int>(result.analysis.termination_reason), 6);
  EXPECT_GT(FinalPosition(result).x, 30.0);
  EXPECT_LT(FinalPosition(result).x, 30.5);
}

TEST(ScenarioRunnerTest, TraversableBushIsDrivenThroughWithoutCollision) {
  auto request = TreeInTheWay(false);
  request.scene_description.ssa_array.clear();
  AddActors(&request, kBush, {30.0}, {10.0}, 0.2);  // 0.18 m high: traversable
  const RunResult result = RunOnce(request);
  EXPECT_EQ(result.reason(), TerminationReason::REASON_SUCCESS);
  EXPECT_EQ(result.analysis.counters.collisions_touched, 0u);
  EXPECT_GT(FinalPosition(result).x, 44.0);
}

TEST(ScenarioRunnerTest, FullSizeBushBlocksTheSameDrive) {
  auto request = TreeInTheWay(false);
  request.scene_description.ssa_array.clear();
  AddActors(&request, kBush, {30.0}, {10.0}, 1.0);
  const RunResult result = RunOnce(request);
  EXPECT_EQ(result.reason(), TerminationReason::REASON_VEHICLE_COLLISION);
  EXPECT_LT(FinalPosition(result).x, 30.0);
}

TEST(ScenarioRunnerTest, InvisibleTreeIsDrivenThrough) {
  auto request = TreeInTheWay(false);
  request.scene_description.ssa_array.clear();
  AddActors(&request, kTree, {30.0}, {10.0}, 1.0, /*visible=*/false);
  const RunResult result = RunOnce(request);
  EXPECT_EQ(result.reason(), TerminationReason::REASON_SUCCESS);
  EXPECT_EQ(result.analysis.counters.collisions_touched, 0u);
}

protocol::RunScenarioRequest ReferenceWithActors() {
  auto request = ReferenceRequest();
  AddActors(&request, kTree, {30, 20, 42, 25, 8, 50}, {28, 40, 30, 12, 45, 25});
  AddActors(&request, kBush, {35, 22, 45, 15, 52, 30}, {33, 30, 38, 35, 15, 50});
  return request;
}

TEST(ScenarioRunnerTest, RunsAreBitIdenticalOnFreshAndReusedRunners) {
  const auto request = ReferenceWithActors();
  const RunResult fresh = RunOnce(request);
  ScenarioRunner runner(ShippedCatalog());
  runner.Build(request);
  const RunResult first = runner.Run();
  const RunResult second = runner.Run();
  auto other = TreeInTheWay(true);
  other.scene_description.landscape.relief.push_back(testing::Hill(20, 30, 8, 2));
  runner.Build(other);
  const RunResult different = runner.Run();
  runner.Build(request);
  const RunResult third = runner.Run();
  EXPECT_TRUE(first.analysis == fresh.analysis);
  EXPECT_TRUE(second.analysis == fresh.analysis);
  EXPECT_TRUE(third.analysis == fresh.analysis);
  EXPECT_FALSE(different.analysis == fresh.analysis);
  EXPECT_GT(fresh.analysis.vehicle_trajectory.size(), 100u);
}

TEST(ScenarioRunnerTest, UsesTheDriverItIsGiven) {
  ScenarioRunner runner(ShippedCatalog());
  auto request = ReferenceRequest();  // names the straight driver
  runner.Build(request);
  IdleDriver idle;
  const RunResult result = testing::ResultOf(runner.Run(idle));
  EXPECT_EQ(result.reason(), TerminationReason::REASON_SIM_TIMEOUT);
}

// Drives straight on until `at` [s], then gives up.
class GivesUpAt : public Driver {
 public:
  explicit GivesUpAt(double at) : at_(at) {}
  DriverVerdict Tick(const DriverInput& input) override {
    if (input.time >= at_ - 1e-9) return DriverAbort{"node 'n' missed the step deadline"};
    protocol::PhysXControl control;
    control.longitudinal_velocity = 5.0;
    return control;
  }

 private:
  double at_;
};

TEST(ScenarioRunnerTest, ADriverAbortEndsTheRunWithoutAResult) {
  ScenarioRunner runner(ShippedCatalog());
  runner.Build(ReferenceRequest());
  GivesUpAt driver(1.0);
  const RunOutcome outcome = runner.Run(driver);
  ASSERT_TRUE(std::holds_alternative<RunAborted>(outcome));
  const RunAborted& aborted = std::get<RunAborted>(outcome);
  EXPECT_EQ(aborted.reason, "node 'n' missed the step deadline");
  EXPECT_NEAR(aborted.time, 1.0, 1e-9);
  // The runner stays usable: the same scenario then runs to a result.
  GivesUpAt never(1e9);
  const RunResult result = testing::ResultOf(runner.Run(never));
  EXPECT_EQ(result.reason(), TerminationReason::REASON_SUCCESS);
}

TEST(ScenarioRunnerTest, ReasonIsReadFromTheAnalysis) {
  RunResult result;
  result.analysis.termination_reason = TerminationReason::REASON_VEHICLE_FLIPPED;
  EXPECT_EQ(result.reason(), TerminationReason::REASON_VEHICLE_FLIPPED);
}

TEST(ScenarioRunnerTest, CaptureOnlyResultIsAnEmptySuccess) {
  auto request = ReferenceRequest();
  request.scenario_number = 77;
  request.scene_capture_only = true;
  const protocol::AnalyzeScenarioRequest analysis = CaptureOnlyResult(request);
  EXPECT_EQ(analysis.scenario_number, 77);
  EXPECT_TRUE(analysis.scene_capture_only);
  EXPECT_EQ(static_cast<int>(analysis.termination_reason), 0);
  EXPECT_TRUE(analysis.vehicle_trajectory.empty());
  EXPECT_EQ(analysis.vehicle_sim_time, 0.0);
}

TEST(ScenarioRunnerTest, RatesThatDoNotDivideAreASceneError) {
  ScenarioRunner runner(ShippedCatalog());
  auto request = ReferenceRequest();
  request.simulation.control_rate = 30.0;
  EXPECT_THROW(runner.Build(request), SceneError);
}

}  // namespace
}  // namespace asg::scene
