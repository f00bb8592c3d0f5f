// Paths in the world's x-y plane and their straightening: the last step of both grid searches,
// which turns a chain of cell centres into a few straight segments.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <vector>

namespace asg::planning {

/// A polyline in world x, y [m].
using Polyline = std::vector<Eigen::Vector2d>;

/// [m] length of a polyline (0 for fewer than two points).
double PathLength(const Polyline& points);

/// Straightens `points` (at least one point) by jumping from each kept point i to the farthest
/// later point j whose straight segment `allowed(i, j)` accepts and whose `cost(points[i],
/// points[j])` is no more than the cost of the points it replaces (the sum of cost over points
/// i..j, plus 1e-9); the next point is always reachable. Keeps the first and the last point.
/// `cost(a, b)` is the cost of the segment a -> b, `allowed(i, j)` whether points i and j may be
/// joined (indices into `points`); both are asked in order of increasing j for each kept i.
template <class SegmentCost, class SegmentAllowed>
Polyline StraightenPath(const Polyline& points, const SegmentCost& cost,
                        const SegmentAllowed& allowed) {
  Polyline straight{points.front()};
  size_t i = 0;
  while (i + 1 < points.size()) {
    size_t best = i + 1;
    double running = cost(points[i], points[i + 1]);  // cost of the points replaced so far
    for (size_t j = i + 2; j < points.size(); ++j) {
      running += cost(points[j - 1], points[j]);
      if (!allowed(i, j)) continue;
      if (cost(points[i], points[j]) <= running + 1e-9) best = j;
    }
    straight.push_back(points[best]);
    i = best;
  }
  return straight;
}

}  // namespace asg::planning
