// Tests for client/batch/generate.h.
#include "client/batch/generate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "protocol/messages_json.h"

namespace asg::client {
namespace {

constexpr const char* kSection = R"({
  "count": 200,
  "actors": [
    {"path_name": "/Game/Tree", "count": 6, "x": [0, 60], "y": [0, 60]},
    {"path_name": "/Game/Bush", "count": [2, 4], "x": [0, 60], "y": [0, 60], "yaw": [10, 20],
     "scale": [0.5, 2], "cast_shadow": false}],
  "start": {"x": [5, 15], "y": [5, 15], "yaw": [0, 90]},
  "goal": {"x": [45, 55], "y": 50},
  "goal_radius": [3, 6],
  "sim_timeout_period": [10, 20],
  "vehicle_idling_timeout_period": 5,
  "sunlight_inclination": [20, 60],
  "start_clearance": 10, "goal_clearance": 8})";

GenerateSpec Spec() { return ParseGenerateSpec(Json::parse(kSection), "test.json", "generate"); }

const Json kDefaults = Json::parse(R"({"vehicle_stuck_timeout_period": 4})");

bool Within(const Json& value, double min, double max) {
  return value.get<double>() >= min && value.get<double>() <= max;
}

TEST(ParseGenerateSpecTest, ReadsRangesAndFixedValues) {
  const GenerateSpec spec = Spec();
  EXPECT_EQ(spec.count, 200u);
  ASSERT_EQ(spec.actors.size(), 2u);
  EXPECT_EQ(spec.actors[0].count_min, 6);
  EXPECT_EQ(spec.actors[0].count_max, 6);
  EXPECT_EQ(spec.actors[0].yaw, (SampledRange{0, 360}));
  EXPECT_EQ(spec.actors[1].count_max, 4);
  EXPECT_FALSE(spec.actors[1].cast_shadow);
  EXPECT_EQ(*spec.goal_y, (SampledRange{50, 50}));
  EXPECT_EQ(spec.goal_clearance, 8.0);
  EXPECT_FALSE(spec.sunlight_yaw_angle.has_value());
}

// The BatchError message for parsing `section`; fails the test if none is thrown.
std::string ErrorOf(const std::string& section) {
  try {
    ParseGenerateSpec(Json::parse(section), "b.json", "generate");
  } catch (const BatchError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no BatchError for " << section;
  return "";
}

TEST(ParseGenerateSpecTest, BadSectionsNameThePath) {
  EXPECT_EQ(ErrorOf(R"({"count": 1, "goal_radius": [5, 1]})"),
            "b.json: generate.goal_radius: min > max in [5,1]");
  EXPECT_EQ(ErrorOf(R"({"count": 1, "colour": 1})"), "b.json: generate.colour: unknown field");
  EXPECT_EQ(ErrorOf(R"({"count": 1, "actors": [{"count": 1, "x": 1, "y": 1}]})"),
            "b.json: generate.actors[0].path_name: missing required field");
  EXPECT_EQ(ErrorOf(R"({"count": 1, "actors": [{"path_name": "a", "count": 1, "x": "1",
            "y": 1}]})"),
            "b.json: generate.actors[0].x: expected a number or [min, max], got \"1\"");
  EXPECT_EQ(ErrorOf(R"({"count": -1})"),
            "b.json: generate.count: expected an integer in 0..65535, got -1");
  EXPECT_EQ(ErrorOf(R"({"count": 1, "start": {"z": 1}})"),
            "b.json: generate.start.z: unknown field");
}

TEST(ParseGenerateSpecTest, ATypoGetsTheKeyItLikelyMeant) {
  EXPECT_EQ(ErrorOf(R"({"count": 1, "goal_radious": 5})"),
            "b.json: generate.goal_radious: unknown field; did you mean \"goal_radius\"?");
  EXPECT_EQ(ErrorOf(R"({"count": 1, "actors": [{"path_name": "a", "count": 1, "x": 1, "y": 1,
            "scalee": 2}]})"),
            "b.json: generate.actors[0].scalee: unknown field; did you mean \"scale\"?");
  EXPECT_EQ(ErrorOf(R"({"count": 1, "actors": [{"path_name": "a", "count": [3, 1], "x": 1,
            "y": 1}]})"),
            "b.json: generate.actors[0].count: min > max in [3,1]");
}

