// Strict reading of a service request's JSON: every field read by name with its type checked, a
// default when absent, and the unread (unknown) ones refused; every error names the field's path
// and the value, e.g. `initial_pose.pose.position.x = "a": must be a number`.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <set>
#include <string>

#include "protocol/frame.h"
#include "scene/live_run.h"

namespace asg::worker::serve {

/// One JSON object being read; throws std::invalid_argument on a bad field.
class Fields {
 public:
  /// `json` must be an object (else throws naming `path`); `path` prefixes field names ("" at
  /// the top). `json` must outlive the reader.
  Fields(const json::Json& json, std::string path);

  bool Has(const std::string& key) const { return json_.contains(key); }
  std::string String(const std::string& key, const std::string& fallback = {});
  bool Bool(const std::string& key, bool fallback = false);
  /// A finite number.
  double Number(const std::string& key, double fallback = 0.0);
  /// An integer in [min, max].
  int64_t Integer(const std::string& key, int64_t fallback, int64_t min, int64_t max);
  /// A nested object (an empty one when absent).
  Fields Object(const std::string& key);
  /// An array (empty when absent).
  const json::Json& Array(const std::string& key);
  /// Throws naming the first field that was never read.
  void Done() const;
  /// The path of `key` in this object, for messages.
  std::string PathOf(const std::string& key) const;

 private:
  const json::Json* Find(const std::string& key);

  const json::Json& json_;
  std::string path_;
  std::set<std::string> read_;
};

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
/// std_msgs/Header.
json::Json HeaderJson(double time);

/// Reads {x, y, z} (missing components 0).
Eigen::Vector3d ReadVector3(Fields fields);
/// Reads {x, y, z, w} (missing: identity components x = y = z = 0, w = 1).
Eigen::Quaterniond ReadQuaternion(Fields fields);

/// simulation_interfaces Result {result, error_message}.
json::Json ResultJson(int code, const std::string& message = {});

}  // namespace asg::worker::serve
