// The request bodies of the interactive worker's services (docs/interactive.md, one section per
// service), one plain struct each whose defaults are those of absent fields. Their fields are
// listed once, in requests.cpp, for the json/ field visitor; ReadRequest decodes a body strictly
// with the wording of worker/serve/request_reader.h. Bodies that are project messages
// (RunScenario, EgoControl, SceneCaptureSettings) are decoded by protocol/ instead.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json/json.h"

namespace asg::worker::serve {

// ---------------------------------------------------------------- geometry

/// geometry_msgs/Vector3 or Point; absent components are 0.
struct Vector3Value {
  double x = 0.0;
  double y = 0.0;
  double z = 0.0;
  Eigen::Vector3d ToEigen() const { return {x, y, z}; }
};

/// geometry_msgs/Quaternion; absent components those of the identity.
struct QuaternionValue {
  double x = 0.0;
  double y = 0.0;
  double z = 0.0;
  double w = 1.0;
  Eigen::Quaterniond ToEigen() const { return {w, x, y, z}; }
};

/// geometry_msgs/Pose, with two extensions: `yaw_deg` (a heading in degrees, as batch files
/// give it) and `snap_to_ground`.
struct PoseValue {
  Vector3Value position;                       ///< [m]
  std::optional<QuaternionValue> orientation;  ///< entity -> world
  std::optional<double> yaw_deg;  ///< [deg] a rotation about z, counter-clockwise from +x
  bool snap_to_ground = false;    ///< z is replaced by the height resting on the ground

