// Tests for worker/serve/requests.h: each service's body read into its request struct, the
// defaults of absent fields, and the refusals the services answer Error with.
#include "worker/serve/requests.h"

#include <gtest/gtest.h>

#include "worker/serve/simulation_clock.h"

namespace asg::worker::serve {
namespace {

using json::Json;

/// The message a body is refused with.
template <class T>
std::string Refusal(const Json& body) {
  try {
    ReadRequest<T>(body);
  } catch (const std::exception& error) {
    return error.what();
  }
  ADD_FAILURE() << body.dump() << " was read";
  return {};
}

TEST(RequestsTest, AnEmptyBodyHasNoFields) {
  EXPECT_NO_THROW(ReadRequest<EmptyRequest>(Json::object()));
  EXPECT_EQ(Refusal<EmptyRequest>({{"verbose", true}}), "verbose: unknown field");
  EXPECT_EQ(Refusal<StepsRequest>({{"verbose", true}}),
            "verbose: unknown field (fields: \"steps\")");
  EXPECT_EQ(Refusal<StepsRequest>({{"step", 2}}), "step: unknown field; did you mean \"steps\"?");
}

TEST(RequestsTest, StepsDefaultToOneAndLieInTheirRange) {
  EXPECT_EQ(ReadRequest<StepsRequest>(Json::object()).steps, 1u);
  EXPECT_EQ(ReadRequest<StepsRequest>({{"steps", 100000000}}).steps, SimulationClock::kMaxSteps);
  EXPECT_EQ(Refusal<StepsRequest>({{"steps", 0}}),
            "steps = 0: must be an integer in [1, 100000000]");
  EXPECT_EQ(Refusal<StepsRequest>({{"steps", 1000000000}}),
            "steps = 1000000000: must be an integer in [1, 100000000]");
  EXPECT_EQ(Refusal<StepsRequest>({{"steps", "ten"}}),
            "steps = \"ten\": must be an integer in [1, 100000000]");
  EXPECT_EQ(Refusal<StepsRequest>({{"steps", 1.5}}),
            "steps = 1.5: must be an integer in [1, 100000000]");
  EXPECT_EQ(Refusal<StepsRequest>({{"stepz", 5}}).rfind("stepz: unknown field", 0), 0u);
}

TEST(RequestsTest, SimulationStateAndScopeRanges) {
  EXPECT_EQ(ReadRequest<SetSimulationStateRequest>({{"state", {{"state", 3}}}}).state.state, 3);
  EXPECT_EQ(Refusal<SetSimulationStateRequest>({{"state", {{"state", 9}}}}),
            "state.state = 9: must be an integer in [0, 5]");
  EXPECT_EQ(Refusal<SetSimulationStateRequest>({{"state", 2}}), "state = 2: must be an object");
  EXPECT_EQ(ReadRequest<ResetRequest>(Json::object()).scope, 0);
  EXPECT_EQ(Refusal<ResetRequest>({{"scope", 256}}), "scope = 256: must be an integer in [0, 255]");
  EXPECT_EQ(Refusal<CancelRequest>({{"goal_id", -1}}),
            "goal_id = -1: must be an integer in [0, 9223372036854775807]");
}

TEST(RequestsTest, SpawnEntityReadsThePoseWithIdentityDefaults) {
  const Json body = {{"name", "rock"},
                     {"allow_renaming", true},
                     {"entity_resource", {{"uri", "asg://actor/rock"}}},
                     {"initial_pose",
                      {{"header", {{"frame_id", "world"}, {"stamp", {{"sec", 1}}}}},
                       {"pose", {{"position", {{"x", 3.0}, {"y", 4.0}}}}}}}};
  const auto spawn = ReadRequest<SpawnRequestBody>(body);
  EXPECT_EQ(spawn.name, "rock");
  EXPECT_TRUE(spawn.allow_renaming);
  EXPECT_EQ(spawn.entity_resource.uri, "asg://actor/rock");
  EXPECT_EQ(spawn.entity_resource.resource_string, "");
  EXPECT_EQ(spawn.initial_pose.header.frame_id, "world");
  EXPECT_EQ(spawn.initial_pose.pose.position.ToEigen(), Eigen::Vector3d(3.0, 4.0, 0.0));
  EXPECT_TRUE(spawn.initial_pose.pose.Orientation("initial_pose.pose")
                  .isApprox(Eigen::Quaterniond::Identity()));
  EXPECT_EQ(Refusal<SpawnRequestBody>({{"name", 7}}), "name = 7: must be a string");
  EXPECT_EQ(Refusal<SpawnRequestBody>({{"initial_pose", {{"pose", {{"position", {{"x", "a"}}}}}}}}),
            "initial_pose.pose.position.x = \"a\": must be a number");
  EXPECT_EQ(Refusal<SpawnRequestBody>({{"initial_pose", {{"header", {{"stamp", 5}}}}}}),
            "initial_pose.header.stamp = 5: must be an object");
  EXPECT_EQ(Refusal<SpawnRequestBody>({{"entity_resource", {{"url", "x"}}}})
                .rfind("entity_resource.url: unknown field", 0),
            0u);
}

TEST(RequestsTest, FiltersReadCategoriesTagsAndBounds) {
  const Json body = {
      {"filters",
       {{"filter", "^tree"},
        {"categories", {{{"category", 5}}}},
        {"tags", {{"tags", {"scenario", "obstacle"}}, {"filter_mode", 1}}},
        {"bounds",
         {{"type", 1}, {"points", {{{"x", 1.0}}, {{"x", 2.0}, {"y", 2.0}, {"z", 2.0}}}}}}}}};
  const FiltersValue filters = ReadRequest<FilteredRequest>(body).filters;
  EXPECT_EQ(filters.filter, "^tree");
  ASSERT_EQ(filters.categories.size(), 1u);
  EXPECT_EQ(filters.categories[0].category, 5);
  EXPECT_EQ(filters.tags.tags, (std::vector<std::string>{"scenario", "obstacle"}));
  EXPECT_EQ(filters.tags.filter_mode, 1);
  EXPECT_EQ(filters.bounds.type, 1);
  ASSERT_EQ(filters.bounds.points.size(), 2u);
  EXPECT_EQ(filters.bounds.points[1].z, 2.0);
  EXPECT_EQ(Refusal<FilteredRequest>({{"filters", {{"categories", {{{"category", -1}}}}}}}),
            "filters.categories[0].category = -1: must be an integer in [0, 255]");
  EXPECT_EQ(Refusal<FilteredRequest>({{"filters", {{"tags", {{"tags", {"a", 5}}}}}}}),
            "filters.tags.tags[1] = 5: must be a string");
  EXPECT_EQ(Refusal<FilteredRequest>({{"filters", {{"bounds", {{"type", 4}}}}}}),
            "filters.bounds.type = 4: must be an integer in [0, 3]");
  EXPECT_EQ(Refusal<SpawnablesRequest>({{"sources", {1}}}), "sources[0] = 1: must be a string");
}

TEST(RequestsTest, SetEntityStateReadsEveryPart) {
  const Json body = {{"entity", "vehicle"},
                     {"state",
                      {{"pose", {{"orientation", {{"z", 1.0}, {"w", 0.0}}}}},
                       {"twist", {{"linear", {{"x", 2.0}}}}},
                       {"acceleration", {{"angular", {{"z", 9.0}}}}}}},
                     {"set_pose", true},
                     {"set_acceleration", true}};
  const auto request = ReadRequest<SetEntityStateRequest>(body);
  EXPECT_EQ(request.entity, "vehicle");
  EXPECT_EQ(request.state.pose.orientation->z, 1.0);
  EXPECT_EQ(request.state.pose.orientation->w, 0.0);
  EXPECT_EQ(request.state.twist.linear.x, 2.0);
  EXPECT_TRUE(request.set_pose);
  EXPECT_FALSE(request.set_twist);
  EXPECT_EQ(
      Refusal<SetEntityStateRequest>({{"state", {{"pose", {{"position", {{"x", nullptr}}}}}}}}),
      "state.pose.position.x = null: must be a number");
}

TEST(RequestsTest, RuntimeActorsGiveOnlyThePartsPresent) {
  const Json body = {{"actors",
                      {{{"actor_id", "tree_0_0"}, {"pose", {{"position", {{"x", 1.0}}}}}},
                       {{"actor_id", "vehicle"}, {"velocity", {{"x", 3.0}}}}}}};
  const auto request = ReadRequest<SetRuntimeActorsRequest>(body);
  ASSERT_EQ(request.actors.size(), 2u);
  EXPECT_TRUE(request.actors[0].pose.has_value());
  EXPECT_FALSE(request.actors[0].velocity.has_value());
  EXPECT_FALSE(request.actors[1].pose.has_value());
  EXPECT_EQ(request.actors[1].velocity->x, 3.0);
  EXPECT_FALSE(request.actors[1].angular_velocity.has_value());
  EXPECT_EQ(Refusal<SetRuntimeActorsRequest>(
                {{"actors", {{{"pose", {{"orientation", {{"w", "one"}}}}}}}}}),
            "actors[0].pose.orientation.w = \"one\": must be a number");
  EXPECT_EQ(Refusal<RuntimeActorsQuery>({{"actor_ids", {"a", 5}}}),
            "actor_ids[1] = 5: must be a string");
}

TEST(RequestsTest, LogQueriesAndLevels) {
  const auto query = ReadRequest<CommunicationQueryRequest>({{"client_id", 2}, {"type", "Error"}});
  EXPECT_EQ(query.client_id, 2);
  EXPECT_EQ(query.type, "Error");
  EXPECT_FALSE(query.level.has_value());
  EXPECT_EQ(Refusal<CommunicationQueryRequest>({{"level", "debug"}}),
            "level = \"debug\": must be info, warning or error");
  EXPECT_EQ(Refusal<DiagnosticQueryRequest>({{"type", "Error"}}).rfind("type: unknown field", 0),
            0u);
  EXPECT_EQ(Refusal<DiagnosticQueryRequest>({{"client_id", -1}}),
            "client_id = -1: must be an integer in [0, 2147483647]");
  EXPECT_EQ(ReadRequest<DiagnosticRequest>({{"message", "m"}}).level, "info");
  EXPECT_EQ(Refusal<DiagnosticRequest>({{"level", "fatal"}, {"message", "x"}}),
            "level = \"fatal\": must be info, warning or error");
  EXPECT_TRUE(ReadRequest<EnableLoggingRequest>(Json::object()).enable);
}

TEST(RequestsTest, WeatherKeepsTheDefaultsItIsGiven) {
  WeatherRequest weather;
  weather.sun_inclination = 12.0;
  ReadRequest({{"haze_distance", 80.0}}, &weather);
  EXPECT_EQ(weather.sun_inclination, 12.0);
  EXPECT_EQ(weather.haze_distance, 80.0);
  EXPECT_EQ(weather.profile_id, "custom");
}

TEST(RequestsTest, WeatherTakesMonoDrivesProfileForm) {
  const Json body = Json::parse(R"({"set_profile": "Dusk", "profiles": [
      {"id": "Dusk", "SunPolarAngle": 86, "SunAzimuthAngle": 174, "SunBrightness": 1.8,
       "ZenithColor": {"R": 0.04, "G": 0.04, "B": 0.1, "A": 1.0}, "bPrecipitation": false,
       "PrecipitationType": "Rain", "CameraPostProcessParameters": {"AutoExposureBias": -3.5}},
      {"id": "Noon"}]})");
  const auto weather = ReadRequest<WeatherRequest>(body);
  EXPECT_EQ(weather.set_profile, "Dusk");
  ASSERT_EQ(weather.profiles.size(), 2u);
  EXPECT_EQ(weather.profiles[0].sun_polar_angle, 86.0);
  EXPECT_EQ(weather.profiles[0].sun_azimuth_angle, 174.0);
  EXPECT_EQ(weather.profiles[1].sun_polar_angle, 44.586);
  EXPECT_EQ(
      Refusal<WeatherRequest>(Json::parse(R"({"profiles": [{"id": "a", "SunPolarAngel": 1}]})")),
      "profiles[0].SunPolarAngel: unknown field; did you mean \"SunPolarAngle\"?");
  EXPECT_EQ(Refusal<WeatherRequest>(Json::parse(R"({"profiles": [{"id": "a", "bWind": 1}]})")),
            "profiles[0].bWind = 1: must be true or false");
}

