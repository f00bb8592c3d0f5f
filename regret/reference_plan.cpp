// The reference agent: its closed cells and penalties on a planning::Grid, its rules for the
// grid A* (planning/astar.h), then straightening (planning::StraightenPath).
#include "regret/reference_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "planning/astar.h"
#include "planning/grid.h"
#include "planning/polyline.h"

namespace asg::regret {
namespace {

double AngleBetween(const Eigen::Vector2d& direction, double yaw_deg) {
  const double heading = std::atan2(direction.y(), direction.x());
  double difference = heading - yaw_deg * M_PI / 180.0;
  difference = std::remainder(difference, 2.0 * M_PI);
  return std::abs(difference) * 180.0 / M_PI;
}

// The reference agent's view of the grid: closed cells (within lethal_radius of an obstacle),
// the closed areas around the start's and the goal's cells (which it may cross), and the penalty
// at every cell centre.
struct ReferenceField {
  planning::Grid grid;
  std::vector<uint8_t> closed;
  std::vector<uint8_t> start_area;
  std::vector<uint8_t> goal_area;
  std::vector<double> penalty;
  int start_cell = 0;
  int goal_cell = 0;

  bool Passable(int cell) const { return !closed[cell] || start_area[cell] || goal_area[cell]; }
};

ReferenceField MakeField(const ReferenceProblem& problem, const ReferenceSettings& settings) {
  ReferenceField field;
  // Covers [min, max] exactly: no tolerance on the cell count (planning::Grid::Covering has one).
  field.grid.min = problem.min;
  field.grid.resolution = settings.resolution;
  field.grid.size =
      std::max(1, static_cast<int>(std::ceil((problem.max - problem.min) / settings.resolution)));
  const int cells = field.grid.CellCount();
  field.closed.assign(cells, 0);
  field.penalty.assign(cells, 0.0);
  for (int cell = 0; cell < cells; ++cell) {
    const Eigen::Vector2d centre = field.grid.Center(cell);
    field.penalty[cell] = problem.cost.Penalty(centre);
    for (const Eigen::Vector2d& obstacle : problem.cost.obstacles) {
      if ((centre - obstacle).norm() <= settings.lethal_radius) field.closed[cell] = 1;
    }
  }
  field.start_cell = field.grid.CellAt(problem.start);
  field.goal_cell = field.grid.CellAt(problem.goal);
  field.start_area = planning::ConnectedArea(field.grid, field.closed, field.start_cell);
  field.goal_area = planning::ConnectedArea(field.grid, field.closed, field.goal_cell);
  return field;
}

// The search rules (planning/astar.h): an edge a -> b costs its length times 1 + the mean of the
// two cells' penalties, plus start_turn_penalty for a first move far from the start heading; the
// heuristic (straight distance) is admissible since every rate is >= 1. No corner cutting past a
// closed cell.
class ReferenceRules {
 public:
  ReferenceRules(const ReferenceField& field, const ReferenceProblem& problem,
                 const ReferenceSettings& settings)
      : field_(field), problem_(problem), settings_(settings) {}

  bool IsGoal(int cell) const { return cell == field_.goal_cell; }
  double Heuristic(int cell) const { return (field_.grid.Center(cell) - problem_.goal).norm(); }
  bool CanEnter(int, int to) const { return field_.Passable(to); }
  bool CanPassCorner(int, int side) const { return field_.Passable(side); }
  double EdgeCost(int from, int to, double length) const {
    double edge = length * (1.0 + 0.5 * (field_.penalty[from] + field_.penalty[to]));
    // The first move's direction is measured from the exact start point.
    if (from == field_.start_cell &&
        AngleBetween(field_.grid.Center(to) - problem_.start, problem_.start_yaw) >
            settings_.start_turn_limit) {
      edge += settings_.start_turn_penalty;
    }
    return edge;
  }

 private:
  const ReferenceField& field_;
  const ReferenceProblem& problem_;
  const ReferenceSettings& settings_;
};

// Whether the straight segment a -> b stays out of closed cells, sampled every quarter cell;
// closed cells around the start's and the goal's own are allowed.
bool SegmentOpen(const ReferenceField& field, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  const planning::Grid& grid = field.grid;
  const double length = (b - a).norm();
  const int steps = std::max(1, static_cast<int>(std::ceil(length / (0.25 * grid.resolution))));
  for (int i = 0; i <= steps; ++i) {
    const int cell = grid.CellAt(a + (static_cast<double>(i) / steps) * (b - a));
    if (!field.Passable(cell) && cell != field.start_cell && cell != field.goal_cell) {
      return false;
    }
  }
  return true;
}

}  // namespace

ReferencePlan PlanReference(const ReferenceProblem& problem, const ReferenceSettings& settings) {
  const ReferenceField field = MakeField(problem, settings);
  const CostModel& model = problem.cost;
  const planning::GridPath search =
      planning::SearchGrid(field.grid, field.start_cell, ReferenceRules(field, problem, settings));
  ReferencePlan plan;
  plan.expanded = search.expanded;
  if (!search.found) return plan;
  plan.found = true;

  // The grid path as points: the exact start, the cells' centres, the exact goal.
  Polyline points{problem.start};
  for (size_t i = 1; i + 1 < search.cells.size(); ++i) {
    points.push_back(field.grid.Center(search.cells[i]));
  }
  points.push_back(problem.goal);

  // Straightening: a segment may replace points where it enters no closed cell and costs no
  // more. The first segment keeps the start-heading rule: it may not turn more than
  // start_turn_limit.
  const auto cost = [&](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return model.SegmentCost(a, b);
  };
  const auto allowed = [&](size_t i, size_t j) {
    if (i == 0 &&
        AngleBetween(points[j] - points[0], problem.start_yaw) > settings.start_turn_limit) {
      return false;
    }
    return SegmentOpen(field, points[i], points[j]);
  };
  plan.path = planning::StraightenPath(points, cost, allowed);
  plan.cost = model.PathCost(plan.path);
  plan.length = PathLength(plan.path);
  plan.time = plan.length / settings.speed;
  plan.clearance = model.Clearance(plan.path);
  return plan;
}

}  // namespace asg::regret
