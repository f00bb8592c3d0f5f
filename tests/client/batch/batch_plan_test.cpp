// Tests for client/batch/batch.h.
// Planning: numbering, merging, seeds, variants, settings and generated scenarios.
#include <gtest/gtest.h>

#include <string>

#include "client/batch/batch.h"
#include "client/batch/batch_seed.h"
#include "protocol/messages_json.h"
#include "tests/client/batch/batch_text.h"

namespace asg::client {
namespace {

TEST(BatchTest, ListedScenariosAreNumberedInOrderSkippingGivenNumbers) {
  const Batch batch = Parse(R"({"scenarios": [{}, {"scenario_number": 2}, {},
                                              {"scenario_number": 5}, {}]})");
  ASSERT_EQ(batch.scenarios.size(), 5u);
  const std::pair<uint32_t, const char*> expected[] = {{1, "scenarios[0]"},
                                                       {2, "scenarios[1]"},
                                                       {3, "scenarios[2]"},
                                                       {4, "scenarios[4]"},
                                                       {5, "scenarios[3]"}};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(batch.scenarios[i].scenario_number, expected[i].first);
    EXPECT_EQ(batch.scenarios[i].source, expected[i].second);
    EXPECT_EQ(batch.scenarios[i].request.scenario_number, static_cast<int32_t>(expected[i].first));
  }
  ASSERT_NE(batch.Find(4), nullptr);
  EXPECT_EQ(batch.Find(4)->source, "scenarios[4]");
  EXPECT_EQ(batch.Find(6), nullptr);
}

TEST(BatchTest, DefaultsMergeWithOverridesAndRequestDefaults) {
  const Batch batch = Parse(R"({"defaults": {"goal_radius": 7,
      "scene_description": {"sunlight_inclination": 40}},
      "scenarios": [{"scene_description": {"sunlight_yaw_angle": 90}}, {"goal_radius": 2}]})");
  ASSERT_EQ(batch.scenarios.size(), 2u);
  const protocol::RunScenarioRequest& first = batch.scenarios[0].request;
  EXPECT_EQ(first.goal_radius, 7.0);
  EXPECT_EQ(first.scene_description.sunlight_inclination, 40.0);
  EXPECT_EQ(first.scene_description.sunlight_yaw_angle, 90.0);
  EXPECT_EQ(first.scene_description.landscape.nominal_size, 60.0);  // request default
  EXPECT_EQ(batch.scenarios[1].request.goal_radius, 2.0);
  EXPECT_EQ(batch.scenarios[1].request.scene_description.sunlight_yaw_angle, 0.0);
}

TEST(BatchTest, TheGoalSphereColourMergesInEitherSpelling) {
  // The documentation page's goal_shere_color in defaults, the .msg's goal_sphere_color in a
  // scenario: one field, the scenario's value over the defaults'.
  const Batch batch = Parse(R"({"defaults": {"scene_capture_settings":
      {"goal_shere_color": {"r": 1, "g": 0, "b": 0, "a": 1}}},
      "scenarios": [{}, {"scene_capture_settings": {"goal_sphere_color": {"r": 0, "g": 1, "b": 0,
                                                                           "a": 1}}}]})");
  ASSERT_EQ(batch.scenarios.size(), 2u);
  EXPECT_EQ(batch.scenarios[0].status, PlanStatus::kValid) << batch.scenarios[0].error;
  EXPECT_EQ(batch.scenarios[0].request.scene_capture_settings.goal_sphere_color.r, 1.0f);
  EXPECT_EQ(batch.scenarios[1].status, PlanStatus::kValid) << batch.scenarios[1].error;
  EXPECT_EQ(batch.scenarios[1].request.scene_capture_settings.goal_sphere_color.g, 1.0f);
  EXPECT_EQ(batch.scenarios[1].request.scene_capture_settings.goal_sphere_color.r, 0.0f);
  const Json written = batch.scenarios[0].request;
  EXPECT_TRUE(written["scene_capture_settings"].contains("goal_sphere_color"));
  EXPECT_FALSE(written["scene_capture_settings"].contains("goal_shere_color"));
}

