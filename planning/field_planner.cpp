// The planner driver's rules for the grid A*, and cost-aware path shortcutting.
#include "planning/field_planner.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "planning/astar.h"

namespace asg::planning {
namespace {

// Extra penalty per metre inside lethal cells while escaping them from the start.
constexpr double kEscapePenalty = 10.0;

// Cost per metre of standing in a cell.
double CellRate(const CostField& field, int cell) {
  return 1.0 + field.Penalty(cell) + (field.Lethal(cell) ? kEscapePenalty : 0.0);
}

// The search rules of PlanPath (see planning/astar.h): lethal cells are entered and cut past only
// while escaping from a lethal start; an edge costs its length times the mean rate of its cells.
class FieldRules {
 public:
  FieldRules(const CostField& field, int start_cell, const Eigen::Vector2d& goal,
             double goal_tolerance)
      : field_(field),
        grid_(field.grid()),
        start_cell_(start_cell),
        goal_cell_(grid_.CellAt(goal.x(), goal.y())),
        goal_(goal),
        goal_tolerance_(goal_tolerance),
        // Admissible: every goal cell centre is within goal_tolerance of the goal (or is its cell).
        slack_(std::max(goal_tolerance, grid_.resolution * M_SQRT1_2)) {}

  // A lethal cell is a goal only when it is the start itself (nothing better can be done).
  bool IsGoal(int cell) const {
    const bool goal_region =
        cell == goal_cell_ || (grid_.Center(cell) - goal_).norm() <= goal_tolerance_;
    return goal_region && (!field_.Lethal(cell) || cell == start_cell_);
  }
  double Heuristic(int cell) const {
    return std::max(0.0, (grid_.Center(cell) - goal_).norm() - slack_);
  }
  bool CanEnter(int from, int to) const {
    return !field_.Blocked(to) && (!field_.Lethal(to) || field_.Lethal(from));
  }
  // No corner cutting past an inflated obstacle, unless escaping.
  bool CanPassCorner(int from, int side) const {
    return field_.Lethal(from) || !field_.Lethal(side);
  }
  double EdgeCost(int from, int to, double length) const {
    return length * 0.5 * (CellRate(field_, from) + CellRate(field_, to));
  }

 private:
  const CostField& field_;
  const Grid& grid_;
  int start_cell_;
  int goal_cell_;
  Eigen::Vector2d goal_;
  double goal_tolerance_;
  double slack_;
};

}  // namespace

PlannedPath PlanPath(const CostField& field, const Eigen::Vector2d& start,
                     const Eigen::Vector2d& goal, double goal_tolerance) {
  const Grid& grid = field.grid();
  const int start_cell = grid.CellAt(start.x(), start.y());
  const GridPath search =
      SearchGrid(grid, start_cell, FieldRules(field, start_cell, goal, goal_tolerance));
  PlannedPath result;
  result.expanded = search.expanded;
  if (!search.found) return result;
  result.found = true;
  result.cost = search.cost;
  result.points.push_back(start);
  for (size_t i = 1; i < search.cells.size(); ++i) {
    result.points.push_back(grid.Center(search.cells[i]));
  }
  return result;
}

double SegmentCost(const CostField& field, const Eigen::Vector2d& a, const Eigen::Vector2d& b,
                   bool from_start) {
  const Grid& grid = field.grid();
  const double length = (b - a).norm();
  const int samples = std::max(1, static_cast<int>(std::ceil(length / (0.25 * grid.resolution))));
  const double step = length / samples;
  bool escaping = from_start;
  double cost = 0.0;
  for (int i = 0; i < samples; ++i) {
    const Eigen::Vector2d p = a + (b - a) * ((i + 0.5) / samples);
    const int cell = grid.CellAt(p.x(), p.y());
    if (field.Lethal(cell)) {
      if (!escaping || field.Blocked(cell)) return std::numeric_limits<double>::infinity();
    } else {
      escaping = false;
    }
    cost += step * CellRate(field, cell);
  }
  return cost;
}

Polyline ShortcutPath(const CostField& field, const Polyline& points) {
  if (points.size() < 3) return points;
  // prefix[i] = sampled cost of the original polyline from points[0] to points[i].
  std::vector<double> prefix(points.size(), 0.0);
  for (size_t i = 1; i < points.size(); ++i) {
    const double c = SegmentCost(field, points[i - 1], points[i], i == 1);
    prefix[i] = prefix[i - 1] + (std::isfinite(c) ? c : std::numeric_limits<double>::max() / 4);
  }
  Polyline out{points.front()};
  size_t anchor = 0;
  while (anchor + 1 < points.size()) {
    // Greedily extend the segment from the anchor while it stays valid and no more expensive.
    size_t best = anchor + 1;
    for (size_t j = anchor + 2; j < points.size(); ++j) {
      const double direct = SegmentCost(field, points[anchor], points[j], anchor == 0);
      if (!(direct <= prefix[j] - prefix[anchor] + 1e-9)) break;
      best = j;
    }
    out.push_back(points[best]);
    anchor = best;
  }
  return out;
}

}  // namespace asg::planning
