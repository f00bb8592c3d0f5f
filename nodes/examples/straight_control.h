// The control law of the simulator's built-in "straight" driver (scene/simple_drivers.cpp),
// reproduced operation for operation so that asg-node-straight drives the same trajectory bit
// for bit: steer at the goal with kGain deg per deg of heading error, constant speed.
#pragma once

#include "protocol/messages.h"

namespace asg::nodes::examples {

/// What the straight law needs to know about its run.
struct StraightTask {
  protocol::Point goal;              ///< [m] goal location
  double max_steering_angle = 30.0;  ///< [deg] the vehicle's steering limit
  double speed = 5.0;                ///< [m/s] target speed (DriverSpec::speed's default)
};

/// [deg/deg] steering per degree of heading error, as StraightDriver::kGain.
inline constexpr double kStraightGain = 1.5;

/// The control for a vehicle at `position` [m] with yaw `yaw` [deg] (counter-clockwise from +x)
/// at `time` [s]: speed, steering = clamp(-kStraightGain * error) with the error in
/// (-180, 180] positive when the goal is to the left; stamp = time. Pure and thread-safe.
protocol::PhysXControl StraightControl(const StraightTask& task, double time,
                                       const protocol::Point& position, double yaw);

}  // namespace asg::nodes::examples
