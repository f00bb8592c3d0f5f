// MakeDriver: validation of a DriverSpec and construction of the built-in driver it names.
#include <cmath>
#include <stdexcept>
#include <string>

#include "scene/planner_driver.h"
#include "scene/simple_drivers.h"

namespace asg::scene {
namespace {

std::string Number(double value) { return std::to_string(value); }

void RequireSpeed(double speed) {
  if (!std::isfinite(speed)) {
    throw std::invalid_argument("driver.speed = " + Number(speed) + " is not finite");
  }
}

void RequireSortedCommands(const std::vector<protocol::ScriptedCommand>& commands) {
  for (size_t i = 0; i < commands.size(); ++i) {
    const protocol::ScriptedCommand& c = commands[i];
    const std::string path = "driver.commands[" + std::to_string(i) + "]";
    if (!std::isfinite(c.t) || c.t < 0.0) {
      throw std::invalid_argument(path + ".t = " + Number(c.t) + " must be finite and >= 0");
    }
    if (i > 0 && c.t < commands[i - 1].t) {
      throw std::invalid_argument(path + ".t = " + Number(c.t) +
                                  " is before the previous t = " + Number(commands[i - 1].t));
    }
    if (!std::isfinite(c.longitudinal_velocity) || !std::isfinite(c.steering_angle)) {
      throw std::invalid_argument(path + " has a non-finite speed or steering angle");
    }
  }
}

}  // namespace

std::unique_ptr<Driver> MakeDriver(const protocol::DriverSpec& spec, const DriverTask& task) {
  switch (spec.type) {
    case protocol::DriverSpec::Type::kPlanner:
      return MakePlannerDriver(spec, task);
    case protocol::DriverSpec::Type::kStraight:
      RequireSpeed(spec.speed);
      return std::make_unique<StraightDriver>(spec.speed, task);
    case protocol::DriverSpec::Type::kIdle:
      return std::make_unique<IdleDriver>();
    case protocol::DriverSpec::Type::kScripted:
      RequireSortedCommands(spec.commands);
      return std::make_unique<ScriptedDriver>(spec.commands);
  }
  throw std::invalid_argument("driver.type = " + std::to_string(static_cast<int>(spec.type)) +
                              " is not a known driver type");
}

}  // namespace asg::scene
