// Tests for client/batch/search_spec.h.
#include "client/batch/search_spec.h"

#include <gtest/gtest.h>

#include <string>

#include "client/batch/batch.h"

namespace asg::client {
namespace {

constexpr const char* kSpace =
    R"({"classes": [{"path_name": "tree", "max_count": 6, "x": [0, 60], "y": [0, 60]},
                    {"path_name": "bush", "max_count": 4}]})";

// The base request of a batch with these defaults.
Json Defaults() {
  return ParseBatchText(R"({"defaults": {"vehicle_start_location": {"x": 12, "y": 11, "z": 0},
      "vehicle_start_yaw": 30, "vehicle_goal_location": {"x": 48, "y": 47, "z": 0},
      "sim_timeout_period": 20, "scene_description": {"landscape": {"nominal_size": 64}}},
      "scenarios": [{}]})",
                        "b.json", "b")
      .base_request;
}

SearchSpec Parse(const std::string& text) {
  return ParseSearchSpec(Json::parse(text), Defaults(), 9, "b.json", "search");
}

std::string ErrorOf(const std::string& text) {
  try {
    Parse(text);
  } catch (const BatchError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no BatchError for " << text;
  return "";
}

TEST(BatchSearchSpec, StartGoalTimeoutLandscapeAndSeedComeFromTheBatchWhenNotGiven) {
  const SearchSpec spec = Parse(std::string(R"({"strategy": "random",
      "budget": {"scenarios": 30}, "space": )") +
                                kSpace + "}");
  EXPECT_EQ(spec.strategy, "random");
  EXPECT_EQ(spec.seed, 9u);
  EXPECT_EQ(spec.budget_scenarios, 30u);
  EXPECT_EQ(spec.generation_size, 50u);
  EXPECT_EQ(spec.space.start.x(), 12.0);
  EXPECT_EQ(spec.space.start.y(), 11.0);
  EXPECT_EQ(spec.space.start_yaw, 30.0);
  EXPECT_EQ(spec.space.goal.x(), 48.0);
  EXPECT_EQ(spec.space.goal.y(), 47.0);
  EXPECT_EQ(spec.space.sim_timeout, 20.0);
  EXPECT_EQ(spec.space.landscape_max, 64.0);
  ASSERT_EQ(spec.space.classes.size(), 2u);
  EXPECT_EQ(spec.space.classes[1].path_name, "bush");
  EXPECT_EQ(spec.space.classes[1].max_count, 4u);
  // A class without ranges spans the landscape.
  EXPECT_EQ(spec.space.classes[1].x.max, 64.0);
  EXPECT_EQ(spec.space_json["classes"][0]["x"], Json::parse("[0.0, 60.0]"));
}

TEST(BatchSearchSpec, GivenValuesOverrideTheBatch) {
  const SearchSpec spec = Parse(R"({"strategy": "bacre", "seed": 3, "generation_size": 20,
      "budget": {"scenarios": 100}, "strategy_settings": {"seed_count": 10, "seed_obstacles": 2},
      "space": {"classes": [{"path_name": "tree", "yaw": [0, 90], "scale": 2}],
                "start": {"x": 5, "yaw": 45}, "goal": {"y": 55}, "sim_timeout": 17,
                "min_obstacles": 2, "path_clearance": 3}})");
  EXPECT_EQ(spec.seed, 3u);
  EXPECT_EQ(spec.generation_size, 20u);
  EXPECT_EQ(spec.strategy_settings["seed_count"], 10);
  EXPECT_EQ(spec.space.start.x(), 5.0);
  EXPECT_EQ(spec.space.start.y(), 11.0);
  EXPECT_EQ(spec.space.start_yaw, 45.0);
  EXPECT_EQ(spec.space.goal.y(), 55.0);
  EXPECT_EQ(spec.space.sim_timeout, 17.0);
  EXPECT_EQ(spec.space.min_obstacles, 2u);
  EXPECT_EQ(spec.space.path_clearance, 3.0);
  EXPECT_EQ(spec.space.classes[0].yaw.max, 90.0);
  EXPECT_EQ(spec.space.classes[0].scale.min, 2.0);
}

