// The JSON schemas of messages.h: the fields of each message and service in declaration order,
// which are required, the ranges decoding enforces and the checks between fields. Those of
// geometry.h and extensions.h are in geometry_json.cpp and extensions_json.cpp; the visitors that
// run the lists are in json/fields.h.
#include "protocol/messages_json.h"

#include <array>
#include <string_view>
#include <type_traits>

#include "json/fields.h"
#include "protocol/autoscenegen_units.h"

namespace asg::json {
namespace {

constexpr std::array<NamedValue<uint8_t>, 3> kStatusTable{{
    {protocol::StatusCode::OFFLINE, "OFFLINE"},
    {protocol::StatusCode::ONLINE_AND_READY, "ONLINE_AND_READY"},
    {protocol::StatusCode::ONLINE_AND_RUNNING, "ONLINE_AND_RUNNING"},
}};
constexpr Codes kStatusCodes{"StatusCode", kStatusTable};

constexpr std::array<NamedValue<uint8_t>, 2> kIssueTable{{
    {protocol::WorkerIssueNotificationRequest::ISSUE_ROSBRIDGE_INTERRUPTED,
     "ISSUE_ROSBRIDGE_INTERRUPTED"},
    {protocol::WorkerIssueNotificationRequest::ISSUE_PROBLEM_CREATING_SCENE,
     "ISSUE_PROBLEM_CREATING_SCENE"},
}};
constexpr Codes kIssueCodes{"issue_id", kIssueTable};

// Every protocol::TerminationReason with a name, so the table follows the enum in messages.cpp.
const Codes& TerminationReasonCodes() {
  static const std::vector<NamedValue<uint8_t>> table = [] {
    std::vector<NamedValue<uint8_t>> known;
    for (int value = 0; value <= 255; ++value) {
      const auto code = static_cast<uint8_t>(value);
      const std::string_view name =
          protocol::TerminationReasonName(static_cast<protocol::TerminationReason>(code));
      if (name != "REASON_UNKNOWN") known.push_back({code, name});
    }
    return known;
  }();
  static const Codes codes{"termination reason", table};
  return codes;
}

// Throws unless every array in `arrays` has `expected` elements; `what` says where that count
// comes from, e.g. "num_instances is 4".
void CheckLengths(const FieldReader& reader, size_t expected, const std::string& what,
                  std::initializer_list<std::pair<std::string_view, size_t>> arrays) {
  for (const auto& [key, size] : arrays) {
    if (size != expected) {
      throw DecodeError(reader.Child(key), std::to_string(size) + " values, " + what);
    }
  }
}

// SceneCaptureSettings' goal colour: `goal_sphere_color`, or `goal_shere_color` (the spelling of
// AutoSceneGen's documentation page) when decoding, never both. Written as goal_sphere_color.
template <class V, class Color>
void GoalSphereColor(V& v, Color& color) {
  constexpr std::string_view kKey = "goal_sphere_color";
  constexpr std::string_view kPageSpelling = "goal_shere_color";
  if constexpr (std::is_same_v<V, FieldReader>) {
    if (v.Has(kPageSpelling)) {
      if (v.Has(kKey)) {
        throw DecodeError(v.path(),
                          "both goal_sphere_color and goal_shere_color are given; "
                          "they name the same field, give one");
      }
      v.Required(kPageSpelling, color);
      return;
    }
  }
  v.Required(kKey, color);
}

}  // namespace

// ---------------------------------------------------------------- messages (.msg)

template <>
struct Schema<protocol::LandscapeDescription> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("nominal_size", m.nominal_size, kPositive);
    v.Required("subdivisions", m.subdivisions, Between(0, 10));
    v.Optional("border", m.border, kNonNegative);  // optional in the specification
    v.Optional("relief", m.relief);
  }
};

template <>
struct Schema<protocol::OdometryWithoutCovariance> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("header", m.header);
    v.Required("child_frame_id", m.child_frame_id);
    v.Required("pose", m.pose);
    v.Required("twist", m.twist);
  }
};

template <>
struct Schema<protocol::PhysXControl> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("header", m.header);  // a node may leave it out: the worker applies it at its tick
    v.Required("longitudinal_velocity", m.longitudinal_velocity);
    v.Required("steering_angle", m.steering_angle);
    v.Required("handbrake", m.handbrake);
  }
};

template <>
struct Schema<protocol::SceneCaptureSettings> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("image_size", m.image_size, Between(1.0, 4096.0));
    v.Required("draw_annotations", m.draw_annotations);
    v.Required("goal_sphere_thickness", m.goal_sphere_thickness);
    GoalSphereColor(v, m.goal_sphere_color);
    v.Required("ortho_aerial", m.ortho_aerial);
    v.Required("perspective_aerial", m.perspective_aerial);
    v.Required("aerial_padding", m.aerial_padding);
    v.Required("front_aerial", m.front_aerial);
    v.Required("left_front_aerial", m.left_front_aerial);
    v.Required("left_aerial", m.left_aerial);
    v.Required("left_rear_aerial", m.left_rear_aerial);
    v.Required("rear_aerial", m.rear_aerial);
    v.Required("right_rear_aerial", m.right_rear_aerial);
    v.Required("right_aerial", m.right_aerial);
    v.Required("right_front_aerial", m.right_front_aerial);
    v.Required("vehicle_start_pov", m.vehicle_start_pov);
    v.Required("vehicle_start_rear_aerial", m.vehicle_start_rear_aerial);
  }
};

