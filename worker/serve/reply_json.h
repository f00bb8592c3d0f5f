// The JSON the interactive worker's replies are made of: geometry_msgs poses and vectors,
// std_msgs headers, simulation_interfaces entity states, bounds and results.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <string>

#include "json/json.h"
#include "scene/live_run.h"

namespace asg::worker::serve {

/// {x, y, z}.
json::Json Vector3Json(const Eigen::Vector3d& v);
/// {x, y, z, w}.
json::Json QuaternionJson(const Eigen::Quaterniond& q);
/// geometry_msgs/Pose.
json::Json PoseJson(const Eigen::Vector3d& position, const Eigen::Quaterniond& orientation);
/// simulation_interfaces EntityState, header frame "world" stamped at `time` [s].
json::Json EntityStateJson(const scene::EntityKinematics& kinematics, double time);
/// simulation_interfaces Bounds of TYPE_BOX.
json::Json BoxBoundsJson(const Eigen::AlignedBox3d& box);
/// std_msgs/Header of frame "world" stamped at `time` [s].
json::Json HeaderJson(double time);
/// simulation_interfaces Result {result, error_message}.
json::Json ResultJson(int code, const std::string& message = {});

}  // namespace asg::worker::serve
