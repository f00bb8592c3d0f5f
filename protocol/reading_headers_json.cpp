// The field lists of the reading headers, and the words their errors are put in.
#include <cmath>

#include "json/fields.h"
#include "protocol/messages_json.h"
#include "protocol/reading_headers.h"

namespace asg::protocol {
namespace {

using json::DecodeError;
using json::Expected;

// A header's words: the key (its path in the header) quoted, then what is wrong with it. The
// errors have no path of their own, so that a nested message's error (a Pose's) keeps its path.
class ReadingWording : public json::Wording {
 public:
  bool checks_values() const override { return true; }
  void CheckValue(const Json& j, const std::string& path, const Expected& expected) const override {
    const std::string key = json::Quoted(path);
    std::string problem;
    if (json::Fits(j, expected)) return;
    switch (expected.kind) {
      case Expected::Kind::kInteger:
        problem = IntegerProblem(j, key, expected);
        break;
      case Expected::Kind::kNumber:
        problem = j.is_number()
                      ? key + " is " + j.dump() + ", not " + json::BoundText(expected.limit)
                      : key + " is not a number";
        break;
      case Expected::Kind::kBoolean:
        problem = key + " is not true or false";
        break;
      case Expected::Kind::kArray:
        problem = key + " is not an array";
        break;
      default:
        problem = key + " is not a string";
        break;
    }
    throw DecodeError("", problem);
  }
  DecodeError NotAnObject(const std::string& path, const Json&) const override {
    return DecodeError("",
                       path.empty() ? "header is not a JSON object" : path + " is not an object");
  }
  DecodeError Unknown(const std::string& object_path,
                      const json::UnknownKey& unknown) const override {
    return DecodeError(
        "", "has the unknown key " + json::Quoted(json::ChildPath(object_path, unknown.key)));
  }
  DecodeError Missing(const std::string& object_path, std::string_view key,
                      std::string_view) const override {
    return DecodeError("", "has no " + json::Quoted(json::ChildPath(object_path, key)));
  }

 private:
  static std::string IntegerProblem(const Json& j, const std::string& key,
                                    const Expected& expected) {
    if (!json::IsWhole(j) || j.get<double>() < 0.0) {
      return key + " is " + j.dump() + ", not an integer >= 0";
    }
    if (json::Fits(j, expected)) return "";
    return key + " is " + j.dump() + ", not in " + json::IntegerRange(expected.limit);
  }
};

const ReadingWording kReadingWording{};

constexpr json::Limit kDimension = json::Between(1, 65536);

// The keys every header starts with.
template <class V, class M>
void CommonFields(V& v, M& m) {
  v.Optional("name", m.name);
  v.Optional("type", m.type);
  v.Required("stamp", m.stamp);
  v.Optional("frame_id", m.frame_id);
}

// The keys every header ends with; header-only readings may leave them out.
template <class V, class M>
void SliceFields(V& v, M& m, bool required) {
  if (required) {
    v.Required("offset", m.offset);
    v.Required("size", m.size);
  } else {
    v.Optional("offset", m.offset);
    v.Optional("size", m.size);
  }
}

}  // namespace
}  // namespace asg::protocol

namespace asg::json {

template <>
struct Schema<protocol::ReadingSlice> {
  static constexpr const Wording* kWording = &protocol::kReadingWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    protocol::SliceFields(v, m, /*required=*/true);
  }
};

template <>
struct Schema<protocol::LidarReadingHeader> {
  static constexpr const Wording* kWording = &protocol::kReadingWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    protocol::CommonFields(v, m);
    v.Required("encoding", m.encoding);
    v.Optional("point_step", m.point_step);
    v.Required("count", m.count);
    v.Required("sensor_pose", m.sensor_pose);
    v.Optional("horizontal_resolution", m.horizontal_resolution);
    v.Optional("vertical_angles", m.vertical_angles);
    protocol::SliceFields(v, m, /*required=*/true);
  }
};

template <>
struct Schema<protocol::OccupancyGridReadingHeader> {
  static constexpr const Wording* kWording = &protocol::kReadingWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    protocol::CommonFields(v, m);
    v.Required("encoding", m.encoding);
    v.Required("width", m.width, protocol::kDimension);
    v.Required("height", m.height, protocol::kDimension);
    v.Optional("step", m.step);
    v.Required("resolution", m.resolution, kPositive);
    v.Required("origin", m.origin);
    v.Optional("range", m.range);
    protocol::SliceFields(v, m, /*required=*/true);
  }
};

template <>
struct Schema<protocol::CameraReadingHeader> {
  static constexpr const Wording* kWording = &protocol::kReadingWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    protocol::CommonFields(v, m);
    v.Required("encoding", m.encoding);
    v.Required("width", m.width, protocol::kDimension);
    v.Required("height", m.height, protocol::kDimension);
    v.Optional("step", m.step);
    v.Optional("is_bigendian", m.is_bigendian);
    v.Optional("pose", m.pose);
    protocol::SliceFields(v, m, /*required=*/true);
  }
};

template <>
struct Schema<protocol::ImuReadingHeader> {
  static constexpr const Wording* kWording = &protocol::kReadingWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    protocol::CommonFields(v, m);
    v.Required("orientation", m.orientation);
    v.Required("angular_velocity", m.angular_velocity);
    v.Required("linear_acceleration", m.linear_acceleration);
    protocol::SliceFields(v, m, /*required=*/false);
  }
};

template <>
struct Schema<protocol::DetectedActor> {
  static constexpr const Wording* kWording = &protocol::kReadingWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("name", m.name);
    v.Required("ssa_index", m.ssa_index);
    v.Required("instance", m.instance);
    v.Required("position", m.position);
    v.Required("relative_position", m.relative_position);
    v.Required("distance", m.distance);
  }
};

template <>
struct Schema<protocol::DetectionReadingHeader> {
  static constexpr const Wording* kWording = &protocol::kReadingWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    protocol::CommonFields(v, m);
    v.Optional("state_time", m.state_time);
    v.Required("detections", m.detections);
    protocol::SliceFields(v, m, /*required=*/false);
  }
};

}  // namespace asg::json

namespace asg::protocol {

ASG_DEFINE_JSON(ReadingSlice)
ASG_DEFINE_JSON(LidarReadingHeader)
ASG_DEFINE_JSON(OccupancyGridReadingHeader)
ASG_DEFINE_JSON(CameraReadingHeader)
ASG_DEFINE_JSON(ImuReadingHeader)
ASG_DEFINE_JSON(DetectedActor)
ASG_DEFINE_JSON(DetectionReadingHeader)

}  // namespace asg::protocol