template <>
struct Schema<protocol::StructuralSceneActorLayout> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("path_name", m.path_name);
    v.Required("num_instances", m.num_instances);
    v.Required("visible", m.visible);
    v.Required("cast_shadow", m.cast_shadow);
    v.Required("x", m.x);
    v.Required("y", m.y);
    v.Required("yaw", m.yaw);
    v.Required("scale", m.scale, kPositive);
  }
  static void Check(const protocol::StructuralSceneActorLayout& m, const FieldReader& reader) {
    CheckLengths(reader, m.num_instances, "num_instances is " + std::to_string(m.num_instances),
                 {{"visible", m.visible.size()},
                  {"cast_shadow", m.cast_shadow.size()},
                  {"x", m.x.size()},
                  {"y", m.y.size()},
                  {"yaw", m.yaw.size()},
                  {"scale", m.scale.size()}});
  }
};

template <>
struct Schema<protocol::SceneDescription> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("landscape", m.landscape);
    v.Required("sunlight_inclination", m.sunlight_inclination);
    v.Required("sunlight_yaw_angle", m.sunlight_yaw_angle);
    v.Required("ssa_array", m.ssa_array);
  }
};

template <>
struct Schema<protocol::StatusCode> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("status", m.status, kStatusCodes);
  }
};

template <>
struct Schema<protocol::VehicleNodeOperatingInfo> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("worker_ids", m.worker_ids);
    v.Required("scenario_numbers", m.scenario_numbers);
    v.Required("ok_to_run", m.ok_to_run);
    v.Required("save_dirs", m.save_dirs);
    v.Required("save_minimal", m.save_minimal);
  }
  static void Check(const protocol::VehicleNodeOperatingInfo& m, const FieldReader& reader) {
    CheckLengths(reader, m.worker_ids.size(),
                 "worker_ids has " + std::to_string(m.worker_ids.size()),
                 {{"scenario_numbers", m.scenario_numbers.size()},
                  {"ok_to_run", m.ok_to_run.size()},
                  {"save_dirs", m.save_dirs.size()},
                  {"save_minimal", m.save_minimal.size()}});
  }
};

template <>
struct Schema<protocol::VehicleStatus> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("enabled", m.enabled);
    v.Required("preempted", m.preempted);
  }
};

// ---------------------------------------------------------------- services (.srv)

template <>
struct Schema<protocol::AnalyzeScenarioRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("worker_id", m.worker_id);
    v.Required("scenario_number", m.scenario_number, kNonNegative);
    v.Optional("scene_capture_only", m.scene_capture_only);
    v.Optional("scene_captures", m.scene_captures);
    v.Optional("scene_capture_names", m.scene_capture_names);
    v.Required("termination_reason", m.termination_reason, TerminationReasonCodes());
    v.Required("vehicle_trajectory", m.vehicle_trajectory);
    v.Required("vehicle_sim_time", m.vehicle_sim_time);
    ControlMessages(v, m);
    v.Optional("capture_error", m.capture_error);
    v.Optional("trajectory_attachment", m.trajectory_attachment);
    v.Optional("regret", m.regret);
  }
  static void Check(const protocol::AnalyzeScenarioRequest& m, const FieldReader& reader) {
    CheckLengths(reader, m.scene_captures.size(),
                 "scene_captures has " + std::to_string(m.scene_captures.size()),
                 {{"scene_capture_names", m.scene_capture_names.size()}});
  }

 private:
  // num_vehicle_control_messages is counters.control_messages: written from it; read into it
  // when given (counters, an extension, may be left out), and then the two must agree.
  template <class V, class M>
  static void ControlMessages(V& v, M& m) {
    constexpr std::string_view kKey = "num_vehicle_control_messages";
    int32_t count = static_cast<int32_t>(m.counters.control_messages);
    v.Optional(kKey, count, kNonNegative);
    v.Optional("counters", m.counters);
    if constexpr (std::is_same_v<V, FieldReader>) {
      if (!v.Has(kKey)) return;
      const auto counted = static_cast<uint32_t>(count);
      if (v.Has("counters") && m.counters.control_messages != counted) {
        throw DecodeError(v.Child(kKey), std::to_string(count) +
                                             ", but counters.control_messages is " +
                                             std::to_string(m.counters.control_messages));
      }
      m.counters.control_messages = counted;
    }
  }
};

template <>
struct Schema<protocol::AnalyzeScenarioResponse> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("received", m.received);
  }
};

template <>
struct Schema<protocol::NotifyReadyRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("worker_id", m.worker_id);
    v.Required("node_name", m.node_name);
    v.Required("last_scenario_number", m.last_scenario_number);
    v.Required("request_rerun", m.request_rerun);
    v.Required("reason_for_rerun", m.reason_for_rerun);
  }
};

