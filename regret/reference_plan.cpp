// Grid A* with full obstacle knowledge, then cost-aware straightening.
#include "regret/reference_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <vector>

namespace asg::regret {
namespace {

// A square grid of cells covering [min, min + size * resolution]^2, row-major.
struct Grid {
  double min = 0.0;
  double resolution = 1.0;
  int size = 1;

  int Coordinate(double v) const {
    return std::clamp(static_cast<int>(std::floor((v - min) / resolution)), 0, size - 1);
  }
  int CellAt(const Eigen::Vector2d& p) const {
    return Coordinate(p.y()) * size + Coordinate(p.x());
  }
  Eigen::Vector2d Center(int cell) const {
    return {min + (cell % size + 0.5) * resolution, min + (cell / size + 0.5) * resolution};
  }
};

struct OpenEntry {
  double f;
  double g;
  int cell;
};

// Lowest f first, then deeper (higher g), then lower index: deterministic order.
struct WorseEntry {
  bool operator()(const OpenEntry& a, const OpenEntry& b) const {
    if (a.f != b.f) return a.f > b.f;
    if (a.g != b.g) return a.g < b.g;
    return a.cell > b.cell;
  }
};

double AngleBetween(const Eigen::Vector2d& direction, double yaw_deg) {
  const double heading = std::atan2(direction.y(), direction.x());
  double difference = heading - yaw_deg * M_PI / 180.0;
  difference = std::remainder(difference, 2.0 * M_PI);
  return std::abs(difference) * 180.0 / M_PI;
}

// Whether the straight segment a -> b stays out of closed cells, sampled every quarter cell;
// closed cells around the start's and the goal's own are allowed.
bool SegmentOpen(const Grid& grid, const std::vector<uint8_t>& closed, const Eigen::Vector2d& a,
                 const Eigen::Vector2d& b, int start_cell, int goal_cell,
                 const std::vector<uint8_t>& start_area, const std::vector<uint8_t>& goal_area) {
  const double length = (b - a).norm();
  const int steps = std::max(1, static_cast<int>(std::ceil(length / (0.25 * grid.resolution))));
  for (int i = 0; i <= steps; ++i) {
    const int cell = grid.CellAt(a + (static_cast<double>(i) / steps) * (b - a));
    if (closed[cell] && !start_area[cell] && !goal_area[cell] && cell != start_cell &&
        cell != goal_cell) {
      return false;
    }
  }
  return true;
}

// The closed cells connected to `seed` through closed cells (the area a start or goal inside
// an obstacle's lethal radius may cross).
std::vector<uint8_t> ClosedArea(const Grid& grid, const std::vector<uint8_t>& closed, int seed) {
  std::vector<uint8_t> area(closed.size(), 0);
  if (!closed[seed]) return area;
  std::vector<int> stack{seed};
  area[seed] = 1;
  while (!stack.empty()) {
    const int cell = stack.back();
    stack.pop_back();
    const int x = cell % grid.size, y = cell / grid.size;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int nx = x + dx, ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= grid.size || ny >= grid.size) continue;
        const int next = ny * grid.size + nx;
        if (closed[next] && !area[next]) {
          area[next] = 1;
          stack.push_back(next);
        }
      }
    }
  }
  return area;
}

}  // namespace

