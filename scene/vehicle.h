// The simulated vehicle: a Bullet btRaycastVehicle (box chassis on four ray-cast wheels, four-wheel
// drive, front-wheel steering) with a PD speed loop and a rate-limited steering actuator, driven
// by PhysXControl commands.
//
// Body frame: origin at the chassis' centre of mass, x forward, y left, z up. The reported pose is
// that of the body frame in the world; roll, pitch and yaw are its ZYX Euler angles (yaw about
// world z, then pitch about the body's lateral y axis, positive nose-down, then roll about the
// body's forward x axis, positive right side down).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <memory>
#include <vector>

#include "protocol/messages.h"
#include "scene/physics_world.h"

class btRaycastVehicle;

namespace asg::scene {

/// Kinematic state of the vehicle at one instant.
struct VehicleState {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();               ///< [m] world, centre of mass
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();  ///< body -> world
  Eigen::Vector3d linear_velocity = Eigen::Vector3d::Zero();        ///< [m/s] body frame
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();       ///< [rad/s] body frame
  double roll = 0.0;           ///< [deg] ZYX Euler roll, about body x
  double pitch = 0.0;          ///< [deg] ZYX Euler pitch, about body y
  double yaw = 0.0;            ///< [deg] ZYX Euler yaw, CCW from world +x
  double forward_speed = 0.0;  ///< [m/s] linear_velocity.x()
};

/// [deg] ZYX Euler angles (roll, pitch, yaw) of a body -> world rotation.
Eigen::Vector3d RollPitchYaw(const Eigen::Quaterniond& orientation);

/// Throws SceneError naming the field and value (e.g. `vehicle.mass = -1 must be > 0`) when a
/// vehicle parameter is out of range.
void ValidateVehicleParams(const protocol::VehicleParams& params);

/// The vehicle in one PhysicsWorld. Owned by the run; not thread-safe.
class Vehicle {
 public:
  /// Validates the parameters (ValidateVehicleParams) and adds the vehicle to `physics`, which
  /// must outlive it. The vehicle starts at the world origin; call Place before simulating.
  static std::unique_ptr<Vehicle> Create(const protocol::VehicleParams& params,
                                         PhysicsWorld* physics);
  ~Vehicle();
  Vehicle(const Vehicle&) = delete;
  Vehicle& operator=(const Vehicle&) = delete;

  /// Teleports the body frame origin to `position` [m, world], level with heading `yaw` [deg],
  /// at rest, wheels straight, suspension at rest length, command zero (brakes held).
  void Place(const Eigen::Vector3d& position, double yaw);
  /// Teleports the body frame to `position` [m, world] with `orientation` (body -> world) and the
  /// world-frame velocities `linear_velocity` [m/s] and `angular_velocity` [rad/s]; the command,
  /// the steering and the wheels' spin are kept, the suspension is reset.
  void Teleport(const Eigen::Vector3d& position, const Eigen::Quaterniond& orientation,
                const Eigen::Vector3d& linear_velocity, const Eigen::Vector3d& angular_velocity);
  /// Sets the command held until the next call: target speed clamped to +-max_speed, steering
  /// clamped to +-max_steering_angle (positive = right).
  void SetCommand(const protocol::PhysXControl& command);
  /// Runs the actuators for the next physics step of dt [s]: moves the steering toward its target
  /// at steering_rate, sets drive and brake forces from the PD speed loop (a target speed with
  /// |v| <= kStopSpeed, or the handbrake, holds full brakes), then casts the wheel rays and
  /// applies suspension and tyre impulses. Call once before every PhysicsWorld::Step.
  void ApplyControl(double dt);

  /// The current kinematic state.
  VehicleState State() const;
  /// [deg] the front wheels' current angle, positive = right.
  double steering() const { return steering_; }
  /// [m/s] the current (clamped) target speed.
  double target_speed() const { return target_speed_; }
  const btRigidBody* chassis() const { return chassis_.get(); }
  const protocol::VehicleParams& params() const { return params_; }
  /// [m] distance from the body origin down to the bottom of the wheels at rest length.
  double OriginAboveGround() const;
  /// Indices in World::actors of non-traversable actors the wheel rays rest on now.
  const std::vector<int>& wheel_actor_hits() const;

  /// Commanded speeds at or below this magnitude [m/s] mean "stop".
  static constexpr double kStopSpeed = 0.02;

 private:
  Vehicle(const protocol::VehicleParams& params, PhysicsWorld* physics);
  class WheelRaycaster;

  protocol::VehicleParams params_;
  PhysicsWorld* physics_;
  std::unique_ptr<btCollisionShape> box_;
  std::unique_ptr<btCompoundShape> chassis_shape_;
  std::unique_ptr<btRigidBody> chassis_;
  std::unique_ptr<WheelRaycaster> raycaster_;
  std::unique_ptr<btRaycastVehicle> vehicle_;
  double target_speed_ = 0.0;     // [m/s]
  double target_steering_ = 0.0;  // [deg], positive right
  bool handbrake_ = true;
  double steering_ = 0.0;        // [deg], positive right
  double previous_speed_ = 0.0;  // [m/s] forward speed at the previous ApplyControl
};

}  // namespace asg::scene
