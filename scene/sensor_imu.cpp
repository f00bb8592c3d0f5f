#include "scene/sensor_imu.h"

namespace asg::scene {

ImuSensor::ImuSensor(const protocol::ImuSpec& spec, uint64_t seed) : spec_(spec), noise_(seed) {}

SensorReading ImuSensor::Sample(const SensorInput& input) {
  const Eigen::Matrix3d rotation = input.pose.rotation();
  const Eigen::Vector3d velocity = rotation * input.linear_velocity;  // world frame
  Eigen::Vector3d acceleration = Eigen::Vector3d::Zero();             // world frame
  if (has_previous_ && input.time > previous_time_) {
    acceleration = (velocity - previous_velocity_) / (input.time - previous_time_);
  }
  has_previous_ = true;
  previous_time_ = input.time;
  previous_velocity_ = velocity;
  if (spec_.add_gravity) acceleration.z() += kGravity;

  const double droll = noise_.Gaussian(spec_.orientation_noise);
  const double dpitch = noise_.Gaussian(spec_.orientation_noise);
  const double dyaw = noise_.Gaussian(spec_.orientation_noise);
  const Eigen::Quaterniond orientation = Eigen::Quaterniond(rotation) *
                                         Eigen::AngleAxisd(dyaw, Eigen::Vector3d::UnitZ()) *
                                         Eigen::AngleAxisd(dpitch, Eigen::Vector3d::UnitY()) *
                                         Eigen::AngleAxisd(droll, Eigen::Vector3d::UnitX());
  Eigen::Vector3d angular = input.angular_velocity;
  for (int axis = 0; axis < 3; ++axis)
    angular[axis] += noise_.Gaussian(spec_.angular_velocity_noise);
  Eigen::Vector3d linear = rotation.transpose() * acceleration;
  for (int axis = 0; axis < 3; ++axis) {
    linear[axis] += noise_.Gaussian(spec_.linear_acceleration_noise);
  }

  SensorReading reading;
  reading.header = ReadingHeader(spec_.name, "imu", input.time, spec_.name);
  reading.header["orientation"] =
      protocol::Quaternion{orientation.x(), orientation.y(), orientation.z(), orientation.w()};
  reading.header["angular_velocity"] = VectorJson(angular);
  reading.header["linear_acceleration"] = VectorJson(linear);
  return reading;
}

}  // namespace asg::scene
