// Strict request fields and the geometry JSON of the services.
#include "worker/serve/fields.h"

#include <cmath>
#include <stdexcept>

namespace asg::worker::serve {
namespace {

std::string Shown(const json::Json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

const json::Json& EmptyObject() {
  static const json::Json empty = json::Json::object();
  return empty;
}

const json::Json& EmptyArray() {
  static const json::Json empty = json::Json::array();
  return empty;
}

}  // namespace

Fields::Fields(const json::Json& json, std::string path) : json_(json), path_(std::move(path)) {
  if (!json_.is_object()) {
    throw std::invalid_argument((path_.empty() ? std::string("message") : path_) + " = " +
                                Shown(json_) + ": must be an object");
  }
}

std::string Fields::PathOf(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

const json::Json* Fields::Find(const std::string& key) {
  read_.insert(key);
  const auto it = json_.find(key);
  return it == json_.end() ? nullptr : &*it;
}

std::string Fields::String(const std::string& key, const std::string& fallback) {
  const json::Json* value = Find(key);
  if (value == nullptr) return fallback;
  if (!value->is_string()) {
    throw std::invalid_argument(PathOf(key) + " = " + Shown(*value) + ": must be a string");
  }
  return value->get<std::string>();
}

bool Fields::Bool(const std::string& key, bool fallback) {
  const json::Json* value = Find(key);
  if (value == nullptr) return fallback;
  if (!value->is_boolean()) {
    throw std::invalid_argument(PathOf(key) + " = " + Shown(*value) + ": must be true or false");
  }
  return value->get<bool>();
}

double Fields::Number(const std::string& key, double fallback) {
  const json::Json* value = Find(key);
  if (value == nullptr) return fallback;
  if (!value->is_number()) {
    throw std::invalid_argument(PathOf(key) + " = " + Shown(*value) + ": must be a number");
  }
  const double number = value->get<double>();
  if (!std::isfinite(number)) {
    throw std::invalid_argument(PathOf(key) + " = " + Shown(*value) + ": must be finite");
  }
  return number;
}

int64_t Fields::Integer(const std::string& key, int64_t fallback, int64_t min, int64_t max) {
  const json::Json* value = Find(key);
  if (value == nullptr) return fallback;
  const std::string range =
      "must be an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (!value->is_number_integer()) {
    throw std::invalid_argument(PathOf(key) + " = " + Shown(*value) + ": " + range);
  }
  if (value->is_number_unsigned()) {
    const uint64_t number = value->get<uint64_t>();
    if (number > static_cast<uint64_t>(max)) {
      throw std::invalid_argument(PathOf(key) + " = " + Shown(*value) + ": " + range);
    }
    const auto signed_number = static_cast<int64_t>(number);
    if (signed_number < min) {
      throw std::invalid_argument(PathOf(key) + " = " + Shown(*value) + ": " + range);
    }
    return signed_number;
  }
  const int64_t number = value->get<int64_t>();
  if (number < min || number > max) {
    throw std::invalid_argument(PathOf(key) + " = " + Shown(*value) + ": " + range);
  }
  return number;
}

Fields Fields::Object(const std::string& key) {
  const json::Json* value = Find(key);
  if (value == nullptr) return Fields(EmptyObject(), PathOf(key));
  return Fields(*value, PathOf(key));
}

const json::Json& Fields::Array(const std::string& key) {
  const json::Json* value = Find(key);
  if (value == nullptr) return EmptyArray();
  if (!value->is_array()) {
    throw std::invalid_argument(PathOf(key) + " = " + Shown(*value) + ": must be an array");
  }
  return *value;
}

void Fields::Done() const {
  for (const auto& item : json_.items()) {
    if (read_.count(item.key()) == 0) {
      throw std::invalid_argument(PathOf(item.key()) + ": unknown field");
    }
  }
}

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
  return {{"type", 1}, {"points", {Vector3Json(box.max()), Vector3Json(box.min())}}};
}

Eigen::Vector3d ReadVector3(Fields fields) {
  const Eigen::Vector3d v(fields.Number("x"), fields.Number("y"), fields.Number("z"));
  fields.Done();
  return v;
}

Eigen::Quaterniond ReadQuaternion(Fields fields) {
  const Eigen::Quaterniond q(fields.Number("w", 1.0), fields.Number("x"), fields.Number("y"),
                             fields.Number("z"));
  fields.Done();
  return q;
}

json::Json ResultJson(int code, const std::string& message) {
  return {{"result", code}, {"error_message", message}};
}

}  // namespace asg::worker::serve