TEST(BatchVariants, EveryLayoutRunsOncePerVariantOnTheSameScene) {
  const Batch batch = Parse(R"({"seed": 3,
      "defaults": {"driver": {"type": "planner", "speed": 4},
                   "vehicle_start_location": {"x": 5, "y": 5, "z": 0}},
      "scenarios": [{"goal_radius": 3}, {"goal_radius": 4}],
      "generate": {"count": 2, "actors": [{"path_name": "tree", "count": 2, "x": [20, 40],
                   "y": [20, 40]}], "start_clearance": 3, "goal_clearance": 3},
      "variants": [{"name": "planner"}, {"name": "straight", "driver": {"type": "straight"}}]})");
  ASSERT_EQ(batch.scenarios.size(), 8u);
  EXPECT_EQ(batch.variants, (std::vector<std::string>{"planner", "straight"}));
  for (uint32_t layout = 1; layout <= 4; ++layout) {
    const PlannedScenario& a = *batch.Find(2 * layout - 1);
    const PlannedScenario& b = *batch.Find(2 * layout);
    ASSERT_EQ(a.status, PlanStatus::kValid) << a.error;
    ASSERT_EQ(b.status, PlanStatus::kValid) << b.error;
    EXPECT_EQ(a.variant, "planner");
    EXPECT_EQ(b.variant, "straight");
    EXPECT_EQ(a.layout, layout);
    EXPECT_EQ(b.layout, layout);
    EXPECT_EQ(a.seed, ScenarioSeed(3, layout));
    EXPECT_EQ(b.seed, a.seed);
    EXPECT_EQ(b.request.seed, a.seed);
    EXPECT_EQ(a.request_json["scene_description"], b.request_json["scene_description"]) << layout;
    EXPECT_EQ(a.request_json["goal_radius"], b.request_json["goal_radius"]);
    EXPECT_EQ(a.request.driver.type, protocol::DriverSpec::Type::kPlanner);
    EXPECT_EQ(b.request.driver.type, protocol::DriverSpec::Type::kStraight);
    EXPECT_EQ(a.request.driver.speed, 4.0);
    EXPECT_EQ(b.request.driver.speed, 5.0);  // a driver of another type replaces the layout's
    EXPECT_EQ(b.request_json["scenario_number"], 2 * layout);
  }
  // The generated layouts have their trees, the same in both variants.
  EXPECT_EQ(batch.Find(5)->request.scene_description.ssa_array.at(0).num_instances, 2);
}

TEST(BatchTest, ABatchInAutoSceneGenUnitsPlansRequestsInTheFarmsUnits) {
  const Batch batch = Parse(R"({"units": "autoscenegen",
      "defaults": {"vehicle_start_location": {"x": 1000, "y": -1000, "z": 0}, "goal_radius": 400,
                   "vehicle_stuck_timeout_period": 5, "vehicle_idling_timeout_period": 5},
      "scenarios": [{"vehicle_goal_location": {"x": 5000, "y": -5000, "z": 0},
                     "vehicle_start_yaw": -45}],
      "variants": [{"name": "near", "goal_radius": 250}, {"name": "far"}]})");
  ASSERT_EQ(batch.scenarios.size(), 2u);
  const protocol::RunScenarioRequest& near = batch.scenarios[0].request;
  EXPECT_EQ(near.vehicle_start_location.y, 10.0);
  EXPECT_EQ(near.vehicle_goal_location.x, 50.0);
  EXPECT_EQ(near.vehicle_goal_location.y, 50.0);
  EXPECT_EQ(near.vehicle_start_yaw, 45.0);
  EXPECT_EQ(near.goal_radius, 2.5);
  EXPECT_EQ(batch.scenarios[1].request.goal_radius, 4.0);
  // What the batch leaves out is the farm's default, in the farm's units.
  EXPECT_EQ(near.scene_capture_settings.goal_sphere_thickness, 0.5);
  EXPECT_FALSE(batch.scenarios[0].request_json.contains("units"));
}

TEST(BatchTest, AScenarioWithoutASimTimeoutGetsTheDefaultOne) {
  const Batch batch = Parse(R"({"scenarios": [{}, {"sim_timeout_period": 30},
      {"sim_timeout_period": -1}]})");
  EXPECT_EQ(batch.scenarios[0].request.sim_timeout_period, kDefaultSimTimeout);
  EXPECT_EQ(batch.scenarios[0].request_json["sim_timeout_period"], 120.0);
  EXPECT_EQ(batch.scenarios[1].request.sim_timeout_period, 30.0);
  EXPECT_EQ(batch.scenarios[2].request.sim_timeout_period, kDefaultSimTimeout);
}

