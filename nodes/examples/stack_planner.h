// The research stack's planner: 8-connected A* on a 2 m grid whose edge cost is
// length * (1 + sum over voted cells of votes / 50 * exp(-d^2 / (2 sigma^2))), d the distance
// [m] from the edge's end cell centre to the voted cell's centre, sigma = 1.5 m (cells beyond
// 3 sigma are left out).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "nodes/examples/stack_mapper.h"

namespace asg::nodes::examples {

/// A planned path.
struct StackPath {
  bool found = false;                   ///< the goal cell was reached
  std::vector<Eigen::Vector2d> points;  ///< [m] start, the cells' centres, the goal
  double cost = 0.0;                    ///< sum of edge costs
};

/// Plans over a VoteMap's extent. Stateless between calls; not thread-safe.
class GridPlanner {
 public:
  static constexpr double kCell = 2.0;   ///< [m] planning cell edge
  static constexpr double kSigma = 1.5;  ///< [m] spread of an obstacle's cost

  /// Plans from start to goal [m, world x, y] over the votes of map.
  StackPath Plan(const VoteMap& map, const Eigen::Vector2d& start,
                 const Eigen::Vector2d& goal) const;
};

}  // namespace asg::nodes::examples
