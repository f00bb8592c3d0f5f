// JSON schemas of node_messages.h, and the EgoControl mapping.
#include <algorithm>
#include <cmath>

#include "json/fields.h"
#include "protocol/frame.h"
#include "protocol/messages_json.h"
#include "protocol/node_messages.h"

namespace asg::protocol {

PhysXControl ToPhysXControl(const EgoControl& control, const VehicleParams& vehicle) {
  PhysXControl result;
  result.steering_angle = std::clamp(control.right_amount, -1.0, 1.0) * vehicle.max_steering_angle;
  const bool braking = control.brake_amount > 0.0;
  if (control.drive_mode != 0 && !braking) {
    result.longitudinal_velocity =
        control.drive_mode * std::clamp(control.forward_amount, 0.0, 1.0) * vehicle.max_speed;
  }
  result.handbrake = control.brake_amount >= 1.0;
  return result;
}

}  // namespace asg::protocol

namespace asg::json {
namespace {
const Limit kUnit = Between(0.0, 1.0);
const Limit kSigned = Between(-1.0, 1.0);
}  // namespace

template <>
struct Schema<protocol::NodeRegistration> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("worker_id", m.worker_id);
    v.Required("node_name", m.node_name);
    v.Optional("token", m.token);
  }
};

template <>
struct Schema<protocol::UnregisterVehicleNodeRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("worker_id", m.worker_id);
    v.Required("node_name", m.node_name);
  }
};

template <>
struct Schema<protocol::UnregisterVehicleNodeResponse> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("received", m.received);
  }
};

template <>
struct Schema<protocol::NodeOperatingInfo> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("worker_ids", m.info.worker_ids);
    v.Required("scenario_numbers", m.info.scenario_numbers);
    v.Required("ok_to_run", m.info.ok_to_run);
    v.Required("save_dirs", m.info.save_dirs);
    v.Required("save_minimal", m.info.save_minimal);
    v.Optional("data_endpoints", m.data_endpoints);
  }
  static void Check(const protocol::NodeOperatingInfo& m, const FieldReader& reader) {
    const size_t n = m.info.worker_ids.size();
    const auto check = [&](std::string_view key, size_t size) {
      if (size != n) {
        throw DecodeError(reader.Child(key),
                          std::to_string(size) + " values, worker_ids has " + std::to_string(n));
      }
    };
    check("scenario_numbers", m.info.scenario_numbers.size());
    check("ok_to_run", m.info.ok_to_run.size());
    check("save_dirs", m.info.save_dirs.size());
    check("save_minimal", m.info.save_minimal.size());
    if (!m.data_endpoints.empty()) check("data_endpoints", m.data_endpoints.size());
  }
};

template <>
struct Schema<protocol::SaveNodeFileRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    // Optional: the client knows both from the registration on the connection.
    v.Optional("worker_id", m.worker_id);
    v.Optional("node_name", m.node_name);
    v.Required("scenario_number", m.scenario_number);
    v.Required("relative_path", m.relative_path);
  }
};

template <>
struct Schema<protocol::SaveNodeFileResponse> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("received", m.received);
    v.Optional("path", m.path);
  }
};

template <>
struct Schema<protocol::AttachNodeRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("node_name", m.node_name);
    v.Optional("token", m.token);
  }
};

template <>
struct Schema<protocol::AttachNodeResponse> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("received", m.received);
  }
};

template <>
struct Schema<protocol::RunStartRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("scenario_number", m.scenario_number);
    v.Required("scene_description", m.scene_description);
    v.Required("vehicle_start_location", m.vehicle_start_location);
    v.Required("vehicle_start_yaw", m.vehicle_start_yaw);
    v.Required("vehicle_goal_location", m.vehicle_goal_location);
    v.Required("goal_radius", m.goal_radius, kNonNegative);
    v.Required("control_period", m.control_period, kPositive);
    v.Required("sync", m.sync);
    v.Optional("sensors", m.sensors);
    v.Optional("vehicle", m.vehicle);
    v.Optional("run", m.run);
    v.Optional("run_seed", m.run_seed);
  }
};

template <>
struct Schema<protocol::RunStartResponse> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("ready", m.ready);
  }
};

template <>
struct Schema<protocol::EgoControl> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("forward_amount", m.forward_amount, kUnit);
    v.Optional("right_amount", m.right_amount, kSigned);
    v.Optional("brake_amount", m.brake_amount, kUnit);
    v.Optional("drive_mode", m.drive_mode, Between(-1.0, 1.0));
  }
};

template <>
struct Schema<protocol::StepRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("scenario_number", m.scenario_number);
    v.Required("tick", m.tick);
    v.Required("time", m.time, kNonNegative);
    v.Required("odometry", m.odometry);
    v.Optional("readings", m.readings);
  }
};

template <>
struct Schema<protocol::RunEndMessage> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("scenario_number", m.scenario_number);
    v.Required("termination_reason", m.termination_reason);
    v.Optional("termination_reason_name", m.termination_reason_name);
    v.Required("vehicle_sim_time", m.vehicle_sim_time);
    v.Optional("preempted", m.preempted);
    v.Optional("reason", m.reason);
  }
};

template <>
struct Schema<protocol::RunPreemptedRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("worker_id", m.worker_id);
    v.Required("scenario_number", m.scenario_number);
    v.Required("reason", m.reason);
  }
};

}  // namespace asg::json

