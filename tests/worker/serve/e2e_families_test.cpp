// End-to-end tests of the interactive worker's RoadRunner SSE, monoDrive and farm service families
// (worker/serve/services_sse.cpp, services_monodrive.cpp, services_farm.cpp), called over real
// sockets on the real asg-worker executable (docs/interactive.md): simulation control and status
// events, runtime actors, the communication and diagnostic logs, closed-loop configuration,
// stepping, ego control, sensors and weather, the service table, captures, the token, and a farm
// result folder replayed interactively to byte-identical files.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <set>

#include "protocol/messages_json.h"
#include "tests/worker/serve/served_worker.h"
#include "tests/worker/small_request.h"

namespace asg::worker {
namespace {

using json::Json;
using testing::FarmDir;
using testing::ServedClient;
using testing::ServedWorker;
using testing::SmallRequest;

/// The small scenario with one tree at (30, 10): entities "vehicle" and "tree_0_0".
protocol::RunScenarioRequest RequestWithTree() {
  protocol::RunScenarioRequest request = SmallRequest(1);
  protocol::StructuralSceneActorLayout tree;
  tree.path_name = client::testing::kTree;
  tree.num_instances = 1;
  tree.visible = {true};
  tree.cast_shadow = {true};
  tree.x = {30.0};
  tree.y = {10.0};
  tree.yaw = {0.0};
  tree.scale = {1.0};
  request.scene_description.ssa_array.push_back(tree);
  return request;
}

/// Loads `request` with LoadScenario and checks it worked.
void Load(ServedClient& client, const protocol::RunScenarioRequest& request = RequestWithTree()) {
  const Json loaded = client.Body("LoadScenario", {{"request", Json(request)}});
  ASSERT_EQ(loaded["success"], true) << loaded.dump();
}

std::string Status(ServedClient& client) {
  return client.Body("GetSimulationStatus")["status"].get<std::string>();
}

int State(ServedClient& client) {
  return client.Body("GetSimulationState")["state"]["state"].get<int>();
}

/// Polls GetSimulationState until it is `state`; false after `timeout`.
bool WaitForState(ServedClient& client, int state, std::chrono::milliseconds timeout) {
  return testing::Eventually([&] { return State(client) == state; }, timeout);
}

/// Waits until the worker has closed the client's connection; false after 5 s.
bool WaitClosed(ServedClient& client) {
  return testing::Eventually([&] { return !client.connection().IsOpen(); },
                             std::chrono::seconds(5));
}

/// True when the bytes start with the 8-byte PNG signature.
bool IsPng(const std::string& bytes) {
  return bytes.size() > 8 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

/// The types of the entries of a QueryCommunicationLog reply.
std::multiset<std::string> Types(const Json& reply) {
  std::multiset<std::string> types;
  for (const Json& entry : reply["entries"]) types.insert(entry["type"].get<std::string>());
  return types;
}

// --- RoadRunner SSE ----------------------------------------------------------------------

TEST(ServeSseTest, ControlServicesChangeTheStatus) {
  ServedWorker worker;
  auto client = worker.Connect();
  Load(*client);
  EXPECT_EQ(Status(*client), "SIMULATION_STATUS_PAUSED");  // a loaded scenario starts paused
  // Slow enough that the run (a few simulated seconds) cannot end during the test.
  ASSERT_EQ(client->Body("SetSimulationPace", {{"simulation_pace", 0.1}})["success"], true);

  EXPECT_EQ(client->Body("StartSimulation")["success"], true);
  EXPECT_EQ(Status(*client), "SIMULATION_STATUS_RUNNING");
  EXPECT_EQ(State(*client), 1);
  const Json paused = client->Body("ToggleSimulationPaused");
  EXPECT_EQ(paused["status"], "SIMULATION_STATUS_PAUSED") << paused.dump();
  EXPECT_EQ(Status(*client), "SIMULATION_STATUS_PAUSED");
  EXPECT_EQ(client->Body("ToggleSimulationPaused")["status"], "SIMULATION_STATUS_RUNNING");
  EXPECT_EQ(Status(*client), "SIMULATION_STATUS_RUNNING");

  EXPECT_EQ(client->Body("StopSimulation")["success"], true);
  EXPECT_EQ(Status(*client), "SIMULATION_STATUS_STOPPED");
  EXPECT_EQ(State(*client), 0);
  EXPECT_EQ(client->Body("GetSimulationTime")["steps"], 0);  // reloaded at its start
  const Json toggled = client->Body("ToggleSimulationPaused");
  EXPECT_EQ(toggled["success"], false) << toggled.dump();  // nothing to pause when stopped
  EXPECT_EQ(Status(*client), "SIMULATION_STATUS_STOPPED");

  EXPECT_EQ(client->Body("StartSimulation")["success"], true);
  EXPECT_EQ(Status(*client), "SIMULATION_STATUS_RUNNING");
  EXPECT_EQ(client->Body("ToggleSimulationPaused")["success"], true);
  ASSERT_EQ(client->Body("StepSimulation", {{"steps", 30}})["result"]["result"], 1);
  EXPECT_EQ(client->Body("RestartSimulation")["success"], true);
  EXPECT_EQ(Status(*client), "SIMULATION_STATUS_RUNNING");
  EXPECT_LT(client->Body("GetSimulationTime")["steps"].get<long>(), 30);  // a fresh run
  EXPECT_EQ(client->Body("StopSimulation")["success"], true);
  EXPECT_EQ(Status(*client), "SIMULATION_STATUS_STOPPED");
}

TEST(ServeSseTest, RoadRunnerRequestFieldsAndStatusValuesAreServed) {
  ServedWorker worker;
  auto client = worker.Connect();
  Load(*client);
  EXPECT_EQ(client->Body("GetSimulationStatus")["simulation_status"], "SIMULATION_STATUS_PAUSED");
  // Pacer off is as fast as possible; on, the pace given (slow: the run cannot end here).
  const Json unpaced = client->Body("SetSimulationPace", {{"is_pacer_on", false}});
  EXPECT_EQ(unpaced["simulation_pace"], 0.0) << unpaced.dump();
  const Json paced =
      client->Body("SetSimulationPace", {{"is_pacer_on", true}, {"simulation_pace", 0.1}});
  EXPECT_EQ(paced["simulation_pace"], 0.1) << paced.dump();
  EXPECT_EQ(paced["is_pacer_on"], true);
  EXPECT_NE(client->ErrorOf("SetSimulationPace", {{"is_pacer_on", true}, {"simulation_pace", 0}})
                .find("is_pacer_on"),
            std::string::npos);

  // pause_simulation asks for a state: asked twice, the second changes nothing.
  ASSERT_EQ(client->Body("StartSimulation")["success"], true);
  for (int i = 0; i < 2; ++i) {
    const Json paused = client->Body("ToggleSimulationPaused", {{"pause_simulation", true}});
    EXPECT_EQ(paused["simulation_status"], "SIMULATION_STATUS_PAUSED") << paused.dump();
  }
  const Json resumed = client->Body("ToggleSimulationPaused", {{"pause_simulation", false}});
  EXPECT_EQ(resumed["simulation_status"], "SIMULATION_STATUS_RUNNING") << resumed.dump();
  EXPECT_EQ(client->Body("GetSimulationStatus")["simulation_status"], "SIMULATION_STATUS_RUNNING");

  const Json cause = {{"summary", "goal reached"}, {"simulation_complete", Json::object()}};
  ASSERT_EQ(client->Body("StopSimulation", {{"cause", cause}})["success"], true);
  EXPECT_EQ(client->Body("GetSimulationStatus")["simulation_status"], "SIMULATION_STATUS_STOPPED");
  const Json log = client->Body("QueryDiagnosticMessageLog", {{"level", "info"}});
  ASSERT_FALSE(log["entries"].empty()) << log.dump();
  EXPECT_EQ(log["entries"].back()["message"], "stop cause: complete: goal reached");
}

TEST(ServeSseTest, SubscribersGetAnEventPerStatusChange) {
  ServedWorker worker;
  auto listener = worker.Connect();
  auto controller = worker.Connect();
  Load(*controller);
  ASSERT_EQ(controller->Body("SetSimulationPace", {{"simulation_pace", 0.1}})["success"], true);
  const Json subscribed = listener->Body("SubscribeEvents");
  EXPECT_EQ(subscribed["success"], true);
  EXPECT_EQ(subscribed["status"], "SIMULATION_STATUS_PAUSED");

  ASSERT_EQ(controller->Body("StartSimulation")["success"], true);
  const Json playing = listener->Next("Event").message["simulation_status_changed_event"];
  EXPECT_EQ(playing["status"], "SIMULATION_STATUS_RUNNING") << playing.dump();
  EXPECT_EQ(playing["state"], 1) << playing.dump();
  EXPECT_EQ(playing["simulation_status"], "SIMULATION_STATUS_RUNNING");

  ASSERT_EQ(controller->Body("ToggleSimulationPaused")["success"], true);
  const Json paused = listener->Next("Event").message["simulation_status_changed_event"];
  EXPECT_EQ(paused["status"], "SIMULATION_STATUS_PAUSED") << paused.dump();
  EXPECT_EQ(paused["state"], 2);
  EXPECT_GE(paused["time"].get<double>(), playing["time"].get<double>());
  // The controller did not subscribe: its replies came, and no Event before them.
  EXPECT_TRUE(controller->Take("Event").empty());
}

TEST(ServeSseTest, StepDefaultsToOneStepOfTenMilliseconds) {
  ServedWorker worker;
  auto client = worker.Connect();
  Load(*client);
  EXPECT_EQ(client->Body("StepSimulation", Json::object())["result"]["result"], 1);
  const Json time = client->Body("GetSimulationTime");
  EXPECT_NEAR(time["simulation_time"].get<double>(), 0.01, 1e-12) << time.dump();
  EXPECT_EQ(time["steps"], 1);
  EXPECT_NEAR(time["step_size"].get<double>(), 0.01, 1e-12);
}

TEST(ServeSseTest, NegativePaceIsAnErrorNamingIt) {
  ServedWorker worker;
  auto client = worker.Connect();
  const std::string error = client->ErrorOf("SetSimulationPace", {{"simulation_pace", -1}});
  EXPECT_NE(error.find("simulation_pace"), std::string::npos) << error;
  EXPECT_NE(error.find("-1"), std::string::npos) << error;
  EXPECT_EQ(client->Body("GetSimulationStatus")["simulation_pace"], 1.0);  // unchanged
}

TEST(ServeSseTest, RuntimeActorsAreListedAndMoved) {
  ServedWorker worker;
  auto client = worker.Connect();
  Load(*client);
  const Json all = client->Body("GetRuntimeActors");
  ASSERT_EQ(all["success"], true) << all.dump();
  std::set<std::string> ids;
  for (const Json& actor : all["actors"]) {
    ids.insert(actor["actor_id"].get<std::string>());
    for (const char* axis : {"x", "y", "z"}) {
      EXPECT_TRUE(actor["pose"]["position"][axis].is_number()) << actor.dump();
      EXPECT_TRUE(actor["velocity"][axis].is_number()) << actor.dump();
    }
    EXPECT_TRUE(actor["pose"]["orientation"]["w"].is_number()) << actor.dump();
  }
  std::set<std::string> entities;
  const Json listed = client->Body("GetEntities");
  for (const Json& name : listed["entities"]) {
    entities.insert(name.get<std::string>());
  }
  EXPECT_EQ(ids, entities);
  EXPECT_EQ(ids, (std::set<std::string>{"vehicle", "tree_0_0"}));
  const Json& vehicle =
      all["actors"][0]["actor_id"] == "vehicle" ? all["actors"][0] : all["actors"][1];
  EXPECT_NEAR(vehicle["pose"]["position"]["x"].get<double>(), 8.0, 0.1);

  const Json moved = client->Body(
      "SetRuntimeActors", {{"actors",
                            {{{"actor_id", "tree_0_0"},
                              {"pose",
                               {{"position", {{"x", 20.0}, {"y", 5.0}, {"z", 0.0}}},
                                {"orientation", {{"x", 0}, {"y", 0}, {"z", 0}, {"w", 1}}}}}}}}});
  EXPECT_EQ(moved["success"], true) << moved.dump();
  const Json tree = client->Body("GetRuntimeActors", {{"actor_ids", {"tree_0_0"}}});
  ASSERT_EQ(tree["actors"].size(), 1u) << tree.dump();
  EXPECT_NEAR(tree["actors"][0]["pose"]["position"]["x"].get<double>(), 20.0, 1e-9);
  EXPECT_NEAR(tree["actors"][0]["pose"]["position"]["y"].get<double>(), 5.0, 1e-9);

  const Json unknown = client->Body(
      "SetRuntimeActors",
      {{"actors", {{{"actor_id", "rock_7_7"}, {"pose", {{"position", {{"x", 1.0}}}}}}}}});
  EXPECT_EQ(unknown["success"], false) << unknown.dump();
  EXPECT_NE(unknown["description"].get<std::string>().find("rock_7_7"), std::string::npos)
      << unknown.dump();
}

TEST(ServeSseTest, CommunicationLogFiltersByTypeAndClient) {
  ServedWorker worker;
  auto first = worker.Connect();
  auto second = worker.Connect();
  const int first_id = first->Body("Hello")["client_id"].get<int>();
  const int second_id = second->Body("Hello")["client_id"].get<int>();
  ASSERT_NE(first_id, second_id);
  first->Body("GetSimulationStatus");
  first->Body("GetVersion");
  second->Body("ListServices");

  const Json mine = first->Body("QueryCommunicationLog", {{"client_id", first_id}});
  for (const Json& entry : mine["entries"]) EXPECT_EQ(entry["client_id"], first_id);
  const std::multiset<std::string> types = Types(mine);
  for (const char* type : {"Hello", "GetSimulationStatus", "GetVersion", "HelloResponse",
                           "GetSimulationStatusResponse", "GetVersionResponse"}) {
    EXPECT_EQ(types.count(type), 1u) << type << " in " << mine.dump();
  }
  EXPECT_EQ(types.count("ListServices"), 0u);
  EXPECT_EQ(mine["entries"][0]["type"], "Hello");  // oldest first
  EXPECT_EQ(mine["entries"][0]["direction"], "request");

  const Json listed = first->Body("QueryCommunicationLog", {{"type", "ListServices"}});
  ASSERT_EQ(listed["entries"].size(), 1u) << listed.dump();
  EXPECT_EQ(listed["entries"][0]["client_id"], second_id);
  EXPECT_EQ(listed["entries"][0]["direction"], "request");

  // A refused request is logged at level error.
  second->ErrorOf("SetSimulationPace", {{"simulation_pace", -1}});
  const Json errors = first->Body("QueryCommunicationLog", {{"level", "error"}});
  ASSERT_EQ(errors["entries"].size(), 1u) << errors.dump();
  EXPECT_EQ(errors["entries"][0]["type"], "Error");
  EXPECT_EQ(errors["entries"][0]["client_id"], second_id);

  EXPECT_EQ(first->Body("EnableCommunicationLogging", {{"enable", false}})["success"], true);
  second->Body("GetSimulationTime");
  EXPECT_TRUE(
      first->Body("QueryCommunicationLog", {{"type", "GetSimulationTime"}})["entries"].empty());
  EXPECT_EQ(first->Body("EnableCommunicationLogging", {{"enable", true}})["success"], true);
  second->Body("GetSimulationTime");
  EXPECT_EQ(first->Body("QueryCommunicationLog", {{"type", "GetSimulationTime"}})["entries"].size(),
            1u);
}

TEST(ServeSseTest, DiagnosticMessagesAreFilteredByLevel) {
  ServedWorker worker;
  auto client = worker.Connect();
  const int id = client->Body("Hello")["client_id"].get<int>();
  for (const char* level : {"info", "warning", "error", "warning"}) {
    const Json added = client->Body("AddDiagnosticMessage",
                                    {{"level", level}, {"message", std::string("a ") + level}});
    EXPECT_EQ(added["success"], true) << added.dump();
  }
  const Json warnings =
      client->Body("QueryDiagnosticMessageLog", {{"level", "warning"}, {"client_id", id}});
  ASSERT_EQ(warnings["entries"].size(), 2u) << warnings.dump();
  for (const Json& entry : warnings["entries"]) {
    EXPECT_EQ(entry["level"], "warning");
    EXPECT_EQ(entry["message"], "a warning");
    EXPECT_EQ(entry["client_id"], id);
  }
  const Json errors =
      client->Body("QueryDiagnosticMessageLog", {{"level", "error"}, {"client_id", id}});
  ASSERT_EQ(errors["entries"].size(), 1u) << errors.dump();
  EXPECT_EQ(errors["entries"][0]["message"], "a error");
  EXPECT_EQ(client->Body("QueryDiagnosticMessageLog", {{"client_id", id}})["entries"].size(), 4u);

  const std::string bad =
      client->ErrorOf("AddDiagnosticMessage", {{"level", "fatal"}, {"message", "x"}});
  EXPECT_NE(bad.find("level"), std::string::npos) << bad;
  EXPECT_NE(bad.find("fatal"), std::string::npos) << bad;
  EXPECT_NE(client->ErrorOf("QueryDiagnosticMessageLog", {{"level", "debug"}}).find("debug"),
            std::string::npos);
}

// --- monoDrive closed loop ---------------------------------------------------------------

TEST(ServeMonoDriveTest, VersionAndConfiguration) {
  ServedWorker worker;
  auto client = worker.Connect();
  const Json version = client->Body("GetVersion");
  EXPECT_EQ(version["success"], true);
  EXPECT_EQ(version["message"].get<std::string>().rfind("simulator_version:", 0), 0u)
      << version.dump();

  protocol::RunScenarioRequest unknown = RequestWithTree();
  unknown.scene_description.ssa_array[0].path_name = "/Game/Blueprints/BP_SSA_No_Such_Thing";
  const Json failed = client->Body("ClosedLoopConfigCommand_ID", Json(unknown));
  EXPECT_EQ(failed["success"], false) << failed.dump();
  EXPECT_EQ(failed["message"].get<std::string>().rfind("Failed to configure scenario.", 0), 0u)
      << failed.dump();
  EXPECT_EQ(client->Body("GetSimulationStatus")["loaded"], false);

  const Json configured = client->Body("ClosedLoopConfigCommand_ID", Json(RequestWithTree()));
  EXPECT_EQ(configured["success"], true) << configured.dump();
  EXPECT_EQ(configured["message"], "Successfully configured scenario.");
  EXPECT_EQ(State(*client), 2);
  EXPECT_EQ(Status(*client), "SIMULATION_STATUS_PAUSED");
  // A configuration that fails leaves the loaded scenario as it was.
  ASSERT_EQ(client->Body("StepSimulation", {{"steps", 10}})["result"]["result"], 1);
  EXPECT_EQ(client->Body("ClosedLoopConfigCommand_ID", Json(unknown))["success"], false);
  EXPECT_EQ(client->Body("GetSimulationTime")["steps"], 10);
  EXPECT_EQ(State(*client), 2);
}

TEST(ServeMonoDriveTest, EgoControlDrivesTheVehicleForward) {
  ServedWorker worker;
  auto client = worker.Connect();
  const Json drive = {{"forward_amount", 1.0}, {"drive_mode", 1}};
  const Json early = client->Body("EgoControl_ID", drive);
  EXPECT_EQ(early["success"], false);
  EXPECT_EQ(early["message"], "no ego vehicle found");

  ASSERT_EQ(client->Body("ClosedLoopConfigCommand_ID", Json(RequestWithTree()))["success"], true);
  const auto x = [&] {
    return client->Body("GetEntityState", {{"entity", "vehicle"}})["state"]["pose"]["position"]["x"]
        .get<double>();
  };
  const double x0 = x();
  const Json controlled = client->Body("EgoControl_ID", drive);
  EXPECT_EQ(controlled["success"], true) << controlled.dump();
  EXPECT_EQ(client->Body("GetSimulationStatus")["manual_control"], true);
  const Json stepped = client->Body("ClosedLoopStepCommand_ID", {{"time_step", 1.0}});
  EXPECT_EQ(stepped["success"], true) << stepped.dump();
  EXPECT_EQ(stepped["message"], true);
  EXPECT_GT(x() - x0, 0.5);
  EXPECT_NEAR(client->Body("GetSimulationTime")["simulation_time"].get<double>(), 1.0, 1e-9);

  const std::string error = client->ErrorOf("ClosedLoopStepCommand_ID", {{"time_step", 0.015}});
  EXPECT_NE(error.find("time_step"), std::string::npos) << error;
  EXPECT_EQ(client->Body("GetSimulationTime")["steps"], 100);  // not stepped
}

TEST(ServeMonoDriveTest, SampleSensorsReturnsReadingsInTheAttachment) {
  ServedWorker worker;
  auto client = worker.Connect();
  protocol::RunScenarioRequest request = RequestWithTree();
  request.vehicle_nodes = protocol::DecodeMessage<protocol::VehicleNodesSpec>(Json::parse(R"({
      "count": 0,
      "sensors": [{"type": "imu", "name": "imu"},
                  {"type": "lidar", "name": "lidar", "horizontal_resolution": 36,
                   "vertical_angles": [-10.0, 0.0]}]})"));
  ASSERT_EQ(client->Body("ClosedLoopConfigCommand_ID", Json(request))["success"], true);
  // 10 control ticks of 0.05 s: the IMU (60 Hz) is due at every tick, the lidar (10 Hz) at every
  // other; each keeps its own latest reading.
  ASSERT_EQ(client->Body("ClosedLoopStepCommand_ID", {{"time_step", 0.5}})["message"], true);
  const protocol::Message reply = client->Call("SampleSensorsCommand_ID");
  ASSERT_EQ(reply.message["success"], true) << reply.message.dump();
  std::map<std::string, Json> readings;
  for (const Json& reading : reply.message["readings"]) {
    readings[reading["name"].get<std::string>()] = reading;
    const size_t offset = reading["offset"].get<size_t>();
    const size_t size = reading["size"].get<size_t>();
    EXPECT_LE(offset + size, reply.attachment.size()) << reading.dump();
    EXPECT_EQ(reading["stamp"]["sec"], 0) << reading.dump();
  }
  ASSERT_EQ(readings.size(), 2u) << reply.message.dump();
  EXPECT_EQ(readings["imu"]["stamp"]["nanosec"], 450000000);    // the tenth tick
  EXPECT_EQ(readings["lidar"]["stamp"]["nanosec"], 400000000);  // its latest, one tick earlier
  EXPECT_GT(readings["imu"]["linear_acceleration"]["z"].get<double>(), 5.0);  // gravity
  const Json& lidar = readings["lidar"];
  EXPECT_GT(lidar["count"].get<size_t>(), 0u) << lidar.dump();  // the ground at -10 deg
  EXPECT_EQ(lidar["size"].get<size_t>(), lidar["count"].get<size_t>() * 12) << lidar.dump();
}

TEST(ServeMonoDriveTest, WeatherIsConfiguredWithinItsRange) {
  ServedWorker worker;
  auto client = worker.Connect();
  const Json noon =
      client->Body("WeatherConfig", {{"sun_inclination", 60.0}, {"profile_id", "noon"}});
  EXPECT_EQ(noon["success"], true) << noon.dump();
  EXPECT_EQ(noon["message"], "Weather configured to noon");
  const Json below = client->Body("WeatherConfig", {{"sun_inclination", 120.0}});
  EXPECT_EQ(below["success"], false) << below.dump();
  EXPECT_NE(below["message"].get<std::string>().find("sun_inclination"), std::string::npos);
}

// --- the farm's own ----------------------------------------------------------------------

TEST(ServeFarmTest, ListServicesNamesEveryServiceWithItsFamily) {
  ServedWorker worker;
  auto client = worker.Connect();
  const std::map<std::string, std::set<std::string>> expected = {
      {"simulation_interfaces",
       {"GetSimulatorFeatures", "GetSpawnables", "SpawnEntity", "SpawnEntities", "DeleteEntity",
        "GetEntities", "GetEntityInfo", "GetEntityBounds", "GetEntityState", "GetEntitiesStates",
        "SetEntityState", "ResetSimulation", "GetSimulationState", "SetSimulationState",
        "StepSimulation", "SimulateSteps", "CancelSimulateSteps"}},
      {"monodrive",
       {"GetVersion", "ClosedLoopConfigCommand_ID", "ClosedLoopStepCommand_ID", "EgoControl_ID",
        "SampleSensorsCommand_ID", "WeatherConfig"}},
      {"roadrunner_sse",
       {"RegisterClient", "StartSimulation", "StopSimulation", "RestartSimulation",
        "ToggleSimulationPaused", "GetSimulationStatus", "GetSimulationTime", "SetSimulationPace",
        "SubscribeEvents", "GetRuntimeActors", "SetRuntimeActors", "EnableCommunicationLogging",
        "QueryCommunicationLog", "AddDiagnosticMessage", "QueryDiagnosticMessageLog"}},
      {"asg", {"ListServices", "LoadScenario", "GetResult", "CaptureScene"}}};
  const Json list = client->Body("ListServices");
  ASSERT_EQ(list["success"], true);
  std::map<std::string, std::set<std::string>> listed;
  for (const Json& service : list["services"]) {
    EXPECT_FALSE(service["description"].get<std::string>().empty()) << service.dump();
    listed[service["family"].get<std::string>()].insert(service["name"].get<std::string>());
  }
  EXPECT_EQ(list["services"].size(), 42u);
  EXPECT_EQ(listed, expected);
}

TEST(ServeFarmTest, LoadScenarioTakesOneSourceAndResultWaitsForAnEnd) {
  ServedWorker worker;
  auto client = worker.Connect();
  const std::string both = client->ErrorOf(
      "LoadScenario", {{"request", Json(SmallRequest(1))}, {"folder", "/tmp/scenario_0001"}});
  EXPECT_NE(both.find("exactly one"), std::string::npos) << both;
  EXPECT_NE(client->ErrorOf("LoadScenario", Json::object()).find("exactly one"), std::string::npos);
  const Json missing = client->Body("LoadScenario", {{"folder", "/nonexistent/scenario_0001"}});
  EXPECT_EQ(missing["success"], false) << missing.dump();
  EXPECT_NE(missing["description"].get<std::string>().find("request.json"), std::string::npos);

  EXPECT_EQ(client->Body("GetResult")["available"], false);
  Load(*client);
  ASSERT_EQ(client->Body("StepSimulation", {{"steps", 50}})["result"]["result"], 1);
  const Json pending = client->Body("GetResult");
  EXPECT_EQ(pending["success"], false);
  EXPECT_EQ(pending["available"], false);
}

TEST(ServeFarmTest, CaptureSceneReturnsPngImagesOrSaysWhyNot) {
  ServedWorker worker;
  auto client = worker.Connect();
  protocol::RunScenarioRequest request = RequestWithTree();
  request.scene_capture_settings.image_size = 64;
  request.scene_capture_settings.ortho_aerial = true;
  request.scene_capture_settings.aerial_padding = {0, 5};
  Load(*client, request);
  const protocol::Message reply = client->Call("CaptureScene");
  if (reply.message["success"] == false) {
    // No EGL display here: the renderer's error, named.
    const std::string why = reply.message["description"].get<std::string>();
    EXPECT_EQ(why.rfind("capture:", 0), 0u) << why;
    GTEST_SKIP() << "captures unavailable: " << why;
  }
  const Json& images = reply.message["images"];
  ASSERT_EQ(images.size(), 2u) << reply.message.dump();  // one per padding
  size_t end = 0;
  for (const Json& image : images) {
    EXPECT_EQ(image["format"], "png");
    const size_t offset = image["offset"].get<size_t>();
    const size_t size = image["size"].get<size_t>();
    EXPECT_EQ(offset, end) << "images follow each other in the attachment";
    ASSERT_LE(offset + size, reply.attachment.size());
    EXPECT_TRUE(IsPng(reply.attachment.substr(offset, size))) << image.dump();
    end = offset + size;
  }
  EXPECT_EQ(end, reply.attachment.size());
}

TEST(ServeFarmTest, PlayingAFarmScenarioWritesTheFarmsFilesByteForByte) {
  const FarmDir dir;
  const std::filesystem::path out = dir.path() / "out";
  nlohmann::json batch = client::testing::SmallBatch("replay", client::testing::PlainScenarios(2));
  batch["defaults"]["scene_description"]["ssa_array"] = {
      client::testing::Actors(client::testing::kTree, {30.0}, {10.0})};
  batch["defaults"]["take_scene_capture"] = true;
  batch["defaults"]["scene_capture_settings"] = {
      {"image_size", 64}, {"ortho_aerial", true}, {"aerial_padding", {5}}};
  batch["scenarios"][1] = {{"vehicle_start_yaw", 40.0}};
  client::testing::WriteJson(dir.path() / "batch.json", batch);
  ASSERT_EQ(client::testing::RunToEnd(testing::Executable("asg-client"),
                                      {"run", (dir.path() / "batch.json").string(), "--out",
                                       out.string(), "--workers", "1"},
                                      dir.path() / "client.out"),
            0)
      << client::testing::ReadText(dir.path() / "client.out");
  const std::filesystem::path farm = out / "scenario_0001";
  ASSERT_TRUE(std::filesystem::exists(farm / "result.json"));

  ServedWorker worker({"--open", farm.string()});
  auto client = worker.Connect();
  EXPECT_EQ(State(*client), 2);
  ASSERT_EQ(client->Body("SetSimulationPace", {{"simulation_pace", 0}})["success"], true);
  ASSERT_EQ(client->Body("SetSimulationState", {{"state", {{"state", 1}}}})["result"]["result"], 1);
  ASSERT_TRUE(WaitForState(*client, 0, std::chrono::seconds(20)));
  const Json result = client->Body("GetResult");
  ASSERT_EQ(result["available"], true) << result.dump();
  const std::filesystem::path replayed = farm / "interactive" / "scenario_0001";
  EXPECT_EQ(result["folder"], replayed.string());

  std::vector<std::string> files = {"result.json", "trajectory.csv", "request.json"};
  if (std::filesystem::exists(farm / "captures")) {
    for (const auto& entry : std::filesystem::directory_iterator(farm / "captures")) {
      files.push_back("captures/" + entry.path().filename().string());
    }
    EXPECT_GT(files.size(), 3u);
  }
  for (const std::string& file : files) {
    const std::string original = client::testing::ReadText(farm / file);
    EXPECT_FALSE(original.empty()) << file;
    EXPECT_TRUE(original == client::testing::ReadText(replayed / file)) << file << " differs";
  }
}

TEST(ServeFarmTest, TokenIsRequiredFirst) {
  ServedWorker worker({"--token", "s3cret"});
  auto anonymous = worker.Connect();
  const std::string refused = anonymous->ErrorOf("GetSimulationState", Json::object());
  EXPECT_NE(refused.find("Hello"), std::string::npos) << refused;
  EXPECT_TRUE(WaitClosed(*anonymous));

  auto wrong = worker.Connect();
  EXPECT_NE(wrong->ErrorOf("Hello", {{"token", "guess"}}).find("wrong token"), std::string::npos);
  EXPECT_TRUE(WaitClosed(*wrong));

  auto member = worker.Connect();
  EXPECT_EQ(member->Body("Hello", {{"token", "s3cret"}})["success"], true);
  const Json state = member->Body("GetSimulationState");
  EXPECT_EQ(state["result"]["result"], 1) << state.dump();
  EXPECT_EQ(state["state"]["state"], 0);  // nothing loaded
}

TEST(ServeFarmTest, ServingBeyondLoopbackNeedsAToken) {
  testutil::TempDir dir;
  ::unsetenv("ASG_TOKEN");
  const std::filesystem::path output = dir.path() / "worker.out";
  EXPECT_EQ(client::testing::RunToEnd(testing::Executable("asg-worker"), {"--serve", "0.0.0.0:0"},
                                      output, std::chrono::seconds(10)),
            2);
  const std::string text = client::testing::ReadText(output);
  EXPECT_NE(text.find("--token"), std::string::npos) << text;
  EXPECT_EQ(text.find("serving"), std::string::npos) << text;
}

}  // namespace
}  // namespace asg::worker