TEST(BatchTest, SeedsDeriveFromBatchSeedAndNumberUnlessGiven) {
  const Batch batch = Parse(R"({"seed": 7, "scenarios": [{}, {}, {"seed": 99}]})");
  ASSERT_EQ(batch.scenarios.size(), 3u);
  EXPECT_EQ(batch.scenarios[0].seed, ScenarioSeed(7, 1));
  EXPECT_EQ(batch.scenarios[0].request.seed, ScenarioSeed(7, 1));
  EXPECT_EQ(batch.scenarios[0].request_json["seed"], ScenarioSeed(7, 1));
  EXPECT_EQ(batch.scenarios[1].seed, ScenarioSeed(7, 2));
  EXPECT_NE(batch.scenarios[0].seed, batch.scenarios[1].seed);
  EXPECT_EQ(batch.scenarios[2].seed, 99u);
  EXPECT_EQ(batch.scenarios[2].request.seed, 99u);
}

TEST(BatchTest, ValidRequestJsonIsTheFullReencodedRequest) {
  const Batch batch = Parse(R"({"scenarios": [{"goal_radius": 3}]})");
  const Json& json = batch.scenarios[0].request_json;
  EXPECT_EQ(json["goal_radius"], 3.0);
  EXPECT_TRUE(json.contains("vehicle"));
  EXPECT_TRUE(json.contains("scene_capture_settings"));
}

TEST(BatchTest, ClientSettingsHaveDefaultsAndOverrides) {
  const Batch plain = Parse(R"({"scenarios": [{}]})");
  EXPECT_EQ(plain.settings.name, "test");
  EXPECT_EQ(plain.settings.max_attempts, 3u);
  EXPECT_EQ(plain.settings.scenario_timeout_s, 300.0);
  EXPECT_EQ(plain.settings.vehicle_nodes, BatchNodeSettings{});
  EXPECT_EQ(plain.settings.vehicle_nodes.max_reruns, 3u);
  EXPECT_FALSE(plain.settings.vehicle_nodes.save_minimal);
  const Batch custom = Parse(R"({"name": "n", "max_attempts": 5, "scenario_timeout_s": 12.5,
      "vehicle_nodes": {"count": 2}, "scenarios": [{}]})");
  EXPECT_EQ(custom.settings.name, "n");
  EXPECT_EQ(custom.settings.max_attempts, 5u);
  EXPECT_EQ(custom.settings.scenario_timeout_s, 12.5);
  EXPECT_EQ(custom.settings.vehicle_nodes.spec.count, 2u);
  EXPECT_TRUE(custom.settings.vehicle_nodes.spec.sync);
  EXPECT_NE(ErrorOf(R"({"max_attempts": 0, "scenarios": [{}]})").find("max_attempts"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"scenario_timeout_s": -1, "scenarios": [{}]})").find("scenario_timeout"),
            std::string::npos);
}

TEST(BatchTest, TopLevelVehicleNodesReachEveryRequestWithoutClientOnlyKeys) {
  const Batch batch = Parse(R"({"vehicle_nodes": {"count": 2, "sync": false, "max_reruns": 1,
      "save_minimal": true, "sensors": [{"type": "camera", "name": "front"}]},
      "scenarios": [{}, {"vehicle_nodes": {"count": 0}}], "generate": {"count": 1}})");
  ASSERT_EQ(batch.scenarios.size(), 3u);
  for (const PlannedScenario& planned : batch.scenarios) {
    ASSERT_EQ(planned.status, PlanStatus::kValid) << planned.error;
    EXPECT_FALSE(planned.request.vehicle_nodes.sync) << planned.source;
    ASSERT_EQ(planned.request.vehicle_nodes.sensors.size(), 1u) << planned.source;
    EXPECT_FALSE(planned.request_json["vehicle_nodes"].contains("max_reruns"));
    EXPECT_FALSE(planned.request_json["vehicle_nodes"].contains("save_minimal"));
  }
  EXPECT_EQ(batch.scenarios[0].request.vehicle_nodes.count, 2u);
  EXPECT_EQ(batch.scenarios[1].request.vehicle_nodes.count, 0u);  // the override wins
  EXPECT_EQ(batch.scenarios[2].request.vehicle_nodes.count, 2u);  // generated
  // The client-side settings are kept typed beside the spec.
  EXPECT_EQ(batch.settings.vehicle_nodes.max_reruns, 1u);
  EXPECT_TRUE(batch.settings.vehicle_nodes.save_minimal);
  EXPECT_FALSE(batch.settings.vehicle_nodes.spec.sync);
  // Without a top-level vehicle_nodes the built-in driver runs.
  EXPECT_EQ(Parse(R"({"scenarios": [{}]})").scenarios[0].request.vehicle_nodes.count, 0u);
}

