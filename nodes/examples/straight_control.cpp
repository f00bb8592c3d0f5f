// The straight law; each expression matches scene/simple_drivers.cpp's StraightDriver::Tick.
#include "nodes/examples/straight_control.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace asg::nodes::examples {

protocol::PhysXControl StraightControl(const StraightTask& task, double time,
                                       const protocol::Point& position, double yaw) {
  const double bearing =
      std::atan2(task.goal.y - position.y, task.goal.x - position.x) * 180.0 / std::numbers::pi;
  // Heading error in (-180, 180]: positive when the goal lies counter-clockwise (to the left).
  const double error = std::remainder(bearing - yaw, 360.0);
  const double max_steer = task.max_steering_angle;
  protocol::PhysXControl control;
  control.header.stamp = protocol::Time::FromSeconds(time);
  control.longitudinal_velocity = task.speed;
  control.steering_angle = std::clamp(-kStraightGain * error, -max_steer, max_steer);
  return control;
}

}  // namespace asg::nodes::examples
