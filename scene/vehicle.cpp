// The ray-cast vehicle, its actuators and its state.
#include "scene/vehicle.h"

#include <BulletDynamics/Vehicle/btRaycastVehicle.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "core/check.h"
#include "core/number_format.h"
#include "scene/scene_error.h"
#include "scene/vehicle_tyres.h"

namespace asg::scene {
namespace {

constexpr double kDegToRad = std::numbers::pi / 180.0;
constexpr double kGravity = 9.81;  // [m/s^2]
constexpr int kWheels = 4;

void RequirePositive(double value, const char* field) {
  if (!std::isfinite(value) || value <= 0.0) {
    throw SceneError("vehicle." + std::string(field) + " = " + core::FormatNumber(value) +
                     " must be finite and > 0");
  }
}

}  // namespace

// Wheel rays see terrain and non-traversable actors only (never the chassis); the actors they
// rest on are recorded for collision reporting.
class Vehicle::WheelRaycaster : public btVehicleRaycaster {
 public:
  explicit WheelRaycaster(btDiscreteDynamicsWorld* world) : world_(world) {}

  void* castRay(const btVector3& from, const btVector3& to,
                btVehicleRaycasterResult& result) override {
    btCollisionWorld::ClosestRayResultCallback callback(from, to);
    callback.m_collisionFilterGroup = collision_group::kRay;
    callback.m_collisionFilterMask = collision_group::kTerrain | collision_group::kActor;
    world_->rayTest(from, to, callback);
    if (!callback.hasHit()) return nullptr;
    result.m_hitPointInWorld = callback.m_hitPointWorld;
    result.m_hitNormalInWorld = callback.m_hitNormalWorld.normalized();
    result.m_distFraction = callback.m_closestHitFraction;
    const int user_index = callback.m_collisionObject->getUserIndex();
    if (user_index >= 0) actor_hits_.push_back(user_index);
    return const_cast<btCollisionObject*>(callback.m_collisionObject);
  }

  void Clear() { actor_hits_.clear(); }
  const std::vector<int>& actor_hits() const { return actor_hits_; }

 private:
  btDiscreteDynamicsWorld* world_;
  std::vector<int> actor_hits_;
};

Eigen::Vector3d RollPitchYaw(const Eigen::Quaterniond& orientation) {
  const double w = orientation.w(), x = orientation.x(), y = orientation.y(), z = orientation.z();
  const double roll = std::atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y));
  const double pitch = std::asin(std::clamp(2.0 * (w * y - z * x), -1.0, 1.0));
  const double yaw = std::atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z));
  return Eigen::Vector3d(roll, pitch, yaw) / kDegToRad;
}

void ValidateVehicleParams(const protocol::VehicleParams& p) {
  RequirePositive(p.mass, "mass");
  RequirePositive(p.length, "length");
  RequirePositive(p.width, "width");
  RequirePositive(p.body_height, "body_height");
  RequirePositive(p.wheelbase, "wheelbase");
  RequirePositive(p.track_width, "track_width");
  RequirePositive(p.wheel_radius, "wheel_radius");
  RequirePositive(p.wheel_width, "wheel_width");
  RequirePositive(p.suspension_rest_length, "suspension_rest_length");
  RequirePositive(p.suspension_stiffness, "suspension_stiffness");
  RequirePositive(p.suspension_damping, "suspension_damping");
  RequirePositive(p.suspension_compression, "suspension_compression");
  RequirePositive(p.friction_slip, "friction_slip");
  RequirePositive(p.max_steering_angle, "max_steering_angle");
  RequirePositive(p.max_speed, "max_speed");
  RequirePositive(p.max_engine_force, "max_engine_force");
  RequirePositive(p.max_brake_force, "max_brake_force");
  RequirePositive(p.steering_rate, "steering_rate");
  auto require_non_negative = [](double value, const char* field) {
    if (!std::isfinite(value) || value < 0.0) {
      throw SceneError("vehicle." + std::string(field) + " = " + core::FormatNumber(value) +
                       " must be finite and >= 0");
    }
  };
  require_non_negative(p.roll_influence, "roll_influence");
  require_non_negative(p.center_of_mass_height, "center_of_mass_height");
  require_non_negative(p.speed_kp, "speed_kp");
  require_non_negative(p.speed_kd, "speed_kd");
  if (p.max_steering_angle >= 90.0) {
    throw SceneError("vehicle.max_steering_angle = " + core::FormatNumber(p.max_steering_angle) +
                     " must be < 90");
  }
}

std::unique_ptr<Vehicle> Vehicle::Create(const protocol::VehicleParams& params,
                                         PhysicsWorld* physics) {
  ValidateVehicleParams(params);
  return std::unique_ptr<Vehicle>(new Vehicle(params, physics));
}

