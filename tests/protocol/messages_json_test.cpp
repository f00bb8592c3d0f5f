// Tests for protocol/messages_json.h: encoding, round trips and defaults of every message.
#include "protocol/messages_json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "tests/protocol/message_samples.h"

namespace asg::protocol {
namespace {

using testing::Sample;

// The wire names of each message's fields, in declaration order, as the specification spells
// them. A renamed struct member must not silently rename a wire field.
template <class T>
std::vector<std::string> WireKeys();

#define ASG_WIRE_KEYS(T, ...)              \
  template <>                              \
  std::vector<std::string> WireKeys<T>() { \
    return {__VA_ARGS__};                  \
  }

ASG_WIRE_KEYS(Time, "sec", "nanosec")
ASG_WIRE_KEYS(Header, "stamp", "frame_id")
ASG_WIRE_KEYS(ColorRGBA, "r", "g", "b", "a")
ASG_WIRE_KEYS(Point, "x", "y", "z")
ASG_WIRE_KEYS(Vector3, "x", "y", "z")
ASG_WIRE_KEYS(Quaternion, "x", "y", "z", "w")
ASG_WIRE_KEYS(Pose, "position", "orientation")
ASG_WIRE_KEYS(Twist, "linear", "angular")
ASG_WIRE_KEYS(ReliefFeature, "type", "height", "x0", "y0", "x1", "y1", "width")  // the ramp sample
ASG_WIRE_KEYS(ScriptedCommand, "t", "longitudinal_velocity", "steering_angle", "handbrake")
ASG_WIRE_KEYS(DriverSpec, "type", "speed", "sensor_range", "sensor_fov", "grid_resolution",
              "inflation_radius", "lookahead", "replan_period")  // the planner sample
ASG_WIRE_KEYS(VehicleParams, "mass", "length", "width", "body_height", "wheelbase", "track_width",
              "wheel_radius", "wheel_width", "suspension_rest_length", "suspension_stiffness",
              "suspension_damping", "suspension_compression", "friction_slip", "roll_influence",
              "center_of_mass_height", "max_steering_angle", "max_speed", "max_engine_force",
              "max_brake_force", "speed_kp", "speed_kd", "steering_rate")
ASG_WIRE_KEYS(SimulationSettings, "physics_rate", "control_rate")
ASG_WIRE_KEYS(CaptureFile, "size")
ASG_WIRE_KEYS(TrajectoryAttachment, "offset", "count", "frame_id", "child_frame_id")
ASG_WIRE_KEYS(FirstContact, "t", "x", "y", "actor_index")
ASG_WIRE_KEYS(RunCounters, "control_messages", "collisions_touched", "max_abs_roll",
              "max_abs_pitch", "distance_travelled", "settle_time", "physics_steps",
              "first_contact", "node_channel")
ASG_WIRE_KEYS(LandscapeDescription, "nominal_size", "subdivisions", "border", "relief")
ASG_WIRE_KEYS(OdometryWithoutCovariance, "header", "child_frame_id", "pose", "twist")
ASG_WIRE_KEYS(PhysXControl, "header", "longitudinal_velocity", "steering_angle", "handbrake")
ASG_WIRE_KEYS(SceneCaptureSettings, "image_size", "draw_annotations", "goal_sphere_thickness",
              "goal_sphere_color", "ortho_aerial", "perspective_aerial", "aerial_padding",
              "front_aerial", "left_front_aerial", "left_aerial", "left_rear_aerial", "rear_aerial",
              "right_rear_aerial", "right_aerial", "right_front_aerial", "vehicle_start_pov",
              "vehicle_start_rear_aerial")
ASG_WIRE_KEYS(StructuralSceneActorLayout, "path_name", "num_instances", "visible", "cast_shadow",
              "x", "y", "yaw", "scale")
ASG_WIRE_KEYS(SceneDescription, "landscape", "sunlight_inclination", "sunlight_yaw_angle",
              "ssa_array")
ASG_WIRE_KEYS(StatusCode, "status")
ASG_WIRE_KEYS(VehicleNodeOperatingInfo, "worker_ids", "scenario_numbers", "ok_to_run", "save_dirs",
              "save_minimal")
ASG_WIRE_KEYS(VehicleStatus, "enabled", "preempted")
ASG_WIRE_KEYS(AnalyzeScenarioRequest, "worker_id", "scenario_number", "scene_capture_only",
              "scene_captures", "scene_capture_names", "termination_reason", "vehicle_trajectory",
              "vehicle_sim_time", "num_vehicle_control_messages", "counters", "capture_error",
              "trajectory_attachment", "regret")
ASG_WIRE_KEYS(RegretReport, "computed", "regret", "cost_term", "time_term", "cost_position_term",
              "time_position_term", "cost", "time", "cost_opt", "time_opt", "reference_length",
              "reference_clearance", "reference_path")
ASG_WIRE_KEYS(AnalyzeScenarioResponse, "received")
ASG_WIRE_KEYS(NotifyReadyRequest, "worker_id", "node_name", "last_scenario_number", "request_rerun",
              "reason_for_rerun")
ASG_WIRE_KEYS(NotifyReadyResponse, "received", "accepted")
ASG_WIRE_KEYS(RegisterVehicleNodeRequest, "worker_id", "node_name")
ASG_WIRE_KEYS(RegisterVehicleNodeResponse, "received")
ASG_WIRE_KEYS(RunScenarioRequest, "scenario_number", "sim_timeout_period",
              "vehicle_idling_timeout_period", "vehicle_stuck_timeout_period", "max_vehicle_roll",
              "max_vehicle_pitch", "allow_collisions", "vehicle_start_location",
              "vehicle_start_yaw", "vehicle_goal_location", "goal_radius", "scene_description",
              "take_scene_capture", "scene_capture_only", "scene_capture_settings", "driver",
              "vehicle", "simulation", "seed", "variation", "vehicle_nodes", "regret")
ASG_WIRE_KEYS(RunScenarioResponse, "received")
ASG_WIRE_KEYS(WorkerIssueNotificationRequest, "worker_id", "issue_id", "message")
ASG_WIRE_KEYS(WorkerIssueNotificationResponse, "received")

#undef ASG_WIRE_KEYS

template <class T>
class EveryMessage : public ::testing::Test {};

using AllMessages = ::testing::Types<
    Time, Header, ColorRGBA, Point, Vector3, Quaternion, Pose, Twist, ReliefFeature,
    ScriptedCommand, DriverSpec, VehicleParams, SimulationSettings, FirstContact, RunCounters,
    RegretReport, CaptureFile, TrajectoryAttachment, LandscapeDescription,
    OdometryWithoutCovariance, PhysXControl, SceneCaptureSettings, StructuralSceneActorLayout,
    SceneDescription, StatusCode, VehicleNodeOperatingInfo, VehicleStatus, AnalyzeScenarioRequest,
    AnalyzeScenarioResponse, NotifyReadyRequest, NotifyReadyResponse, RegisterVehicleNodeRequest,
    RegisterVehicleNodeResponse, RunScenarioRequest, RunScenarioResponse,
    WorkerIssueNotificationRequest, WorkerIssueNotificationResponse>;
TYPED_TEST_SUITE(EveryMessage, AllMessages);

TYPED_TEST(EveryMessage, SampleDiffersFromDefault) {
  // Otherwise the round trips below would also pass for a codec that drops every field.
  EXPECT_FALSE(Sample<TypeParam>() == TypeParam{});
}

TYPED_TEST(EveryMessage, WritesExactlyTheSpecifiedKeysInDeclarationOrder) {
  const Json j = Sample<TypeParam>();
  ASSERT_TRUE(j.is_object());
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  EXPECT_EQ(keys, WireKeys<TypeParam>());
  // The text as a person reads it: the first field first.
  const std::string text = j.dump();
  EXPECT_TRUE(text.starts_with("{\"" + WireKeys<TypeParam>().front() + "\"")) << text;
}

TYPED_TEST(EveryMessage, RoundTripsThroughJson) {
  const TypeParam sample = Sample<TypeParam>();
  const Json j = sample;
  EXPECT_EQ(DecodeMessage<TypeParam>(j), sample) << j.dump();
  EXPECT_EQ(j.get<TypeParam>(), sample);  // nlohmann's from_json hook
}

TYPED_TEST(EveryMessage, RoundTripsThroughText) {
  const TypeParam sample = Sample<TypeParam>();
  const std::string text = Json(sample).dump();
  EXPECT_EQ(ParseMessage<TypeParam>(text), sample) << text;
}

TYPED_TEST(EveryMessage, EncodingIsDeterministic) {
  EXPECT_EQ(Json(Sample<TypeParam>()).dump(), Json(Sample<TypeParam>()).dump());
}

TYPED_TEST(EveryMessage, DefaultRoundTrips) {
  const TypeParam value{};
  if constexpr (std::is_same_v<TypeParam, ReliefFeature>) {
    // The one exception: a default feature is a hill of radius 0, which is not a valid feature.
    EXPECT_THROW(DecodeMessage<TypeParam>(Json(value)), DecodeError);
  } else {
    EXPECT_EQ(DecodeMessage<TypeParam>(Json(value)), value);
  }
}

TEST(MessagesJson, WritesFieldValuesUnderTheirNames) {
  const Json j = Sample<RunScenarioRequest>();
  EXPECT_EQ(j["scenario_number"], 42);
  EXPECT_EQ(j["vehicle_start_location"], Json::parse(R"({"x": 10.0, "y": 10.0, "z": 0.0})"));
  EXPECT_EQ(j["scene_capture_settings"]["goal_sphere_color"],
            Json::parse(R"({"r": 0.0, "g": 1.0, "b": 0.0, "a": 0.5})"));
  EXPECT_FALSE(j["scene_capture_settings"].contains("goal_shere_color"));
  EXPECT_EQ(j["scene_description"]["ssa_array"][0]["visible"], Json::parse("[true, false, true]"));
  EXPECT_EQ(j["driver"]["type"], "scripted");
  EXPECT_EQ(j["seed"].get<uint64_t>(), std::numeric_limits<uint64_t>::max());
  EXPECT_TRUE(j["seed"].is_number_unsigned());
}

TEST(MessagesJson, AnalyzeScenarioCarriesTheServiceFieldsUnderTheirNames) {
  const Json j = Sample<AnalyzeScenarioRequest>();
  EXPECT_EQ(j["scenario_number"], 65535);
  EXPECT_EQ(j["scene_capture_only"], true);
  EXPECT_EQ(j["scene_captures"], Json::parse(R"([{"size": 123456}, {"size": 77}])"));
  EXPECT_EQ(j["scene_capture_names"],
            Json::parse(R"(["ortho_aerial_pad0_annotated", "perspective_vehicle_start_pov"])"));
  EXPECT_EQ(j["num_vehicle_control_messages"], Sample<RunCounters>().control_messages);
  EXPECT_FALSE(j.contains("captures"));
}

TEST(MessagesJson, AnalyzeScenarioAsTheServiceDefinesItDecodesWithoutTheExtensions) {
  const auto analysis = ParseMessage<AnalyzeScenarioRequest>(R"({
    "worker_id": 2, "scenario_number": 9, "scene_capture_only": false,
    "scene_captures": [], "scene_capture_names": [], "termination_reason": 3,
    "vehicle_trajectory": [], "vehicle_sim_time": 12.5, "num_vehicle_control_messages": 250})");
  EXPECT_EQ(analysis.scenario_number, 9);
  EXPECT_EQ(analysis.termination_reason, TerminationReason::REASON_SIM_TIMEOUT);
  EXPECT_EQ(analysis.counters.control_messages, 250u);
}

TEST(MessagesJson, CountersWithoutAContactHaveNoFirstContact) {
  // A run that touched nothing writes the counters it wrote before contacts were recorded.
  EXPECT_FALSE(Json(RunCounters{}).contains("first_contact"));
  EXPECT_EQ(Json(Sample<RunCounters>())["first_contact"],
            Json::parse(R"({"t": 3.35, "x": 21.5, "y": 18.25, "actor_index": 4})"));
}

TEST(MessagesJson, ARequestWritesItsRegretSettingOnlyWhenGiven) {
  // A request of the default formula is written as before the setting existed.
  EXPECT_FALSE(Json(RunScenarioRequest{}).contains("regret"));
  const Json j = Sample<RunScenarioRequest>();
  EXPECT_EQ(j["regret"], Json::parse(R"({"failure_time": "end_of_run"})"));
  EXPECT_EQ(DecodeMessage<RunScenarioRequest>(j).regret->failure_time,
            regret::FailureTime::kEndOfRun);
  Json moment = j;
  moment["regret"]["failure_time"] = "failure_moment";
  EXPECT_EQ(DecodeMessage<RunScenarioRequest>(moment).regret->failure_time,
            regret::FailureTime::kFailureMoment);
}

TEST(MessagesJson, WritesCodesAsNumbers) {
  EXPECT_EQ(Json(Sample<AnalyzeScenarioRequest>())["termination_reason"], 6);
  EXPECT_EQ(Json(Sample<StatusCode>()), Json::parse(R"({"status": 2})"));
  EXPECT_EQ(Json(Sample<WorkerIssueNotificationRequest>())["issue_id"], 0);
}

TEST(MessagesJson, ReliefFeatureWritesOnlyTheFieldsOfItsType) {
  ReliefFeature hill;
  hill.x = 1;
  hill.y = 2;
  hill.radius = 3;
  hill.height = 4;
  EXPECT_EQ(Json(hill),
            Json::parse(R"({"type": "hill", "x": 1.0, "y": 2.0, "radius": 3.0, "height": 4.0})"));

  ReliefFeature noise;
  noise.type = ReliefFeature::Type::kNoise;
  noise.amplitude = 0.5;
  noise.wavelength = 10;
  EXPECT_EQ(Json(noise), Json::parse(R"({"type": "noise", "amplitude": 0.5, "wavelength": 10.0,
                                         "octaves": 1, "seed": 0})"));
}

TEST(MessagesJson, DriverSpecWritesOnlyTheFieldsOfItsType) {
  DriverSpec idle;
  idle.type = DriverSpec::Type::kIdle;
  EXPECT_EQ(Json(idle), Json::parse(R"({"type": "idle"})"));

  DriverSpec straight;
  straight.type = DriverSpec::Type::kStraight;
  straight.speed = 3;
  EXPECT_EQ(Json(straight), Json::parse(R"({"type": "straight", "speed": 3.0})"));

  DriverSpec scripted;
  scripted.type = DriverSpec::Type::kScripted;
  scripted.commands = {ScriptedCommand{0.5, 2, -10, false}};
  EXPECT_EQ(Json(scripted), Json::parse(R"({"type": "scripted", "commands": [
      {"t": 0.5, "longitudinal_velocity": 2.0, "steering_angle": -10.0, "handbrake": false}]})"));
}