ReferencePlan PlanReference(const ReferenceProblem& problem, const ReferenceSettings& settings) {
  Grid grid;
  grid.min = problem.min;
  grid.resolution = settings.resolution;
  grid.size =
      std::max(1, static_cast<int>(std::ceil((problem.max - problem.min) / settings.resolution)));
  const int cells = grid.size * grid.size;
  const CostModel& model = problem.cost;

  // Closed cells and the penalty of every cell centre.
  std::vector<uint8_t> closed(cells, 0);
  std::vector<double> penalty(cells, 0.0);
  for (int cell = 0; cell < cells; ++cell) {
    const Eigen::Vector2d centre = grid.Center(cell);
    penalty[cell] = model.Penalty(centre);
    for (const Eigen::Vector2d& obstacle : model.obstacles) {
      if ((centre - obstacle).norm() <= settings.lethal_radius) closed[cell] = 1;
    }
  }
  const int start_cell = grid.CellAt(problem.start);
  const int goal_cell = grid.CellAt(problem.goal);
  const std::vector<uint8_t> start_area = ClosedArea(grid, closed, start_cell);
  const std::vector<uint8_t> goal_area = ClosedArea(grid, closed, goal_cell);
  auto passable = [&](int cell) { return !closed[cell] || start_area[cell] || goal_area[cell]; };

  // A*: edge a -> b costs its length times 1 + the mean of the two cells' penalties; the
  // heuristic (straight distance) is admissible since every rate is >= 1.
  std::vector<double> g(cells, std::numeric_limits<double>::infinity());
  std::vector<int> parent(cells, -1);
  std::vector<uint8_t> done(cells, 0);
  std::priority_queue<OpenEntry, std::vector<OpenEntry>, WorseEntry> open;
  auto heuristic = [&](int cell) { return (grid.Center(cell) - problem.goal).norm(); };
  g[start_cell] = 0.0;
  open.push({heuristic(start_cell), 0.0, start_cell});
  static constexpr int kDx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
  static constexpr int kDy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  ReferencePlan plan;
  while (!open.empty()) {
    const OpenEntry top = open.top();
    open.pop();
    const int cell = top.cell;
    if (done[cell]) continue;
    done[cell] = 1;
    ++plan.expanded;
    if (cell == goal_cell) break;
    const int x = cell % grid.size, y = cell / grid.size;
    for (int k = 0; k < 8; ++k) {
      const int nx = x + kDx[k], ny = y + kDy[k];
      if (nx < 0 || ny < 0 || nx >= grid.size || ny >= grid.size) continue;
      const int next = ny * grid.size + nx;
      if (done[next] || !passable(next)) continue;
      // No corner cutting past a closed cell.
      if (kDx[k] != 0 && kDy[k] != 0 &&
          (!passable(y * grid.size + nx) || !passable(ny * grid.size + x))) {
        continue;
      }
      const double length = settings.resolution * std::hypot(kDx[k], kDy[k]);
      double edge = length * (1.0 + 0.5 * (penalty[cell] + penalty[next]));
      // The first move's direction is measured from the exact start point.
      if (cell == start_cell && AngleBetween(grid.Center(next) - problem.start, problem.start_yaw) >
                                    settings.start_turn_limit) {
        edge += settings.start_turn_penalty;
      }
      const double candidate = g[cell] + edge;
      if (candidate < g[next]) {
        g[next] = candidate;
        parent[next] = cell;
        open.push({candidate + heuristic(next), candidate, next});
      }
    }
  }
  if (!done[goal_cell]) return plan;
  plan.found = true;

  // The grid path as points: the exact start, the cells' centres, the exact goal.
  std::vector<int> cells_on_path;
  for (int cell = goal_cell; cell != -1; cell = parent[cell]) cells_on_path.push_back(cell);
  std::reverse(cells_on_path.begin(), cells_on_path.end());
  Polyline points{problem.start};
  for (size_t i = 1; i + 1 < cells_on_path.size(); ++i) {
    points.push_back(grid.Center(cells_on_path[i]));
  }
  points.push_back(problem.goal);

  // Straightening: from each kept point, jump to the farthest later point whose straight
  // segment enters no closed cell and costs no more than the points it replaces. The first
  // segment keeps the start-heading rule: it may not turn more than start_turn_limit.
  Polyline straight{points.front()};
  size_t i = 0;
  while (i + 1 < points.size()) {
    size_t best = i + 1;
    double replaced = model.SegmentCost(points[i], points[i + 1]);
    double running = replaced;
    for (size_t j = i + 2; j < points.size(); ++j) {
      running += model.SegmentCost(points[j - 1], points[j]);
      if (i == 0 &&
          AngleBetween(points[j] - points[0], problem.start_yaw) > settings.start_turn_limit) {
        continue;
      }
      if (!SegmentOpen(grid, closed, points[i], points[j], start_cell, goal_cell, start_area,
                       goal_area)) {
        continue;
      }
      if (model.SegmentCost(points[i], points[j]) <= running + 1e-9) best = j;
    }
    straight.push_back(points[best]);
    i = best;
  }
  plan.path = std::move(straight);
  plan.cost = model.PathCost(plan.path);
  plan.length = PathLength(plan.path);
  plan.time = plan.length / settings.speed;
  plan.clearance = model.Clearance(plan.path);
  return plan;
}

}  // namespace asg::regret