Vehicle::Vehicle(const protocol::VehicleParams& params, PhysicsWorld* physics)
    : params_(params), physics_(physics) {
  btDiscreteDynamicsWorld* world = physics->dynamics();
  const double com_height = params.center_of_mass_height;
  // The chassis box's bottom lies in the plane of the wheel centres; the body origin is the
  // centre of mass, com_height above that plane.
  box_ = std::make_unique<btBoxShape>(btVector3(btScalar(0.5 * params.length),
                                                btScalar(0.5 * params.width),
                                                btScalar(0.5 * params.body_height)));
  chassis_shape_ = std::make_unique<btCompoundShape>(false, 1);
  btTransform box_offset;
  box_offset.setIdentity();
  box_offset.setOrigin(btVector3(0, 0, btScalar(0.5 * params.body_height - com_height)));
  chassis_shape_->addChildShape(box_offset, box_.get());
  btVector3 inertia;
  box_->calculateLocalInertia(btScalar(params.mass), inertia);
  btRigidBody::btRigidBodyConstructionInfo info(btScalar(params.mass), nullptr,
                                                chassis_shape_.get(), inertia);
  info.m_friction = 0.6f;
  chassis_ = std::make_unique<btRigidBody>(info);
  chassis_->setActivationState(DISABLE_DEACTIVATION);
  chassis_->setUserIndex(kVehicleUserIndex);
  world->addRigidBody(chassis_.get(), collision_group::kVehicle,
                      collision_group::kTerrain | collision_group::kActor);

  btRaycastVehicle::btVehicleTuning tuning;
  tuning.m_suspensionStiffness = btScalar(params.suspension_stiffness);
  tuning.m_suspensionCompression = btScalar(params.suspension_compression);
  tuning.m_suspensionDamping = btScalar(params.suspension_damping);
  tuning.m_maxSuspensionTravelCm = btScalar(100.0 * params.suspension_rest_length);
  tuning.m_frictionSlip = btScalar(params.friction_slip);
  tuning.m_maxSuspensionForce = btScalar(3.0 * params.mass * kGravity);
  raycaster_ = std::make_unique<WheelRaycaster>(world);
  vehicle_ =
      std::make_unique<TyreVehicle>(tuning, chassis_.get(), raycaster_.get(), world->getGravity());
  // Right axis index = body y, up = z, forward = x.
  vehicle_->setCoordinateSystem(1, 2, 0);
  const btVector3 down(0, 0, -1);
  const btVector3 axle(0, -1, 0);
  const double connection_z = params.suspension_rest_length - com_height;
  for (int w = 0; w < kWheels; ++w) {
    const bool front = w < 2;
    const double x = (front ? 0.5 : -0.5) * params.wheelbase;
    const double y = (w % 2 == 0 ? 0.5 : -0.5) * params.track_width;
    btWheelInfo& wheel = vehicle_->addWheel(
        btVector3(btScalar(x), btScalar(y), btScalar(connection_z)), down, axle,
        btScalar(params.suspension_rest_length), btScalar(params.wheel_radius), tuning, front);
    wheel.m_rollInfluence = btScalar(params.roll_influence);
  }
  Place(Eigen::Vector3d::Zero(), 0.0);
}

Vehicle::~Vehicle() {
  btDiscreteDynamicsWorld* world = physics_->dynamics();
  world->removeRigidBody(chassis_.get());
}

void Vehicle::Teleport(const Eigen::Vector3d& position, const Eigen::Quaterniond& orientation,
                       const Eigen::Vector3d& linear_velocity,
                       const Eigen::Vector3d& angular_velocity) {
  btDiscreteDynamicsWorld* world = physics_->dynamics();
  const btTransform pose(ToBullet(orientation.normalized()), ToBullet(position));
  chassis_->setCenterOfMassTransform(pose);
  chassis_->setInterpolationWorldTransform(pose);
  chassis_->setLinearVelocity(ToBullet(linear_velocity));
  chassis_->setAngularVelocity(ToBullet(angular_velocity));
  chassis_->setInterpolationLinearVelocity(ToBullet(linear_velocity));
  chassis_->setInterpolationAngularVelocity(ToBullet(angular_velocity));
  chassis_->clearForces();
  chassis_->activate(true);
  world->updateSingleAabb(chassis_.get());
  world->getBroadphase()->getOverlappingPairCache()->cleanProxyFromPairs(
      chassis_->getBroadphaseHandle(), world->getDispatcher());
  vehicle_->resetSuspension();
  for (int w = 0; w < kWheels; ++w) vehicle_->updateWheelTransform(w, false);
  raycaster_->Clear();
  previous_speed_ = State().forward_speed;
}

double Vehicle::OriginAboveGround() const {
  return params_.center_of_mass_height + params_.wheel_radius;
}

const std::vector<int>& Vehicle::wheel_actor_hits() const { return raycaster_->actor_hits(); }