TEST(MessagesJson, DriverTypeNameIsTheTypeWrittenInTheJson) {
  for (const DriverSpec::Type type : {DriverSpec::Type::kPlanner, DriverSpec::Type::kStraight,
                                      DriverSpec::Type::kIdle, DriverSpec::Type::kScripted}) {
    DriverSpec driver;
    driver.type = type;
    EXPECT_EQ(DriverTypeName(type), Json(driver)["type"].get<std::string>());
  }
  EXPECT_EQ(DriverTypeName(DriverSpec::Type::kPlanner), "planner");
}

TEST(MessagesJson, DecodesHandWrittenRequestWithDefaultsForOptionalFields) {
  // Only the fields the specification requires: no border, no extensions.
  const auto request = ParseMessage<RunScenarioRequest>(R"({
    "scenario_number": 7,
    "sim_timeout_period": 17, "vehicle_idling_timeout_period": 5,
    "vehicle_stuck_timeout_period": 5,
    "max_vehicle_roll": 70, "max_vehicle_pitch": 70, "allow_collisions": true,
    "vehicle_start_location": {"x": 10, "y": 10, "z": 0}, "vehicle_start_yaw": 45,
    "vehicle_goal_location": {"x": 50, "y": 50, "z": 0}, "goal_radius": 5,
    "scene_description": {
      "landscape": {"nominal_size": 60, "subdivisions": 6},
      "sunlight_inclination": 30, "sunlight_yaw_angle": 0,
      "ssa_array": [{"path_name": "juniper_tree", "num_instances": 2,
                     "visible": [true, true], "cast_shadow": [true, false],
                     "x": [20, 30.5], "y": [25, 40], "yaw": [0, 90], "scale": [1, 1.5]}]
    },
    "take_scene_capture": false, "scene_capture_only": false,
    "scene_capture_settings": {
      "image_size": 512, "draw_annotations": false, "goal_sphere_thickness": 0.5,
      "goal_sphere_color": {"r": 1, "g": 0, "b": 0.25, "a": 1},
      "ortho_aerial": true, "perspective_aerial": false, "aerial_padding": [0, 20],
      "front_aerial": false, "left_front_aerial": false, "left_aerial": false,
      "left_rear_aerial": false, "rear_aerial": false, "right_rear_aerial": false,
      "right_aerial": false, "right_front_aerial": false,
      "vehicle_start_pov": false, "vehicle_start_rear_aerial": false
    }
  })");
  EXPECT_EQ(request.scenario_number, 7);
  EXPECT_DOUBLE_EQ(request.sim_timeout_period, 17.0);
  EXPECT_DOUBLE_EQ(request.vehicle_goal_location.y, 50.0);
  EXPECT_EQ(request.scene_description.landscape.subdivisions, 6);
  EXPECT_DOUBLE_EQ(request.scene_description.landscape.border, 0.0);
  EXPECT_TRUE(request.scene_description.landscape.relief.empty());
  ASSERT_EQ(request.scene_description.ssa_array.size(), 1u);
  const auto& trees = request.scene_description.ssa_array[0];
  EXPECT_EQ(trees.num_instances, 2);
  EXPECT_EQ(trees.cast_shadow, (std::vector<bool>{true, false}));
  EXPECT_DOUBLE_EQ(trees.x[1], 30.5);
  EXPECT_EQ(request.scene_capture_settings.aerial_padding, (std::vector<uint32_t>{0, 20}));
  EXPECT_EQ(request.scene_capture_settings.goal_sphere_color, (ColorRGBA{1, 0, 0.25, 1}));
  EXPECT_EQ(request.driver, DriverSpec{});
  EXPECT_EQ(request.vehicle, VehicleParams{});
  EXPECT_EQ(request.simulation, SimulationSettings{});
  EXPECT_EQ(request.seed, 0u);
  EXPECT_EQ(request.vehicle_nodes, VehicleNodesSpec{});
}

