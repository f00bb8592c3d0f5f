// Forward obstacle sensor of the planner driver.
#include "scene/planner_sensor.h"

#include <cmath>

namespace asg::scene {

ObstacleSensor::ObstacleSensor(const SensorSettings& settings) : settings_(settings) {}

int ObstacleSensor::Scan(const RayCaster& rays, const Eigen::Vector3d& position,
                         const Eigen::Quaterniond& orientation, planning::VoteGrid& votes,
                         std::vector<int>& newly_occupied) {
  constexpr double kDegToRad = M_PI / 180.0;
  const Eigen::Matrix3d rotation = orientation.normalized().toRotationMatrix();
  const Eigen::Vector3d origin = position + rotation * settings_.mount;
  const double half_fov = 0.5 * settings_.fov;
  // Alternate scans sample the azimuths in between those of the previous scan.
  const double phase = (scans_ % 2 == 0) ? 0.0 : 0.5 * settings_.azimuth_step;
  ++scans_;
  // The whole scan is one fan: elevation by elevation, azimuth by azimuth.
  directions_.clear();
  for (double elevation_deg : settings_.elevations) {
    const double elevation = elevation_deg * kDegToRad;
    for (int k = 0;; ++k) {
      const double azimuth_deg = -half_fov + phase + k * settings_.azimuth_step;
      if (azimuth_deg > half_fov + 1e-9) break;
      const double azimuth = azimuth_deg * kDegToRad;
      const Eigen::Vector3d body(std::cos(elevation) * std::cos(azimuth),
                                 std::cos(elevation) * std::sin(azimuth), std::sin(elevation));
      directions_.push_back(rotation * body);
    }
  }
  hits_.resize(directions_.size());
  rays.CastFan(origin, directions_, settings_.range, hits_);
  // Votes in ray order, one per obstacle hit.
  for (size_t k = 0; k < directions_.size(); ++k) {
    const RayHit& hit = hits_[k];
    if (!hit.hit || !hit.obstacle) continue;
    const Eigen::Vector3d point = origin + directions_[k] * hit.distance;
    const int cell = votes.Vote(point.x(), point.y());
    if (cell >= 0) newly_occupied.push_back(cell);
  }
  return static_cast<int>(directions_.size());
}

}  // namespace asg::scene
