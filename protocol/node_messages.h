// Messages between external vehicle nodes, the client and the workers (docs/vehicle-nodes.md),
// beyond AutoSceneGen's own RegisterVehicleNode, NotifyReady and VehicleNodeOperatingInfo.
// Units: metres, seconds, degrees, north-west-up world frame; body frame x forward, y left, z up.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "json/declare.h"
#include "protocol/messages.h"
#include "protocol/sensor_specs.h"

namespace asg::protocol {

// ---------------------------------------------------------------- control plane (node <-> client)

/// RegisterVehicleNode with the credentials a client listening beyond loopback requires.
/// JSON: the fields of RegisterVehicleNodeRequest plus an optional "token".
struct NodeRegistration {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "RegisterVehicleNode";
  uint16_t worker_id = 0;
  std::string node_name;
  std::string token;  ///< shared secret; empty when the client listens on loopback only
  bool operator==(const NodeRegistration&) const = default;
};

/// UnregisterVehicleNode: a node leaves (on shutdown).
struct UnregisterVehicleNodeRequest {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "UnregisterVehicleNode";
  uint16_t worker_id = 0;
  std::string node_name;
  bool operator==(const UnregisterVehicleNodeRequest&) const = default;
};
struct UnregisterVehicleNodeResponse {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "UnregisterVehicleNodeResponse";
  bool received = false;
  bool operator==(const UnregisterVehicleNodeResponse&) const = default;
};

/// VehicleNodeOperatingInfo plus each worker's data endpoint, in worker_ids order.
struct NodeOperatingInfo {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "VehicleNodeOperatingInfo";
  VehicleNodeOperatingInfo info;
  std::vector<std::string> data_endpoints;  ///< "HOST:PORT" of each worker's data port
  bool operator==(const NodeOperatingInfo&) const = default;
};

/// SaveNodeFile: a node uploads one file of a finished scenario; the bytes are the frame's
/// attachment. relative_path is relative to DIR/scenario_NNNN/nodes/<node_name>/.
struct SaveNodeFileRequest {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "SaveNodeFile";
  uint16_t worker_id = 0;  ///< optional: 0 (absent) means the node registered on this connection
  std::string node_name;   ///< optional: "" (absent) means the node registered on this connection
  uint32_t scenario_number = 0;
  std::string relative_path;  ///< "/"-separated, no "..", not absolute
  bool operator==(const SaveNodeFileRequest&) const = default;
};
struct SaveNodeFileResponse {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "SaveNodeFileResponse";
  bool received = false;
  std::string path;  ///< where the file was written, relative to the batch output folder
  bool operator==(const SaveNodeFileResponse&) const = default;
};

// ---------------------------------------------------------------- data plane (node <-> worker)

/// AttachNode: the first request of a node on a worker's data port.
struct AttachNodeRequest {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "AttachNode";
  std::string node_name;
  std::string token;  ///< as for NodeRegistration
  bool operator==(const AttachNodeRequest&) const = default;
};
struct AttachNodeResponse {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "AttachNodeResponse";
  bool received = false;
  bool operator==(const AttachNodeResponse&) const = default;
};

/// RunStart: a run is about to begin; the node answers when it is ready.
struct RunStartRequest {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "RunStart";
  uint32_t scenario_number = 0;
  SceneDescription scene_description;
  Point vehicle_start_location;     ///< [m] z on the ground after settling
  double vehicle_start_yaw = 0.0;   ///< [deg]
  Point vehicle_goal_location;      ///< [m]
  double goal_radius = 5.0;         ///< [m]
  double control_period = 0.05;     ///< [s] between Steps
  bool sync = true;                 ///< lock-step (true) or paced to wall time (false)
  std::vector<SensorSpec> sensors;  ///< what the Steps carry
  VehicleParams vehicle;            ///< the vehicle being driven (max steering, max speed...)
  uint32_t run = 0;                 ///< which repeated run of the scenario (0: nominal)
  uint64_t run_seed = 0;            ///< a seed for the node's own randomness in this run
  bool operator==(const RunStartRequest&) const = default;
};
struct RunStartResponse {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "RunStartResponse";
  bool ready = false;
  bool operator==(const RunStartResponse&) const = default;
};

/// monoDrive-style ego control, mapped onto PhysXControl by ToPhysXControl.
struct EgoControl {
  double forward_amount = 0.0;  ///< throttle, 0..1
  double right_amount = 0.0;    ///< wheel position, -1..1, positive = right
  double brake_amount = 0.0;    ///< brake, 0..1
  int32_t drive_mode = 1;       ///< -1 reverse, 0 neutral, 1 drive
  bool operator==(const EgoControl&) const = default;
};

/// The PhysXControl an EgoControl means for a vehicle: steering = right_amount * max steering;
/// speed = drive_mode * forward_amount * max_speed, 0 in neutral or while braking; handbrake at
/// full brake.
PhysXControl ToPhysXControl(const EgoControl& control, const VehicleParams& vehicle);

/// Step: one control tick. readings are sensor headers (scene/sensor_reading.h) each with
/// "offset" and "size" [bytes] into the frame attachment.
struct StepRequest {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "Step";
  uint32_t scenario_number = 0;
  uint32_t tick = 0;  ///< 0 at the first control input
  double time = 0.0;  ///< [s] tick * control_period
  OdometryWithoutCovariance odometry;
  std::vector<Json> readings;
  bool operator==(const StepRequest&) const = default;
};

/// A node's answer to a Step (sync) or its Control message (async): at most one of the two.
struct StepResponse {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "StepResponse";
  /// Frame type of the same body sent unasked in async mode.
  static constexpr std::string_view kAsyncType = "Control";
  bool has_control = false;      ///< JSON: present iff "control" is
  PhysXControl control;          ///< JSON "control"
  bool has_ego_control = false;  ///< JSON: present iff "ego_control" is
  EgoControl ego_control;        ///< JSON "ego_control"
  bool operator==(const StepResponse&) const = default;
};

/// RunEnd: the run is over (sent after VehicleStatus {enabled: false}).
struct RunEndMessage {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "RunEnd";
  uint32_t scenario_number = 0;
  /// Why the run ended (REASON_SUCCESS when preempted); JSON: its number.
  TerminationReason termination_reason = TerminationReason::REASON_SUCCESS;
  std::string termination_reason_name;
  double vehicle_sim_time = 0.0;  ///< [s]
  bool preempted = false;
  std::string reason;  ///< why it was preempted; empty otherwise
  bool operator==(const RunEndMessage&) const = default;
};

/// RunPreempted (worker -> client): a node failed mid-run; the scenario must run again.
struct RunPreemptedRequest {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "RunPreempted";
  uint16_t worker_id = 0;
  uint32_t scenario_number = 0;
  std::string reason;
  bool operator==(const RunPreemptedRequest&) const = default;
};

ASG_DECLARE_JSON(NodeRegistration);
ASG_DECLARE_JSON(UnregisterVehicleNodeRequest);
ASG_DECLARE_JSON(UnregisterVehicleNodeResponse);
ASG_DECLARE_JSON(NodeOperatingInfo);
ASG_DECLARE_JSON(SaveNodeFileRequest);
ASG_DECLARE_JSON(SaveNodeFileResponse);
ASG_DECLARE_JSON(AttachNodeRequest);
ASG_DECLARE_JSON(AttachNodeResponse);
ASG_DECLARE_JSON(RunStartRequest);
ASG_DECLARE_JSON(RunStartResponse);
ASG_DECLARE_JSON(EgoControl);
ASG_DECLARE_JSON(StepRequest);
ASG_DECLARE_JSON(StepResponse);
ASG_DECLARE_JSON(RunEndMessage);
ASG_DECLARE_JSON(RunPreemptedRequest);

/// The JSON Schema (draft 2020-12) of the JSON part of every frame a vehicle node sends or
/// receives, on both planes: one branch per message type, with the message's definition written
/// from the decoders' field lists (json/schema.h).
Json NodeProtocolSchema();

/// One branch of a protocol's frame schema: a frame of `type` whose message is `message` (a
/// schema), sent as `direction` says (e.g. "worker to client").
Json FrameSchema(std::string_view type, Json message, const std::string& direction);

}  // namespace asg::protocol