  /// The orientation given: the quaternion, else yaw_deg's rotation about z, else the identity.
  /// Throws std::invalid_argument naming `path` (e.g. "state.pose") and both values when the
  /// two are given and differ by more than kYawTolerance.
  Eigen::Quaterniond Orientation(const std::string& path) const;
  /// [deg] how far a quaternion and yaw_deg given together may differ.
  static constexpr double kYawTolerance = 0.01;
};

/// std_msgs/Header: only "world" is a known frame; the stamp is not read.
struct HeaderValue {
  std::string frame_id;  ///< "" or "world"
  json::Json stamp;      ///< any object, ignored
};

/// geometry_msgs/Twist or Accel.
struct TwistValue {
  Vector3Value linear;   ///< [m/s] or [m/s^2]
  Vector3Value angular;  ///< [rad/s] or [rad/s^2]
};

// ---------------------------------------------------------------- simulation_interfaces

/// A body without fields (ListServices, GetSimulationState, StartSimulation, ...).
struct EmptyRequest {};

/// GetSpawnables.
struct SpawnablesRequest {
  std::vector<std::string> sources;  ///< not searched: the actor catalog is the only source
};

/// SpawnEntity's entity_resource.
struct ResourceValue {
  std::string uri;              ///< asg://actor/<name> or asg://vehicle
  std::string resource_string;  ///< not supported
};

/// SpawnEntity's initial_pose: geometry_msgs/PoseStamped.
struct StampedPoseValue {
  HeaderValue header;
  PoseValue pose;
};

/// SpawnEntity, and SpawnEntities.spawn_requests[i] (simulation_interfaces SpawnEntity.msg).
struct SpawnRequestBody {
  std::string name;
  bool allow_renaming = false;
  ResourceValue entity_resource;
  std::string uri;              ///< simulation_interfaces 1.0's place of entity_resource.uri
  std::string resource_string;  ///< 1.0's place of entity_resource.resource_string
  std::string entity_namespace;
  StampedPoseValue initial_pose;
};

/// SpawnEntities.
struct SpawnEntitiesRequest {
  std::vector<SpawnRequestBody> spawn_requests;
};

/// DeleteEntity, GetEntityState, GetEntityInfo, GetEntityBounds.
struct EntityRequest {
  std::string entity;  ///< the entity's name
};

/// EntityFilters.categories[i].
struct CategoryValue {
  uint8_t category = 0;  ///< EntityCategory
};

/// EntityFilters.tags.
struct TagsValue {
  std::vector<std::string> tags;
  int filter_mode = 0;  ///< 0 FILTER_MODE_ANY, 1 FILTER_MODE_ALL
};

/// EntityFilters.bounds.
struct BoundsValue {
  int type = 0;                      ///< 0 none, 1 box, 2 convex hull (unsupported), 3 sphere
  std::vector<Vector3Value> points;  ///< box: two corners; sphere: centre and (radius, 0, 0)
};

/// EntityFilters.
struct FiltersValue {
  std::string filter;  ///< POSIX extended regular expression on names; "" matches all
  std::vector<CategoryValue> categories;
  TagsValue tags;
  BoundsValue bounds;
};

/// GetEntities, GetEntitiesStates.
struct FilteredRequest {
  FiltersValue filters;
};

/// simulation_interfaces EntityState.
struct EntityStateValue {
  HeaderValue header;
  PoseValue pose;
  TwistValue twist;
  TwistValue acceleration;  ///< read, not settable
};

/// SetEntityState.
struct SetEntityStateRequest {
  std::string entity;
  EntityStateValue state;
  bool set_pose = false;
  bool set_twist = false;
  bool set_acceleration = false;  ///< read, not settable
};

/// ResetSimulation.
struct ResetRequest {
  int scope = 0;  ///< SCOPE_DEFAULT 0, TIME 1, STATE 2, SPAWNED 4, their sums, ALL 255
};

/// SetSimulationState's state.
struct SimulationStateValue {
  int state = 0;  ///< SimulationState 0..5
};

/// SetSimulationState.
struct SetSimulationStateRequest {
  SimulationStateValue state;
};

/// StepSimulation.
struct StepsRequest {
  uint64_t steps = 1;  ///< [1, SimulationClock::kMaxSteps]
};

/// SimulateSteps: the action's goal, and the farm's feedback rate.
struct SimulateStepsRequest {
  uint64_t steps = 1;                 ///< [1, SimulationClock::kMaxSteps]
  uint64_t feedback_every_steps = 1;  ///< feedback after every this many steps and the last
};

/// CancelSimulateSteps.
struct CancelRequest {
  int64_t goal_id = 0;  ///< the goal to cancel; 0: every running goal
};

// ---------------------------------------------------------------- RoadRunner SSE

/// RegisterClient.
struct RegisterClientRequest {
  std::string name;
};

/// SetSimulationPace. RoadRunner's is_pacer_on false means as fast as possible (pace 0).
struct PaceRequest {
  std::optional<bool> is_pacer_on;  ///< absent: the pace alone decides
  double simulation_pace = 1.0;     ///< [1] simulated s per wall s; 0 = as fast as possible
};

/// StopSimulation's RoadRunner SimulationStopCause: recorded in the diagnostic log.
struct StopCauseValue {
  std::string summary;             ///< free text
  json::Json simulation_complete;  ///< any object, null when absent
  json::Json simulation_failed;    ///< any object, null when absent
};

/// StopSimulation.
struct StopRequest {
  std::optional<StopCauseValue> cause;  ///< why the client stops the run
};

/// ToggleSimulationPaused.
struct PauseRequest {
  std::optional<bool> pause_simulation;  ///< true: pause, false: resume; absent: toggle
};

/// GetRuntimeActors.
struct RuntimeActorsQuery {
  std::vector<std::string> actor_ids;  ///< none: every entity
};

/// SetRuntimeActors.actors[i]; absent parts are left as they are.
struct ActorChangeValue {
  std::string actor_id;
  std::optional<PoseValue> pose;
  std::optional<Vector3Value> velocity;          ///< [m/s]
  std::optional<Vector3Value> angular_velocity;  ///< [rad/s]
};

/// SetRuntimeActors.
struct SetRuntimeActorsRequest {
  std::vector<ActorChangeValue> actors;
};

/// EnableCommunicationLogging.
struct EnableLoggingRequest {
  bool enable = true;
};

/// QueryCommunicationLog; absent filters match everything.
struct CommunicationQueryRequest {
  std::optional<int32_t> client_id;
  std::optional<std::string> type;   ///< a frame type
  std::optional<std::string> level;  ///< info, warning or error
};

/// QueryDiagnosticMessageLog; absent filters match everything.
struct DiagnosticQueryRequest {
  std::optional<int32_t> client_id;
  std::optional<std::string> level;  ///< info, warning or error
};

/// AddDiagnosticMessage.
struct DiagnosticRequest {
  std::string level = "info";  ///< info, warning or error
  std::string message;
};

// ---------------------------------------------------------------- monoDrive

/// ClosedLoopStepCommand_ID.
struct ClosedLoopStepRequest {
  double time_step = 0.0;  ///< [s] a positive multiple of the physics step
};

/// SampleSensorsCommand_ID.
struct SampleSensorsRequest {
  int32_t timeout = 0;  ///< [ms] not used: readings are ready at once
};

/// One profile of WeatherConfig's monoDrive form (monoDrive's weather_config): its sun's angles
/// become the farm's sun; its other fields (light, sky and cloud colours, precipitation, wind,
/// camera exposure) are read for their type and not rendered.
struct WeatherProfile {
  std::string id;                    ///< the name set_profile selects
  double sun_polar_angle = 44.586;   ///< [deg] SunPolarAngle: the sun's angle from the zenith
  double sun_azimuth_angle = 174.0;  ///< [deg] SunAzimuthAngle: clockwise seen from above
  double haze_distance = 0.0;        ///< [m] the farm's haze (monoDrive has none); 0 = default
  double unused_number = 0.0;        ///< where the numbers not rendered are read
  bool unused_flag = false;          ///< where the flags not rendered are read
  std::string unused_text;           ///< where the texts not rendered are read
  json::Json unused_object;          ///< where the colours and exposure settings are read
};

/// WeatherConfig; the defaults of the sun are set from the loaded scenario before reading. The
/// monoDrive form is set_profile with profiles; the farm's form the sun, haze and profile_id.
struct WeatherRequest {
  double sun_inclination = 30.0;  ///< [deg]
  double sun_yaw = 0.0;           ///< [deg]
  double haze_distance = 0.0;     ///< [m]
  std::string profile_id = "custom";
  std::string set_profile;  ///< monoDrive: the profile to apply; empty: the farm's form
  std::vector<WeatherProfile> profiles;  ///< monoDrive: profiles added or replaced first
};

// ---------------------------------------------------------------- the farm's own

/// LoadScenario: exactly one of request and folder.
struct LoadScenarioRequest {
  std::string folder;  ///< a scenario folder of a result
  json::Json request;  ///< a RunScenario body (an object), null when absent
};

/// GetResult.
struct GetResultRequest {
  bool include_trajectory = false;  ///< give the analysis' vehicle_trajectory too
};

/// CaptureScene.
struct CaptureSceneRequest {
  json::Json scene_capture_settings;  ///< SceneCaptureSettings (an object), null when absent
};

/// Reads `body` into `*request`: the fields it has replace those in `*request`. Throws
/// std::invalid_argument naming the field's path and the value, or json::DecodeError naming an
/// unknown field. Defined for each request type above.
template <class T>
void ReadRequest(const json::Json& body, T* request);

/// The JSON Schema of T's body, from the field list ReadRequest reads
/// (worker/serve/request_schema.h). Defined for each request type above.
template <class T>
json::Json RequestSchema();

/// `body` read over a default T.
template <class T>
T ReadRequest(const json::Json& body) {
  T request{};
  ReadRequest(body, &request);
  return request;
}

}  // namespace asg::worker::serve
