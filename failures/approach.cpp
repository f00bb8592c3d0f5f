#include "failures/approach.h"

#include <cmath>
#include <numbers>

#include "core/check.h"

namespace asg::failures {

std::vector<Eigen::Vector2d> PathUntil(const std::vector<PathSample>& trajectory,
                                       std::optional<double> until) {
  std::vector<Eigen::Vector2d> path;
  for (const PathSample& sample : trajectory) {
    if (!path.empty() && until && sample.t > *until) break;
    path.emplace_back(sample.x, sample.y);
  }
  return path;
}

std::vector<Eigen::Vector2d> ApproachPoints(const std::vector<Eigen::Vector2d>& path,
                                            const Eigen::Vector2d& center, double spacing,
                                            int count) {
  ASG_CHECK(!path.empty());
  std::vector<Eigen::Vector2d> points;
  // Walk back from the end once: for a growing radius, the last sample at or beyond it comes
  // no later than the one of the smaller radius.
  int index = static_cast<int>(path.size()) - 1;
  for (int k = 1; k <= count; ++k) {
    const double radius = k * spacing;
    while (index >= 0 && (path[index] - center).norm() < radius) --index;
    if (index < 0) {
      points.push_back(path.front() - center);
      continue;
    }
    if (index + 1 == static_cast<int>(path.size())) {
      points.push_back(path[index] - center);
      continue;
    }
    // path[index] is at or beyond the radius, path[index + 1] inside it: interpolate linearly
    // in the distance to the center.
    const double outer = (path[index] - center).norm();
    const double inner = (path[index + 1] - center).norm();
    const double fraction = (outer - radius) / (outer - inner);
    points.push_back(path[index] + fraction * (path[index + 1] - path[index]) - center);
  }
  return points;
}

double WrapDegrees(double degrees) {
  double wrapped = std::fmod(degrees, 360.0);
  if (wrapped <= -180.0) wrapped += 360.0;
  if (wrapped > 180.0) wrapped -= 360.0;
  return wrapped;
}

double ApproachHeading(const Eigen::Vector2d& nearest, double last_yaw, double min_distance) {
  if (nearest.norm() < min_distance) return WrapDegrees(last_yaw);
  return WrapDegrees(std::atan2(-nearest.y(), -nearest.x()) * 180.0 / std::numbers::pi);
}

}  // namespace asg::failures
