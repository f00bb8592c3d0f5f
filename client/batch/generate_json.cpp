// The field lists of the "generate" section: decoding, encoding and the JSON Schema.
#include <limits>
#include <type_traits>

#include "client/batch/batch_wording.h"
#include "client/batch/generate.h"
#include "json/range.h"
#include "protocol/messages.h"

namespace asg::client {

/// "generate.start" as written; GenerateSpec keeps its ranges flat (start_x, ...).
struct GenerateStart {
  std::optional<SampledRange> x, y, yaw;  ///< [m], [m], [deg]
};
ASG_DECLARE_JSON(GenerateStart);

/// "generate.goal" as written.
struct GenerateGoal {
  std::optional<SampledRange> x, y;  ///< [m]
};
ASG_DECLARE_JSON(GenerateGoal);

namespace {

/// An actor's "count": a fixed count or [min, max].
struct CountRange {
  int64_t min = 0;
  int64_t max = 0;
};

constexpr double kMaxCount = std::numeric_limits<uint16_t>::max();

}  // namespace
}  // namespace asg::client

namespace asg::json {

template <>
struct Schema<client::GenerateStart> {
  static constexpr const Wording* kWording = &client::kGenerateWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("x", m.x, kNumberOrRange);
    v.Optional("y", m.y, kNumberOrRange);
    v.Optional("yaw", m.yaw, kNumberOrRange);
  }
};

template <>
struct Schema<client::GenerateGoal> {
  static constexpr const Wording* kWording = &client::kGenerateWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("x", m.x, kNumberOrRange);
    v.Optional("y", m.y, kNumberOrRange);
  }
};

template <>
struct Schema<client::GeneratedActorSpec> {
  static constexpr const char* kName = "GenerateActor";
  static constexpr const Wording* kWording = &client::kGenerateWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("path_name", m.path_name);
    client::CountRange count{m.count_min, m.count_max};  // one JSON value, two members
    v.Required("count", count, NumberOrRange{Between(0, client::kMaxCount)});
    if constexpr (!std::is_const_v<M>) {
      m.count_min = count.min;
      m.count_max = count.max;
    }
    v.Required("x", m.x, kNumberOrRange);
    v.Required("y", m.y, kNumberOrRange);
    v.Optional("yaw", m.yaw, kNumberOrRange);
    v.Optional("scale", m.scale, NumberOrRange{kPositive});
    v.Optional("cast_shadow", m.cast_shadow);
  }
  static void Check(const client::GeneratedActorSpec& m, const FieldReader& reader) {
    if (m.path_name.empty()) {
      throw DecodeError(reader.Child("path_name"), "expected a non-empty string, got \"\"");
    }
  }
};

template <>
struct Schema<client::GenerateSpec> {
  static constexpr const char* kName = "Generate";
  static constexpr const Wording* kWording = &client::kGenerateWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("count", m.count, Between(0, client::kMaxCount));
    v.Optional("start_number", m.start_number, Between(1, protocol::kMaxScenarioNumber));
    v.Optional("max_tries", m.max_tries, Between(1, 100'000'000));
    v.Optional("actors", m.actors);
    // "start" and "goal" are objects of ranges that the spec keeps flat.
    client::GenerateStart start{m.start_x, m.start_y, m.start_yaw};
    v.Optional("start", start);
    client::GenerateGoal goal{m.goal_x, m.goal_y};
    v.Optional("goal", goal);
    if constexpr (!std::is_const_v<M>) {
      m.start_x = start.x;
      m.start_y = start.y;
      m.start_yaw = start.yaw;
      m.goal_x = goal.x;
      m.goal_y = goal.y;
    }
    v.Optional("goal_radius", m.goal_radius, kNumberOrRange);
    v.Optional("sim_timeout_period", m.sim_timeout_period, kNumberOrRange);
    v.Optional("vehicle_idling_timeout_period", m.vehicle_idling_timeout_period, kNumberOrRange);
    v.Optional("vehicle_stuck_timeout_period", m.vehicle_stuck_timeout_period, kNumberOrRange);
    v.Optional("sunlight_inclination", m.sunlight_inclination, kNumberOrRange);
    v.Optional("sunlight_yaw_angle", m.sunlight_yaw_angle, kNumberOrRange);
    v.Optional("start_clearance", m.start_clearance, kNonNegative);
    v.Optional("goal_clearance", m.goal_clearance, kNonNegative);
    v.Optional("min_start_goal_distance", m.min_start_goal_distance, kNonNegative);
  }
};

}  // namespace asg::json

namespace asg::client {

ASG_DEFINE_JSON(GenerateStart)
ASG_DEFINE_JSON(GenerateGoal)
ASG_DEFINE_JSON(GeneratedActorSpec)
ASG_DEFINE_JSON(GenerateSpec)

}  // namespace asg::client