TEST(BatchSearchSpec, ErrorsNameTheFileAndTheJsonPath) {
  const std::string head = R"({"strategy": "random", "budget": {"scenarios": 10}, )";
  EXPECT_EQ(ErrorOf(head + R"("space": {"classes": [{"path_name": "t", "max_count": "6"}]}})"),
            "b.json: search.space.classes[0].max_count: expected an unsigned integer, got "
            "string \"6\"");
  EXPECT_EQ(ErrorOf(head + R"("space": {"classes": [{"path_name": "t", "x": [5, 1]}]}})"),
            "b.json: search.space.classes[0].x: min > max in [5,1]");
  EXPECT_EQ(ErrorOf(head + R"("space": {"classes": [{"path_name": "t"}], "color": 1}})")
                .rfind("b.json: search.space.color: unknown key", 0),
            0u);
  EXPECT_EQ(ErrorOf(head + R"("space": {"classes": []}})")
                .rfind("b.json: search.space.classes: expected a non-empty array", 0),
            0u);
  EXPECT_EQ(ErrorOf(std::string(R"({"strategy": "random", "budget": {"scenarios": 0},
                    "space": )") +
                    kSpace + "}"),
            "b.json: search.budget.scenarios: expected 1..65535, got 0");
  EXPECT_EQ(
      ErrorOf(std::string(R"({"strategy": "random", "budget": {}, "space": )") + kSpace + "}"),
      "b.json: search.budget.scenarios: is required");
  EXPECT_EQ(ErrorOf(std::string(R"({"strategy": "random", "budget": {"scenarios": 5},
                    "runs_per_scenario": 0, "space": )") +
                    kSpace + "}"),
            "b.json: search.runs_per_scenario: expected 1..65535, got 0");
  EXPECT_NE(ErrorOf(std::string(R"({"strategy": "cmaes", "budget": {"scenarios": 5},
                    "space": )") +
                    kSpace + "}")
                .find("b.json: search.strategy: unknown search strategy \"cmaes\""),
            std::string::npos);
  EXPECT_NE(ErrorOf(std::string(R"({"strategy": "bacre", "budget": {"scenarios": 5},
                    "strategy_settings": {"wings": 2}, "space": )") +
                    kSpace + "}")
                .find("b.json: search.strategy_settings: "),
            std::string::npos);
  EXPECT_EQ(ErrorOf(std::string(R"({"strategy": "random", "budget": {"scenarios": 5},
                    "extra": 1, "space": )") +
                    kSpace + "}")
                .rfind("b.json: search.extra: unknown key", 0),
            0u);
}

TEST(BatchSearchSpec, ATypoGetsTheKeyItLikelyMeantAndSpaceJsonIsTheResolvedSection) {
  const std::string head = R"({"strategy": "random", "budget": {"scenarios": 10}, )";
  EXPECT_EQ(ErrorOf(head + R"("space": {"classes": [{"path_name": "t"}], "goal_clearence": 1}})"),
            "b.json: search.space.goal_clearence: unknown key; did you mean \"goal_clearance\"?");
  const SearchSpec spec = Parse(head + R"("space": {"classes": [{"path_name": "t"}]}})");
  EXPECT_EQ(spec.space_json.dump(),
            R"({"classes":[{"path_name":"t","max_count":6,"x":[0.0,64.0],"y":[0.0,64.0],)"
            R"("yaw":[0.0,0.0],"scale":[1.0,1.0],"obstacle":true}],"min_obstacles":1,)"
            R"("start":{"x":12.0,"y":11.0,"yaw":30.0},"goal":{"x":48.0,"y":47.0},)"
            R"("sim_timeout":20.0,"landscape":{"min":0.0,"max":64.0},"start_clearance":10.0,)"
            R"("goal_clearance":10.0,"path_clearance":4.0})");
}

TEST(BatchSearchSpec, ABatchWithOnlyASearchNumbersItsScenariosAfterTheListedOnes) {
  const Batch batch = ParseBatchText(std::string(R"({"seed": 4, "scenarios": [{}, {}],
      "search": {"strategy": "random", "budget": {"scenarios": 65533}, "space": )") +
                                         kSpace + "}}",
                                     "b.json", "b");
  ASSERT_TRUE(batch.search.has_value());
  EXPECT_EQ(batch.search->seed, 4u);
  EXPECT_EQ(batch.search_first_number, 3u);
  EXPECT_EQ(batch.scenarios.size(), 2u);
  try {
    ParseBatchText(std::string(R"({"scenarios": [{"scenario_number": 2147483646}],
        "search": {"strategy": "random", "budget": {"scenarios": 2}, "space": )") +
                       kSpace + "}}",
                   "b.json", "b");
    ADD_FAILURE() << "no error for numbers past 2147483647";
  } catch (const BatchError& error) {
    EXPECT_EQ(std::string(error.what()).rfind("b.json: search.budget.scenarios: ", 0), 0u);
  }
  const Batch only = ParseBatchText(
      std::string(R"({"search": {"strategy": "random", "budget": {"scenarios": 5}, "space": )") +
          kSpace + "}}",
      "b.json", "b");
  EXPECT_TRUE(only.scenarios.empty());
  EXPECT_EQ(only.search_first_number, 1u);
}

}  // namespace
}  // namespace asg::client
