// The built-in "planner" driver: sense, map, plan, follow.
#include "scene/planner_driver.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/check.h"
#include "planning/field_planner.h"

namespace asg::scene {
namespace {

using planning::CostSettings;

constexpr double kDegToRad = M_PI / 180.0;
constexpr double kTimeEpsilon = 1e-6;  // [s] tolerance when comparing tick times to schedules
constexpr int kMaxCellsPerSide = 1024;

CostSettings MakeCostSettings(const protocol::DriverSpec& spec) {
  CostSettings settings;
  settings.inflation_radius = spec.inflation_radius;
  settings.penalty_reach =
      std::max(settings.penalty_reach, spec.inflation_radius + spec.grid_resolution);
  return settings;
}

SensorSettings MakeSensorSettings(const protocol::DriverSpec& spec) {
  SensorSettings settings;
  settings.range = spec.sensor_range;
  settings.fov = spec.sensor_fov;
  return settings;
}

FollowerSettings MakeFollowerSettings(const protocol::DriverSpec& spec, const DriverTask& task) {
  FollowerSettings settings;
  settings.lookahead = spec.lookahead;
  settings.speed = std::min(spec.speed, task.vehicle.max_speed);
  settings.wheelbase = task.vehicle.wheelbase;
  settings.max_steering_angle = task.vehicle.max_steering_angle;
  return settings;
}

// [m] distance from p to segment a-b.
double DistanceToSegment(const Eigen::Vector2d& p, const Eigen::Vector2d& a,
                         const Eigen::Vector2d& b) {
  const Eigen::Vector2d ab = b - a;
  const double len_sq = ab.squaredNorm();
  const double t = len_sq > 0.0 ? std::clamp((p - a).dot(ab) / len_sq, 0.0, 1.0) : 0.0;
  return (a + t * ab - p).norm();
}

void Require(bool ok, const char* field, double value, const char* what) {
  if (ok) return;
  std::ostringstream message;
  message << "driver." << field << " = " << value << " " << what;
  throw std::invalid_argument(message.str());
}

}  // namespace

PlannerDriver::PlannerDriver(const protocol::DriverSpec& spec, const DriverTask& task)
    : spec_(spec),
      task_(task),
      goal_(task.goal.x, task.goal.y),
      goal_tolerance_(std::max(0.0, task.goal_radius - spec.grid_resolution)),
      votes_(
          planning::Grid::Covering(task.landscape_min, task.landscape_max, spec.grid_resolution)),
      cost_(votes_.grid(), MakeCostSettings(spec)),
      sensor_(MakeSensorSettings(spec)),
      follower_(MakeFollowerSettings(spec, task)) {}

const std::vector<Eigen::Vector2d>& PlannerDriver::path() const {
  static const std::vector<Eigen::Vector2d> kNoPath;
  return has_path_ ? follower_.path() : kNoPath;
}

DriverVerdict PlannerDriver::Tick(const DriverInput& input) {
  ASG_CHECK(input.odometry != nullptr);
  const protocol::Pose& pose = input.odometry->pose;
  const Eigen::Vector2d position(pose.position.x, pose.position.y);
  const double yaw = input.yaw * kDegToRad;
  protocol::PhysXControl control;
  if (!goal_reached_ && (position - goal_).norm() <= task_.goal_radius) goal_reached_ = true;
  if (goal_reached_) return control;

  // Sense.
  newly_occupied_.clear();
  if (input.rays != nullptr && input.time + kTimeEpsilon >= next_scan_time_) {
    const Eigen::Quaterniond orientation(pose.orientation.w, pose.orientation.x, pose.orientation.y,
                                         pose.orientation.z);
    const Eigen::Vector3d origin(pose.position.x, pose.position.y, pose.position.z);
    rays_cast_ += sensor_.Scan(*input.rays, origin, orientation, votes_, newly_occupied_);
    next_scan_time_ = sensor_.scans() * kScanPeriod;
  }

  // Plan.
  if (plans_ == 0 || input.time + kTimeEpsilon >= next_plan_time_ ||
      PathThreatened(newly_occupied_)) {
    Replan(position);
    next_plan_time_ = input.time + spec_.replan_period;
  }

  // Follow, or stand still when there is no way to the goal.
  if (!has_path_) return control;
  const FollowerCommand command = follower_.Update(input.time, position, yaw);
  control.longitudinal_velocity = command.speed;
  control.steering_angle = command.steering_angle;
  return control;
}

void PlannerDriver::Replan(const Eigen::Vector2d& position) {
  cost_.Rebuild(votes_);
  ++plans_;
  // Research-stack style: keep the path up to the look-ahead point and plan from there, so a
  // replan does not yank the vehicle; fall back to the vehicle's position when that part of the
  // path is now blocked or the look-ahead point has no way on.
  if (has_path_) {
    const std::vector<Eigen::Vector2d>& old = follower_.path();
    std::vector<Eigen::Vector2d> points{position};
    for (size_t i = follower_.segment() + 1; i <= follower_.lookahead_segment(); ++i) {
      points.push_back(old[i]);
    }
    points.push_back(follower_.lookahead_point());
    bool passable = true;
    for (size_t i = 1; i < points.size() && passable; ++i) {
      passable = std::isfinite(planning::SegmentCost(cost_, points[i - 1], points[i], i == 1));
    }
    if (passable) {
      const planning::PlannedPath plan =
          planning::PlanPath(cost_, points.back(), goal_, goal_tolerance_);
      if (plan.found) {
        points.insert(points.end(), plan.points.begin() + 1, plan.points.end());
        EndAtGoal(points);
        follower_.SetPath(planning::ShortcutPath(cost_, points));
        return;
      }
    }
  }
  planning::PlannedPath plan = planning::PlanPath(cost_, position, goal_, goal_tolerance_);
  has_path_ = plan.found;
  if (!has_path_) return;
  EndAtGoal(plan.points);
  follower_.SetPath(planning::ShortcutPath(cost_, plan.points));
}

void PlannerDriver::EndAtGoal(std::vector<Eigen::Vector2d>& points) const {
  // The search ends at a cell centre; when that is the goal's own cell, end at the goal itself,
  // which matters when goal_radius is under a cell (the vehicle may already be in that cell).
  const planning::Grid& grid = votes_.grid();
  const int goal_cell = grid.CellAt(goal_.x(), goal_.y());
  if (grid.CellAt(points.back().x(), points.back().y()) != goal_cell) return;
  if (points.size() == 1) {
    points.push_back(goal_);
  } else {
    points.back() = goal_;
  }
}

bool PlannerDriver::PathThreatened(const std::vector<int>& newly_occupied) const {
  if (!has_path_ || newly_occupied.empty()) return false;
  const std::vector<Eigen::Vector2d>& path = follower_.path();
  const double reach = spec_.inflation_radius + spec_.grid_resolution;
  for (int cell : newly_occupied) {
    const Eigen::Vector2d center = votes_.grid().Center(cell);
    for (size_t s = follower_.segment(); s + 1 < path.size(); ++s) {
      if (DistanceToSegment(center, path[s], path[s + 1]) <= reach) return true;
    }
  }
  return false;
}

std::unique_ptr<Driver> MakePlannerDriver(const protocol::DriverSpec& spec,
                                          const DriverTask& task) {
  Require(std::isfinite(spec.speed) && spec.speed >= 0.0, "speed", spec.speed,
          "must be finite and >= 0");
  Require(spec.sensor_range > 0.0, "sensor_range", spec.sensor_range, "must be > 0");
  Require(spec.sensor_fov > 0.0 && spec.sensor_fov <= 360.0, "sensor_fov", spec.sensor_fov,
          "must be in (0, 360] degrees");
  Require(spec.grid_resolution > 0.0, "grid_resolution", spec.grid_resolution, "must be > 0");
  Require(spec.inflation_radius >= 0.0, "inflation_radius", spec.inflation_radius, "must be >= 0");
  Require(spec.lookahead > 0.0, "lookahead", spec.lookahead, "must be > 0");
  Require(spec.replan_period > 0.0, "replan_period", spec.replan_period, "must be > 0");
  const double extent = task.landscape_max - task.landscape_min;
  if (!(extent > 0.0)) {
    std::ostringstream message;
    message << "landscape max = " << task.landscape_max
            << " must be above min = " << task.landscape_min;
    throw std::invalid_argument(message.str());
  }
  Require(extent / spec.grid_resolution <= kMaxCellsPerSide, "grid_resolution",
          spec.grid_resolution, "must give at most 1024 cells per landscape side");
  return std::make_unique<PlannerDriver>(spec, task);
}

}  // namespace asg::scene
