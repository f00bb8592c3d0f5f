// The simple built-in drivers: straight (head for the goal, blind to obstacles), idle (never
// moves) and scripted (replays timed commands). Each is owned by one run; not thread-safe.
#pragma once

#include <vector>

#include "scene/driver.h"

namespace asg::scene {

/// Steers straight at the goal at a constant target speed and ignores obstacles. Steering is
/// proportional to the heading error: kGain deg of wheel angle per deg of error, clamped to the
/// vehicle's max; positive (right) when the goal is to the right (clockwise) of the heading.
class StraightDriver : public Driver {
 public:
  static constexpr double kGain = 1.5;  ///< [deg/deg] steering per heading error

  /// speed [m/s] is the target speed.
  StraightDriver(double speed, const DriverTask& task);
  DriverVerdict Tick(const DriverInput& input) override;

 private:
  double speed_;
  DriverTask task_;
};

/// Commands zero speed, zero steering, no handbrake at every tick.
class IdleDriver : public Driver {
 public:
  DriverVerdict Tick(const DriverInput& input) override;
};

/// Holds each command from its t until the next command's t; zeros before the first command.
class ScriptedDriver : public Driver {
 public:
  /// `commands` must be sorted by ascending t (MakeDriver validates).
  explicit ScriptedDriver(std::vector<protocol::ScriptedCommand> commands);
  DriverVerdict Tick(const DriverInput& input) override;

 private:
  std::vector<protocol::ScriptedCommand> commands_;
};

}  // namespace asg::scene
