// 8-connected A* and cost-aware path shortcutting for the planner driver.
#include "scene/planner_astar.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <queue>

namespace asg::scene {
namespace {

// Extra penalty per metre inside lethal cells while escaping them from the start.
constexpr double kEscapePenalty = 10.0;

struct OpenEntry {
  double f;  // cost so far + heuristic
  double g;  // cost so far
  int cell;
};

// Orders the open list: lowest f first, then the deeper node (higher g), then the lower index.
struct WorseEntry {
  bool operator()(const OpenEntry& a, const OpenEntry& b) const {
    if (a.f != b.f) return a.f > b.f;
    if (a.g != b.g) return a.g < b.g;
    return a.cell > b.cell;
  }
};

// Cost per metre of standing in a cell.
double CellRate(const CostField& field, int cell) {
  return 1.0 + field.Penalty(cell) + (field.Lethal(cell) ? kEscapePenalty : 0.0);
}

}  // namespace

double PathLength(const std::vector<Eigen::Vector2d>& points) {
  double length = 0.0;
  for (size_t i = 1; i < points.size(); ++i) length += (points[i] - points[i - 1]).norm();
  return length;
}

PlannedPath PlanPath(const CostField& field, const Eigen::Vector2d& start,
                     const Eigen::Vector2d& goal, double goal_tolerance) {
  const PlannerGrid& grid = field.grid();
  const int n = grid.size;
  const int start_cell = grid.CellAt(start.x(), start.y());
  const int goal_cell = grid.CellAt(goal.x(), goal.y());
  const double res = grid.resolution;

  auto is_goal = [&](int cell) {
    return cell == goal_cell || (grid.Center(cell) - goal).norm() <= goal_tolerance;
  };
  // Admissible: every goal cell centre is within goal_tolerance of the goal (or is its cell).
  const double slack = std::max(goal_tolerance, res * M_SQRT1_2);
  auto heuristic = [&](int cell) {
    return std::max(0.0, (grid.Center(cell) - goal).norm() - slack);
  };

  std::vector<double> g(grid.CellCount(), std::numeric_limits<double>::infinity());
  std::vector<int> parent(grid.CellCount(), -1);
  std::vector<uint8_t> closed(grid.CellCount(), 0);
  std::priority_queue<OpenEntry, std::vector<OpenEntry>, WorseEntry> open;

  PlannedPath result;
  g[start_cell] = 0.0;
  open.push({heuristic(start_cell), 0.0, start_cell});
  int reached = -1;
  static constexpr int kDx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
  static constexpr int kDy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  while (!open.empty()) {
    const OpenEntry top = open.top();
    open.pop();
    const int cell = top.cell;
    if (closed[cell]) continue;
    closed[cell] = 1;
    ++result.expanded;
    // A lethal cell is a goal only when it is the start itself (nothing better can be done).
    if (is_goal(cell) && (!field.Lethal(cell) || cell == start_cell)) {
      reached = cell;
      break;
    }
    const bool escaping = field.Lethal(cell);
    const int cx = cell % n, cy = cell / n;
    for (int k = 0; k < 8; ++k) {
      const int x = cx + kDx[k], y = cy + kDy[k];
      if (x < 0 || y < 0 || x >= n || y >= n) continue;
      const int next = grid.Index(x, y);
      if (closed[next] || field.Blocked(next)) continue;
      if (field.Lethal(next) && !escaping) continue;
      if (k >= 4 && !escaping &&
          (field.Lethal(grid.Index(x, cy)) || field.Lethal(grid.Index(cx, y)))) {
        continue;  // no corner cutting past an inflated obstacle
      }
      const double step = (k >= 4 ? M_SQRT2 : 1.0) * res;
      const double cost = step * 0.5 * (CellRate(field, cell) + CellRate(field, next));
      const double tentative = g[cell] + cost;
      if (tentative < g[next]) {
        g[next] = tentative;
        parent[next] = cell;
        open.push({tentative + heuristic(next), tentative, next});
      }
    }
  }
  if (reached < 0) return result;

  std::vector<int> cells;
  for (int c = reached; c != -1; c = parent[c]) cells.push_back(c);
  std::reverse(cells.begin(), cells.end());
  result.found = true;
  result.cost = g[reached];
  result.points.push_back(start);
  for (size_t i = 1; i < cells.size(); ++i) result.points.push_back(grid.Center(cells[i]));
  return result;
}

double SegmentCost(const CostField& field, const Eigen::Vector2d& a, const Eigen::Vector2d& b,
                   bool from_start) {
  const PlannerGrid& grid = field.grid();
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

std::vector<Eigen::Vector2d> ShortcutPath(const CostField& field,
                                          const std::vector<Eigen::Vector2d>& points) {
  if (points.size() < 3) return points;
  // prefix[i] = sampled cost of the original polyline from points[0] to points[i].
  std::vector<double> prefix(points.size(), 0.0);
  for (size_t i = 1; i < points.size(); ++i) {
    const double c = SegmentCost(field, points[i - 1], points[i], i == 1);
    prefix[i] = prefix[i - 1] + (std::isfinite(c) ? c : std::numeric_limits<double>::max() / 4);
  }
  std::vector<Eigen::Vector2d> out{points.front()};
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

}  // namespace asg::scene