template <>
struct Schema<protocol::NotifyReadyResponse> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("received", m.received);
    v.Required("accepted", m.accepted);
  }
};

template <>
struct Schema<protocol::RegisterVehicleNodeRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("worker_id", m.worker_id);
    v.Required("node_name", m.node_name);
  }
};

template <>
struct Schema<protocol::RegisterVehicleNodeResponse> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("received", m.received);
  }
};

template <>
struct Schema<protocol::RunScenarioRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("scenario_number", m.scenario_number);
    v.Required("sim_timeout_period", m.sim_timeout_period);
    v.Required("vehicle_idling_timeout_period", m.vehicle_idling_timeout_period);
    v.Required("vehicle_stuck_timeout_period", m.vehicle_stuck_timeout_period);
    v.Required("max_vehicle_roll", m.max_vehicle_roll);
    v.Required("max_vehicle_pitch", m.max_vehicle_pitch);
    v.Required("allow_collisions", m.allow_collisions);
    v.Required("vehicle_start_location", m.vehicle_start_location);
    v.Required("vehicle_start_yaw", m.vehicle_start_yaw);
    v.Required("vehicle_goal_location", m.vehicle_goal_location);
    v.Required("goal_radius", m.goal_radius, kNonNegative);
    v.Required("scene_description", m.scene_description);
    v.Required("take_scene_capture", m.take_scene_capture);
    v.Required("scene_capture_only", m.scene_capture_only);
    v.Required("scene_capture_settings", m.scene_capture_settings);
    v.Optional("driver", m.driver);
    v.Optional("vehicle", m.vehicle);
    v.Optional("simulation", m.simulation);
    v.Optional("seed", m.seed);
    v.Optional("variation", m.variation);
    v.Optional("vehicle_nodes", m.vehicle_nodes);
    v.Optional("regret", m.regret);
  }
};

template <>
struct Schema<protocol::RunScenarioResponse> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("received", m.received);
  }
};

template <>
struct Schema<protocol::WorkerIssueNotificationRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("worker_id", m.worker_id);
    v.Required("issue_id", m.issue_id, kIssueCodes);
    v.Required("message", m.message);
  }
};

template <>
struct Schema<protocol::WorkerIssueNotificationResponse> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("received", m.received);
  }
};

}  // namespace asg::json

namespace asg::protocol {

ASG_DEFINE_JSON(LandscapeDescription)
ASG_DEFINE_JSON(OdometryWithoutCovariance)
ASG_DEFINE_JSON(PhysXControl)
ASG_DEFINE_JSON(SceneCaptureSettings)
ASG_DEFINE_JSON(StructuralSceneActorLayout)
ASG_DEFINE_JSON(SceneDescription)
ASG_DEFINE_JSON(StatusCode)
ASG_DEFINE_JSON(VehicleNodeOperatingInfo)
ASG_DEFINE_JSON(VehicleStatus)
ASG_DEFINE_JSON(AnalyzeScenarioRequest)
ASG_DEFINE_JSON(AnalyzeScenarioResponse)
ASG_DEFINE_JSON(NotifyReadyRequest)
ASG_DEFINE_JSON(NotifyReadyResponse)
ASG_DEFINE_JSON(RegisterVehicleNodeRequest)
ASG_DEFINE_JSON(RegisterVehicleNodeResponse)
ASG_DEFINE_JSON(RunScenarioResponse)
ASG_DEFINE_JSON(WorkerIssueNotificationRequest)
ASG_DEFINE_JSON(WorkerIssueNotificationResponse)

// A RunScenario request written in AutoSceneGen's units ("units": "autoscenegen") is converted
// to the farm's, without its "units", before the strict decoding (autoscenegen_units.h).
void to_json(Json& j, const RunScenarioRequest& value) { json::EncodeFields(j, value); }
void Decode(const Json& j, const std::string& path, RunScenarioRequest* value) {
  if (!j.is_object() || !HasAutoSceneGenUnits(j, path)) {
    json::DecodeFields(j, path, value);
    return;
  }
  Json converted = j;
  converted.erase(std::string(kUnitsKey));
  ConvertAutoSceneGenUnits(&converted);
  json::DecodeFields(converted, path, value);
}
void from_json(const Json& j, RunScenarioRequest& value) { Decode(j, "", &value); }
Json DescribeJson(const RunScenarioRequest*, json::SchemaBuilder& builder) {
  return json::DescribeFields<RunScenarioRequest>("RunScenarioRequest", builder);
}

void SpellGoalSphereColor(Json* j) {
  if (j->is_array()) {
    for (Json& element : *j) SpellGoalSphereColor(&element);
    return;
  }
  if (!j->is_object()) return;
  for (auto& [key, value] : j->items()) {
    if (key == "scene_capture_settings" && value.is_object() &&
        value.contains("goal_shere_color") && !value.contains("goal_sphere_color")) {
      value["goal_sphere_color"] = std::move(value["goal_shere_color"]);
      value.erase("goal_shere_color");
    }
    SpellGoalSphereColor(&value);
  }
}

}  // namespace asg::protocol
