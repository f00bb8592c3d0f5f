// Tests for client/batch/batch.h.
// Mistakes in a batch file: each error names the file, the JSON path and the value.
#include <gtest/gtest.h>

#include <string>

#include "client/batch/batch.h"
#include "tests/client/batch/batch_text.h"

namespace asg::client {
namespace {

TEST(BatchTest, DuplicateNumberIsAnErrorForTheFile) {
  const std::string message =
      ErrorOf(R"({"scenarios": [{"scenario_number": 3}, {"scenario_number": 3}]})");
  EXPECT_EQ(message,
            "test.json: scenarios[1].scenario_number: scenario number 3 is already used by "
            "scenarios[0]");
}

TEST(BatchTest, UnitsAreNamedOnceAtTheTopOfABatchThatListsItsRequests) {
  EXPECT_EQ(
      ErrorOf(R"({"scenarios": [{"units": "autoscenegen"}]})"),
      "test.json: scenarios[0].units: is given at the top of the batch, for all its requests");
  EXPECT_EQ(ErrorOf(R"({"units": "cm"})"),
            "test.json: units: expected \"autoscenegen\" (AutoSceneGen's centimetres in Unreal's "
            "frame; leave it out for the farm's metres), got \"cm\"");
  EXPECT_NE(ErrorOf(R"({"units": "autoscenegen", "generate": {"count": 2, "actors": []}})")
                .find("units: applies to defaults, scenarios and variants"),
            std::string::npos);
}

TEST(BatchTest, NumberZeroIsReserved) {
  EXPECT_NE(ErrorOf(R"({"scenarios": [{"scenario_number": 0}]})")
                .find("scenarios[0].scenario_number: expected an integer in 1..2147483647"),
            std::string::npos);
}

TEST(BatchTest, InvalidScenarioIsKeptWithPathPrefixedErrorAndOthersAreValid) {
  const Batch batch = Parse(std::string(R"({"defaults": {"scene_description": {"ssa_array": [)") +
                            kTreeLayout + R"(]}}, "scenarios": [{}, {"scene_description":
      {"ssa_array": [{"path_name": "tree", "num_instances": 3,
      "visible": [true, true, true], "cast_shadow": [true, true, true], "x": [1, 2],
      "y": [4, 5, 6], "yaw": [0, 0, 0], "scale": [1, 1, 1]}]}}, {}]})");
  ASSERT_EQ(batch.scenarios.size(), 3u);
  EXPECT_EQ(batch.CountInvalid(), 1u);
  EXPECT_EQ(batch.scenarios[0].status, PlanStatus::kValid);
  EXPECT_EQ(batch.scenarios[2].status, PlanStatus::kValid);
  EXPECT_EQ(batch.scenarios[2].request.scene_description.ssa_array.at(0).x[2], 3.0);
  const PlannedScenario& invalid = batch.scenarios[1];
  EXPECT_EQ(invalid.status, PlanStatus::kInvalid);
  EXPECT_EQ(invalid.error,
            "scenarios[1].scene_description.ssa_array[0].x: 2 values, "
            "num_instances is 3");
  EXPECT_EQ(invalid.request_json["scene_description"]["ssa_array"][0]["x"].size(), 2u);
  EXPECT_EQ(invalid.request_json["scenario_number"], 2);
}

TEST(BatchTest, AnErrorWrittenInDefaultsIsNamedThere) {
  // A typo in defaults: every scenario is invalid, each error names defaults.goal_radious.
  const Batch batch = Parse(R"({"defaults": {"goal_radious": 5}, "scenarios": [{}, {}]})");
  ASSERT_EQ(batch.CountInvalid(), 2u);
  EXPECT_EQ(
      batch.scenarios[0].error,
      "defaults.goal_radious: unknown field; did you mean \"goal_radius\"? (in scenarios[0])");
  EXPECT_EQ(
      batch.scenarios[1].error,
      "defaults.goal_radious: unknown field; did you mean \"goal_radius\"? (in scenarios[1])");
  // A bad value in a nested default, under an object the scenario also writes into.
  const Batch nested = Parse(R"({"defaults": {"scene_description": {"landscape":
      {"nominal_size": -5}}}, "scenarios": [{"scene_description": {"sunlight_yaw_angle": 9}}]})");
  EXPECT_EQ(
      nested.scenarios[0].error.rfind("defaults.scene_description.landscape.nominal_size: ", 0), 0u)
      << nested.scenarios[0].error;
  // A value the scenario overrides is the scenario's, even when defaults write it too.
  const Batch overridden = Parse(R"({"defaults": {"goal_radius": 3},
      "scenarios": [{}, {"goal_radius": "x"}, {"goal_radious": 1}]})");
  EXPECT_EQ(overridden.scenarios[0].status, PlanStatus::kValid);
  EXPECT_EQ(overridden.scenarios[1].error.rfind("scenarios[1].goal_radius: ", 0), 0u)
      << overridden.scenarios[1].error;
  EXPECT_EQ(overridden.scenarios[2].error.rfind("scenarios[2].goal_radious: unknown field", 0), 0u)
      << overridden.scenarios[2].error;
  // Generated scenarios take defaults too.
  const Batch generated = Parse(R"({"defaults": {"goal_radious": 5}, "generate": {"count": 1,
      "actors": []}})");
  ASSERT_EQ(generated.CountInvalid(), 1u);
  EXPECT_EQ(generated.scenarios[0].error,
            "defaults.goal_radious: unknown field; did you mean \"goal_radius\"? (in generate[0])");
}

