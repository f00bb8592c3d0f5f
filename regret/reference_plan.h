// The reference agent of the regret measure: an A* planner that knows every obstacle of the
// scene. It searches an 8-connected grid (planning/astar.h) whose edges cost what CostModel says,
// cannot enter cells within lethal_radius of an obstacle, pays a penalty for leaving the start in
// a direction far from the vehicle's heading, and its grid path is then straightened (a segment
// replaces grid points where it is no more expensive and enters no lethal cell). The result is
// the cheapest path the vehicle could have driven: its cost C_opt and its time T_opt = length /
// speed are what a run is compared with. Deterministic; thread-safe (no shared state).
#pragma once

#include <Eigen/Core>

#include "regret/cost_model.h"

namespace asg::regret {

/// What the reference agent plans for: the scene's bounds, obstacles, start and goal.
struct ReferenceProblem {
  double min = 0.0;   ///< [m] lowest x and y the vehicle may use (the landscape grid's)
  double max = 60.0;  ///< [m] highest x and y
  Eigen::Vector2d start{10.0, 10.0};  ///< [m]
  double start_yaw = 45.0;            ///< [deg] the vehicle's heading at the start
  Eigen::Vector2d goal{50.0, 50.0};   ///< [m] the goal point (the path ends exactly there)
  CostModel cost;                     ///< obstacles and the cost parameters
};

/// Parameters of the reference agent.
struct ReferenceSettings {
  double resolution = 0.5;     ///< [m] grid cell side
  double lethal_radius = 1.5;  ///< [m] cells whose centre is this close to an obstacle are closed
  double speed = 5.0;          ///< [m/s] nominal speed: T_opt = length / speed
  double start_turn_limit = 90.0;     ///< [deg] first moves deviating more than this from the
                                      ///< start heading pay start_turn_penalty
  double start_turn_penalty = 100.0;  ///< cost added to such a first move
};

/// The reference plan of one scene.
struct ReferencePlan {
  bool found = false;      ///< a path around the closed cells exists
  Polyline path;           ///< [m] start, straightened waypoints, goal
  double cost = 0.0;       ///< C_opt: CostModel::PathCost(path)
  double length = 0.0;     ///< [m]
  double time = 0.0;       ///< [s] T_opt = length / speed
  double clearance = 0.0;  ///< [m] smallest distance of the path to an obstacle centre
  int expanded = 0;        ///< grid cells the search expanded
};

/// Plans the reference path of `problem`. A start or goal inside a closed cell is allowed (the
/// search may leave the start's closed area and end in the goal's); `found` is false only when
/// closed cells separate them.
ReferencePlan PlanReference(const ReferenceProblem& problem, const ReferenceSettings& settings);

}  // namespace asg::regret
