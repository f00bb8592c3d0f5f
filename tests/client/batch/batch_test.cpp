// Tests for client/batch/batch.h.
#include "client/batch/batch.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "client/batch/batch_seed.h"
#include "client/batch/scene_checks.h"
#include "protocol/messages_json.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

Batch Parse(const std::string& text) { return ParseBatchText(text, "test.json", "test"); }

// The message of the BatchError that parsing `text` throws; fails the test if none is thrown.
std::string ErrorOf(const std::string& text) {
  try {
    Parse(text);
  } catch (const BatchError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no BatchError for " << text;
  return "";
}

// Start, goal and timeouts that draw no warning or note.
constexpr const char* kPlainDefaults = R"({"vehicle_start_location": {"x": 10, "y": 10, "z": 0},
    "vehicle_goal_location": {"x": 50, "y": 50, "z": 0}, "vehicle_stuck_timeout_period": 5,
    "vehicle_idling_timeout_period": 5})";

constexpr const char* kTreeLayout = R"({"path_name": "tree", "num_instances": 3,
    "visible": [true, true, true], "cast_shadow": [true, true, true], "x": [1, 2, 3],
    "y": [4, 5, 6], "yaw": [0, 0, 0], "scale": [1, 1, 1]})";

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

TEST(BatchTest, DuplicateNumberIsAnErrorForTheFile) {
  const std::string message =
      ErrorOf(R"({"scenarios": [{"scenario_number": 3}, {"scenario_number": 3}]})");
  EXPECT_EQ(message,
            "test.json: scenarios[1].scenario_number: scenario number 3 is already used by "
            "scenarios[0]");
}

TEST(BatchTest, NumberZeroIsReserved) {
  EXPECT_NE(ErrorOf(R"({"scenarios": [{"scenario_number": 0}]})")
                .find("scenarios[0].scenario_number: expected an integer in 1..2147483647"),
            std::string::npos);
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

TEST(BatchTest, CheckReportListsTheFirstErrorsAndTheCounts) {
  // An error written in "defaults" is one line, with the scenarios it makes invalid.
  const Batch batch = Parse(R"({"defaults": {"goal_radious": 5}, "scenarios": [{}, {}, {}]})");
  EXPECT_EQ(CheckReport(batch, 2),
            "test.json: defaults.goal_radious: unknown field; did you mean \"goal_radius\"? (in "
            "all 3 scenarios)\n"
            "test.json: 3 scenarios: 0 valid, 3 invalid\n");
  const Batch some = Parse(R"({"defaults": {"goal_radious": 5}, "scenarios": [{}, {},
      {"goal_radius": "x"}, {}, {"max_vehicle_roll": "y"}]})");
  EXPECT_EQ(CheckErrors(some, 10),
            "test.json: defaults.goal_radious: unknown field; did you mean \"goal_radius\"? (in "
            "3 scenarios: 1, 2, 4)\n"
            "test.json: scenario 3: scenarios[2].goal_radius: expected a number, got string \"x\"\n"
            "test.json: scenario 5: scenarios[4].max_vehicle_roll: expected a number, got string "
            "\"y\"\n");
  EXPECT_EQ(CheckErrors(some, 2),
            "test.json: defaults.goal_radious: unknown field; did you mean \"goal_radius\"? (in "
            "3 scenarios: 1, 2, 4)\n"
            "test.json: scenario 3: scenarios[2].goal_radius: expected a number, got string \"x\"\n"
            "... and 1 more invalid scenarios\n");
  // Per-scenario errors are listed up to the limit.
  const Batch listed =
      Parse(R"({"scenarios": [{"goal_radius": "a"}, {"goal_radius": "b"}, {"goal_radius": "c"}]})");
  EXPECT_EQ(CheckErrors(listed, 2),
            "test.json: scenario 1: scenarios[0].goal_radius: expected a number, got string \"a\"\n"
            "test.json: scenario 2: scenarios[1].goal_radius: expected a number, got string \"b\"\n"
            "... and 1 more invalid scenarios\n");
  EXPECT_EQ(CheckReport(Parse(R"({"defaults": )" + std::string(kPlainDefaults) +
                              R"(, "scenarios": [{}]})")),
            "test.json: 1 scenarios: 1 valid, 0 invalid\n");
}

