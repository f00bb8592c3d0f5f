// Scenarios and request builders of the simulation_interfaces tests of the interactive worker
// (e2e_simif_test.cpp, e2e_simif_state_test.cpp): a scenario with hand-placed actors whose
// entity names are known, one that never ends by itself, and short JSON builders.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "protocol/messages_json.h"
#include "tests/scene/scene_test_util.h"
#include "tests/worker/serve/served_worker.h"
#include "tests/worker/small_request.h"

namespace asg::worker::testing {

using json::Json;

/// The reference request (flat 60 m landscape, vehicle at (10, 10) heading 45 deg, the straight
/// driver at 5 m/s to (50, 50)) with three junipers at (10, 40), (15, 50), (25, 55) (entities
/// tree_0_0, tree_0_1, tree_0_2) and two barberry bushes at (40, 10), (50, 20) (bush_1_0,
/// bush_1_1): six entities with the vehicle.
inline protocol::RunScenarioRequest KnownScenario() {
  protocol::RunScenarioRequest request = scene::testing::ReferenceRequest();
  scene::testing::AddActors(&request, scene::testing::kTree, {10.0, 15.0, 25.0},
                            {40.0, 50.0, 55.0});
  scene::testing::AddActors(&request, scene::testing::kBush, {40.0, 50.0}, {10.0, 20.0});
  return request;
}

/// The entity names of KnownScenario, in GetEntities order.
inline std::vector<std::string> KnownNames() {
  return {"vehicle", "tree_0_0", "tree_0_1", "tree_0_2", "bush_1_0", "bush_1_1"};
}

/// The small scenario with the idle driver and no timeouts: it never ends by itself.
inline protocol::RunScenarioRequest EndlessScenario() {
  protocol::RunScenarioRequest request = SmallRequest();
  request.driver.type = protocol::DriverSpec::Type::kIdle;
  request.sim_timeout_period = -1.0;
  request.vehicle_idling_timeout_period = -1.0;
  request.vehicle_stuck_timeout_period = -1.0;
  return request;
}

/// LoadScenario's reply to `request`.
inline Json Load(ServedClient& client, const protocol::RunScenarioRequest& request) {
  return client.Body("LoadScenario", {{"request", Json(request)}});
}

/// The simulation_interfaces result code of a reply.
inline int Code(const Json& reply) { return reply.at("result").at("result").get<int>(); }

/// The error_message of a simulation_interfaces reply refusing a request it cannot use
/// (RESULT_OPERATION_FAILED; fails the test on any other code).
inline std::string FailureOf(ServedClient& client, const std::string& service, const Json& body) {
  const Json reply = client.Body(service, body);
  EXPECT_EQ(Code(reply), 4) << service << " " << body.dump() << ": " << reply.dump();
  return reply.at("result").at("error_message").get<std::string>();
}

/// The strings of a JSON array.
inline std::vector<std::string> Strings(const Json& list) {
  return list.get<std::vector<std::string>>();
}

/// {x, y, z}.
inline Json Vec(double x, double y, double z) { return {{"x", x}, {"y", y}, {"z", z}}; }

/// A rotation by `yaw_deg` about the vertical, {x, y, z, w}.
inline Json Yaw(double yaw_deg) {
  const double half = yaw_deg * M_PI / 360.0;
  return {{"x", 0.0}, {"y", 0.0}, {"z", std::sin(half)}, {"w", std::cos(half)}};
}

/// A SpawnEntity request of `uri` named `name` at (x, y).
inline Json SpawnBody(const std::string& name, const std::string& uri, double x, double y,
                      bool allow_renaming = false, const std::string& entity_namespace = "") {
  return {{"name", name},
          {"allow_renaming", allow_renaming},
          {"entity_resource", {{"uri", uri}, {"resource_string", ""}}},
          {"entity_namespace", entity_namespace},
          {"initial_pose",
           {{"header", {{"frame_id", "world"}}},
            {"pose", {{"position", Vec(x, y, 0.0)}, {"orientation", Yaw(0.0)}}}}}};
}

/// A SetEntityState request that sets the pose of `entity` (and the twist when given).
inline Json SetStateBody(const std::string& entity, const Json& position, const Json& orientation,
                         const Json& linear = nullptr, const Json& angular = nullptr) {
  Json state = {{"header", {{"frame_id", "world"}}},
                {"pose", {{"position", position}, {"orientation", orientation}}}};
  const bool set_twist = !linear.is_null();
  if (set_twist) state["twist"] = {{"linear", linear}, {"angular", angular}};
  return {{"entity", entity}, {"state", state}, {"set_pose", true}, {"set_twist", set_twist}};
}

/// GetEntityState's `state` of `entity` (fails the test when the result is not OK).
inline Json StateOf(ServedClient& client, const std::string& entity) {
  const Json reply = client.Body("GetEntityState", {{"entity", entity}});
  EXPECT_EQ(Code(reply), 1) << entity << ": " << reply.dump();
  return reply.value("state", Json::object());
}

/// A position or vector of a state as {x, y, z} numbers.
inline std::vector<double> Xyz(const Json& v) {
  return {v.at("x").get<double>(), v.at("y").get<double>(), v.at("z").get<double>()};
}

/// [s] GetSimulationTime's simulation_time.
inline double Time(ServedClient& client) {
  return client.Body("GetSimulationTime").at("simulation_time").get<double>();
}

/// GetSimulationState's state.
inline int StateNumber(ServedClient& client) {
  return client.Body("GetSimulationState").at("state").at("state").get<int>();
}

/// [s] wall time since `start`.
inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace asg::worker::testing
