// Archive cells from what the farm saw of a run.
#include "search/descriptors.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"

namespace asg::search {
namespace {

// [m] Distance from `p` to the segment from `a` to `b` (a point when they coincide).
double SegmentDistance(const Eigen::Vector2d& p, const Eigen::Vector2d& a,
                       const Eigen::Vector2d& b) {
  const Eigen::Vector2d ab = b - a;
  const double length2 = ab.squaredNorm();
  const double t = length2 > 0.0 ? std::clamp((p - a).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (p - (a + t * ab)).norm();
}

// The grid column (or row) of coordinate `value` [m]: cells equal bins over the landscape,
// clamped to [0, cells - 1]; a non-finite value goes to 0.
uint32_t Bin(double value, const SearchSpace& space, uint32_t cells) {
  const double width = space.landscape_max - space.landscape_min;
  const double scaled = width > 0.0 ? (value - space.landscape_min) / width * cells : 0.0;
  if (!(scaled > 0.0)) return 0;
  return static_cast<uint32_t>(std::min<double>(std::floor(scaled), cells - 1));
}

}  // namespace

uint32_t ObstaclesNearPath(const SearchSpace& space, const std::vector<Obstacle>& obstacles,
                           const std::vector<Eigen::Vector2d>& path) {
  if (path.empty()) return 0;
  uint32_t near = 0;
  for (const Obstacle& obstacle : obstacles) {
    if (obstacle.actor_class >= space.classes.size() ||
        !space.classes[obstacle.actor_class].obstacle) {
      continue;
    }
    const Eigen::Vector2d centre(obstacle.x, obstacle.y);
    double closest = (centre - path.front()).norm();
    for (size_t i = 1; i < path.size(); ++i) {
      closest = std::min(closest, SegmentDistance(centre, path[i - 1], path[i]));
    }
    near += closest <= kNearPathRadius ? 1 : 0;
  }
  return near;
}

std::optional<ArchiveCell> CellOf(const SearchSpace& space, const DescriptorGrid& grid,
                                  const Evaluation& evaluation) {
  ASG_CHECK(grid.cells >= 1 && grid.near_path_bins >= 1);
  if (!evaluation.described || evaluation.outcome >= kOutcomeCount) return std::nullopt;
  ArchiveCell cell;
  cell.x = Bin(evaluation.x, space, grid.cells);
  cell.y = Bin(evaluation.y, space, grid.cells);
  cell.outcome = evaluation.outcome;
  cell.near_path = std::min(evaluation.obstacles_near_path, grid.near_path_bins - 1);
  return cell;
}

}  // namespace asg::search