namespace asg::protocol {

ASG_DEFINE_JSON(NodeRegistration)
ASG_DEFINE_JSON(UnregisterVehicleNodeRequest)
ASG_DEFINE_JSON(UnregisterVehicleNodeResponse)
ASG_DEFINE_JSON(NodeOperatingInfo)
ASG_DEFINE_JSON(SaveNodeFileRequest)
ASG_DEFINE_JSON(SaveNodeFileResponse)
ASG_DEFINE_JSON(AttachNodeRequest)
ASG_DEFINE_JSON(AttachNodeResponse)
ASG_DEFINE_JSON(RunStartRequest)
ASG_DEFINE_JSON(RunStartResponse)
ASG_DEFINE_JSON(EgoControl)
ASG_DEFINE_JSON(StepRequest)
ASG_DEFINE_JSON(RunEndMessage)
ASG_DEFINE_JSON(RunPreemptedRequest)

// StepResponse: "control" and "ego_control" are each optional and exclusive.
void to_json(Json& j, const StepResponse& value) {
  j = Json::object();
  if (value.has_control) j["control"] = value.control;
  if (value.has_ego_control) j["ego_control"] = value.ego_control;
}

void Decode(const Json& j, const std::string& path, StepResponse* value) {
  StepResponse result;
  json::FieldReader reader(j, path);
  reader.Optional("control", result.control);
  reader.Optional("ego_control", result.ego_control);
  reader.Finish();
  result.has_control = j.contains("control");
  result.has_ego_control = j.contains("ego_control");
  if (result.has_control && result.has_ego_control) {
    throw DecodeError(path, "carries both \"control\" and \"ego_control\"; send one");
  }
  *value = std::move(result);
}

void from_json(const Json& j, StepResponse& value) { Decode(j, "", &value); }

Json DescribeJson(const StepResponse*, json::SchemaBuilder& builder) {
  const std::string name = "StepResponse";
  const Json ref = {{"$ref", "#/$defs/" + name}};
  if (!builder.Begin(name)) return ref;
  Json properties = {{"control", SchemaRef<PhysXControl>(builder)},
                     {"ego_control", SchemaRef<EgoControl>(builder)}};
  builder.Define(name, {{"type", "object"},
                        {"properties", std::move(properties)},
                        {"additionalProperties", false},
                        {"maxProperties", 1}});
  return ref;
}

Json FrameSchema(std::string_view type, Json message, const std::string& direction) {
  return {{"description", direction},
          {"type", "object"},
          {"properties",
           {{"type", {{"const", type}}},
            {"reference", {{"type", "integer"}, {"minimum", 0}}},
            {"message", std::move(message)}}},
          {"required", {"type", "reference", "message"}},
          {"additionalProperties", false}};
}

namespace {

template <class T>
Json EnvelopeOf(json::SchemaBuilder& builder, const std::string& direction,
                std::string_view type = T::kType) {
  return FrameSchema(type, SchemaRef<T>(builder), direction);
}

}  // namespace

Json NodeProtocolSchema() {
  json::SchemaBuilder builder(json::SchemaBuilder::Mode::kStrict);
  const std::string to_client = "control plane, node to client";
  const std::string to_node = "control plane, client to node";
  const std::string to_worker = "data plane, node to worker";
  const std::string from_worker = "data plane, worker to node";
  Json frames = Json::array({
      EnvelopeOf<NodeRegistration>(builder, to_client),
      EnvelopeOf<RegisterVehicleNodeResponse>(builder, to_node),
      EnvelopeOf<NodeOperatingInfo>(builder, to_node),
      EnvelopeOf<NotifyReadyRequest>(builder, to_client),
      EnvelopeOf<NotifyReadyResponse>(builder, to_node),
      EnvelopeOf<SaveNodeFileRequest>(builder, to_client),
      EnvelopeOf<SaveNodeFileResponse>(builder, to_node),
      EnvelopeOf<UnregisterVehicleNodeRequest>(builder, to_client),
      EnvelopeOf<UnregisterVehicleNodeResponse>(builder, to_node),
      EnvelopeOf<AttachNodeRequest>(builder, to_worker),
      EnvelopeOf<AttachNodeResponse>(builder, from_worker),
      EnvelopeOf<RunStartRequest>(builder, from_worker),
      EnvelopeOf<RunStartResponse>(builder, to_worker),
      EnvelopeOf<VehicleStatus>(builder, from_worker),
      EnvelopeOf<StepRequest>(builder, from_worker),
      EnvelopeOf<StepResponse>(builder, to_worker),
      EnvelopeOf<StepResponse>(builder, to_worker + " (asynchronous mode)",
                               StepResponse::kAsyncType),
      EnvelopeOf<RunEndMessage>(builder, from_worker),
  });
  frames.push_back(FrameSchema(kHeartbeatType, {{"type", "object"}, {"maxProperties", 0}},
                               "both planes, either side"));
  frames.push_back(FrameSchema(
      kErrorType,
      {{"type", "object"},
       {"properties", {{"success", {{"const", false}}}, {"description", {{"type", "string"}}}}},
       {"required", {"success", "description"}},
       {"additionalProperties", false}},
      "both planes, the reply to a request that failed"));
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"title", "ASG Farm vehicle-node protocol: the JSON of one frame"},
          {"description", "docs/vehicle-nodes.md describes every message and field."},
          {"oneOf", std::move(frames)},
          {"$defs", builder.defs()}};
}

}  // namespace asg::protocol
