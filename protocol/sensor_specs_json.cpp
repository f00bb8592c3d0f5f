// The JSON schemas of sensor_specs.h. Every sensor needs "type" and "name"; all other fields are
// optional. A SensorSpec writes and accepts only the fields of its type, flattened beside "type".
#include <array>
#include <set>

#include "json/fields.h"
#include "protocol/messages_json.h"
#include "protocol/sensor_spec_aliases.h"
#include "protocol/sensor_specs.h"
#include "protocol/vehicle_nodes_schema.h"

namespace asg::protocol {

const std::string& SensorSpec::Name() const {
  switch (type) {
    case Type::kCamera:
      return camera.name;
    case Type::kLidar:
      return lidar.name;
    case Type::kOccupancyGrid:
      return occupancy_grid.name;
    case Type::kImu:
      return imu.name;
    case Type::kDetection:
      return detection.name;
  }
  return camera.name;
}

double SensorSpec::Rate() const {
  switch (type) {
    case Type::kCamera:
      return camera.rate;
    case Type::kLidar:
      return lidar.rate;
    case Type::kOccupancyGrid:
      return occupancy_grid.rate;
    case Type::kImu:
      return imu.rate;
    case Type::kDetection:
      return detection.rate;
  }
  return camera.rate;
}

}  // namespace asg::protocol

namespace asg::json {
namespace {

constexpr std::array<NamedValue<protocol::SensorSpec::Type>, 5> kSensorTypeTable{{
    {protocol::SensorSpec::Type::kCamera, "camera"},
    {protocol::SensorSpec::Type::kLidar, "lidar"},
    {protocol::SensorSpec::Type::kOccupancyGrid, "occupancy_grid"},
    {protocol::SensorSpec::Type::kImu, "imu"},
    {protocol::SensorSpec::Type::kDetection, "detection"},
}};
constexpr Names<protocol::SensorSpec::Type> kSensorTypes{"sensor", kSensorTypeTable};

constexpr Limit kPositiveCount{1.0, std::numeric_limits<double>::infinity(), false};
constexpr Limit kElevation = Between(-90.0, 90.0);

/// Whether `V` decodes (a FieldReader): only then are the aliases folded into the farm's fields.
template <class V>
constexpr bool kDecoding = std::is_same_v<V, FieldReader>;

/// Throws unless a decoded sensor name is non-empty.
void CheckName(const std::string& name, const FieldReader& reader) {
  if (name.empty()) throw DecodeError(reader.Child("name"), "must not be empty");
}

}  // namespace

template <>
struct Schema<protocol::SensorMount> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("offset", m.offset);
    v.Optional("roll", m.roll, Between(-180, 180));
    v.Optional("pitch", m.pitch, Between(-90, 90));
    v.Optional("yaw", m.yaw, Between(-180, 180));
  }
};

template <>
struct Schema<protocol::CameraSpec> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("name", m.name);
    v.Optional("mount", m.mount);
    v.Optional("width", m.width, kPositiveCount);
    v.Optional("height", m.height, kPositiveCount);
    v.Optional("fov", m.fov, kPositive);
    v.Optional("rate", m.rate, kPositive);
    v.Optional("colour", m.colour);
    v.Optional("depth", m.depth);
    v.Optional("segmentation", m.segmentation);
  }
  static void Check(const protocol::CameraSpec& m, const FieldReader& reader) {
    CheckName(m.name, reader);
    if (m.fov >= 180.0) {
      throw DecodeError(reader.Child("fov"), FormatNumber(m.fov) + " is not below 180 degrees");
    }
  }
};

template <>
struct Schema<protocol::LidarSpec> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("name", m.name);
    v.Optional("mount", m.mount);
    std::optional<std::string> units;  // scenario_simulator_v2: the two angles in radians
    v.Optional("units", units);
    if constexpr (kDecoding<V>) {
      if (units && *units != kScenarioSimulatorUnits) {
        throw DecodeError(v.Child("units"), "\"" + *units + "\" is not \"" +
                                                std::string(kScenarioSimulatorUnits) + "\"");
      }
      if (units) ReadRadianLidarAngles(v, &m);
    }
    if (!units) {
      v.Optional("horizontal_resolution", m.horizontal_resolution, kPositiveCount);
      v.Optional("vertical_angles", m.vertical_angles, kElevation);
    }
    v.Optional("range", m.range, kPositive);
    v.Optional("min_range", m.min_range, kNonNegative);
    v.Optional("rate", m.rate, kPositive);
    std::optional<double> scan_duration;  // [s] scenario_simulator_v2's 1 / rate
    v.Optional("scan_duration", scan_duration, kPositive);
    if constexpr (kDecoding<V>) FoldDuration(v, "scan_duration", scan_duration, &m.rate);
  }
  static void Check(const protocol::LidarSpec& m, const FieldReader& reader) {
    CheckName(m.name, reader);
    if (m.vertical_angles.empty()) {
      throw DecodeError(reader.Child("vertical_angles"), "needs at least one angle");
    }
    if (m.min_range >= m.range) {
      throw DecodeError(reader.Child("min_range"),
                        FormatNumber(m.min_range) + " is not below range " + FormatNumber(m.range));
    }
  }
};

