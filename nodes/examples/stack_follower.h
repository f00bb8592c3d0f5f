// The research stack's path follower: aims at the point 5 m further along the path than the
// vehicle's projection on it and steers [deg] = 20 e + 5 de/dt, e [rad] the heading error to that
// point (positive when it lies to the right), at a constant 5 m/s.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <vector>

#include "protocol/messages.h"

namespace asg::nodes::examples {

/// Gains of the follower.
struct FollowerGains {
  double lookahead = 5.0;            ///< [m] along the path
  double proportional = 20.0;        ///< [deg/rad] steering per heading error
  double derivative = 5.0;           ///< [deg/(rad/s)] steering per heading error rate
  double speed = 5.0;                ///< [m/s] target speed
  double max_steering_angle = 30.0;  ///< [deg] commands are clamped to +-this
};

/// Follows a polyline; progress along it only moves forward. Not thread-safe.
class LookaheadFollower {
 public:
  explicit LookaheadFollower(const FollowerGains& gains) : gains_(gains) {}

  /// Replaces the path (world x, y [m], at least one point) and restarts progress.
  void SetPath(std::vector<Eigen::Vector2d> points);
  /// Forgets the path and the error history.
  void Reset();
  /// The control for a vehicle at position [m] with yaw [deg] at time [s]; zero speed and
  /// steering, handbrake off, while there is no path.
  protocol::PhysXControl Update(double time, const Eigen::Vector2d& position, double yaw);
  /// [m] the look-ahead point of the last Update, or the position when there is no path.
  const Eigen::Vector2d& lookahead_point() const { return lookahead_point_; }
  /// The path being followed.
  const std::vector<Eigen::Vector2d>& path() const { return path_; }

 private:
  FollowerGains gains_;
  std::vector<Eigen::Vector2d> path_;
  size_t segment_ = 0;  // index of the segment the vehicle projects onto
  Eigen::Vector2d lookahead_point_ = Eigen::Vector2d::Zero();
  std::optional<std::pair<double, double>> previous_;  // (time [s], error [rad])
};

}  // namespace asg::nodes::examples