void Vehicle::Place(const Eigen::Vector3d& position, double yaw) {
  btDiscreteDynamicsWorld* world = physics_->dynamics();
  const btTransform pose(btQuaternion(btVector3(0, 0, 1), btScalar(yaw * kDegToRad)),
                         ToBullet(position));
  chassis_->setCenterOfMassTransform(pose);
  chassis_->setInterpolationWorldTransform(pose);
  chassis_->setLinearVelocity(btVector3(0, 0, 0));
  chassis_->setAngularVelocity(btVector3(0, 0, 0));
  chassis_->setInterpolationLinearVelocity(btVector3(0, 0, 0));
  chassis_->setInterpolationAngularVelocity(btVector3(0, 0, 0));
  chassis_->clearForces();
  world->updateSingleAabb(chassis_.get());
  world->getBroadphase()->getOverlappingPairCache()->cleanProxyFromPairs(
      chassis_->getBroadphaseHandle(), world->getDispatcher());
  vehicle_->resetSuspension();
  for (int w = 0; w < kWheels; ++w) {
    vehicle_->setSteeringValue(0, w);
    vehicle_->applyEngineForce(0, w);
    vehicle_->setBrake(0, w);
    btWheelInfo& wheel = vehicle_->getWheelInfo(w);
    wheel.m_rotation = 0;
    wheel.m_deltaRotation = 0;
    vehicle_->updateWheelTransform(w, false);
  }
  raycaster_->Clear();
  target_speed_ = 0.0;
  target_steering_ = 0.0;
  handbrake_ = false;
  steering_ = 0.0;
  previous_speed_ = 0.0;
}

void Vehicle::SetCommand(const protocol::PhysXControl& command) {
  const double speed =
      std::isfinite(command.longitudinal_velocity) ? command.longitudinal_velocity : 0.0;
  const double steer = std::isfinite(command.steering_angle) ? command.steering_angle : 0.0;
  target_speed_ = std::clamp(speed, -params_.max_speed, params_.max_speed);
  target_steering_ = std::clamp(steer, -params_.max_steering_angle, params_.max_steering_angle);
  handbrake_ = command.handbrake;
}

void Vehicle::ApplyControl(double dt) {
  ASG_CHECK(dt > 0.0);
  raycaster_->Clear();
  const double max_turn = params_.steering_rate * dt;
  steering_ += std::clamp(target_steering_ - steering_, -max_turn, max_turn);
  // Bullet steers counter-clockwise about up for positive values; ours is positive = right.
  const btScalar wheel_angle = btScalar(-steering_ * kDegToRad);
  vehicle_->setSteeringValue(wheel_angle, 0);
  vehicle_->setSteeringValue(wheel_angle, 1);

  const btVector3 forward = chassis_->getCenterOfMassTransform().getBasis().getColumn(0);
  const double speed = chassis_->getLinearVelocity().dot(forward);
  const double acceleration = (speed - previous_speed_) / dt;
  previous_speed_ = speed;
  double drive = 0.0;  // [N] total, positive forward
  double brake = 0.0;  // [N] total
  if (handbrake_ || std::abs(target_speed_) <= kStopSpeed) {
    brake = params_.max_brake_force;
  } else {
    const double demand =
        params_.speed_kp * (target_speed_ - speed) - params_.speed_kd * acceleration;
    if (demand * speed >= 0.0 || std::abs(speed) < 0.1) {
      drive = std::clamp(demand, -params_.max_engine_force, params_.max_engine_force);
    } else {
      brake = std::min(std::abs(demand), params_.max_brake_force);
    }
  }
  // Bullet's brake is the largest rolling-friction impulse per wheel and step.
  for (int w = 0; w < kWheels; ++w) {
    vehicle_->applyEngineForce(btScalar(drive / kWheels), w);
    vehicle_->setBrake(btScalar(brake / kWheels * dt), w);
  }
  // The wheels act before the step (not as a Bullet action after it), so that the velocity the
  // step integrates, and then reports, already includes suspension and tyre impulses.
  vehicle_->updateVehicle(btScalar(dt));
}

VehicleState Vehicle::State() const {
  const btTransform& pose = chassis_->getCenterOfMassTransform();
  VehicleState state;
  state.position = ToEigen(pose.getOrigin());
  state.orientation = ToEigen(pose.getRotation()).normalized();
  const Eigen::Matrix3d to_body = state.orientation.toRotationMatrix().transpose();
  state.linear_velocity = to_body * ToEigen(chassis_->getLinearVelocity());
  state.angular_velocity = to_body * ToEigen(chassis_->getAngularVelocity());
  const Eigen::Vector3d angles = RollPitchYaw(state.orientation);
  state.roll = angles.x();
  state.pitch = angles.y();
  state.yaw = angles.z();
  state.forward_speed = state.linear_velocity.x();
  return state;
}

}  // namespace asg::scene
