// The obstacle penalty field and path costs of the regret measure.
#include "regret/cost_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace asg::regret {

double CostModel::Penalty(const Eigen::Vector2d& point) const {
  const double reach_squared = 25.0 * sigma * sigma;
  const double weight = votes / max_votes;
  double penalty = 0.0;
  for (const Eigen::Vector2d& obstacle : obstacles) {
    const double d2 = (point - obstacle).squaredNorm();
    if (d2 < reach_squared) penalty += weight * std::exp(-0.5 * d2 / (sigma * sigma));
  }
  return penalty;
}

double CostModel::SegmentCost(const Eigen::Vector2d& a, const Eigen::Vector2d& b) const {
  const double length = (b - a).norm();
  if (length == 0.0) return 0.0;
  const int pieces = std::max(1, static_cast<int>(std::ceil(length / sample_step)));
  double rate_sum = 0.0;
  for (int i = 0; i < pieces; ++i) {
    const double t = (i + 0.5) / pieces;
    rate_sum += Rate(a + t * (b - a));
  }
  return length * rate_sum / pieces;
}

double CostModel::PathCost(const Polyline& path) const {
  double cost = 0.0;
  for (size_t i = 1; i < path.size(); ++i) cost += SegmentCost(path[i - 1], path[i]);
  return cost;
}

double CostModel::Clearance(const Polyline& path) const {
  double best = std::numeric_limits<double>::infinity();
  for (const Eigen::Vector2d& obstacle : obstacles) {
    for (size_t i = 0; i < path.size(); ++i) {
      if (path.size() == 1) {
        best = std::min(best, (path[0] - obstacle).norm());
        continue;
      }
      if (i == 0) continue;
      // Distance from the obstacle to segment path[i-1] -> path[i].
      const Eigen::Vector2d a = path[i - 1], b = path[i];
      const Eigen::Vector2d ab = b - a;
      const double t = ab.squaredNorm() > 0.0
                           ? std::clamp((obstacle - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0)
                           : 0.0;
      best = std::min(best, (a + t * ab - obstacle).norm());
    }
  }
  return best;
}

Eigen::Vector2d PointAt(const Polyline& path, double target, const CostModel* cost_model) {
  if (path.empty()) return Eigen::Vector2d::Zero();
  if (target <= 0.0) return path.front();
  double so_far = 0.0;
  for (size_t i = 1; i < path.size(); ++i) {
    const Eigen::Vector2d a = path[i - 1], b = path[i];
    const double piece = cost_model != nullptr ? cost_model->SegmentCost(a, b) : (b - a).norm();
    if (piece > 0.0 && so_far + piece >= target) {
      // Within one segment the rate is taken as constant: interpolate linearly.
      return a + (target - so_far) / piece * (b - a);
    }
    so_far += piece;
  }
  return path.back();
}

}  // namespace asg::regret