TEST(RequestsTest, ProjectMessagesAreTakenAsObjects) {
  const auto load = ReadRequest<LoadScenarioRequest>({{"request", {{"scenario_number", 3}}}});
  EXPECT_EQ(load.request["scenario_number"], 3);
  EXPECT_EQ(load.folder, "");
  EXPECT_TRUE(ReadRequest<LoadScenarioRequest>({{"folder", "/x"}}).request.is_null());
  EXPECT_EQ(Refusal<LoadScenarioRequest>({{"request", nullptr}}),
            "request = null: must be an object");
  EXPECT_EQ(Refusal<CaptureSceneRequest>({{"scene_capture_settings", 1}}),
            "scene_capture_settings = 1: must be an object");
  EXPECT_EQ(Refusal<SampleSensorsRequest>({{"timeout", -5}}),
            "timeout = -5: must be an integer in [0, 2147483647]");
  EXPECT_EQ(ReadRequest<PaceRequest>(Json::object()).simulation_pace, 1.0);
  EXPECT_EQ(ReadRequest<ClosedLoopStepRequest>({{"time_step", 0.05}}).time_step, 0.05);
  EXPECT_EQ(ReadRequest<RegisterClientRequest>({{"name", "viewer"}}).name, "viewer");
  EXPECT_EQ(ReadRequest<EntityRequest>({{"entity", "bush_1_0"}}).entity, "bush_1_0");
}

TEST(RequestsTest, RoadRunnerControlFieldsAreRead) {
  EXPECT_EQ(ReadRequest<PauseRequest>({{"pause_simulation", true}}).pause_simulation, true);
  EXPECT_FALSE(ReadRequest<PauseRequest>(Json::object()).pause_simulation);
  EXPECT_EQ(Refusal<PauseRequest>({{"pause_simulation", "yes"}}),
            "pause_simulation = \"yes\": must be true or false");
  EXPECT_EQ(ReadRequest<PaceRequest>({{"is_pacer_on", false}}).is_pacer_on, false);
  const StopRequest stop = ReadRequest<StopRequest>(
      {{"cause", {{"summary", "done"}, {"simulation_failed", {{"failure_status", 1}}}}}});
  ASSERT_TRUE(stop.cause);
  EXPECT_EQ(stop.cause->summary, "done");
  EXPECT_EQ(stop.cause->simulation_failed["failure_status"], 1);
  EXPECT_TRUE(stop.cause->simulation_complete.is_null());
  EXPECT_EQ(Refusal<StopRequest>({{"cause", {{"simulation_complete", 3}}}}),
            "cause.simulation_complete = 3: must be an object");
}

}  // namespace
}  // namespace asg::worker::serve
