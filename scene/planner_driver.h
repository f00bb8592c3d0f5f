// The built-in "planner" driver: a small autonomy stack in the run's process. A forward
// line-of-sight sensor votes obstacles into a grid, A* plans around the inflated obstacles seen so
// far, and a pure-pursuit follower drives the path. It knows only what it has seen, so obstacles
// hidden behind others surprise it, and it can drive into a dead end.
//
// Timing: the sensor scans every `kScanPeriod` seconds (from the first tick, one scan of about 90
// rays in three fans); a plan is made at the first tick, every replan_period, and at once when a
// newly occupied cell lies within inflation_radius + one cell of the path ahead. As in the
// research stack, a replan keeps the path up to the follower's look-ahead point and searches on
// from there (from the vehicle itself when that part is blocked). The search aims at the cells
// within goal_radius - grid_resolution of the goal. When no path exists the driver commands zero
// speed (the run then ends by idling or timeout; the driver never reverses, so a dead end too
// narrow to turn in traps it); once within goal_radius of the goal it commands zero speed for
// good. Same inputs give bit-identical commands.
#pragma once

#include <memory>
#include <vector>

#include "planning/cost_field.h"
#include "planning/vote_grid.h"
#include "scene/driver.h"
#include "scene/planner_follower.h"
#include "scene/planner_sensor.h"

namespace asg::scene {

/// The planner driver. Owned by one run; not thread-safe.
class PlannerDriver : public Driver {
 public:
  static constexpr double kScanPeriod = 0.1;  ///< [s] time between sensor scans

  /// Builds the driver; the spec must have been validated (use MakePlannerDriver).
  PlannerDriver(const protocol::DriverSpec& spec, const DriverTask& task);

  DriverVerdict Tick(const DriverInput& input) override;

  /// The obstacle votes gathered so far.
  const planning::VoteGrid& votes() const { return votes_; }
  /// The path being followed (world x, y [m]); empty before the first plan or without a path.
  const std::vector<Eigen::Vector2d>& path() const;
  /// Whether the last plan found a path.
  bool has_path() const { return has_path_; }
  /// Whether the vehicle has come within goal_radius of the goal.
  bool goal_reached() const { return goal_reached_; }
  /// Number of plans made so far.
  int plans() const { return plans_; }
  /// Number of rays cast so far.
  int64_t rays_cast() const { return rays_cast_; }

 private:
  // Plans from the vehicle (or from the current look-ahead point, keeping the path up to it).
  void Replan(const Eigen::Vector2d& position);
  // Ends a path that reaches the goal's cell at the goal point itself.
  void EndAtGoal(std::vector<Eigen::Vector2d>& points) const;
  // Whether any newly occupied cell lies near the path ahead of the look-ahead segment's start.
  bool PathThreatened(const std::vector<int>& newly_occupied) const;

  protocol::DriverSpec spec_;
  DriverTask task_;
  Eigen::Vector2d goal_;
  double goal_tolerance_;
  planning::VoteGrid votes_;
  planning::CostField cost_;
  ObstacleSensor sensor_;
  PathFollower follower_;
  std::vector<int> newly_occupied_;
  bool has_path_ = false;
  bool goal_reached_ = false;
  int plans_ = 0;
  int64_t rays_cast_ = 0;
  double next_scan_time_ = 0.0;
  double next_plan_time_ = 0.0;
};

/// Validates a planner spec and task and builds the driver. Throws std::invalid_argument naming
/// the field and value when a setting is out of range (e.g. `driver.grid_resolution = 0 must be
/// > 0`).
std::unique_ptr<Driver> MakePlannerDriver(const protocol::DriverSpec& spec, const DriverTask& task);

}  // namespace asg::scene
