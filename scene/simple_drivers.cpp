// The straight, idle and scripted drivers.
#include "scene/simple_drivers.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/check.h"

namespace asg::scene {

StraightDriver::StraightDriver(double speed, const DriverTask& task) : speed_(speed), task_(task) {}

DriverVerdict StraightDriver::Tick(const DriverInput& input) {
  ASG_CHECK(input.odometry != nullptr);
  const protocol::Point& position = input.odometry->pose.position;
  const double bearing =
      std::atan2(task_.goal.y - position.y, task_.goal.x - position.x) * 180.0 / std::numbers::pi;
  // Heading error in (-180, 180]: positive when the goal lies counter-clockwise (to the left).
  double error = std::remainder(bearing - input.yaw, 360.0);
  const double max_steer = task_.vehicle.max_steering_angle;
  protocol::PhysXControl control;
  control.header.stamp = protocol::Time::FromSeconds(input.time);
  control.longitudinal_velocity = speed_;
  control.steering_angle = std::clamp(-kGain * error, -max_steer, max_steer);
  return control;
}

DriverVerdict IdleDriver::Tick(const DriverInput& input) {
  protocol::PhysXControl control;
  control.header.stamp = protocol::Time::FromSeconds(input.time);
  return control;
}

ScriptedDriver::ScriptedDriver(std::vector<protocol::ScriptedCommand> commands)
    : commands_(std::move(commands)) {}

DriverVerdict ScriptedDriver::Tick(const DriverInput& input) {
  protocol::PhysXControl control;
  control.header.stamp = protocol::Time::FromSeconds(input.time);
  // The last command whose t has been reached (tolerance far below a tick).
  auto next = std::upper_bound(
      commands_.begin(), commands_.end(), input.time + 1e-9,
      [](double time, const protocol::ScriptedCommand& command) { return time < command.t; });
  if (next == commands_.begin()) return control;
  const protocol::ScriptedCommand& command = *std::prev(next);
  control.longitudinal_velocity = command.longitudinal_velocity;
  control.steering_angle = command.steering_angle;
  control.handbrake = command.handbrake;
  return control;
}

}  // namespace asg::scene
