// The termination rules, in the reference order.
#include "scene/termination.h"

#include <cmath>

#include "core/check.h"

namespace asg::scene {
namespace {

using protocol::TerminationReason;

// Times compare with a tolerance far below a tick so that k * period reaches a timeout that is a
// whole number of periods despite rounding.
constexpr double kTimeTolerance = 1e-9;  // [s]

bool Reached(double elapsed, double timeout) {
  return timeout >= 0.0 && elapsed >= timeout - kTimeTolerance;
}

}  // namespace

TerminationSettings TerminationSettingsFor(const protocol::RunScenarioRequest& request,
                                           const World& world) {
  TerminationSettings settings;
  settings.allow_collisions = request.allow_collisions;
  settings.max_roll = request.max_vehicle_roll;
  settings.max_pitch = request.max_vehicle_pitch;
  settings.sim_timeout = request.sim_timeout_period;
  settings.idle_timeout = request.vehicle_idling_timeout_period;
  settings.stuck_timeout = request.vehicle_stuck_timeout_period;
  settings.goal = world.goal.head<2>();
  settings.goal_radius = world.goal_radius;
  settings.min_xy = world.landscape->min_xy();
  settings.max_xy = world.landscape->max_xy();
  settings.min_z = world.landscape->min_height() - kOutOfBoundsBelow;
  settings.max_z = world.landscape->max_height() + kOutOfBoundsAbove;
  return settings;
}

TerminationRules::TerminationRules(const TerminationSettings& settings, double control_period)
    : settings_(settings), control_period_(control_period) {
  ASG_CHECK(control_period > 0.0);
}

std::optional<TerminationReason> TerminationRules::Update(const TickObservation& o) {
  if (first_) {
    first_ = false;
  } else {
    const double speed = std::abs(o.forward_speed);
    const double command = std::abs(o.commanded_speed);
    if (speed > kIdleSpeed) began_moving_ = true;
    const bool slow = speed <= kIdleSpeed;
    idle_ticks_ = (slow && command <= kIdleSpeed && began_moving_) ? idle_ticks_ + 1 : 0;
    stuck_ticks_ = (slow && command > kIdleSpeed) ? stuck_ticks_ + 1 : 0;
  }

  if (o.touched_actor && !settings_.allow_collisions) {
    return TerminationReason::REASON_VEHICLE_COLLISION;
  }
  if (std::abs(o.roll) > settings_.max_roll) return TerminationReason::REASON_VEHICLE_FLIPPED;
  if (std::abs(o.pitch) > settings_.max_pitch) return TerminationReason::REASON_VEHICLE_FLIPPED;
  const Eigen::Vector3d& p = o.position;
  if (!(p.x() >= settings_.min_xy && p.x() <= settings_.max_xy && p.y() >= settings_.min_xy &&
        p.y() <= settings_.max_xy && p.z() >= settings_.min_z && p.z() <= settings_.max_z)) {
    return TerminationReason::REASON_VEHICLE_OUT_OF_BOUNDS;
  }
  if (Reached(o.time, settings_.sim_timeout)) return TerminationReason::REASON_SIM_TIMEOUT;
  if (Reached(idle_time(), settings_.idle_timeout) && idle_ticks_ > 0) {
    return TerminationReason::REASON_VEHICLE_IDLING_TIMEOUT;
  }
  if (Reached(stuck_time(), settings_.stuck_timeout) && stuck_ticks_ > 0) {
    return TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT;
  }
  if ((p.head<2>() - settings_.goal).norm() <= settings_.goal_radius) {
    return TerminationReason::REASON_SUCCESS;
  }
  return std::nullopt;
}

}  // namespace asg::scene