TEST(MessagesJson, GoalShereColorIsAnotherNameOfGoalSphereColor) {
  const SceneCaptureSettings settings = Sample<SceneCaptureSettings>();
  Json j = Json(settings);
  j["goal_shere_color"] = j["goal_sphere_color"];
  j.erase("goal_sphere_color");
  EXPECT_EQ(DecodeMessage<SceneCaptureSettings>(j), settings);
  EXPECT_TRUE(Json(DecodeMessage<SceneCaptureSettings>(j)).contains("goal_sphere_color"));
}

TEST(MessagesJson, ExtensionObjectsOverrideOnlyTheFieldsGiven) {
  VehicleParams expected;
  expected.mass = 1200;
  expected.max_speed = 8;
  EXPECT_EQ(DecodeMessage<VehicleParams>(Json::parse(R"({"mass": 1200, "max_speed": 8})")),
            expected);

  DriverSpec planner;  // a driver without "type" is the planner
  planner.lookahead = 7;
  EXPECT_EQ(DecodeMessage<DriverSpec>(Json::parse(R"({"lookahead": 7})")), planner);

  ScriptedCommand command;
  command.t = 2;
  EXPECT_EQ(DecodeMessage<ScriptedCommand>(Json::parse(R"({"t": 2})")), command);

  ReliefFeature noise;
  noise.type = ReliefFeature::Type::kNoise;
  noise.amplitude = 1;
  noise.wavelength = 5;
  EXPECT_EQ(DecodeMessage<ReliefFeature>(
                Json::parse(R"({"type": "noise", "amplitude": 1, "wavelength": 5})")),
            noise);

  AnalyzeScenarioRequest analyze;
  analyze.scenario_number = 4;
  EXPECT_EQ(DecodeMessage<AnalyzeScenarioRequest>(Json::parse(R"({"worker_id": 0,
      "scenario_number": 4, "termination_reason": 0, "vehicle_trajectory": [],
      "vehicle_sim_time": 0})")),
            analyze);
}