TEST(BatchTest, TheRegretSectionReachesEveryRequestOnlyWhenNotTheDefault) {
  // The default formula leaves the requests as they were: no "regret" key at all.
  const Batch plain = Parse(R"({"scenarios": [{}], "generate": {"count": 1}})");
  for (const PlannedScenario& planned : plain.scenarios) {
    ASSERT_EQ(planned.status, PlanStatus::kValid) << planned.error;
    EXPECT_FALSE(planned.request_json.contains("regret")) << planned.source;
    EXPECT_FALSE(planned.request.regret.has_value());
  }
  const Batch named = Parse(R"({"regret": {"failure_time": "failure_moment"}, "scenarios": [{}]})");
  EXPECT_FALSE(named.scenarios[0].request_json.contains("regret"));

  // The research code's formula is written into every request and decoded back from it.
  const Batch old = Parse(R"({"regret": {"failure_time": "end_of_run"},
      "scenarios": [{}, {"regret": {"failure_time": "failure_moment"}}], "generate": {"count": 1}})");
  ASSERT_EQ(old.scenarios.size(), 3u);
  EXPECT_EQ(old.settings.regret.spec.failure_time, regret::FailureTime::kEndOfRun);
  for (const PlannedScenario& planned : old.scenarios) {
    ASSERT_EQ(planned.status, PlanStatus::kValid) << planned.error;
    ASSERT_TRUE(planned.request.regret.has_value()) << planned.source;
    EXPECT_EQ(protocol::DecodeMessage<protocol::RunScenarioRequest>(planned.request_json).regret,
              planned.request.regret);
  }
  EXPECT_EQ(old.scenarios[0].request_json["regret"],
            Json::parse(R"({"failure_time": "end_of_run"})"));
  EXPECT_EQ(old.scenarios[1].request.regret->failure_time,
            regret::FailureTime::kFailureMoment);  // the override wins
  EXPECT_EQ(old.scenarios[2].request.regret->failure_time, regret::FailureTime::kEndOfRun);
}

TEST(BatchTest, GeneratedScenariosAreNumberedAfterListedOnes) {
  const Batch batch = Parse(R"({"scenarios": [{"scenario_number": 10}, {}],
                                "generate": {"count": 3}})");
  ASSERT_EQ(batch.scenarios.size(), 5u);
  const uint32_t expected[] = {1, 10, 11, 12, 13};
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(batch.scenarios[i].scenario_number, expected[i]);
  EXPECT_EQ(batch.Find(11)->source, "generate[0]");
  EXPECT_EQ(batch.Find(13)->source, "generate[2]");
  EXPECT_EQ(batch.Find(13)->status, PlanStatus::kValid);

  const Batch started =
      Parse(R"({"scenarios": [{}], "generate": {"count": 2, "start_number": 7}})");
  EXPECT_NE(started.Find(7), nullptr);
  EXPECT_NE(started.Find(8), nullptr);
  EXPECT_NE(ErrorOf(R"({"scenarios": [{}], "generate": {"count": 2, "start_number": 1}})")
                .find("scenario number 1 is already used by scenarios[0]"),
            std::string::npos);
}

TEST(BatchTest, GenerationFailureMakesThatScenarioInvalid) {
  // The whole square lies within the start's clearance: no position can be found.
  const Batch batch = Parse(R"({"defaults": {"vehicle_start_location": {"x": 5, "y": 5, "z": 0}},
      "generate": {"count": 1, "max_tries": 20, "actors": [{"path_name": "/Game/Rock",
      "count": 1, "x": [0, 10], "y": [0, 10]}], "start_clearance": 100}})");
  ASSERT_EQ(batch.scenarios.size(), 1u);
  EXPECT_EQ(batch.scenarios[0].status, PlanStatus::kInvalid);
  EXPECT_EQ(batch.scenarios[0].error.rfind("generate[0]: actor \"/Game/Rock\": no position", 0), 0u)
      << batch.scenarios[0].error;
}

}  // namespace
}  // namespace asg::client
