// The cost a path has in the eyes of the regret measure: its length, weighted near obstacles by
// the research stack's vote penalty. An obstacle (a non-traversable actor) counts as a full cell
// of votes (kVotesPerObstacle of kMaxVotes); a point p of a path costs, per metre,
//   rate(p) = 1 + sum over obstacles o of votes / max_votes * exp(-0.5 |p - o|^2 / sigma^2)
// and a path costs the integral of the rate along it. docs/regret.md has the derivation and a
// worked example. Plain values, thread-safe to share.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "planning/polyline.h"

namespace asg::regret {

/// A polyline in world x, y [m] (planning's).
using planning::Polyline;
/// [m] length of a polyline (planning's).
using planning::PathLength;

/// The obstacle field and the parameters of the cost.
struct CostModel {
  std::vector<Eigen::Vector2d> obstacles;  ///< [m] centres of non-traversable actors
  double sigma = 2.5;                      ///< [m] spread of each obstacle's penalty
  double votes = 50.0;                     ///< votes each obstacle contributes
  double max_votes = 50.0;                 ///< the vote cap the penalty is normalised by
  double sample_step = 0.25;               ///< [m] integration step along segments

  /// Penalty at a point: the sum above without the 1, >= 0. Obstacles farther than 5 sigma
  /// are left out (they add less than 4e-6 each).
  double Penalty(const Eigen::Vector2d& point) const;
  /// Cost per metre at a point: 1 + Penalty(point).
  double Rate(const Eigen::Vector2d& point) const { return 1.0 + Penalty(point); }
  /// Cost of the straight segment a -> b: its length times the mean rate, sampled at the
  /// midpoints of pieces at most sample_step long.
  double SegmentCost(const Eigen::Vector2d& a, const Eigen::Vector2d& b) const;
  /// Cost of a polyline: the sum of its segments' costs (0 for fewer than two points).
  double PathCost(const Polyline& path) const;
  /// [m] the smallest distance from any point of the polyline to any obstacle centre
  /// (infinity without obstacles or points).
  double Clearance(const Polyline& path) const;
};

/// The point of `path` at which the running value of `measure` (cost or length from the start)
/// reaches `target`; the last point when the path's total is smaller, the first when target
/// <= 0. `cost_model` null measures length, else cost.
Eigen::Vector2d PointAt(const Polyline& path, double target, const CostModel* cost_model);

}  // namespace asg::regret