TEST(MessagesJson, AcceptsIntegralFloatsForIntegerFields) {
  const auto landscape = DecodeMessage<LandscapeDescription>(
      Json::parse(R"({"nominal_size": 60, "subdivisions": 6.0})"));
  EXPECT_EQ(landscape.subdivisions, 6);
  const auto time = DecodeMessage<Time>(Json::parse(R"({"sec": -2.0, "nanosec": 1e3})"));
  EXPECT_EQ(time, (Time{-2, 1000}));
}

TEST(MessagesJson, AcceptsTheEdgesOfEachIntegerType) {
  const auto info = DecodeMessage<VehicleNodeOperatingInfo>(Json::parse(R"({
      "worker_ids": [0, 65535], "scenario_numbers": [0, 4294967295], "ok_to_run": [true, false],
      "save_dirs": ["", "x"], "save_minimal": [false, false]})"));
  EXPECT_EQ(info.worker_ids, (std::vector<uint16_t>{0, 65535}));
  EXPECT_EQ(info.scenario_numbers[1], 4'294'967'295u);
  EXPECT_EQ(DecodeMessage<Time>(Json::parse(R"({"sec": -2147483648, "nanosec": 999999999})")),
            (Time{std::numeric_limits<int32_t>::min(), 999'999'999}));
}

// Worker ids are widened beyond AutoSceneGen's uint8 to 65535; AnalyzeScenario's scenario number
// is an int32, as the service and RunScenario define it.
TEST(MessagesJson, WidenedWorkerIdsAndScenarioNumbers) {
  const auto analyze = [](const std::string& worker_id, const std::string& number) {
    return DecodeMessage<AnalyzeScenarioRequest>(Json::parse(
        R"({"worker_id": )" + worker_id + R"(, "scenario_number": )" + number +
        R"(, "termination_reason": 0, "vehicle_trajectory": [], "vehicle_sim_time": 0})"));
  };
  const AnalyzeScenarioRequest widest = analyze("65535", "2147483647");
  EXPECT_EQ(widest.worker_id, 65535);
  EXPECT_EQ(widest.scenario_number, 2'147'483'647);
  EXPECT_EQ(static_cast<uint32_t>(widest.scenario_number), kMaxScenarioNumber);
  EXPECT_EQ(analyze("300", "70000").worker_id, 300);
  EXPECT_THROW(analyze("65536", "1"), DecodeError);
  EXPECT_THROW(analyze("-1", "1"), DecodeError);
  try {
    analyze("1", "2147483648");
    ADD_FAILURE() << "scenario number 2147483648 decoded";
  } catch (const DecodeError& error) {
    EXPECT_NE(std::string(error.what()).find("scenario_number"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("2147483648"), std::string::npos) << error.what();
  }
  RegisterVehicleNodeRequest node;
  node.worker_id = 40000;
  node.node_name = "n";
  EXPECT_EQ(DecodeMessage<RegisterVehicleNodeRequest>(Json(node)), node);
}

TEST(MessagesJson, KeepsEveryBitOfADoubleThroughText) {
  Point point{0.1, 1.0 / 3.0, -1e-310};
  point.x = std::nextafter(point.x, 1.0);
  EXPECT_EQ(ParseMessage<Point>(Json(point).dump()), point);
}

TEST(MessagesJson, ControlRateThatDividesPhysicsRateIsAccepted) {
  const auto third = DecodeMessage<SimulationSettings>(
      Json::parse(R"({"physics_rate": 100, "control_rate": 33.333333333333336})"));
  EXPECT_EQ(third.physics_rate, 100.0);
  EXPECT_EQ(third.control_rate, 33.333333333333336);
  const auto same =
      DecodeMessage<SimulationSettings>(Json::parse(R"({"physics_rate": 60, "control_rate": 60})"));
  EXPECT_EQ(same.physics_rate, 60.0);
  EXPECT_EQ(same.control_rate, 60.0);
}

TEST(MessagesJson, ParsesTextWithTheSameKeyInDifferentObjects) {
  const Json j = json::ParseJson(R"({"a": {"x": 1}, "b": [{"x": 2}, {"x": 3}], "x": 4})");
  EXPECT_EQ(j["b"][1]["x"], 3);
  EXPECT_EQ(j["x"], 4);
}

}  // namespace
}  // namespace asg::protocol
