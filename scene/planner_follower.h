// The planner driver's path follower: pure pursuit towards a look-ahead point on the path, with
// the research stack's damping on the heading error's rate and a slow-down in sharp turns.
#pragma once

#include <Eigen/Core>
#include <vector>

namespace asg::scene {

/// Gains and limits of the follower.
struct FollowerSettings {
  double lookahead = 5.0;            ///< [m] arc length from the vehicle's projection on the path
  double speed = 5.0;                ///< [m/s] cruise speed
  double wheelbase = 2.3;            ///< [m] front to rear axle
  double max_steering_angle = 30.0;  ///< [deg] commands are clamped to +-this
  double damping = 5.0;              ///< [deg per rad/s] steering per rate of heading error
  double turn_speed_fraction = 0.5;  ///< share of `speed` kept at full steering lock, 0..1
};

/// One control output of the follower.
struct FollowerCommand {
  double speed = 0.0;           ///< [m/s] target forward speed
  double steering_angle = 0.0;  ///< [deg] positive = right (clockwise), as in PhysXControl
};

/// Follows a polyline. Progress along the path only moves forward, so a path that doubles back
/// is followed in order. Owned by one driver; not thread-safe.
class PathFollower {
 public:
  explicit PathFollower(const FollowerSettings& settings);

  /// Replaces the path (world x, y [m], at least one point) and restarts progress at its start.
  void SetPath(std::vector<Eigen::Vector2d> points);
  /// The current path.
  const std::vector<Eigen::Vector2d>& path() const { return path_; }
  /// Computes the command for a vehicle at `position` [m] heading `yaw` [rad] at `time` [s].
  /// The vehicle position is the chassis origin, taken to lie midway between the axles.
  FollowerCommand Update(double time, const Eigen::Vector2d& position, double yaw);
  /// [m] the look-ahead point of the last Update (the path start before any).
  const Eigen::Vector2d& lookahead_point() const { return lookahead_point_; }
  /// Index of the path segment holding the vehicle's projection at the last Update.
  size_t segment() const { return segment_; }
  /// Index of the path segment holding the look-ahead point of the last Update.
  size_t lookahead_segment() const { return lookahead_segment_; }
  /// [rad] heading error to the look-ahead point of the last Update (positive: it is to the left).
  double heading_error() const { return last_error_; }

 private:
  FollowerSettings settings_;
  std::vector<Eigen::Vector2d> path_;
  size_t segment_ = 0;  // segment holding the vehicle's projection
  size_t lookahead_segment_ = 0;
  Eigen::Vector2d lookahead_point_ = Eigen::Vector2d::Zero();
  bool has_last_ = false;
  double last_time_ = 0.0;
  double last_error_ = 0.0;
};

}  // namespace asg::scene
