// The JSON of the interactive worker's replies.
#include "worker/serve/reply_json.h"

#include <cmath>

#include "worker/serve/simif_constants.h"

namespace asg::worker::serve {

json::Json Vector3Json(const Eigen::Vector3d& v) {
  return {{"x", v.x()}, {"y", v.y()}, {"z", v.z()}};
}

json::Json QuaternionJson(const Eigen::Quaterniond& q) {
  return {{"x", q.x()}, {"y", q.y()}, {"z", q.z()}, {"w", q.w()}};
}

json::Json PoseJson(const Eigen::Vector3d& position, const Eigen::Quaterniond& orientation) {
  return {{"position", Vector3Json(position)}, {"orientation", QuaternionJson(orientation)}};
}

json::Json HeaderJson(double time) {
  const double seconds = std::floor(time);
  return {{"stamp",
           {{"sec", static_cast<int64_t>(seconds)},
            {"nanosec", static_cast<int64_t>(std::llround((time - seconds) * 1e9))}}},
          {"frame_id", "world"}};
}

json::Json EntityStateJson(const scene::EntityKinematics& k, double time) {
  return {
      {"header", HeaderJson(time)},
      {"pose", PoseJson(k.position, k.orientation)},
      {"twist",
       {{"linear", Vector3Json(k.linear_velocity)}, {"angular", Vector3Json(k.angular_velocity)}}},
      {"acceleration",
       {{"linear", Vector3Json(k.linear_acceleration)},
        {"angular", Vector3Json(k.angular_acceleration)}}}};
}

json::Json BoxBoundsJson(const Eigen::AlignedBox3d& box) {
  return {{"type", kBoundsBox}, {"points", {Vector3Json(box.max()), Vector3Json(box.min())}}};
}

json::Json ResultJson(int code, const std::string& message) {
  return {{"result", code}, {"error_message", message}};
}

}  // namespace asg::worker::serve