TEST(BatchTest, CheckWarnsOfAStartOrGoalOnTheEdgeAndAGoalWithinTheRadius) {
  // Left at (0, 0), start and goal lie on the corner and the goal is within the radius: the
  // same three warnings of every scenario are one line each.
  const Batch unset = Parse(R"({"scenarios": [{}, {}]})");
  EXPECT_EQ(unset.CountInvalid(), 0u);
  EXPECT_EQ(CheckWarnings(unset, 10),
            "test.json: warning: vehicle_start_location.x (not set): 0 lies on the edge of the "
            "landscape [0, 60]: the run is likely to end out of bounds at once (in all 2 "
            "scenarios)\n"
            "test.json: warning: vehicle_goal_location.x (not set): 0 lies on the edge of the "
            "landscape [0, 60]: the vehicle may leave the landscape on its way to the goal (in all "
            "2 scenarios)\n"
            "test.json: warning: vehicle_goal_location (not set): 0 m from the start, within "
            "goal_radius 5 m: the run succeeds before the vehicle moves (in all 2 scenarios)\n");
  // Written values are named where they were written.
  const Batch written = Parse(R"({"defaults": {"vehicle_start_location": {"x": 10, "y": 60,
      "z": 0}, "vehicle_goal_location": {"x": 30, "y": 30, "z": 0}},
      "scenarios": [{}, {"vehicle_goal_location": {"x": 12, "y": 57, "z": 0}}, {"goal_radius": 1,
      "vehicle_start_location": {"x": 20, "y": 20, "z": 0},
      "vehicle_goal_location": {"x": 60.5, "y": 20, "z": 0}}]})");
  EXPECT_EQ(written.CountInvalid(), 1u);  // 60.5 is outside the landscape
  EXPECT_EQ(CheckWarnings(written, 10),
            "test.json: warning: defaults.vehicle_start_location.y: 60 lies on the edge of the "
            "landscape [0, 60]: the run is likely to end out of bounds at once (in 2 scenarios: "
            "1, 2)\n"
            "test.json: warning: scenario 2: scenarios[1].vehicle_goal_location: 3.61 m from "
            "the start, within goal_radius 5 m: the run succeeds before the vehicle moves\n");
  EXPECT_EQ(CheckWarnings(written, 1),
            "test.json: warning: defaults.vehicle_start_location.y: 60 lies on the edge of the "
            "landscape [0, 60]: the run is likely to end out of bounds at once (in 2 scenarios: "
            "1, 2)\n"
            "... and 1 more warnings\n");
  // A goal on the edge of a landscape with a border is inside: the border is landscape too.
  const Batch bordered = Parse(R"({"defaults": )" + std::string(kPlainDefaults) + R"(,
      "scenarios": [{"vehicle_goal_location": {"x": 60, "y": 30, "z": 0},
                     "scene_description": {"landscape": {"border": 10}}}]})");
  EXPECT_EQ(CheckWarnings(bordered, 10), "");
}

