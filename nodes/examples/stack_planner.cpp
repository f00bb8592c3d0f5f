// GridPlanner: a cost field from the votes, then A* with the Euclidean heuristic (admissible,
// every edge costs at least its length). Ties break by cell index, so plans are deterministic.
// This is deliberately not the farm's planner (planning/astar.h): the example stack is what a
// user of the vehicle-node SDK would write, so it depends on the SDK only.
#include "nodes/examples/stack_planner.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

namespace asg::nodes::examples {

StackPath GridPlanner::Plan(const VoteMap& map, const Eigen::Vector2d& start,
                            const Eigen::Vector2d& goal) const {
  const double min = map.min();
  const int n = std::max(1, static_cast<int>(std::ceil(map.size() * VoteMap::kCell / kCell)));
  const auto centre = [&](int i, int j) {
    return Eigen::Vector2d(min + (i + 0.5) * kCell, min + (j + 0.5) * kCell);
  };
  const auto cell_of = [&](const Eigen::Vector2d& p) {
    const int i = std::clamp(static_cast<int>(std::floor((p.x() - min) / kCell)), 0, n - 1);
    const int j = std::clamp(static_cast<int>(std::floor((p.y() - min) / kCell)), 0, n - 1);
    return j * n + i;
  };

  // Penalty of entering each planning cell: the research cost's sum, from the voted cells.
  std::vector<double> penalty(static_cast<size_t>(n) * n, 0.0);
  const double reach = 3.0 * kSigma;
  const int span = static_cast<int>(std::ceil(reach / kCell)) + 1;
  const std::vector<uint8_t>& votes = map.votes();
  for (int vj = 0; vj < map.size(); ++vj) {
    for (int vi = 0; vi < map.size(); ++vi) {
      const uint8_t count = votes[static_cast<size_t>(vj) * map.size() + vi];
      if (count == 0) continue;
      const Eigen::Vector2d at(min + (vi + 0.5) * VoteMap::kCell,
                               min + (vj + 0.5) * VoteMap::kCell);
      const int ci = cell_of(at) % n, cj = cell_of(at) / n;
      for (int j = std::max(0, cj - span); j <= std::min(n - 1, cj + span); ++j) {
        for (int i = std::max(0, ci - span); i <= std::min(n - 1, ci + span); ++i) {
          const double d2 = (centre(i, j) - at).squaredNorm();
          if (d2 > reach * reach) continue;
          penalty[static_cast<size_t>(j) * n + i] +=
              count / double{VoteMap::kMaxVotes} * std::exp(-d2 / (2.0 * kSigma * kSigma));
        }
      }
    }
  }

  const int source = cell_of(start), target = cell_of(goal);
  const Eigen::Vector2d target_centre = centre(target % n, target / n);
  std::vector<double> cost(penalty.size(), std::numeric_limits<double>::infinity());
  std::vector<int> parent(penalty.size(), -1);
  using Entry = std::pair<double, int>;  // (cost + heuristic, cell)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  cost[source] = 0.0;
  open.push({(centre(source % n, source / n) - target_centre).norm(), source});
  while (!open.empty()) {
    const auto [estimate, cell] = open.top();
    open.pop();
    const int ci = cell % n, cj = cell / n;
    if (estimate > cost[cell] + (centre(ci, cj) - target_centre).norm() + 1e-9) continue;
    if (cell == target) break;
    for (int dj = -1; dj <= 1; ++dj) {
      for (int di = -1; di <= 1; ++di) {
        const int i = ci + di, j = cj + dj;
        if ((di == 0 && dj == 0) || i < 0 || j < 0 || i >= n || j >= n) continue;
        const int next = j * n + i;
        const double length = kCell * std::hypot(di, dj);
        const double step = length * (1.0 + penalty[next]);
        if (cost[cell] + step < cost[next]) {
          cost[next] = cost[cell] + step;
          parent[next] = cell;
          open.push({cost[next] + (centre(i, j) - target_centre).norm(), next});
        }
      }
    }
  }

  StackPath path;
  path.found = std::isfinite(cost[target]);
  if (!path.found) return path;
  path.cost = cost[target];
  std::vector<Eigen::Vector2d> cells;
  for (int cell = target; cell != source; cell = parent[cell]) {
    cells.push_back(centre(cell % n, cell / n));
  }
  path.points.push_back(start);
  path.points.insert(path.points.end(), cells.rbegin(), cells.rend());
  path.points.push_back(goal);
  return path;
}

}  // namespace asg::nodes::examples