template <>
struct Schema<protocol::OccupancyGridSpec> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("name", m.name);
    v.Optional("resolution", m.resolution, kPositive);
    v.Optional("width", m.width, kPositiveCount);
    v.Optional("height", m.height, kPositiveCount);
    v.Optional("range", m.range, kPositive);
    v.Optional("rate", m.rate, kPositive);
    std::optional<double> update_duration;  // [s] scenario_simulator_v2's 1 / rate
    v.Optional("update_duration", update_duration, kPositive);
    if constexpr (kDecoding<V>) FoldDuration(v, "update_duration", update_duration, &m.rate);
  }
  static void Check(const protocol::OccupancyGridSpec& m, const FieldReader& reader) {
    CheckName(m.name, reader);
  }
};

template <>
struct Schema<protocol::ImuSpec> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("name", m.name);
    v.Optional("rate", m.rate, kPositive);
    v.Optional("orientation_noise", m.orientation_noise, kNonNegative);
    v.Optional("angular_velocity_noise", m.angular_velocity_noise, kNonNegative);
    v.Optional("linear_acceleration_noise", m.linear_acceleration_noise, kNonNegative);
    v.Optional("seed", m.seed);
    v.Optional("add_gravity", m.add_gravity);
    // scenario_simulator_v2's names of the three noises (same units) and its use_seed.
    std::optional<double> orientation, twist, acceleration;
    std::optional<bool> use_seed;
    v.Optional("noise_standard_deviation_orientation", orientation, kNonNegative);
    v.Optional("noise_standard_deviation_twist", twist, kNonNegative);
    v.Optional("noise_standard_deviation_acceleration", acceleration, kNonNegative);
    v.Optional("use_seed", use_seed);
    if constexpr (kDecoding<V>) {
      FoldSame(v, "orientation_noise", &m.orientation_noise, "noise_standard_deviation_orientation",
               orientation);
      FoldSame(v, "angular_velocity_noise", &m.angular_velocity_noise,
               "noise_standard_deviation_twist", twist);
      FoldSame(v, "linear_acceleration_noise", &m.linear_acceleration_noise,
               "noise_standard_deviation_acceleration", acceleration);
      CheckUseSeed(v, use_seed, m.seed);
    }
  }
  static void Check(const protocol::ImuSpec& m, const FieldReader& reader) {
    CheckName(m.name, reader);
  }
};

template <>
struct Schema<protocol::DetectionSpec> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("name", m.name);
    v.Optional("range", m.range, kPositive);
    v.Optional("rate", m.rate, kPositive);
    v.Optional("pos_noise_stddev", m.pos_noise_stddev, kNonNegative);
    v.Optional("probability_of_lost", m.probability_of_lost, Between(0, 1));
    v.Optional("object_recognition_delay", m.object_recognition_delay, kNonNegative);
    v.Optional("seed", m.seed);
    std::optional<double> update_duration;  // [s] scenario_simulator_v2's 1 / rate
    std::optional<uint32_t> random_seed;    // scenario_simulator_v2's seed
    v.Optional("update_duration", update_duration, kPositive);
    v.Optional("random_seed", random_seed);
    if constexpr (kDecoding<V>) {
      FoldDuration(v, "update_duration", update_duration, &m.rate);
      FoldSeed(v, "random_seed", random_seed, &m.seed);
    }
  }
  static void Check(const protocol::DetectionSpec& m, const FieldReader& reader) {
    CheckName(m.name, reader);
  }
};

// The tag picks which member's fields follow, listed by that member's own schema.
template <>
struct Schema<protocol::SensorSpec> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.RequiredTag("type", m.type, kSensorTypes);
    switch (m.type) {
      case protocol::SensorSpec::Type::kCamera:
        Schema<protocol::CameraSpec>::Fields(v, m.camera);
        break;
      case protocol::SensorSpec::Type::kLidar:
        Schema<protocol::LidarSpec>::Fields(v, m.lidar);
        break;
      case protocol::SensorSpec::Type::kOccupancyGrid:
        Schema<protocol::OccupancyGridSpec>::Fields(v, m.occupancy_grid);
        break;
      case protocol::SensorSpec::Type::kImu:
        Schema<protocol::ImuSpec>::Fields(v, m.imu);
        break;
      case protocol::SensorSpec::Type::kDetection:
        Schema<protocol::DetectionSpec>::Fields(v, m.detection);
        break;
    }
  }
  static void Check(const protocol::SensorSpec& m, const FieldReader& reader) {
    switch (m.type) {
      case protocol::SensorSpec::Type::kCamera:
        return Schema<protocol::CameraSpec>::Check(m.camera, reader);
      case protocol::SensorSpec::Type::kLidar:
        return Schema<protocol::LidarSpec>::Check(m.lidar, reader);
      case protocol::SensorSpec::Type::kOccupancyGrid:
        return Schema<protocol::OccupancyGridSpec>::Check(m.occupancy_grid, reader);
      case protocol::SensorSpec::Type::kImu:
        return Schema<protocol::ImuSpec>::Check(m.imu, reader);
      case protocol::SensorSpec::Type::kDetection:
        return Schema<protocol::DetectionSpec>::Check(m.detection, reader);
    }
  }
};

}  // namespace asg::json

namespace asg::protocol {

const char* SensorSpec::TypeName(Type type) {
  for (const auto& entry : json::kSensorTypeTable) {
    if (entry.value == type) return entry.name.data();
  }
  return "unknown";
}

ASG_DEFINE_JSON(SensorMount)
ASG_DEFINE_JSON(CameraSpec)
ASG_DEFINE_JSON(LidarSpec)
ASG_DEFINE_JSON(OccupancyGridSpec)
ASG_DEFINE_JSON(ImuSpec)
ASG_DEFINE_JSON(DetectionSpec)
ASG_DEFINE_JSON(SensorSpec)
ASG_DEFINE_JSON(VehicleNodesSpec)

}  // namespace asg::protocol