TEST(GenerateScenarioTest, EveryValueLiesInItsRangeAndActorsKeepClear) {
  const GenerateSpec spec = Spec();
  for (uint32_t number = 1; number <= spec.count; ++number) {
    const Json request = GenerateScenario(spec, kDefaults, number, 1000 + number);
    EXPECT_EQ(request["scenario_number"], number);
    EXPECT_EQ(request["seed"], 1000 + number);
    const double start_x = request["vehicle_start_location"]["x"];
    const double start_y = request["vehicle_start_location"]["y"];
    const double goal_x = request["vehicle_goal_location"]["x"];
    const double goal_y = request["vehicle_goal_location"]["y"];
    ASSERT_TRUE(Within(request["vehicle_start_location"]["x"], 5, 15));
    ASSERT_TRUE(Within(request["vehicle_start_location"]["y"], 5, 15));
    ASSERT_TRUE(Within(request["vehicle_start_yaw"], 0, 90));
    ASSERT_TRUE(Within(request["vehicle_goal_location"]["x"], 45, 55));
    ASSERT_EQ(goal_y, 50.0);
    ASSERT_TRUE(Within(request["goal_radius"], 3, 6));
    ASSERT_TRUE(Within(request["sim_timeout_period"], 10, 20));
    ASSERT_EQ(request["vehicle_idling_timeout_period"], 5.0);
    ASSERT_EQ(request["vehicle_stuck_timeout_period"], 4);  // from the defaults
    ASSERT_TRUE(Within(request["scene_description"]["sunlight_inclination"], 20, 60));
    const Json& layouts = request["scene_description"]["ssa_array"];
    ASSERT_EQ(layouts.size(), 2u);
    EXPECT_EQ(layouts[0]["num_instances"], 6);
    const int bushes = layouts[1]["num_instances"];
    ASSERT_GE(bushes, 2);
    ASSERT_LE(bushes, 4);
    for (const Json& layout : layouts) {
      const size_t n = layout["num_instances"];
      for (const char* key : {"visible", "cast_shadow", "x", "y", "yaw", "scale"}) {
        ASSERT_EQ(layout[key].size(), n) << key;
      }
      for (size_t i = 0; i < n; ++i) {
        const double x = layout["x"][i];
        const double y = layout["y"][i];
        ASSERT_TRUE(Within(layout["x"][i], 0, 60));
        ASSERT_TRUE(Within(layout["y"][i], 0, 60));
        ASSERT_GE(std::hypot(x - start_x, y - start_y), 10.0) << "scenario " << number;
        ASSERT_GE(std::hypot(x - goal_x, y - goal_y), 8.0) << "scenario " << number;
      }
    }
    for (size_t i = 0; i < 6; ++i) ASSERT_TRUE(Within(layouts[0]["yaw"][i], 0, 360));
    for (int i = 0; i < bushes; ++i) {
      ASSERT_TRUE(Within(layouts[1]["yaw"][i], 10, 20));
      ASSERT_TRUE(Within(layouts[1]["scale"][i], 0.5, 2));
      ASSERT_EQ(layouts[1]["cast_shadow"][i], false);
    }
  }
}

TEST(GenerateScenarioTest, SameSeedSameScenarioOtherSeedOtherScenario) {
  const GenerateSpec spec = Spec();
  const Json first = GenerateScenario(spec, kDefaults, 3, 77);
  EXPECT_EQ(first, GenerateScenario(spec, kDefaults, 3, 77));
  const Json other = GenerateScenario(spec, kDefaults, 3, 78);
  EXPECT_NE(first["scene_description"]["ssa_array"], other["scene_description"]["ssa_array"]);
  EXPECT_NE(first["vehicle_start_location"], other["vehicle_start_location"]);
}

TEST(GenerateScenarioTest, GeneratedRequestsDecode) {
  const GenerateSpec spec = Spec();
  for (uint32_t number = 1; number <= 20; ++number) {
    const Json json = GenerateScenario(spec, Json(protocol::RunScenarioRequest{}), number, number);
    const auto request = protocol::DecodeMessage<protocol::RunScenarioRequest>(json);
    EXPECT_EQ(request.scenario_number, static_cast<int32_t>(number));
    EXPECT_EQ(request.seed, number);
    EXPECT_EQ(request.scene_description.ssa_array[0].path_name, "/Game/Tree");
  }
}

TEST(GenerateScenarioTest, MinimumStartGoalDistanceHolds) {
  const GenerateSpec spec =
      ParseGenerateSpec(Json::parse(R"({"count": 1, "start": {"x": [0, 30], "y": [0, 30]},
                      "goal": {"x": [0, 30], "y": [0, 30]}, "min_start_goal_distance": 25})"),
                        "b.json", "generate");
  for (uint64_t seed = 0; seed < 100; ++seed) {
    const Json request = GenerateScenario(spec, Json::object(), 1, seed);
    const double dx = request["vehicle_goal_location"]["x"].get<double>() -
                      request["vehicle_start_location"]["x"].get<double>();
    const double dy = request["vehicle_goal_location"]["y"].get<double>() -
                      request["vehicle_start_location"]["y"].get<double>();
    ASSERT_GE(std::hypot(dx, dy), 25.0 - 1e-9);
  }
}

TEST(GenerateScenarioTest, ClearanceUsesDefaultStartAndGoalWhenNotSampled) {
  const GenerateSpec spec = ParseGenerateSpec(
      Json::parse(R"({"count": 1, "actors": [{"path_name": "r", "count": 30, "x": [0, 20],
                      "y": [0, 20]}], "start_clearance": 6, "goal_clearance": 6})"),
      "b.json", "generate");
  const Json defaults = Json::parse(R"({"vehicle_start_location": {"x": 5, "y": 5, "z": 0},
                                        "vehicle_goal_location": {"x": 15, "y": 15, "z": 0}})");
  const Json request = GenerateScenario(spec, defaults, 1, 9);
  const Json& layout = request["scene_description"]["ssa_array"][0];
  for (size_t i = 0; i < 30; ++i) {
    const double x = layout["x"][i];
    const double y = layout["y"][i];
    EXPECT_GE(std::hypot(x - 5, y - 5), 6.0);
    EXPECT_GE(std::hypot(x - 15, y - 15), 6.0);
  }
}

TEST(GenerateScenarioTest, ImpossibleClearanceNamesTheActorClass) {
  const GenerateSpec spec = ParseGenerateSpec(
      Json::parse(R"({"count": 1, "max_tries": 50, "actors": [{"path_name": "/Game/Big",
                      "count": 1, "x": [0, 5], "y": [0, 5]}]})"),
      "b.json", "generate");
  try {
    GenerateScenario(spec, Json::object(), 1, 1);
    FAIL() << "no error";
  } catch (const GenerateError& error) {
    EXPECT_EQ(std::string(error.what()),
              "actor \"/Game/Big\": no position 10.0 m from the start and 10.0 m from the goal "
              "in 50 tries");
  }
}

}  // namespace
}  // namespace asg::client
