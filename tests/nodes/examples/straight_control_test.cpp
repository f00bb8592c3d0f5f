// Tests for nodes/examples/straight_control.h: driven through the wire's JSON and the SDK's Step,
// the straight law gives the built-in straight driver's trajectory bit for bit.
#include "nodes/examples/straight_control.h"

#include <gtest/gtest.h>

#include "nodes/step.h"
#include "scene/scenario_runner.h"
#include "tests/scene/scene_test_util.h"

namespace asg::nodes::examples {
namespace {

/// A scene driver that sees what a node sees: the odometry sent as JSON text in a Step, the
/// control sent back as JSON text in a StepResponse.
class WireStraightDriver : public scene::Driver {
 public:
  explicit WireStraightDriver(const StraightTask& task) : task_(task) {}
  scene::DriverVerdict Tick(const scene::DriverInput& input) override {
    protocol::StepRequest request;
    request.tick = tick_++;
    request.time = input.time;
    request.odometry = *input.odometry;
    const std::string text = json::Json(request).dump();
    const Step step(protocol::ParseMessage<protocol::StepRequest>(text), {});
    protocol::StepResponse response;
    response.has_control = true;
    response.control =
        StraightControl(task_, step.time(), step.odometry().pose.position, step.yaw());
    const std::string answer = json::Json(response).dump();
    return protocol::ParseMessage<protocol::StepResponse>(answer).control;
  }

 private:
  StraightTask task_;
  uint32_t tick_ = 0;
};

protocol::RunScenarioRequest Request() {
  auto request = scene::testing::ReferenceRequest();
  request.driver.type = protocol::DriverSpec::Type::kStraight;
  request.vehicle_start_yaw = -30.0;  // the goal starts well off the heading: steering saturates
  scene::testing::AddActors(&request, scene::testing::kBush, {30.0}, {31.0});
  return request;
}

TEST(StraightNodeTest, TrajectoryMatchesTheBuiltInDriverBitForBit) {
  const protocol::RunScenarioRequest request = Request();
  scene::ScenarioRunner builtin(scene::testing::ShippedCatalog());
  builtin.Build(request);
  const scene::RunResult expected = builtin.Run();

  StraightTask task;
  task.goal = request.vehicle_goal_location;
  task.max_steering_angle = request.vehicle.max_steering_angle;
  task.speed = request.driver.speed;
  WireStraightDriver driver(task);
  scene::ScenarioRunner node(scene::testing::ShippedCatalog());
  node.Build(request);
  const scene::RunOutcome outcome = node.Run(driver);
  ASSERT_TRUE(std::holds_alternative<scene::RunResult>(outcome));
  const scene::RunResult& actual = std::get<scene::RunResult>(outcome);

  ASSERT_GT(expected.analysis.vehicle_trajectory.size(), 100u);

  EXPECT_EQ(actual.reason(), expected.reason());
  ASSERT_EQ(actual.analysis.vehicle_trajectory.size(), expected.analysis.vehicle_trajectory.size());
  EXPECT_TRUE(actual.analysis.vehicle_trajectory == expected.analysis.vehicle_trajectory);
  EXPECT_EQ(actual.analysis.counters, expected.analysis.counters);
}

TEST(StraightNodeTest, SteersTowardTheGoalAndSaturates) {
  StraightTask task;
  task.goal = {10.0, 10.0, 0.0};
  // Goal at 45 deg, heading 40 deg: 5 deg to the left, steer 7.5 deg left (negative).
  EXPECT_DOUBLE_EQ(StraightControl(task, 0.0, {0, 0, 0}, 40.0).steering_angle, -7.5);
  // Goal behind to the right: saturates at the steering limit.
  EXPECT_EQ(StraightControl(task, 0.0, {0, 0, 0}, 150.0).steering_angle, 30.0);
  const protocol::PhysXControl control = StraightControl(task, 1.25, {0, 0, 0}, 45.0);
  EXPECT_EQ(control.longitudinal_velocity, 5.0);
  EXPECT_EQ(control.header.stamp, (protocol::Time{1, 250000000}));
}

}  // namespace
}  // namespace asg::nodes::examples
