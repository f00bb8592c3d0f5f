// The planner driver's path search: 8-connected A* (planning/astar.h) over a CostField, and a
// cost-aware shortcut pass that straightens the grid path without making it more expensive.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "planning/cost_field.h"
#include "planning/polyline.h"

namespace asg::planning {

/// A path from a start point to the goal region, as a polyline in world x, y [m].
struct PlannedPath {
  bool found = false;  ///< a path without impassable cells exists
  Polyline points;     ///< [m] from the start point to the goal region
  double cost = 0.0;   ///< sum of edge costs of the grid path (length-weighted)
  int expanded = 0;    ///< cells expanded by the search
};

/// Finds the cheapest 8-connected path from the cell of `start` to any passable cell whose centre
/// lies within `goal_tolerance` [m] of `goal` (always including the goal's own cell). Moving
/// diagonally past a lethal cell is not allowed. When the start cell is lethal (the vehicle is
/// already too close to an obstacle) the search may leave through lethal cells, but never enter
/// them again. Ties are broken by cell index, so results are deterministic. The returned points
/// are `start` followed by the centres of the path's cells. Thread-safe for distinct fields.
PlannedPath PlanPath(const CostField& field, const Eigen::Vector2d& start,
                     const Eigen::Vector2d& goal, double goal_tolerance);

/// Cost of the straight segment a -> b [m] sampled every quarter cell (length times 1 + penalty),
/// or infinity when it enters a lethal cell. With `from_start`, lethal cells met before the first
/// passable one are allowed (a vehicle escaping an inflated area), occupied cells never are.
double SegmentCost(const CostField& field, const Eigen::Vector2d& a, const Eigen::Vector2d& b,
                   bool from_start);

/// Removes intermediate points while the straight segment that replaces them crosses no lethal
/// cell (bar the start point's own lethal area) and costs no more than the points it replaces,
/// costs being sampled along the segments every quarter cell. Unlike StraightenPath, which looks
/// for the farthest acceptable point, it extends each segment only until the first point that
/// fails. Returns the shortened polyline.
Polyline ShortcutPath(const CostField& field, const Polyline& points);

}  // namespace asg::planning
