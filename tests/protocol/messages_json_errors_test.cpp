// Tests for protocol/messages_json.h: strict decoding and the paths and messages of its errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "protocol/messages_json.h"
#include "tests/protocol/message_samples.h"

namespace asg::protocol {
namespace {

using testing::Sample;

// The what() of the DecodeError that decoding `j` as T throws; fails the test if none is thrown.
template <class T>
std::string DecodeErrorOf(const Json& j) {
  try {
    DecodeMessage<T>(j);
  } catch (const DecodeError& error) {
    return error.what();
  }
  ADD_FAILURE() << "decoding " << j.dump() << " did not throw";
  return "";
}

// A sample message as JSON, for tests that break one field of a valid message.
template <class T>
Json SampleJson() {
  return Json(Sample<T>());
}

TEST(MessagesJsonErrors, NamesThePathOfArrayLengthMismatches) {
  Json j = SampleJson<RunScenarioRequest>();
  j["scene_description"]["ssa_array"][1]["num_instances"] = 4;
  j["scene_description"]["ssa_array"][1]["visible"] = {true, true, true, true};
  j["scene_description"]["ssa_array"][1]["cast_shadow"] = {true, true, true, true};
  j["scene_description"]["ssa_array"][1]["x"] = {1, 2, 3, 4};
  j["scene_description"]["ssa_array"][1]["y"] = {1, 2, 3, 4};
  j["scene_description"]["ssa_array"][1]["yaw"] = {1, 2, 3};
  j["scene_description"]["ssa_array"][1]["scale"] = {1, 2, 3, 4};
  // The example of messages_json.h, word for word.
  EXPECT_EQ(DecodeErrorOf<RunScenarioRequest>(j),
            "scene_description.ssa_array[1].yaw: 3 values, num_instances is 4");

  Json info = SampleJson<VehicleNodeOperatingInfo>();
  info["save_dirs"] = {"/only/one"};
  EXPECT_EQ(DecodeErrorOf<VehicleNodeOperatingInfo>(info), "save_dirs: 1 values, worker_ids has 2");
}

TEST(MessagesJsonErrors, ErrorCarriesThePathSeparately) {
  Json j = SampleJson<AnalyzeScenarioRequest>();
  j["vehicle_trajectory"][1]["pose"]["orientation"]["w"] = "1";
  try {
    DecodeMessage<AnalyzeScenarioRequest>(j);
    FAIL() << "no DecodeError";
  } catch (const DecodeError& error) {
    EXPECT_EQ(error.path(), "vehicle_trajectory[1].pose.orientation.w");
    EXPECT_STREQ(error.what(),
                 "vehicle_trajectory[1].pose.orientation.w: expected a number, got string \"1\"");
  }
}

TEST(MessagesJsonErrors, DecodeWithPathPrefixesIt) {
  Point point;
  try {
    Decode(Json::parse(R"({"x": 1, "y": true, "z": 0})"), "batch.scenarios[3].goal", &point);
    FAIL() << "no DecodeError";
  } catch (const DecodeError& error) {
    EXPECT_EQ(error.path(), "batch.scenarios[3].goal.y");
  }
}

TEST(MessagesJsonErrors, RejectsWrongTypes) {
  EXPECT_EQ(DecodeErrorOf<Point>(Json::parse("[1, 2, 3]")),
            "expected an object, got an array [1,2,3]");
  EXPECT_EQ(DecodeErrorOf<VehicleStatus>(Json::parse(R"({"enabled": 1, "preempted": false})")),
            "enabled: expected true or false, got number 1");
  EXPECT_EQ(DecodeErrorOf<Header>(Json::parse(R"({"stamp": {"sec": 0, "nanosec": 0},
                                                  "frame_id": 5})")),
            "frame_id: expected a string, got number 5");
  EXPECT_EQ(DecodeErrorOf<StructuralSceneActorLayout>(Json::parse(R"({"path_name": "a",
      "num_instances": 1, "visible": true, "cast_shadow": [true], "x": [0], "y": [0],
      "yaw": [0], "scale": [1]})")),
            "visible: expected an array, got true");
  EXPECT_EQ(DecodeErrorOf<Pose>(Json::parse(R"({"position": null, "orientation": {}})")),
            "position: expected an object, got null");
}

TEST(MessagesJsonErrors, ShortensLongValuesInMessages) {
  Json j = SampleJson<Header>();
  j["frame_id"] = Json::array();
  for (int i = 0; i < 100; ++i) j["frame_id"].push_back(i);
  EXPECT_EQ(DecodeErrorOf<Header>(j),
            "frame_id: expected a string, got an array [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,1...");
}

TEST(MessagesJsonErrors, AnUnknownFailureTimeNamesThePathAndTheValue) {
  Json timed = SampleJson<RunScenarioRequest>();
  timed["regret"]["failure_time"] = "end";
  EXPECT_EQ(DecodeErrorOf<RunScenarioRequest>(timed),
            "regret.failure_time: unknown value \"end\"; did you mean \"end_of_run\"? (one of "
            "\"failure_moment\", \"end_of_run\")");
}

TEST(MessagesJsonErrors, RejectsIntegersOutOfTheirTypesRange) {
  Json j = SampleJson<RegisterVehicleNodeRequest>();
  j["worker_id"] = 65536;
  EXPECT_EQ(DecodeErrorOf<RegisterVehicleNodeRequest>(j),
            "worker_id: number 65536 is out of range for uint16 (0..65535)");
  j["worker_id"] = -1;
  EXPECT_EQ(DecodeErrorOf<RegisterVehicleNodeRequest>(j),
            "worker_id: number -1 is out of range for uint16 (0..65535)");

  Json analyze = SampleJson<AnalyzeScenarioRequest>();
  analyze["scenario_number"] = 2147483648;
  EXPECT_EQ(DecodeErrorOf<AnalyzeScenarioRequest>(analyze),
            "scenario_number: number 2147483648 is out of range for int32 "
            "(-2147483648..2147483647)");
  analyze["scenario_number"] = -1;
  EXPECT_EQ(DecodeErrorOf<AnalyzeScenarioRequest>(analyze),
            "scenario_number: must be >= 0, got -1");

  Json run = SampleJson<RunScenarioRequest>();
  run["scenario_number"] = 2147483648LL;
  EXPECT_EQ(DecodeErrorOf<RunScenarioRequest>(run),
            "scenario_number: number 2147483648 is out of range for int32 "
            "(-2147483648..2147483647)");
  run["scenario_number"] = 1e10;
  EXPECT_EQ(DecodeErrorOf<RunScenarioRequest>(run),
            "scenario_number: number 10000000000.0 is out of range for int32 "
            "(-2147483648..2147483647)");

  Json seeded = SampleJson<RunScenarioRequest>();
  seeded["seed"] = -1;
  EXPECT_EQ(DecodeErrorOf<RunScenarioRequest>(seeded),
            "seed: number -1 is out of range for uint64 (0..18446744073709551615)");
  seeded["seed"] = 1.8446744073709552e19;  // 2^64 as a float
  EXPECT_EQ(DecodeErrorOf<RunScenarioRequest>(seeded),
            "seed: number 1.8446744073709552e+19 is out of range for uint64 "
            "(0..18446744073709551615)");
}

TEST(MessagesJsonErrors, RejectsFractionsForIntegerFields) {
  EXPECT_EQ(DecodeErrorOf<LandscapeDescription>(
                Json::parse(R"({"nominal_size": 60, "subdivisions": 6.5})")),
            "subdivisions: expected an integer (int32), got number 6.5");
  EXPECT_EQ(DecodeErrorOf<StatusCode>(Json::parse(R"({"status": "1"})")),
            "status: expected an integer (uint8), got string \"1\"");
}

TEST(MessagesJsonErrors, RejectsNonFiniteNumbersWithAHint) {
  Point point;
  point.x = std::numeric_limits<double>::quiet_NaN();
  const Json j = point;
  EXPECT_EQ(DecodeErrorOf<Point>(j), "x: expected a finite number, got NaN");
  EXPECT_EQ(Json(point).dump(), R"({"x":null,"y":0.0,"z":0.0})");  // how nlohmann writes NaN
  EXPECT_EQ(DecodeErrorOf<Point>(Json::parse(Json(point).dump())),
            "x: expected a number, got null (a NaN or infinite number is written as null)");

  Json infinite = SampleJson<Point>();
  infinite["y"] = -std::numeric_limits<double>::infinity();
  EXPECT_EQ(DecodeErrorOf<Point>(infinite), "y: expected a finite number, got -infinity");
}

TEST(MessagesJsonErrors, ReportsTheFirstMissingRequiredField) {
  Json j = SampleJson<RunScenarioRequest>();
  j.erase("goal_radius");
  j.erase("allow_collisions");
  EXPECT_EQ(DecodeErrorOf<RunScenarioRequest>(j), "allow_collisions: missing required field");

  Json nested = SampleJson<RunScenarioRequest>();
  nested["scene_description"]["landscape"].erase("nominal_size");
  EXPECT_EQ(DecodeErrorOf<RunScenarioRequest>(nested),
            "scene_description.landscape.nominal_size: missing required field");

  // Required even though the specification allows it to be empty.
  Json issue = SampleJson<WorkerIssueNotificationRequest>();
  issue.erase("message");
  EXPECT_EQ(DecodeErrorOf<WorkerIssueNotificationRequest>(issue),
            "message: missing required field");
}

TEST(MessagesJsonErrors, AnalyzeScenarioFieldsThatMustAgree) {
  Json j = SampleJson<AnalyzeScenarioRequest>();
  j["scene_capture_names"].push_back("front_aerial");
  EXPECT_EQ(DecodeErrorOf<AnalyzeScenarioRequest>(j),
            "scene_capture_names: 3 values, scene_captures has 2");
  j = SampleJson<AnalyzeScenarioRequest>();
  j["num_vehicle_control_messages"] = 7;
  EXPECT_EQ(DecodeErrorOf<AnalyzeScenarioRequest>(j),
            "num_vehicle_control_messages: 7, but counters.control_messages is " +
                std::to_string(Sample<RunCounters>().control_messages));
}

TEST(MessagesJsonErrors, RefusesBothNamesOfTheGoalSphereColor) {
  Json j = SampleJson<RunScenarioRequest>();
  auto& settings = j["scene_capture_settings"];
  settings["goal_shere_color"] = settings["goal_sphere_color"];
  EXPECT_EQ(DecodeErrorOf<RunScenarioRequest>(j),
            "scene_capture_settings: both goal_sphere_color and goal_shere_color are given; they "
            "name the same field, give one");
}

TEST(MessagesJsonErrors, SuggestsTheFieldAMisspeltKeyMeant) {
  Json j = SampleJson<RunScenarioRequest>();
  auto& settings = j["scene_capture_settings"];
  settings["goal_sphere_colour"] = settings["goal_sphere_color"];
  settings.erase("goal_sphere_color");
  // The unknown key is reported, not the missing field it was meant to fill.
  EXPECT_EQ(DecodeErrorOf<RunScenarioRequest>(j),
            "scene_capture_settings.goal_sphere_colour: unknown field; did you mean "
            "\"goal_sphere_color\"?");

  Json cut = SampleJson<RunScenarioRequest>();
  cut["sim_timeout"] = cut["sim_timeout_period"];
  cut.erase("sim_timeout_period");
  EXPECT_EQ(DecodeErrorOf<RunScenarioRequest>(cut),
            "sim_timeout: unknown field; did you mean \"sim_timeout_period\"?");

  Json upper = SampleJson<NotifyReadyRequest>();
  upper["Node_Name"] = "x";
  EXPECT_EQ(DecodeErrorOf<NotifyReadyRequest>(upper),
            "Node_Name: unknown field; did you mean \"node_name\"?");
}

TEST(MessagesJsonErrors, ListsTheFieldsWhenNoKeyIsClose) {
  Json j = SampleJson<Twist>();
  j["rotation"] = j["angular"];
  EXPECT_EQ(DecodeErrorOf<Twist>(j), "rotation: unknown field (fields: \"linear\", \"angular\")");
}

TEST(MessagesJsonErrors, RejectsUnknownKeysInOptionalObjects) {
  Json j = SampleJson<RunScenarioRequest>();
  j["vehicle"]["max_sped"] = 3;
  EXPECT_EQ(DecodeErrorOf<RunScenarioRequest>(j),
            "vehicle.max_sped: unknown field; did you mean \"max_speed\"?");
}

TEST(MessagesJsonErrors, RejectsUnknownCodes) {
  EXPECT_EQ(DecodeErrorOf<StatusCode>(Json::parse(R"({"status": 3})")),
            "status: 3 is not a known StatusCode (known: 0 OFFLINE, 1 ONLINE_AND_READY, "
            "2 ONLINE_AND_RUNNING)");
  Json issue = SampleJson<WorkerIssueNotificationRequest>();
  issue["issue_id"] = 2;
  EXPECT_EQ(DecodeErrorOf<WorkerIssueNotificationRequest>(issue),
            "issue_id: 2 is not a known issue_id (known: 0 ISSUE_ROSBRIDGE_INTERRUPTED, "
            "1 ISSUE_PROBLEM_CREATING_SCENE)");
  Json analyze = SampleJson<AnalyzeScenarioRequest>();
  analyze["termination_reason"] = 7;
  EXPECT_EQ(DecodeErrorOf<AnalyzeScenarioRequest>(analyze),
            "termination_reason: 7 is not a known termination reason (known: 0 REASON_SUCCESS, "
            "1 REASON_VEHICLE_COLLISION, 2 REASON_VEHICLE_FLIPPED, 3 REASON_SIM_TIMEOUT, "
            "4 REASON_VEHICLE_IDLING_TIMEOUT, 5 REASON_VEHICLE_STUCK_TIMEOUT, "
            "6 REASON_VEHICLE_OUT_OF_BOUNDS)");
}

TEST(MessagesJsonErrors, RejectsUnknownTypeNames) {
  Json j = SampleJson<LandscapeDescription>();
  j["relief"][0]["type"] = "hil";
  EXPECT_EQ(DecodeErrorOf<LandscapeDescription>(j),
            "relief[0].type: unknown value \"hil\"; did you mean \"hill\"? (one of \"hill\", "
            "\"ramp\", \"noise\")");
  EXPECT_EQ(
      DecodeErrorOf<DriverSpec>(Json::parse(R"({"type": 1})")),
      "type: expected one of \"planner\", \"straight\", \"idle\", \"scripted\", got number 1");
  EXPECT_EQ(DecodeErrorOf<ReliefFeature>(Json::parse(R"({"x": 1, "y": 1, "radius": 2,
                                                         "height": 1})")),
            "type: missing required field (the relief feature type)");
}

TEST(MessagesJsonErrors, RejectsFieldsOfAnotherVariant) {
  EXPECT_EQ(DecodeErrorOf<ReliefFeature>(Json::parse(R"({"type": "ramp", "height": 1, "x0": 0,
      "y0": 0, "x1": 5, "y1": 5, "width": 2, "radius": 3})")),
            "radius: not a field of relief feature type \"ramp\" (fields: \"type\", \"height\", "
            "\"x0\", \"y0\", \"x1\", \"y1\", \"width\")");
  EXPECT_EQ(DecodeErrorOf<DriverSpec>(Json::parse(R"({"type": "idle", "speed": 3})")),
            "speed: not a field of driver type \"idle\" (fields: \"type\")");
  // Without a type the driver is a planner, and the message says so.
  EXPECT_EQ(DecodeErrorOf<DriverSpec>(Json::parse(R"({"commands": []})")),
            "commands: not a field of driver type \"planner\" (fields: \"type\", \"speed\", "
            "\"sensor_range\", \"sensor_fov\", \"grid_resolution\", \"inflation_radius\", "
            "\"lookahead\", \"replan_period\")");
  EXPECT_EQ(DecodeErrorOf<ReliefFeature>(Json::parse(R"({"type": "hill", "x0": 1, "y": 1,
                                                         "radius": 2, "height": 1})")),
            "x0: not a field of relief feature type \"hill\"; did you mean \"x\"?");
}

TEST(MessagesJsonErrors, EnforcesDocumentedRanges) {
  EXPECT_EQ(DecodeErrorOf<LandscapeDescription>(
                Json::parse(R"({"nominal_size": 60, "subdivisions": 11})")),
            "subdivisions: must be in [0, 10], got 11");
  EXPECT_EQ(
      DecodeErrorOf<LandscapeDescription>(Json::parse(R"({"nominal_size": 0, "subdivisions": 6})")),
      "nominal_size: must be > 0, got 0");
  EXPECT_EQ(DecodeErrorOf<LandscapeDescription>(
                Json::parse(R"({"nominal_size": 60, "subdivisions": 6, "border": -1})")),
            "border: must be >= 0, got -1");
  EXPECT_EQ(DecodeErrorOf<Time>(Json::parse(R"({"sec": 0, "nanosec": 1000000000})")),
            "nanosec: must be in [0, 999999999], got 1000000000");

  Json scene = SampleJson<SceneDescription>();
  scene["ssa_array"][0]["scale"][2] = 0;
  EXPECT_EQ(DecodeErrorOf<SceneDescription>(scene), "ssa_array[0].scale[2]: must be > 0, got 0");

  Json landscape = SampleJson<LandscapeDescription>();
  landscape["relief"][2]["octaves"] = 13;
  EXPECT_EQ(DecodeErrorOf<LandscapeDescription>(landscape),
            "relief[2].octaves: must be in [1, 12], got 13");
  landscape["relief"][2]["octaves"] = 2;
  landscape["relief"][0]["radius"] = -1;
  EXPECT_EQ(DecodeErrorOf<LandscapeDescription>(landscape),
            "relief[0].radius: must be > 0, got -1");

  Json settings = SampleJson<SceneCaptureSettings>();
  settings["goal_sphere_color"]["a"] = 1.5;
  EXPECT_EQ(DecodeErrorOf<SceneCaptureSettings>(settings),
            "goal_sphere_color.a: must be in [0, 1], got 1.5");
  settings["goal_shere_color"] = settings["goal_sphere_color"];  // the other name, as written
  settings.erase("goal_sphere_color");
  EXPECT_EQ(DecodeErrorOf<SceneCaptureSettings>(settings),
            "goal_shere_color.a: must be in [0, 1], got 1.5");
  settings = SampleJson<SceneCaptureSettings>();
  settings["image_size"] = 0;
  EXPECT_EQ(DecodeErrorOf<SceneCaptureSettings>(settings),
            "image_size: must be in [1, 4096], got 0");
  settings["image_size"] = 100000;
  EXPECT_EQ(DecodeErrorOf<SceneCaptureSettings>(settings),
            "image_size: must be in [1, 4096], got 100000");

  EXPECT_EQ(DecodeErrorOf<VehicleParams>(Json::parse(R"({"roll_influence": 2})")),
            "roll_influence: must be in [0, 1], got 2");
  EXPECT_EQ(DecodeErrorOf<ScriptedCommand>(Json::parse(R"({"t": -0.5})")),
            "t: must be >= 0, got -0.5");
}

TEST(MessagesJsonErrors, ChecksFieldsAgainstEachOther) {
  EXPECT_EQ(DecodeErrorOf<SimulationSettings>(
                Json::parse(R"({"physics_rate": 100, "control_rate": 30})")),
            "control_rate: 30 Hz does not divide physics_rate 100 Hz");
  EXPECT_EQ(DecodeErrorOf<SimulationSettings>(Json::parse(R"({"control_rate": 200})")),
            "control_rate: 200 Hz does not divide physics_rate 100 Hz");
  EXPECT_EQ(DecodeErrorOf<SimulationSettings>(Json::parse(R"({"physics_rate": 0})")),
            "physics_rate: must be > 0, got 0");

  Json run = SampleJson<RunScenarioRequest>();
  run["driver"]["commands"][2]["t"] = 1.0;
  EXPECT_EQ(DecodeErrorOf<RunScenarioRequest>(run),
            "driver.commands[2].t: 1 is before the previous command's t 1.5 (commands must be "
            "in ascending t)");
}

TEST(MessagesJsonErrors, LeavesTheTargetUntouchedOnError) {
  Point point{1, 2, 3};
  EXPECT_THROW(Decode(Json::parse(R"({"x": 9, "y": 9, "z": "9"})"), "", &point), DecodeError);
  EXPECT_EQ(point, (Point{1, 2, 3}));
}

TEST(MessagesJsonErrors, NlohmannGetThrowsDecodeError) {
  const Json j = Json::parse(R"({"received": "yes"})");
  EXPECT_THROW(j.get<RunScenarioResponse>(), DecodeError);
}

TEST(ParseMessage, ReportsBothKindsOfError) {
  EXPECT_THROW(ParseMessage<Point>("{\"x\": 1"), DecodeError);
  EXPECT_THROW(ParseMessage<Point>(R"({"x": 1, "y": 2})"), DecodeError);
  EXPECT_EQ(ParseMessage<Point>(R"({"x": 1, "y": 2, "z": 3})"), (Point{1, 2, 3}));
}

}  // namespace
}  // namespace asg::protocol
