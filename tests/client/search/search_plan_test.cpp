// Tests for client/search/search_plan.h.
#include "client/search/search_plan.h"

#include <gtest/gtest.h>

#include "client/batch/batch_seed.h"

namespace asg::client {
namespace {

search::SearchSpace Space() {
  search::SearchSpace space;
  space.classes.resize(2);
  space.classes[0].path_name = "tree";
  space.classes[1].path_name = "bush";
  space.start = {8.0, 9.0};
  space.start_yaw = 40.0;
  space.goal = {30.0, 31.0};
  space.sim_timeout = 12.0;
  return space;
}

search::Candidate TwoBushesAndATree() {
  search::Candidate candidate;
  candidate.id = 7;
  candidate.obstacles = {
      {1, 20.0, 21.0, 0.0, 1.0}, {0, 22.0, 5.0, 90.0, 1.5}, {1, 25.0, 3.0, 0.0, 1.0}};
  candidate.parents = {2, 5};
  candidate.origin = "crossover";
  candidate.generation = 3;
  return candidate;
}

TEST(BatchSearchPlan, ObstaclesAreGroupedByClassInClassOrderOverTheDefaults) {
  const Batch batch = ParseBatchText(R"({"defaults": {"goal_radius": 3.5,
      "vehicle_start_location": {"x": 1, "y": 1, "z": 0.25}}, "scenarios": [{}]})",
                                     "b.json", "b");
  const Json request = CandidateRequest(Space(), batch.base_request, TwoBushesAndATree(), 12, 99);
  EXPECT_EQ(request["scenario_number"], 12);
  EXPECT_EQ(request["seed"], 99);
  EXPECT_EQ(request["goal_radius"], 3.5);
  EXPECT_EQ(request["vehicle_start_location"]["x"], 8.0);
  EXPECT_EQ(request["vehicle_start_location"]["y"], 9.0);
  EXPECT_EQ(request["vehicle_start_location"]["z"], 0.25);
  EXPECT_EQ(request["vehicle_start_yaw"], 40.0);
  EXPECT_EQ(request["vehicle_goal_location"]["x"], 30.0);
  EXPECT_EQ(request["sim_timeout_period"], 12.0);
  const Json& layouts = request["scene_description"]["ssa_array"];
  ASSERT_EQ(layouts.size(), 2u);
  EXPECT_EQ(layouts[0]["path_name"], "tree");
  EXPECT_EQ(layouts[0]["num_instances"], 1);
  EXPECT_EQ(layouts[0]["yaw"], Json::parse("[90.0]"));
  EXPECT_EQ(layouts[0]["scale"], Json::parse("[1.5]"));
  EXPECT_EQ(layouts[1]["path_name"], "bush");
  EXPECT_EQ(layouts[1]["x"], Json::parse("[20.0, 25.0]"));
  EXPECT_EQ(layouts[1]["y"], Json::parse("[21.0, 3.0]"));
  EXPECT_EQ(layouts[1]["visible"], Json::parse("[true, true]"));
}

TEST(BatchSearchPlan, PlannedCandidateDecodesAndCarriesItsRecord) {
  const Batch batch = ParseBatchText(R"({"scenarios": [{}]})", "b.json", "b");
  const search::Candidate candidate = TwoBushesAndATree();
  const Json record = CandidateRecord(Space(), candidate, 4, {2, 5});
  EXPECT_EQ(record["candidate_id"], 7);
  EXPECT_EQ(record["generation"], 4);
  EXPECT_EQ(record["lineage_generation"], 3);
  EXPECT_EQ(record["origin"], "crossover");
  EXPECT_EQ(record["parents"], Json::parse("[2, 5]"));
  EXPECT_EQ(record["obstacles"][0]["class"], "bush");
  const PlannedScenario planned =
      PlanCandidate(Space(), batch.base_request, candidate, 12, ScenarioSeed(1, 12), record);
  EXPECT_EQ(planned.status, PlanStatus::kValid) << planned.error;
  EXPECT_EQ(planned.source, "search[6]");
  EXPECT_EQ(planned.request.scene_description.ssa_array.size(), 2u);
  EXPECT_EQ(planned.request.seed, ScenarioSeed(1, 12));
  EXPECT_EQ(planned.search_record, record);
}

TEST(BatchSearchPlan, ACandidatesRunsDifferOnlyInTheirVariationRun) {
  const Batch batch = ParseBatchText(R"({"scenarios": [{}]})", "b.json", "b");
  const search::Candidate candidate = TwoBushesAndATree();
  const Json record = CandidateRecord(Space(), candidate, 4, {2}, 2, {12, 13, 14});
  EXPECT_EQ(record["run"], 2);
  EXPECT_EQ(record["runs"], Json::parse("[12, 13, 14]"));
  const PlannedScenario nominal =
      PlanCandidate(Space(), batch.base_request, candidate, 12, 77, record, 0);
  const PlannedScenario third =
      PlanCandidate(Space(), batch.base_request, candidate, 14, 77, record, 2);
  EXPECT_EQ(third.status, PlanStatus::kValid) << third.error;
  EXPECT_EQ(nominal.request.variation.run, 0u);
  EXPECT_EQ(third.request.variation.run, 2u);
  EXPECT_EQ(third.source, "search[6].runs[2]");
  EXPECT_EQ(third.request.seed, nominal.request.seed);
  EXPECT_EQ(third.request.scene_description.ssa_array, nominal.request.scene_description.ssa_array);
  EXPECT_EQ(third.request.variation.start_position_range,
            nominal.request.variation.start_position_range);
}

}  // namespace
}  // namespace asg::client
