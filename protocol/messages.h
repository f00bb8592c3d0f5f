// The AutoSceneGen message and service set (auto_scene_gen_msgs) as plain C++ values.
//
// Field names are exactly those of the .msg/.srv definitions; SceneCaptureSettings also accepts
// `goal_shere_color` (the spelling of AutoSceneGen's documentation page) for `goal_sphere_color`.
// float32 fields are held as double so that JSON shows the value written.
// Units: metres, seconds and degrees in the north-west-up world frame (see geometry.h); where
// the original allowed "cm or m", ASG Farm uses metres. JSON encoding and strict decoding are in
// messages_json.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/extensions.h"
#include "protocol/geometry.h"
#include "protocol/sensor_specs.h"

namespace asg::protocol {

/// The largest scenario number anywhere in the farm (RunScenario's and AnalyzeScenario's int32
/// range).
inline constexpr uint32_t kMaxScenarioNumber = 2'147'483'647;
/// The largest worker id. AutoSceneGen's worker_id is a uint8; ASG Farm widens it to uint16.
inline constexpr uint32_t kMaxWorkerId = 65'535;

// ---------------------------------------------------------------- messages (.msg)

/// LandscapeDescription.msg: a square landscape of nominal_size, subdivided into a grid.
struct LandscapeDescription {
  double nominal_size = 60.0;         ///< [m] side of the nominal square [0, nominal_size]^2, > 0
  int32_t subdivisions = 6;           ///< grid has 2^subdivisions cells per side, 0..10
  double border = 0.0;                ///< [m] approximate border around the nominal square, >= 0
  std::vector<ReliefFeature> relief;  ///< extension: height features, empty = flat at z = 0
  bool operator==(const LandscapeDescription&) const = default;
};

/// OdometryWithoutCovariance.msg: pose in header.frame_id, twist in child_frame_id.
struct OdometryWithoutCovariance {
  Header header;               ///< frame "world"
  std::string child_frame_id;  ///< the vehicle's frame name
  Pose pose;                   ///< [m] world pose of the vehicle
  Twist twist;                 ///< body-frame velocity: linear [m/s], angular [rad/s]
  bool operator==(const OdometryWithoutCovariance&) const = default;
};

/// PhysXControl.msg: the vehicle's control input.
struct PhysXControl {
  Header header;
  double longitudinal_velocity = 0.0;  ///< [m/s] target forward speed (negative = reverse)
  double steering_angle = 0.0;         ///< [deg] positive = right, clamped to the vehicle's max
  bool handbrake = false;              ///< engaged when true
  bool operator==(const PhysXControl&) const = default;
};

/// SceneCaptureSettings.msg: which images to render. Square images, 60 deg field of view.
struct SceneCaptureSettings {
  uint32_t image_size = 512;                        ///< [px] side of every image, 1..4096
  bool draw_annotations = false;                    ///< also write `_annotated` copies
  double goal_sphere_thickness = 0.5;               ///< [m] thickness of the goal ring
  ColorRGBA goal_sphere_color{1.0, 0.0, 0.0, 1.0};  ///< colour of the goal ring
  bool ortho_aerial = false;                        ///< orthographic top view, one per padding
  bool perspective_aerial = false;                  ///< perspective top view, one per padding
  std::vector<uint32_t> aerial_padding;  ///< [m] padding added to each side of the nominal square
  bool front_aerial = false;
  bool left_front_aerial = false;
  bool left_aerial = false;
  bool left_rear_aerial = false;
  bool rear_aerial = false;
  bool right_rear_aerial = false;
  bool right_aerial = false;
  bool right_front_aerial = false;
  bool vehicle_start_pov = false;          ///< view from the vehicle at its start pose
  bool vehicle_start_rear_aerial = false;  ///< third-person view behind the start pose
  bool operator==(const SceneCaptureSettings&) const = default;
};

/// StructuralSceneActorLayout.msg: every instance of one actor class; arrays have num_instances
/// elements each.
struct StructuralSceneActorLayout {
  std::string path_name;          ///< actor class, a key of the actor catalog
  uint16_t num_instances = 0;     ///< length of every array below
  std::vector<bool> visible;      ///< false removes the instance entirely
  std::vector<bool> cast_shadow;  ///< whether the instance casts a shadow
  std::vector<double> x;          ///< [m] north
  std::vector<double> y;          ///< [m] west
  std::vector<double> yaw;        ///< [deg] counter-clockwise from +x
  std::vector<double> scale;      ///< uniform mesh scale, > 0
  bool operator==(const StructuralSceneActorLayout&) const = default;
};

/// SceneDescription.msg.
struct SceneDescription {
  LandscapeDescription landscape;
  double sunlight_inclination = 30.0;  ///< [deg] sun elevation above the horizon
  double sunlight_yaw_angle = 0.0;     ///< [deg] direction the light travels (shadows point there)
  std::vector<StructuralSceneActorLayout> ssa_array;
  bool operator==(const SceneDescription&) const = default;
};

/// StatusCode.msg.
struct StatusCode {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "StatusCode";
  static constexpr uint8_t OFFLINE = 0;
  static constexpr uint8_t ONLINE_AND_READY = 1;
  static constexpr uint8_t ONLINE_AND_RUNNING = 2;
  uint8_t status = OFFLINE;
  bool operator==(const StatusCode&) const = default;
};

/// VehicleNodeOperatingInfo.msg: per-worker operating info, all arrays in worker_ids order.
struct VehicleNodeOperatingInfo {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "VehicleNodeOperatingInfo";
  std::vector<uint16_t> worker_ids;  ///< extension: up to 65535 (AutoSceneGen: uint8)
  std::vector<uint32_t> scenario_numbers;
  std::vector<bool> ok_to_run;
  std::vector<std::string> save_dirs;
  std::vector<bool> save_minimal;
  bool operator==(const VehicleNodeOperatingInfo&) const = default;
};

/// VehicleStatus.msg.
struct VehicleStatus {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "VehicleStatus";
  bool enabled = false;    ///< the vehicle is being simulated
  bool preempted = false;  ///< disabled before the run ended by itself (only when !enabled)
  bool operator==(const VehicleStatus&) const = default;
};

// ---------------------------------------------------------------- services (.srv)

/// Termination reasons of AnalyzeScenario.srv, plus ASG Farm's REASON_VEHICLE_OUT_OF_BOUNDS.
enum class TerminationReason : uint8_t {
  REASON_SUCCESS = 0,
  REASON_VEHICLE_COLLISION = 1,
  REASON_VEHICLE_FLIPPED = 2,
  REASON_SIM_TIMEOUT = 3,
  REASON_VEHICLE_IDLING_TIMEOUT = 4,
  REASON_VEHICLE_STUCK_TIMEOUT = 5,
  REASON_VEHICLE_OUT_OF_BOUNDS = 6,  ///< extension: left the landscape
};
/// The enum's name, e.g. "REASON_SUCCESS".
std::string_view TerminationReasonName(TerminationReason reason);
/// Parses a name; returns false when unknown.
bool TerminationReasonFromName(std::string_view name, TerminationReason* reason);

/// AnalyzeScenario.srv request: the outcome of one run, sent by a worker. The scene captures
/// travel as PNG files in the frame attachment: scene_captures[i] gives the length of the i-th
/// and scene_capture_names[i] its name (AutoSceneGen: sensor_msgs/Image pixels in the message).
/// num_vehicle_control_messages is counters.control_messages on the wire.
struct AnalyzeScenarioRequest {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "AnalyzeScenario";
  uint16_t worker_id = 0;                        ///< extension: up to 65535 (AutoSceneGen: uint8)
  int32_t scenario_number = 0;                   ///< 0..kMaxScenarioNumber
  bool scene_capture_only = false;               ///< the run only rendered the scene captures
  std::vector<CaptureFile> scene_captures;       ///< PNGs in the frame attachment, in order
  std::vector<std::string> scene_capture_names;  ///< one per scene_captures entry, same order
  /// Why the run ended; JSON: its number.
  TerminationReason termination_reason = TerminationReason::REASON_SUCCESS;
  std::vector<OdometryWithoutCovariance> vehicle_trajectory;  ///< one sample per control tick
  double vehicle_sim_time = 0.0;  ///< [s] last trajectory stamp minus first
  RunCounters counters;           ///< extension: counters of the run
  std::string capture_error;      ///< extension: why captures are missing; empty when none
  TrajectoryAttachment trajectory_attachment;  ///< extension: binary trajectory, see above
  RegretReport regret;  ///< extension: the run's regret against the reference agent
  bool operator==(const AnalyzeScenarioRequest&) const = default;
};
struct AnalyzeScenarioResponse {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "AnalyzeScenarioResponse";
  bool received = false;
  bool operator==(const AnalyzeScenarioResponse&) const = default;
};

/// NotifyReady.srv: a vehicle node is ready for the next scenario.
struct NotifyReadyRequest {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "NotifyReady";
  uint16_t worker_id = 0;
  std::string node_name;
  uint32_t last_scenario_number = 0;  ///< 0 before the first scenario
  bool request_rerun = false;
  std::string reason_for_rerun;
  bool operator==(const NotifyReadyRequest&) const = default;
};
struct NotifyReadyResponse {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "NotifyReadyResponse";
  bool received = false;
  bool accepted = false;  ///< the rerun request was accepted
  bool operator==(const NotifyReadyResponse&) const = default;
};

/// RegisterVehicleNode.srv.
struct RegisterVehicleNodeRequest {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "RegisterVehicleNode";
  uint16_t worker_id = 0;
  std::string node_name;
  bool operator==(const RegisterVehicleNodeRequest&) const = default;
};
struct RegisterVehicleNodeResponse {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "RegisterVehicleNodeResponse";
  bool received = false;
  bool operator==(const RegisterVehicleNodeResponse&) const = default;
};

/// RunScenario.srv request: one scenario for a worker to run.
struct RunScenarioRequest {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "RunScenario";
  int32_t scenario_number = 0;                ///< >= 1; 0 is reserved
  double sim_timeout_period = -1.0;           ///< [s] -1 disables
  double vehicle_idling_timeout_period = -1;  ///< [s] -1 disables
  double vehicle_stuck_timeout_period = -1;   ///< [s] -1 disables
  double max_vehicle_roll = 70.0;             ///< [deg]
  double max_vehicle_pitch = 70.0;            ///< [deg]
  bool allow_collisions = true;
  Point vehicle_start_location;    ///< [m] z is ignored and filled from the ground
  double vehicle_start_yaw = 0.0;  ///< [deg]
  Point vehicle_goal_location;     ///< [m] z is ignored
  double goal_radius = 5.0;        ///< [m]
  SceneDescription scene_description;
  bool take_scene_capture = false;
  bool scene_capture_only = false;  ///< build the scene, capture, do not run
  SceneCaptureSettings scene_capture_settings;

