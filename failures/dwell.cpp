#include "failures/dwell.h"

#include "core/check.h"

namespace asg::failures {
namespace {

/// Whether sample `a` lies strictly within `radius` [m] of `point` in x, y.
bool Near(const PathSample& a, const Eigen::Vector2d& point, double radius) {
  return (Eigen::Vector2d(a.x, a.y) - point).squaredNorm() < radius * radius;
}

/// [s] the time sample `j` stands for: the interval [t_j, t_j+1) until the next sample.
double TimeOf(const std::vector<PathSample>& trajectory, size_t j) {
  return j + 1 < trajectory.size() ? trajectory[j + 1].t - trajectory[j].t : 0.0;
}

Eigen::Vector2d PositionOf(const PathSample& sample) { return {sample.x, sample.y}; }

/// The time-weighted mean x, y of the samples within `radius` of sample `index`, summed as
/// offsets from that sample (a vehicle that stood still is exactly where it stood).
Eigen::Vector2d CenterAround(const std::vector<PathSample>& trajectory, size_t index,
                             double radius) {
  const Eigen::Vector2d around = PositionOf(trajectory[index]);
  Eigen::Vector2d sum = Eigen::Vector2d::Zero();
  double weight = 0.0;
  for (size_t j = 0; j < trajectory.size(); ++j) {
    if (!Near(trajectory[j], around, radius)) continue;
    sum += TimeOf(trajectory, j) * (PositionOf(trajectory[j]) - around);
    weight += TimeOf(trajectory, j);
  }
  ASG_CHECK(weight > 0.0);
  return around + sum / weight;
}

}  // namespace

double DwellAt(const std::vector<PathSample>& trajectory, size_t index, double radius) {
  ASG_CHECK(index < trajectory.size());
  const Eigen::Vector2d around = PositionOf(trajectory[index]);
  double dwell = 0.0;
  for (size_t j = 0; j < trajectory.size(); ++j) {
    if (Near(trajectory[j], around, radius)) dwell += TimeOf(trajectory, j);
  }
  return dwell;
}

std::optional<Dwell> FirstDwell(const std::vector<PathSample>& trajectory, double radius,
                                double min_dwell) {
  ASG_CHECK(radius > 0.0 && min_dwell > 0.0);
  // Every sample against every other: quadratic, but a 30 s run at 20 samples a second is 600
  // samples, a few hundred thousand distances.
  std::vector<double> dwells(trajectory.size());
  for (size_t i = 0; i < trajectory.size(); ++i) dwells[i] = DwellAt(trajectory, i, radius);
  size_t first = 0;
  while (first < dwells.size() && dwells[first] < min_dwell) ++first;
  if (first == dwells.size()) return std::nullopt;
  // The first such sample lies at the edge of the place, where its radius just reaches the time
  // spent there; the longest-dwelling sample near it lies where that time was spent.
  const Eigen::Vector2d edge = PositionOf(trajectory[first]);
  Dwell dwell{first, dwells[first]};
  for (size_t j = 0; j < trajectory.size(); ++j) {
    if (Near(trajectory[j], edge, radius) && dwells[j] > dwell.seconds) dwell = {j, dwells[j]};
  }
  // The center is a weighted mean of points within the radius of the sample, so the sample
  // itself lies within the radius of the center: the arrival comes no later than the sample.
  dwell.center = CenterAround(trajectory, dwell.sample, radius);
  while (dwell.arrival < dwell.sample && !Near(trajectory[dwell.arrival], dwell.center, radius)) {
    ++dwell.arrival;
  }
  return dwell;
}

}  // namespace asg::failures
