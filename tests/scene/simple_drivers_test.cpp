// Tests for scene/simple_drivers.h and MakeDriver (scene/driver.h).
#include "scene/simple_drivers.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/scene/run_test_util.h"

namespace asg::scene {
namespace {

using testing::ControlOf;

DriverTask Task() {
  DriverTask task;
  task.goal = {50.0, 50.0, 0.0};
  return task;
}

DriverInput Input(double time, double x, double y, double yaw,
                  protocol::OdometryWithoutCovariance* odometry) {
  odometry->pose.position = {x, y, 0.0};
  DriverInput input;
  input.time = time;
  input.odometry = odometry;
  input.yaw = yaw;
  return input;
}

TEST(SimpleDriversTest, StraightSteersTowardTheGoalWithPositiveMeaningRight) {
  StraightDriver driver(5.0, Task());
  protocol::OdometryWithoutCovariance odometry;
  // Goal at bearing 45 deg; heading 60 deg: goal is to the right -> positive steering.
  protocol::PhysXControl control = ControlOf(driver.Tick(Input(0.0, 10.0, 10.0, 60.0, &odometry)));
  EXPECT_DOUBLE_EQ(control.longitudinal_velocity, 5.0);
  EXPECT_NEAR(control.steering_angle, 1.5 * 15.0, 1e-9);
  control = ControlOf(driver.Tick(Input(0.05, 10.0, 10.0, 40.0, &odometry)));
  EXPECT_NEAR(control.steering_angle, -1.5 * 5.0, 1e-9);
  control =
      ControlOf(driver.Tick(Input(0.1, 10.0, 10.0, -150.0, &odometry)));  // goal behind: clamped
  EXPECT_NEAR(std::abs(control.steering_angle), 30.0, 1e-9);
}

TEST(SimpleDriversTest, IdleNeverMoves) {
  IdleDriver driver;
  protocol::OdometryWithoutCovariance odometry;
  const protocol::PhysXControl control = ControlOf(driver.Tick(Input(3.0, 1, 1, 0, &odometry)));
  EXPECT_EQ(control.longitudinal_velocity, 0.0);
  EXPECT_EQ(control.steering_angle, 0.0);
  EXPECT_FALSE(control.handbrake);
}

TEST(SimpleDriversTest, ScriptedHoldsEachCommandUntilTheNext) {
  ScriptedDriver driver({{0.5, 4.0, 10.0, false}, {2.0, 0.0, -5.0, true}});
  protocol::OdometryWithoutCovariance odometry;
  EXPECT_EQ(ControlOf(driver.Tick(Input(0.0, 0, 0, 0, &odometry))).longitudinal_velocity, 0.0);
  EXPECT_EQ(ControlOf(driver.Tick(Input(0.5, 0, 0, 0, &odometry))).longitudinal_velocity, 4.0);
  EXPECT_EQ(ControlOf(driver.Tick(Input(1.95, 0, 0, 0, &odometry))).steering_angle, 10.0);
  const protocol::PhysXControl late = ControlOf(driver.Tick(Input(2.0, 0, 0, 0, &odometry)));
  EXPECT_EQ(late.steering_angle, -5.0);
  EXPECT_TRUE(late.handbrake);
}

TEST(SimpleDriversTest, MakeDriverBuildsEachTypeAndRejectsBadSpecs) {
  protocol::DriverSpec spec;
  spec.type = protocol::DriverSpec::Type::kStraight;
  EXPECT_NE(dynamic_cast<StraightDriver*>(MakeDriver(spec, Task()).get()), nullptr);
  spec.type = protocol::DriverSpec::Type::kPlanner;
  EXPECT_NE(MakeDriver(spec, Task()), nullptr);
  spec.type = protocol::DriverSpec::Type::kIdle;
  EXPECT_NE(dynamic_cast<IdleDriver*>(MakeDriver(spec, Task()).get()), nullptr);
  spec.type = protocol::DriverSpec::Type::kScripted;
  spec.commands = {{1.0, 1.0, 0.0, false}, {0.5, 1.0, 0.0, false}};
  try {
    MakeDriver(spec, Task());
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()),
              "driver.commands[1].t = 0.500000 is before the previous t = 1.000000");
  }
}

}  // namespace
}  // namespace asg::scene
