// Tests for client/batch/autoscenegen_import.h.
#include "client/batch/autoscenegen_import.h"

#include <gtest/gtest.h>

#include <string>

#include "client/batch/batch.h"
#include "protocol/messages_json.h"
#include "tests/protocol/message_samples.h"

namespace asg::client {
namespace {

using protocol::testing::Sample;

// The message of the BatchError that importing `text` as "asg.json" throws.
std::string ImportErrorOf(const std::string& text) {
  try {
    ImportAutoSceneGenText(text, "asg.json");
  } catch (const BatchError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no BatchError for " << text;
  return "";
}

// The sample request in AutoSceneGen's units, numbered `number`: its start (10, 10) m at 45 deg
// written (1000, -1000) cm at -45 deg, its goal (50, 50) m (5000, -5000) cm, its goal radius
// 400 cm and its landscape's size in cm; no actors, the sun at yaw 0.
Json AutoSceneGenRequest(int number) {
  Json request = Json(Sample<protocol::RunScenarioRequest>());
  request["scenario_number"] = number;
  request["vehicle_start_location"] = {{"x", 1000.0}, {"y", -1000.0}, {"z", 0.0}};
  request["vehicle_start_yaw"] = -45.0;
  request["vehicle_goal_location"] = {{"x", 5000.0}, {"y", -5000.0}, {"z", 0.0}};
  request["goal_radius"] = 400.0;
  Json& scene = request["scene_description"];
  scene["landscape"]["nominal_size"] = scene["landscape"]["nominal_size"].get<double>() * 100.;
  scene["landscape"]["border"] = scene["landscape"]["border"].get<double>() * 100.;
  scene["sunlight_yaw_angle"] = 0.0;
  scene["ssa_array"] = Json::array();
  return request;
}

TEST(AutoSceneGenImportTest, OneRequestBecomesABatchOfOneScenarioInTheFarmsUnits) {
  Json request = AutoSceneGenRequest(42);
  request["units"] = "autoscenegen";
  const Json batch = ImportAutoSceneGen(request, "asg.json");
  ASSERT_EQ(batch.size(), 1u) << batch.dump();
  ASSERT_EQ(batch["scenarios"].size(), 1u);
  const Json& scenario = batch["scenarios"][0];
  EXPECT_FALSE(scenario.contains("units"));
  EXPECT_EQ(scenario["scenario_number"], 42);
  EXPECT_EQ(scenario["vehicle_start_location"], Json({{"x", 10.0}, {"y", 10.0}, {"z", 0.0}}));
  EXPECT_EQ(scenario["vehicle_start_yaw"], 45.0);
  EXPECT_EQ(scenario["goal_radius"], 4.0);
  // The listed scenario decodes to the request a worker reads from the AutoSceneGen form.
  EXPECT_EQ(protocol::DecodeMessage<protocol::RunScenarioRequest>(scenario),
            protocol::DecodeMessage<protocol::RunScenarioRequest>(request));
  const Batch planned = ParseBatch(batch, "imported.json", "imported");
  ASSERT_EQ(planned.scenarios.size(), 1u);
  EXPECT_EQ(planned.scenarios[0].scenario_number, 42u);
  EXPECT_EQ(planned.CountInvalid(), 0u) << planned.scenarios[0].error;
}

TEST(AutoSceneGenImportTest, AnArrayListsItsRequestsInOrderNumbersKeptWhereGiven) {
  Json second = AutoSceneGenRequest(0);  // AutoSceneGen's "not numbered yet"
  second["scene_capture_settings"].erase("goal_sphere_color");
  second["scene_capture_settings"]["goal_shere_color"] = {{"r", 0}, {"g", 1}, {"b", 0}, {"a", 1}};
  const Json batch = ImportAutoSceneGen(Json::array({AutoSceneGenRequest(7), second}), "asg.json");
  ASSERT_EQ(batch["scenarios"].size(), 2u);
  EXPECT_EQ(batch["scenarios"][0]["scenario_number"], 7);
  EXPECT_FALSE(batch["scenarios"][1].contains("scenario_number"));
  const Json& settings = batch["scenarios"][1]["scene_capture_settings"];
  EXPECT_FALSE(settings.contains("goal_shere_color"));
  EXPECT_EQ(settings["goal_sphere_color"]["g"], 1);
  const Batch planned = ParseBatch(batch, "imported.json", "imported");
  ASSERT_EQ(planned.scenarios.size(), 2u);
  EXPECT_EQ(planned.scenarios[0].scenario_number, 1u);  // the unnumbered one takes the first free
  EXPECT_EQ(planned.scenarios[1].scenario_number, 7u);
}

TEST(AutoSceneGenImportTest, ABatchInAutoSceneGensUnitsIsWrittenInTheFarmsWithItsOtherKeys) {
  const Json batch = ImportAutoSceneGenText(R"({"name": "n", "units": "autoscenegen", "seed": 3,
      "defaults": {"goal_radius": 300}, "scenarios": [{"vehicle_start_yaw": 90}],
      "variants": [{"name": "a", "goal_radius": 100}]})",
                                            "asg.json");
  EXPECT_EQ(batch, Json::parse(R"({"name": "n", "seed": 3, "defaults": {"goal_radius": 3.0},
      "scenarios": [{"vehicle_start_yaw": -90.0}], "variants": [{"name": "a", "goal_radius": 1.0}]})"));
}

TEST(AutoSceneGenImportTest, ErrorsNameTheFileTheJsonPathAndTheValue) {
  Json bad_type = AutoSceneGenRequest(2);
  bad_type["goal_radius"] = "far";
  EXPECT_EQ(ImportErrorOf(Json::array({AutoSceneGenRequest(1), bad_type}).dump()),
            "asg.json: [1].goal_radius: expected a number, got string \"far\"");
  EXPECT_EQ(ImportErrorOf(R"([{"units": "metres"}])"),
            "asg.json: [0].units: expected \"autoscenegen\" (AutoSceneGen's centimetres in "
            "Unreal's frame; leave it out for the farm's metres), got \"metres\"");
  EXPECT_EQ(ImportErrorOf("[5]"),
            "asg.json: [0]: expected a RunScenario request (an object), got number 5");
  EXPECT_EQ(ImportErrorOf("[]"), "asg.json: expected at least one request, got []");
  EXPECT_EQ(ImportErrorOf(R"({"goal_radius": 400})"),
            "asg.json: sim_timeout_period: missing required field");
  Json partial = AutoSceneGenRequest(2);
  partial["scene_capture_settings"].erase("image_size");
  EXPECT_EQ(ImportErrorOf(Json::array({partial}).dump()),
            "asg.json: [0].scene_capture_settings.image_size: missing required field");
  EXPECT_EQ(ImportErrorOf(R"({"scenarios": [{}]})"),
            "asg.json: units: a batch file without \"units\": \"autoscenegen\" is in the farm's "
            "units already; give it to check or run as it is");
  EXPECT_EQ(ImportErrorOf(R"({"units": "autoscenegen", "scenarios": [{"goal_radius": "x"}],
      "generate": {"count": 1}})")
                .rfind("asg.json: units: applies to defaults, scenarios and variants", 0),
            0u);
  EXPECT_EQ(ImportErrorOf("{\"units\": \n}").rfind("asg.json:2:1: malformed JSON", 0), 0u);
}

TEST(AutoSceneGenImportTest, ScenarioNumbersABatchCannotUseAreRefusedWithTheirPath) {
  EXPECT_EQ(ImportErrorOf(Json::array({AutoSceneGenRequest(-1)}).dump()),
            "asg.json: [0].scenario_number: expected an integer in 0..2147483647 (0: the batch "
            "numbers it), got number -1");
  EXPECT_EQ(ImportErrorOf(Json::array({AutoSceneGenRequest(3), AutoSceneGenRequest(3)}).dump()),
            "asg.json: [1].scenario_number: 3 is also given at [0].scenario_number");
}

}  // namespace
}  // namespace asg::client