TEST(BatchTest, CheckSaysOnceWhenTheStuckAndIdlingTimeoutsAreOff) {
  const Batch off = Parse(R"({"scenarios": [{}, {}, {}]})");
  EXPECT_EQ(TimeoutNote(off),
            "test.json: note: the stuck and idling timeouts are off (-1) in all 3 valid scenarios: "
            "a vehicle that stops is ended only by sim_timeout_period; set "
            "vehicle_stuck_timeout_period and vehicle_idling_timeout_period [s] in \"defaults\" "
            "to end such runs early\n");
  const Batch some = Parse(R"({"defaults": {"vehicle_idling_timeout_period": 5},
      "scenarios": [{}, {"vehicle_stuck_timeout_period": 5}, {}]})");
  EXPECT_EQ(TimeoutNote(some).rfind("test.json: note: the stuck timeout is off (-1) in 2 of 3 "
                                    "valid scenarios: ",
                                    0),
            0u)
      << TimeoutNote(some);
  EXPECT_EQ(TimeoutNote(Parse(R"({"defaults": {"vehicle_idling_timeout_period": 5,
      "vehicle_stuck_timeout_period": 5}, "scenarios": [{}]})")),
            "");
  EXPECT_NE(CheckReport(off).find("note: the stuck and idling timeouts are off"),
            std::string::npos);
}

TEST(BatchSceneChecks, AnAerialViewWithoutPaddingIsAnError) {
  const Batch batch = Parse(R"({"defaults": )" + std::string(kPlainDefaults) + R"(,
      "scenarios": [
        {"take_scene_capture": true, "scene_capture_settings": {"ortho_aerial": true}},
        {"take_scene_capture": true, "scene_capture_settings": {"perspective_aerial": true}},
        {"take_scene_capture": true, "scene_capture_settings": {"ortho_aerial": true,
         "aerial_padding": [5]}},
        {"scene_capture_settings": {"ortho_aerial": true}}]})");
  EXPECT_EQ(batch.scenarios[0].error,
            "scenarios[0].scene_capture_settings.aerial_padding: empty, so ortho_aerial renders no "
            "image (one per padding): give at least one padding [m], e.g. [5]");
  EXPECT_EQ(batch.scenarios[1].error,
            "scenarios[1].scene_capture_settings.aerial_padding: empty, so perspective_aerial "
            "renders no image (one per padding): give at least one padding [m], e.g. [5]");
  EXPECT_EQ(batch.scenarios[2].status, PlanStatus::kValid) << batch.scenarios[2].error;
  // Without take_scene_capture nothing is rendered, and nothing is expected.
  EXPECT_EQ(batch.scenarios[3].status, PlanStatus::kValid) << batch.scenarios[3].error;
}

TEST(BatchSceneChecks, ClassesAndPositionsAreCheckedBeforeAnythingRuns) {
  ActorClasses classes;
  classes.names = {"tree", "bush"};
  classes.catalog = "actors.json";
  const std::string layout = R"({"path_name": "%s", "num_instances": 1, "visible": [true],
      "cast_shadow": [true], "x": [%s], "y": [5], "yaw": [0], "scale": [1]})";
  const auto scene = [&](const char* name, const char* x) {
    char text[512];
    std::snprintf(text, sizeof text, layout.c_str(), name, x);
    return std::string(R"({"scene_description": {"ssa_array": [)") + text + "]}}";
  };
  const Batch batch = ParseBatchText(
      R"({"scenarios": [)" + scene("tree", "20") + "," + scene("cactus", "20") + "," +
          scene("bush", "75") + R"(, {"vehicle_goal_location": {"x": 500, "y": -300, "z": 0}},
          {"vehicle_start_location": {"x": -50, "y": 5, "z": 0}}]})",
      "b.json", "b", &classes);
  ASSERT_EQ(batch.scenarios.size(), 5u);
  EXPECT_EQ(batch.scenarios[0].status, PlanStatus::kValid) << batch.scenarios[0].error;
  EXPECT_EQ(batch.scenarios[1].error,
            "scenarios[1].scene_description.ssa_array[0].path_name: \"cactus\" is not an actor "
            "class of actors.json (2 names, e.g. \"bush\")");
  EXPECT_EQ(batch.scenarios[2].error,
            "scenarios[2].scene_description.ssa_array[0].x[0]: 75 is outside the landscape "
            "[0, 60]");
  EXPECT_EQ(batch.scenarios[3].error,
            "scenarios[3].vehicle_goal_location.x: 500 is outside the landscape [0, 60]");
  EXPECT_EQ(batch.scenarios[4].error,
            "scenarios[4].vehicle_start_location.x: -50 is outside the landscape [0, 60]");
  // Without a catalog the class is not checked; positions always are.
  const Batch unchecked = Parse(R"({"scenarios": [)" + scene("cactus", "20") + "]}");
  EXPECT_EQ(unchecked.scenarios[0].status, PlanStatus::kValid);
}

