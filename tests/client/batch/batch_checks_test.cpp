// Tests for client/batch/batch.h.
// The checks before anything runs: the check report, its warnings and the scene checks.
#include <gtest/gtest.h>

#include <string>

#include "client/batch/batch.h"
#include "client/batch/scene_checks.h"
#include "tests/client/batch/batch_text.h"

namespace asg::client {
namespace {

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

}  // namespace
}  // namespace asg::client
