// Forward obstacle sensor of the planner driver.
#include "scene/planner_sensor.h"

#include <cmath>

namespace asg::scene {

ObstacleSensor::ObstacleSensor(const SensorSettings& settings) : settings_(settings) {}

int ObstacleSensor::Scan(const RayCaster& rays, const Eigen::Vector3d& position,
                         const Eigen::Quaterniond& orientation, VoteGrid& votes,
                         std::vector<int>& newly_occupied) {
  constexpr double kDegToRad = M_PI / 180.0;
  const Eigen::Matrix3d rotation = orientation.normalized().toRotationMatrix();
  const Eigen::Vector3d origin = position + rotation * settings_.mount;
  const double half_fov = 0.5 * settings_.fov;
  // Alternate scans sample the azimuths in between those of the previous scan.
  const double phase = (scans_ % 2 == 0) ? 0.0 : 0.5 * settings_.azimuth_step;
  ++scans_;
  int cast = 0;
  for (double elevation_deg : settings_.elevations) {
    const double elevation = elevation_deg * kDegToRad;
    for (int k = 0;; ++k) {
      const double azimuth_deg = -half_fov + phase + k * settings_.azimuth_step;
      if (azimuth_deg > half_fov + 1e-9) break;
      const double azimuth = azimuth_deg * kDegToRad;
      const Eigen::Vector3d body(std::cos(elevation) * std::cos(azimuth),
                                 std::cos(elevation) * std::sin(azimuth), std::sin(elevation));
      const Eigen::Vector3d direction = rotation * body;
      const RayHit hit = rays.Cast(origin, direction, settings_.range);
      ++cast;
      if (!hit.hit || !hit.obstacle) continue;
      const Eigen::Vector3d point = origin + direction * hit.distance;
      const int cell = votes.Vote(point.x(), point.y());
      if (cell >= 0) newly_occupied.push_back(cell);
    }
  }
  return cast;
}

}  // namespace asg::scene
