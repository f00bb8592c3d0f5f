// A tiny world for the planner driver's tests: flat ground at z = 0 with vertical cylinders
// (trees) that rays can hit, and a kinematic bicycle-model vehicle to close the loop without
// a physics engine.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "scene/driver.h"
#include "tests/scene/run_test_util.h"

namespace asg::scene::testing {

/// A vertical cylinder standing on the ground.
struct Trunk {
  double x = 0.0;       ///< [m]
  double y = 0.0;       ///< [m]
  double radius = 0.3;  ///< [m]
  double height = 5.0;  ///< [m]
};

/// Intersects rays with the ground plane z = 0 (terrain, not an obstacle) and with trunks
/// (obstacles). Counts the rays cast.
class CylinderRayCaster : public RayCaster {
 public:
  explicit CylinderRayCaster(std::vector<Trunk> trunks) : trunks_(std::move(trunks)) {}

  RayHit Cast(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
              double max_range) const override {
    ++casts_;
    RayHit best{max_range, false, false};
    if (direction.z() < 0.0) {
      const double t = -origin.z() / direction.z();
      if (t >= 0.0 && t < best.distance) best = {t, true, false};
    }
    const double a = direction.x() * direction.x() + direction.y() * direction.y();
    if (a <= 0.0) return best;
    for (const Trunk& trunk : trunks_) {
      const double ox = origin.x() - trunk.x, oy = origin.y() - trunk.y;
      const double b = ox * direction.x() + oy * direction.y();
      const double c = ox * ox + oy * oy - trunk.radius * trunk.radius;
      const double disc = b * b - a * c;
      if (disc < 0.0) continue;
      const double t = (-b - std::sqrt(disc)) / a;
      if (t < 0.0 || t >= best.distance) continue;
      const double z = origin.z() + t * direction.z();
      if (z < 0.0 || z > trunk.height) continue;
      best = {t, true, true};
    }
    return best;
  }

  const std::vector<Trunk>& trunks() const { return trunks_; }
  long casts() const { return casts_; }

 private:
  std::vector<Trunk> trunks_;
  mutable long casts_ = 0;
};

/// A kinematic bicycle whose origin lies midway between the axles, with a steering-rate limit and
/// a first-order speed response bounded by acceleration limits.
struct KinematicVehicle {
  double x = 0.0, y = 0.0;    ///< [m] origin
  double yaw = 0.0;           ///< [rad]
  double speed = 0.0;         ///< [m/s]
  double steer_left = 0.0;    ///< [rad] front wheel angle, positive left
  double wheelbase = 2.3;     ///< [m]
  double max_steer = 30.0;    ///< [deg]
  double steer_rate = 120.0;  ///< [deg/s]
  double accel = 3.0;         ///< [m/s^2] largest speed-up
  double decel = 6.0;         ///< [m/s^2] largest slow-down

  /// Advances by dt [s] under a PhysXControl-style command (steering positive right, degrees).
  void Step(double target_speed, double steering_angle_deg, double dt) {
    const double kDeg = M_PI / 180.0;
    const double target =
        -std::clamp(steering_angle_deg, -max_steer, max_steer) * kDeg;  // to positive-left rad
    const double max_delta = steer_rate * kDeg * dt;
    steer_left += std::clamp(target - steer_left, -max_delta, max_delta);
    const double dv = target_speed - speed;
    speed += std::clamp(dv, -decel * dt, accel * dt);
    // Integrate the rear axle, then place the origin half a wheelbase ahead of it.
    double rx = x - 0.5 * wheelbase * std::cos(yaw), ry = y - 0.5 * wheelbase * std::sin(yaw);
    rx += speed * std::cos(yaw) * dt;
    ry += speed * std::sin(yaw) * dt;
    yaw += speed / wheelbase * std::tan(steer_left) * dt;
    x = rx + 0.5 * wheelbase * std::cos(yaw);
    y = ry + 0.5 * wheelbase * std::sin(yaw);
  }

  /// Odometry of the vehicle with its origin `height` [m] above the ground.
  protocol::OdometryWithoutCovariance Odometry(double height = 0.8) const {
    protocol::OdometryWithoutCovariance odometry;
    odometry.pose.position = {x, y, height};
    odometry.pose.orientation = {0.0, 0.0, std::sin(0.5 * yaw), std::cos(0.5 * yaw)};
    odometry.twist.linear = {speed, 0.0, 0.0};
    return odometry;
  }
};

/// What a closed-loop run did.
struct LoopResult {
  bool reached = false;   ///< came within the goal radius
  bool collided = false;  ///< the body (a 0.8 m circle) touched a trunk
  double time = 0.0;      ///< [s] when the run ended
  double distance = 0.0;  ///< [m] driven
  double min_clearance = std::numeric_limits<double>::infinity();  ///< [m] origin to trunk surface
  std::vector<protocol::PhysXControl> controls;                    ///< every command, in order
};

/// Drives `vehicle` with `driver` at 20 Hz control (100 Hz integration) until the origin is
/// within `goal_radius` of `goal`, the body touches a trunk, or `time_limit` [s] passes.
template <typename DriverT>
LoopResult RunLoop(DriverT& driver, const CylinderRayCaster& world, KinematicVehicle vehicle,
                   const Eigen::Vector2d& goal, double goal_radius, double time_limit) {
  constexpr double kControlPeriod = 0.05;
  constexpr int kSubsteps = 5;
  constexpr double kBodyRadius = 0.8;
  LoopResult result;
  for (int tick = 0;; ++tick) {
    const double time = tick * kControlPeriod;
    result.time = time;
    for (const Trunk& trunk : world.trunks()) {
      const double clearance = std::hypot(vehicle.x - trunk.x, vehicle.y - trunk.y) - trunk.radius;
      result.min_clearance = std::min(result.min_clearance, clearance);
    }
    if (result.min_clearance < kBodyRadius) {
      result.collided = true;
      return result;
    }
    if (std::hypot(vehicle.x - goal.x(), vehicle.y - goal.y()) <= goal_radius) {
      result.reached = true;
      return result;
    }
    if (time >= time_limit) return result;
    const protocol::OdometryWithoutCovariance odometry = vehicle.Odometry();
    DriverInput input;
    input.time = time;
    input.odometry = &odometry;
    input.yaw = vehicle.yaw * 180.0 / M_PI;
    input.forward_speed = vehicle.speed;
    input.rays = &world;
    const protocol::PhysXControl control = ControlOf(driver.Tick(input));
    result.controls.push_back(control);
    for (int i = 0; i < kSubsteps; ++i) {
      const double x0 = vehicle.x, y0 = vehicle.y;
      vehicle.Step(control.longitudinal_velocity, control.steering_angle,
                   kControlPeriod / kSubsteps);
      result.distance += std::hypot(vehicle.x - x0, vehicle.y - y0);
    }
  }
}

}  // namespace asg::scene::testing