TEST(BatchSceneChecks, GenerateRangesAndClassesAreBatchErrors) {
  ActorClasses classes;
  classes.names = {"tree"};
  classes.catalog = "actors.json";
  const auto error = [&](const std::string& text) {
    try {
      ParseBatchText(text, "b.json", "b", &classes);
    } catch (const BatchError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(R"({"generate": {"count": 2, "actors": [{"path_name": "tree", "count": 1,
                "x": [0, 600], "y": [0, 60]}]}})"),
            "b.json: generate.actors[0].x: [0, 600] reaches outside the landscape [0, 60]");
  EXPECT_EQ(error(R"({"generate": {"count": 2, "actors": [{"path_name": "cactus", "count": 1,
                "x": [0, 60], "y": [0, 60]}]}})"),
            "b.json: generate.actors[0].path_name: \"cactus\" is not an actor class of "
            "actors.json (1 names, e.g. \"tree\")");
  EXPECT_EQ(error(R"({"generate": {"count": 2, "goal": {"x": [50, 70]}, "actors": []}})"),
            "b.json: generate.goal.x: [50, 70] reaches outside the landscape [0, 60]");
  EXPECT_EQ(error(R"({"defaults": {"vehicle_start_location": {"x": 5, "y": 5, "z": 0}},
                "generate": {"count": 2, "actors": [{"path_name": "tree", "count": 1,
                "x": [0, 60], "y": [0, 60]}]}})"),
            "");
  EXPECT_EQ(error(R"({"generate": {"count": 2, "start": {"x": [5, 10], "y": 5},
                "actors": [{"path_name": "tree", "count": 1, "x": [0, 60], "y": [0, 60]}]}})"),
            "");
  // Actors kept clear of a start that was never set: the landscape's corner.
  EXPECT_EQ(error(R"({"generate": {"count": 2, "actors": [{"path_name": "tree", "count": 1,
                "x": [0, 60], "y": [0, 60]}]}})"),
            "b.json: generate.start: not given, nor defaults.vehicle_start_location: every "
            "scenario would start at (0, 0), the landscape's corner, with the actors kept "
            "start_clearance from it; give generate.start or defaults.vehicle_start_location");
  // A misspelt class is answered with the name likely meant, else the short names.
  classes.names = {"/Game/Trees/Oak.Oak_C", "/Game/Rocks/Rock.Rock_C", "tree", "rock"};
  classes.aliases = {"tree", "rock"};
  EXPECT_EQ(error(R"({"generate": {"count": 2, "actors": [{"path_name": "trees", "count": 1,
                "x": [0, 60], "y": [0, 60]}]}})"),
            "b.json: generate.actors[0].path_name: \"trees\" is not an actor class of "
            "actors.json; did you mean \"tree\"?");
  EXPECT_EQ(error(R"({"generate": {"count": 2, "actors": [{"path_name": "cactus", "count": 1,
                "x": [0, 60], "y": [0, 60]}]}})"),
            "b.json: generate.actors[0].path_name: \"cactus\" is not an actor class of "
            "actors.json (its short names: \"rock\", \"tree\")");
  // A searched class is checked as well.
  EXPECT_EQ(error(R"({"search": {"strategy": "random", "budget": {"scenarios": 4},
                "space": {"classes": [{"path_name": "tree"}, {"path_name": "cactus"}]}}})"),
            "b.json: search.space.classes[1].path_name: \"cactus\" is not an actor class of "
            "actors.json (its short names: \"rock\", \"tree\")");
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

