// AutoSceneGen's termination rules, checked once per control tick, in this order:
//   1 touched a non-traversable actor and !allow_collisions   REASON_VEHICLE_COLLISION (1)
//   2 |roll| > max_vehicle_roll                                REASON_VEHICLE_FLIPPED (2)
//   3 |pitch| > max_vehicle_pitch                              REASON_VEHICLE_FLIPPED (2)
//   4 left the landscape (extension, see below)                REASON_VEHICLE_OUT_OF_BOUNDS (6)
//   5 time since the first control >= sim_timeout_period       REASON_SIM_TIMEOUT (3)
//   6 idle time >= vehicle_idling_timeout_period               REASON_VEHICLE_IDLING_TIMEOUT (4)
//   7 stuck time >= vehicle_stuck_timeout_period               REASON_VEHICLE_STUCK_TIMEOUT (5)
//   8 2-D distance to the goal <= goal_radius                  REASON_SUCCESS (0)
// A period of -1 (any negative value) disables its check. Timers run only after the first
// control input. Idle: |forward speed| <= 0.02 m/s and |commanded speed| <= 0.02 m/s, counted only
// once the vehicle has begun moving (|forward speed| > 0.02 m/s at some tick), as the RunScenario
// specification says; stuck: |forward speed| <= 0.02 m/s and |commanded speed| > 0.02 m/s. Each
// timer resets to 0 when its condition fails. Out of bounds: x or y outside the landscape grid,
// or z more than kOutOfBoundsBelow under the lowest vertex or kOutOfBoundsAbove over the highest.
#pragma once

#include <Eigen/Core>
#include <optional>

#include "protocol/messages.h"
#include "scene/world.h"

namespace asg::scene {

/// The thresholds of one run, taken from its request and world. Plain constant data.
struct TerminationSettings {
  bool allow_collisions = true;
  double max_roll = 70.0;                          ///< [deg]
  double max_pitch = 70.0;                         ///< [deg]
  double sim_timeout = -1.0;                       ///< [s] negative disables
  double idle_timeout = -1.0;                      ///< [s] negative disables
  double stuck_timeout = -1.0;                     ///< [s] negative disables
  Eigen::Vector2d goal = Eigen::Vector2d::Zero();  ///< [m]
  double goal_radius = 5.0;                        ///< [m]
  double min_xy = 0.0;                             ///< [m] landscape grid extent
  double max_xy = 60.0;                            ///< [m]
  double min_z = -5.0;                             ///< [m] lowest allowed vehicle z
  double max_z = 50.0;                             ///< [m] highest allowed vehicle z
};

/// [m] how far below the lowest landscape vertex the vehicle may fall before it is out of bounds.
inline constexpr double kOutOfBoundsBelow = 5.0;
/// [m] how far above the highest landscape vertex the vehicle may fly before it is out of bounds.
inline constexpr double kOutOfBoundsAbove = 50.0;
/// [m/s] speed threshold of the idle and stuck conditions.
inline constexpr double kIdleSpeed = 0.02;

/// The settings of `request` on `world`.
TerminationSettings TerminationSettingsFor(const protocol::RunScenarioRequest& request,
                                           const World& world);

/// What the rules look at, once per control tick.
struct TickObservation {
  double time = 0.0;           ///< [s] since the first control input
  bool touched_actor = false;  ///< touched a non-traversable actor during the last period
  double roll = 0.0;           ///< [deg]
  double pitch = 0.0;          ///< [deg]
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  ///< [m] world
  double forward_speed = 0.0;                          ///< [m/s]
  double commanded_speed = 0.0;  ///< [m/s] command held during the last period
};

/// Timers and checks of one run. Owned by the run; not thread-safe.
class TerminationRules {
 public:
  /// control_period [s] > 0 is the time between ticks.
  TerminationRules(const TerminationSettings& settings, double control_period);

  /// Observes the tick `observation` and returns the reason the run ends there, if any. The
  /// first call is the first control tick (time 0, timers not yet running); each later call
  /// advances the idle and stuck timers by one control period.
  std::optional<protocol::TerminationReason> Update(const TickObservation& observation);

  double idle_time() const { return idle_ticks_ * control_period_; }    ///< [s]
  double stuck_time() const { return stuck_ticks_ * control_period_; }  ///< [s]
  bool began_moving() const { return began_moving_; }

 private:
  TerminationSettings settings_;
  double control_period_;
  bool first_ = true;
  bool began_moving_ = false;
  long idle_ticks_ = 0;
  long stuck_ticks_ = 0;
};

}  // namespace asg::scene
