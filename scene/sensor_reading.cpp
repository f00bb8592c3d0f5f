#include "scene/sensor_reading.h"

#include <cmath>
#include <numbers>

namespace asg::scene {
namespace {

constexpr double kDegree = std::numbers::pi / 180.0;
constexpr double kDueTolerance = 1e-9;  // [s]

}  // namespace

SensorInput InputFromOdometry(double time, const protocol::OdometryWithoutCovariance& odometry) {
  SensorInput input;
  input.time = time;
  const protocol::Pose& pose = odometry.pose;
  input.pose = Eigen::Isometry3d::Identity();
  input.pose.translate(Eigen::Vector3d(pose.position.x, pose.position.y, pose.position.z));
  input.pose.rotate(Eigen::Quaterniond(pose.orientation.w, pose.orientation.x, pose.orientation.y,
                                       pose.orientation.z)
                        .normalized());
  const protocol::Twist& twist = odometry.twist;
  input.linear_velocity = {twist.linear.x, twist.linear.y, twist.linear.z};
  input.angular_velocity = {twist.angular.x, twist.angular.y, twist.angular.z};
  return input;
}

Eigen::Isometry3d MountTransform(const protocol::SensorMount& mount) {
  Eigen::Isometry3d transform = Eigen::Isometry3d::Identity();
  transform.translate(Eigen::Vector3d(mount.offset.x, mount.offset.y, mount.offset.z));
  transform.rotate(Eigen::AngleAxisd(mount.yaw * kDegree, Eigen::Vector3d::UnitZ()) *
                   Eigen::AngleAxisd(mount.pitch * kDegree, Eigen::Vector3d::UnitY()) *
                   Eigen::AngleAxisd(mount.roll * kDegree, Eigen::Vector3d::UnitX()));
  return transform;
}

json::Json ReadingHeader(const std::string& name, const std::string& type, double time,
                         const std::string& frame_id) {
  json::Json header = json::Json::object();
  header["name"] = name;
  header["type"] = type;
  header["stamp"] = protocol::Time::FromSeconds(time);
  header["frame_id"] = frame_id;
  return header;
}

json::Json PoseJson(const Eigen::Isometry3d& pose) {
  const Eigen::Quaterniond q(pose.rotation());
  protocol::Pose out;
  out.position = {pose.translation().x(), pose.translation().y(), pose.translation().z()};
  out.orientation = {q.x(), q.y(), q.z(), q.w()};
  return out;
}

json::Json VectorJson(const Eigen::Vector3d& v) { return protocol::Vector3{v.x(), v.y(), v.z()}; }

SensorReading OdometryReading(const protocol::OdometryWithoutCovariance& odometry) {
  SensorReading reading;
  reading.header = odometry;
  reading.header["name"] = "odometry";
  reading.header["type"] = "odometry";
  reading.header["stamp"] = odometry.header.stamp;
  reading.header["frame_id"] = odometry.header.frame_id;
  return reading;
}

bool SensorSchedule::Due(double time) {
  if (time + kDueTolerance < static_cast<double>(next_) / rate_) return false;
  next_ = static_cast<int64_t>(std::floor(time * rate_ + kDueTolerance * rate_)) + 1;
  return true;
}

}  // namespace asg::scene