TEST(LoadBatchFileTest, MalformedJsonNamesFileLineAndColumn) {
  testutil::TempDir dir;
  const auto file = dir.path() / "broken.json";
  std::ofstream(file) << "{\n  \"seed\": 7,\n  \"scenarios\": [{]\n}\n";
  try {
    LoadBatchFile(file);
    FAIL() << "no error";
  } catch (const BatchError& error) {
    EXPECT_EQ(std::string(error.what()).rfind(file.string() + ":3:18: malformed JSON", 0), 0u)
        << error.what();
  }
}

TEST(LoadBatchFileTest, NameDefaultsToFileStem) {
  testutil::TempDir dir;
  const auto file = dir.path() / "night_run.json";
  std::ofstream(file) << R"({"scenarios": [{}]})";
  EXPECT_EQ(LoadBatchFile(file).settings.name, "night_run");
  EXPECT_EQ(LoadBatchFile(file).origin, file.string());
}

TEST(ConfigBatchesTest, DemoBatchPlansFiftyValidScenarios) {
  const Batch batch = LoadBatchFile(ASG_SOURCE_DIR "/configs/demo.json");
  EXPECT_EQ(batch.settings.seed, 7u);
  ASSERT_EQ(batch.scenarios.size(), 50u);
  EXPECT_EQ(batch.CountInvalid(), 0u);
  const protocol::RunScenarioRequest& request = batch.scenarios[0].request;
  EXPECT_EQ(request.vehicle_start_location.x, 10.0);
  EXPECT_EQ(request.vehicle_goal_location.y, 50.0);
  EXPECT_EQ(request.sim_timeout_period, 17.0);
  ASSERT_EQ(request.scene_description.ssa_array.size(), 2u);
  EXPECT_EQ(request.scene_description.ssa_array[0].num_instances, 6);
  EXPECT_EQ(request.scene_description.ssa_array[1].num_instances, 6);
  EXPECT_EQ(request.driver.type, protocol::DriverSpec::Type::kPlanner);
}

TEST(ConfigBatchesTest, MixedBatchHasOneInvalidScenario) {
  const Batch batch = LoadBatchFile(ASG_SOURCE_DIR "/configs/batches/mixed.json");
  ASSERT_EQ(batch.scenarios.size(), 5u);
  EXPECT_EQ(batch.CountInvalid(), 1u);
  EXPECT_EQ(batch.Find(4)->status, PlanStatus::kInvalid);
  EXPECT_NE(batch.Find(4)->error.find("num_instances"), std::string::npos);
}

// The first ```json block of `file` after `heading` (a line of the file).
std::string JsonBlockAfter(const std::string& file, const std::string& heading) {
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t at = text.find(heading);
  const size_t begin = text.find("```json\n", at == std::string::npos ? 0 : at);
  if (at == std::string::npos || begin == std::string::npos) return "";
  const size_t end = text.find("```", begin + 8);
  return text.substr(begin + 8, end - begin - 8);
}

TEST(ConfigBatchesTest, TheExampleBatchesOfTheReadmeAndTheReferenceCheckWithoutAWord) {
  const std::pair<std::string, std::string> examples[] = {
      {ASG_SOURCE_DIR "/README.md", "## A ten-minute tour"},
      {ASG_SOURCE_DIR "/docs/batch-reference.md", "## Example"}};
  for (const auto& [file, heading] : examples) {
    const std::string text = JsonBlockAfter(file, heading);
    ASSERT_FALSE(text.empty()) << file;
    const Batch batch = ParseBatchText(text, "example.json", "example");
    EXPECT_GT(batch.scenarios.size(), 0u) << file;
    const std::string report = CheckReport(batch);
    EXPECT_EQ(report, "example.json: " + std::to_string(batch.scenarios.size()) + " scenarios: " +
                          std::to_string(batch.scenarios.size()) + " valid, 0 invalid\n")
        << file;
  }
}

}  // namespace
}  // namespace asg::client
