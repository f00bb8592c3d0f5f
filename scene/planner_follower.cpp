// Pure-pursuit path follower of the planner driver.
#include "scene/planner_follower.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/check.h"

namespace asg::scene {
namespace {

constexpr double kRadToDeg = 180.0 / M_PI;

double WrapAngle(double a) { return std::remainder(a, 2.0 * M_PI); }

// Closest point to p on segment a-b as a fraction of the segment, 0..1.
double ProjectOnSegment(const Eigen::Vector2d& p, const Eigen::Vector2d& a,
                        const Eigen::Vector2d& b) {
  const Eigen::Vector2d ab = b - a;
  const double len_sq = ab.squaredNorm();
  if (len_sq <= 0.0) return 0.0;
  return std::clamp((p - a).dot(ab) / len_sq, 0.0, 1.0);
}

}  // namespace

PathFollower::PathFollower(const FollowerSettings& settings) : settings_(settings) {}

void PathFollower::SetPath(std::vector<Eigen::Vector2d> points) {
  ASG_CHECK(!points.empty());
  path_ = std::move(points);
  segment_ = 0;
  lookahead_segment_ = 0;
  lookahead_point_ = path_.front();
  has_last_ = false;  // the heading error jumps with a new path; do not differentiate across it
}

FollowerCommand PathFollower::Update(double time, const Eigen::Vector2d& position, double yaw) {
  ASG_CHECK(!path_.empty());
  const Eigen::Vector2d heading(std::cos(yaw), std::sin(yaw));

  // Advance the projection: look a few segments ahead of the current one, never back.
  double best_dist = std::numeric_limits<double>::infinity();
  size_t best_segment = segment_;
  double best_t = 0.0;
  const size_t last_segment = path_.size() >= 2 ? path_.size() - 2 : 0;
  double scanned = 0.0;
  for (size_t s = segment_; s <= last_segment; ++s) {
    const Eigen::Vector2d& a = path_[s];
    const Eigen::Vector2d& b = path_.size() >= 2 ? path_[s + 1] : path_[s];
    const double t = ProjectOnSegment(position, a, b);
    const double d = (a + t * (b - a) - position).norm();
    if (d < best_dist) {
      best_dist = d;
      best_segment = s;
      best_t = t;
    }
    if (s > segment_) scanned += (b - a).norm();
    if (scanned > 2.0 * settings_.lookahead) break;  // far enough past the current segment
  }
  segment_ = best_segment;

  // Walk the look-ahead distance along the path from the projection.
  double remaining = settings_.lookahead;
  size_t s = segment_;
  Eigen::Vector2d point = path_[s];
  if (path_.size() >= 2) {
    point = path_[s] + best_t * (path_[s + 1] - path_[s]);
    while (true) {
      const double to_end = (path_[s + 1] - point).norm();
      if (remaining <= to_end) {
        point += (path_[s + 1] - point).normalized() * remaining;
        break;
      }
      remaining -= to_end;
      point = path_[s + 1];
      if (s == last_segment) break;
      ++s;
    }
  }
  lookahead_point_ = point;
  lookahead_segment_ = s;

  // Pure pursuit from the rear axle: curvature 2 sin(alpha) / distance, steer = atan(L * kappa).
  const Eigen::Vector2d rear = position - 0.5 * settings_.wheelbase * heading;
  const Eigen::Vector2d to_target = point - rear;
  const double distance = std::max(to_target.norm(), 1e-6);
  const double error = WrapAngle(std::atan2(to_target.y(), to_target.x()) - yaw);
  double left_deg;
  if (std::cos(error) <= 0.0) {
    left_deg = error > 0.0 ? settings_.max_steering_angle : -settings_.max_steering_angle;
  } else {
    const double curvature = 2.0 * std::sin(error) / distance;
    left_deg = std::atan(settings_.wheelbase * curvature) * kRadToDeg;
  }
  if (has_last_ && time > last_time_) {
    left_deg += settings_.damping * WrapAngle(error - last_error_) / (time - last_time_);
  }
  has_last_ = true;
  last_time_ = time;
  last_error_ = error;

  const double max_steer = settings_.max_steering_angle;
  left_deg = std::clamp(left_deg, -max_steer, max_steer);
  const double turn = max_steer > 0.0 ? std::abs(left_deg) / max_steer : 0.0;
  FollowerCommand command;
  command.steering_angle = left_deg == 0.0 ? 0.0 : -left_deg;  // positive = right
  command.speed = settings_.speed * (1.0 - (1.0 - settings_.turn_speed_fraction) * turn);
  return command;
}

}  // namespace asg::scene