  // Extensions (optional on the wire).
  DriverSpec driver;              ///< built-in driver when no vehicle node drives
  VehicleParams vehicle;          ///< vehicle parameters
  SimulationSettings simulation;  ///< time stepping
  uint64_t seed = 0;              ///< seed for anything random in the run (sensor noise)
  RunVariation variation;         ///< which repeated run this is, and how it varies

  VehicleNodesSpec vehicle_nodes;  ///< extension: external vehicle nodes and their sensors
  /// Extension: how the run's regret is measured; absent (and not written) for the default.
  std::optional<RegretSpec> regret;

  bool operator==(const RunScenarioRequest&) const = default;
};
struct RunScenarioResponse {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "RunScenarioResponse";
  bool received = false;
  bool operator==(const RunScenarioResponse&) const = default;
};

/// WorkerIssueNotification.srv: a worker reports a problem.
struct WorkerIssueNotificationRequest {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "WorkerIssueNotification";
  static constexpr uint8_t ISSUE_ROSBRIDGE_INTERRUPTED = 0;
  static constexpr uint8_t ISSUE_PROBLEM_CREATING_SCENE = 1;
  uint16_t worker_id = 0;
  uint8_t issue_id = ISSUE_PROBLEM_CREATING_SCENE;
  std::string message;  ///< what went wrong, may be empty
  bool operator==(const WorkerIssueNotificationRequest&) const = default;
};
struct WorkerIssueNotificationResponse {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "WorkerIssueNotificationResponse";
  bool received = false;
  bool operator==(const WorkerIssueNotificationResponse&) const = default;
};

}  // namespace asg::protocol