TEST(BatchSettingsTest, AScenariosSeedMustBeANonNegativeInteger) {
  const auto error = [](const std::string& text) {
    try {
      ParseBatchText(text, "b.json", "b");
    } catch (const BatchError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(R"({"scenarios": [{}, {"seed": "x"}]})"),
            "b.json: scenarios[1].seed: expected a non-negative integer, got \"x\"");
  EXPECT_EQ(error(R"({"scenarios": [{"seed": -1}]})"),
            "b.json: scenarios[0].seed: expected a non-negative integer, got -1");
  EXPECT_EQ(error(R"({"$schema": 3, "scenarios": [{}]})"),
            "b.json: $schema: expected a string (where an editor finds the schema), got 3");
  EXPECT_EQ(error(R"({"$schema": "./batch.schema.json", "scenarios": [{"seed": 9}]})"), "");
  EXPECT_EQ(ParseBatchText(R"({"scenarios": [{"seed": 9}]})", "b.json", "b").scenarios[0].seed, 9u);
}

TEST(BatchVariants, MistakesAreNamedInTheVariants) {
  EXPECT_EQ(ErrorOf(R"({"scenarios": [{}], "variants": []})"),
            "test.json: variants: expected an array of 1..256 objects, got []");
  EXPECT_EQ(ErrorOf(R"({"scenarios": [{}], "variants": [{"name": "a b"}]})"),
            "test.json: variants[0].name: expected 1..32 letters, digits, '_', '-' or '.', got "
            "string \"a b\"");
  EXPECT_EQ(ErrorOf(R"({"scenarios": [{}], "variants": [{"name": "a"}, {"name": "a"}]})"),
            "test.json: variants[1].name: \"a\" is used by an earlier variant");
  EXPECT_EQ(ErrorOf(R"({"scenarios": [{}], "variants": [{"name": "a", "seed": 2}]})"),
            "test.json: variants[0].seed: is set per layout, not per variant");
  // A variant that breaks the request makes its scenarios invalid, named in the variant.
  const Batch batch = Parse(R"({"scenarios": [{}], "variants": [{"name": "ok"},
      {"name": "bad", "goal_radius": "far"}]})");
  EXPECT_EQ(batch.scenarios[0].status, PlanStatus::kValid);
  EXPECT_EQ(batch.scenarios[1].error.rfind("variants[1].goal_radius: ", 0), 0u)
      << batch.scenarios[1].error;
  EXPECT_NE(batch.scenarios[1].error.find("(for scenarios[0])"), std::string::npos);
}

TEST(BatchTest, StructuralProblemsNameThePath) {
  EXPECT_EQ(ErrorOf(R"({"defaults": [], "scenarios": [{}]})"),
            "test.json: defaults: expected an object, got []");
  EXPECT_EQ(ErrorOf(R"({"scenarios": {}})"), "test.json: scenarios: expected an array, got {}");
  EXPECT_EQ(ErrorOf(R"({"seed": 7.5, "scenarios": [{}]})"),
            "test.json: seed: expected a non-negative integer, got 7.5");
  EXPECT_EQ(ErrorOf(R"({"seed": -1, "scenarios": [{}]})"),
            "test.json: seed: expected a non-negative integer, got -1");
  EXPECT_NE(ErrorOf(R"({"sead": 7, "scenarios": [{}]})").find("test.json: sead: unknown"),
            std::string::npos);
  EXPECT_EQ(ErrorOf(R"({"scenarios": [{}, 3]})"),
            "test.json: scenarios[1]: expected an object, got 3");
  EXPECT_NE(ErrorOf(R"({"defaults": {"seed": 1}, "scenarios": [{}]})").find("defaults.seed"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"scenarios": []})").find("no scenarios"), std::string::npos);
  EXPECT_EQ(ErrorOf("[1]"), "test.json: expected a JSON object at the top level, got [1]");
}

