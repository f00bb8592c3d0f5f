// Candidates into requests: obstacles grouped by class into structural scene actor layouts.
#include "client/search/search_plan.h"

#include <utility>

namespace asg::client {

Json CandidateRequest(const search::SearchSpace& space, const Json& base,
                      const search::Candidate& candidate, uint32_t scenario_number, uint64_t seed,
                      uint32_t run) {
  Json layouts = Json::array();
  for (uint32_t actor_class = 0; actor_class < space.classes.size(); ++actor_class) {
    Json layout = {{"path_name", space.classes[actor_class].path_name},
                   {"num_instances", 0},
                   {"visible", Json::array()},
                   {"cast_shadow", Json::array()},
                   {"x", Json::array()},
                   {"y", Json::array()},
                   {"yaw", Json::array()},
                   {"scale", Json::array()}};
    uint32_t count = 0;
    for (const search::Obstacle& obstacle : candidate.obstacles) {
      if (obstacle.actor_class != actor_class) continue;
      ++count;
      layout["visible"].push_back(true);
      layout["cast_shadow"].push_back(true);
      layout["x"].push_back(obstacle.x);
      layout["y"].push_back(obstacle.y);
      layout["yaw"].push_back(obstacle.yaw);
      layout["scale"].push_back(obstacle.scale);
    }
    if (count == 0) continue;
    layout["num_instances"] = count;
    layouts.push_back(std::move(layout));
  }
  const Json overrides = {
      {"vehicle_start_location", {{"x", space.start.x()}, {"y", space.start.y()}}},
      {"vehicle_start_yaw", space.start_yaw},
      {"vehicle_goal_location", {{"x", space.goal.x()}, {"y", space.goal.y()}}},
      {"sim_timeout_period", space.sim_timeout},
      {"scene_description", {{"ssa_array", std::move(layouts)}}}};
  Json merged = DeepMerge(base, overrides);
  merged["scenario_number"] = scenario_number;
  merged["seed"] = seed;
  merged["variation"]["run"] = run;
  return merged;
}

Json CandidateRecord(const search::SearchSpace& space, const search::Candidate& candidate,
                     uint32_t generation, const std::vector<uint32_t>& parent_numbers, uint32_t run,
                     const std::vector<uint32_t>& run_numbers) {
  Json obstacles = Json::array();
  for (const search::Obstacle& obstacle : candidate.obstacles) {
    const std::string name = obstacle.actor_class < space.classes.size()
                                 ? space.classes[obstacle.actor_class].path_name
                                 : std::string();
    obstacles.push_back({{"class", name},
                         {"x", obstacle.x},
                         {"y", obstacle.y},
                         {"yaw", obstacle.yaw},
                         {"scale", obstacle.scale}});
  }
  return {{"candidate_id", candidate.id},
          {"generation", generation},
          {"lineage_generation", candidate.generation},
          {"origin", candidate.origin},
          {"parents", parent_numbers},
          {"parent_ids", candidate.parents},
          {"obstacles", std::move(obstacles)},
          {"run", run},
          {"runs", run_numbers}};
}

PlannedScenario PlanCandidate(const search::SearchSpace& space, const Json& base,
                              const search::Candidate& candidate, uint32_t scenario_number,
                              uint64_t seed, Json record, uint32_t run) {
  PlannedScenario planned;
  planned.scenario_number = scenario_number;
  planned.seed = seed;
  planned.source = "search[" + std::to_string(candidate.id - 1) + "]";
  if (run > 0) planned.source += ".runs[" + std::to_string(run) + "]";
  DecodePlannedRequest(CandidateRequest(space, base, candidate, scenario_number, seed, run),
                       planned.source, &planned);
  planned.search_record = std::move(record);
  return planned;
}

}  // namespace asg::client
