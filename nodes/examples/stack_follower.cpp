// LookaheadFollower: projection onto the path, walk lookahead metres on, PD on heading error.
#include "nodes/examples/stack_follower.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace asg::nodes::examples {

void LookaheadFollower::SetPath(std::vector<Eigen::Vector2d> points) {
  path_ = std::move(points);
  segment_ = 0;
}

void LookaheadFollower::Reset() {
  path_.clear();
  segment_ = 0;
  previous_.reset();
}

protocol::PhysXControl LookaheadFollower::Update(double time, const Eigen::Vector2d& position,
                                                 double yaw) {
  protocol::PhysXControl control;
  control.header.stamp = protocol::Time::FromSeconds(time);
  lookahead_point_ = position;
  if (path_.empty()) return control;
  // Projection: the nearest point on the segments from the current one on.
  double best = std::numeric_limits<double>::infinity();
  double along = 0.0;  // parameter on the best segment, 0..1
  for (size_t s = segment_; s + 1 < path_.size(); ++s) {
    const Eigen::Vector2d a = path_[s], b = path_[s + 1];
    const double length2 = (b - a).squaredNorm();
    const double t =
        length2 > 0.0 ? std::clamp((position - a).dot(b - a) / length2, 0.0, 1.0) : 0.0;
    const double d = (a + t * (b - a) - position).norm();
    if (d < best) {
      best = d;
      segment_ = s;
      along = t;
    }
  }
  // Walk lookahead metres along the path from the projection.
  lookahead_point_ = path_.back();
  double left = gains_.lookahead;
  for (size_t s = segment_; s + 1 < path_.size(); ++s) {
    const Eigen::Vector2d a =
        s == segment_ ? path_[s] + along * (path_[s + 1] - path_[s]) : path_[s];
    const Eigen::Vector2d b = path_[s + 1];
    const double length = (b - a).norm();
    if (length >= left) {
      lookahead_point_ = a + (b - a) * (left / length);
      break;
    }
    left -= length;
  }
  const Eigen::Vector2d to = lookahead_point_ - position;
  const double bearing = std::atan2(to.y(), to.x());
  // Positive error: the look-ahead point lies clockwise (to the right), as positive steering.
  const double error =
      std::remainder(yaw * std::numbers::pi / 180.0 - bearing, 2.0 * std::numbers::pi);
  double rate = 0.0;
  if (previous_ && time > previous_->first) {
    rate = std::remainder(error - previous_->second, 2.0 * std::numbers::pi) /
           (time - previous_->first);
  }
  previous_ = {time, error};
  const double steer = gains_.proportional * error + gains_.derivative * rate;
  control.steering_angle = std::clamp(steer, -gains_.max_steering_angle, gains_.max_steering_angle);
  control.longitudinal_velocity = gains_.speed;
  return control;
}

}  // namespace asg::nodes::examples