TEST(BatchTest, TheFailuresSectionSetsTheRegretThresholdStrictly) {
  EXPECT_EQ(Parse(R"({"scenarios": [{}]})").settings.failures.regret_threshold, 0.75);
  EXPECT_EQ(Parse(R"({"failures": {"regret_threshold": 0.5}, "scenarios": [{}]})")
                .settings.failures.regret_threshold,
            0.5);
  EXPECT_EQ(ErrorOf(R"({"failures": {"regret_threshold": 0}, "scenarios": [{}]})"),
            "test.json: failures.regret_threshold: must be > 0, got 0");
  EXPECT_NE(ErrorOf(R"({"failures": {"reproduced": 5}, "scenarios": [{}]})")
                .find("test.json: failures.reproduced: unknown field"),
            std::string::npos);
}

TEST(BatchTest, TheFailuresSectionSetsTheReproductionRunsStrictly) {
  EXPECT_EQ(Parse(R"({"scenarios": [{}]})").settings.failures.reproduce, 5u);
  EXPECT_EQ(
      Parse(R"({"failures": {"reproduce": 0}, "scenarios": [{}]})").settings.failures.reproduce,
      0u);
  EXPECT_EQ(
      Parse(R"({"failures": {"reproduce": 12}, "scenarios": [{}]})").settings.failures.reproduce,
      12u);
  EXPECT_NE(ErrorOf(R"({"failures": {"reproduce": -1}, "scenarios": [{}]})")
                .find("test.json: failures.reproduce: "),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"failures": {"reproduce": 2.5}, "scenarios": [{}]})")
                .find("test.json: failures.reproduce: "),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"failures": {"reproduce": 1001}, "scenarios": [{}]})")
                .find("test.json: failures.reproduce: "),
            std::string::npos);
}

TEST(BatchTest, BadTopLevelVehicleNodesAreBatchErrorsNamingTheFileAndPath) {
  EXPECT_EQ(ErrorOf(R"({"vehicle_nodes": {"max_reruns": "x"}, "scenarios": [{}]})"),
            "test.json: vehicle_nodes.max_reruns: expected an unsigned integer, got string "
            "\"x\"");
  EXPECT_EQ(ErrorOf(R"({"vehicle_nodes": {"max_reruns": 256}, "scenarios": [{}]})"),
            "test.json: vehicle_nodes.max_reruns: expected at most 255, got 256");
  EXPECT_EQ(ErrorOf(R"({"vehicle_nodes": {"save_minimal": 1}, "scenarios": [{}]})"),
            "test.json: vehicle_nodes.save_minimal: expected a boolean, got number 1");
  EXPECT_EQ(ErrorOf(R"({"vehicle_nodes": {"count": 300}, "scenarios": [{}]})"),
            "test.json: vehicle_nodes.count: expected at most 255 nodes per worker, got 300");
  // The spec's own fields are decoded strictly, with the path.
  EXPECT_NE(ErrorOf(R"({"vehicle_nodes": {"synch": true}, "scenarios": [{}]})")
                .find("test.json: vehicle_nodes"),
            std::string::npos);
}

TEST(BatchTest, ABadRegretSettingNamesTheFilePathAndValue) {
  EXPECT_EQ(ErrorOf(R"({"regret": {"failure_time": "end"}, "scenarios": [{}]})"),
            "test.json: regret.failure_time: unknown value \"end\"; did you mean \"end_of_run\"? "
            "(one of \"failure_moment\", \"end_of_run\")");
  EXPECT_EQ(ErrorOf(R"({"regret": {"failure_time": 1}, "scenarios": [{}]})"),
            "test.json: regret.failure_time: expected one of \"failure_moment\", \"end_of_run\", "
            "got number 1");
  EXPECT_NE(ErrorOf(R"({"regret": {"failure": "end_of_run"}, "scenarios": [{}]})")
                .find("test.json: regret.failure: unknown field"),
            std::string::npos);
}

}  // namespace
}  // namespace asg::client
