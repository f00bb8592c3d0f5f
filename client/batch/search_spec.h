// The "search" section of a batch file: an online scenario search run by `asg-client run`
// (client/search/search_run.h runs it; docs/search-strategies.md has the strategies).
//
//   "search": {"strategy": "bacre", "seed": 7, "generation_size": 50, "runs_per_scenario": 1,
//              "budget": {"scenarios": 5000},
//              "strategy_settings": {<the strategy's keys>},
//              "space": {"classes": [{"path_name": "tree", "max_count": 6, "x": [0, 60],
//                                     "y": [0, 60], "yaw": 0, "scale": 1, "obstacle": true}],
//                        "min_obstacles": 1, "start": {"x": 10, "y": 10, "yaw": 45},
//                        "goal": {"x": 50, "y": 50}, "sim_timeout": 17,
//                        "landscape": {"min": 0, "max": 60}, "start_clearance": 10,
//                        "goal_clearance": 10, "path_clearance": 4}}
// "strategy", "budget.scenarios" and "space.classes" (each class's "path_name") are required;
// every other key is optional. A range is a number (fixed) or [min, max]. Start, start yaw, goal
// and sim_timeout default to the batch defaults' vehicle_start_location, vehicle_start_yaw,
// vehicle_goal_location and sim_timeout_period; the landscape to [0, defaults'
// scene_description.landscape.nominal_size]; a sim_timeout_period of 0 there keeps
// search::SearchSpace's default (17 s). "seed" defaults to the batch seed.
// "generation_size" (default 50) is how many candidates are asked at once; it does not depend on
// the worker count, so results do not either. "runs_per_scenario" (1..65535, default 1) is how
// many times each candidate runs, each run a scenario of its own with variation.run 0..K-1
// (protocol::RunVariation): the candidate's score is the mean over its runs. "budget.scenarios"
// counts candidates, so a search runs budget * runs_per_scenario scenarios.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client/batch/batch_json.h"
#include "json/declare.h"
#include "search/space.h"

namespace asg::client {

/// The strategy whose proposals come from a scenario generator connected to the client
/// (client/search/external_strategy.h); every other name is search::MakeStrategy's.
inline constexpr const char* kExternalStrategy = "external";

/// The "external" strategy's strategy_settings.
struct ExternalSettings {
  double connect_timeout = 120.0;  ///< [s] for the generator to register, in (0, 86400]
  double reply_timeout = 600.0;    ///< [s] for each of its replies, in (0, 86400]
  uint32_t max_rounds = 20;        ///< proposal rounds per Ask while proposals are refused, 1..1000
  Json generator = Json::object();  ///< passed through
};
ASG_DECLARE_JSON(ExternalSettings);

/// Reads strategy_settings of "external" (null or an object with the keys above). Throws
/// std::invalid_argument naming a bad key or value.
ExternalSettings ParseExternalSettings(const Json& settings);

// The "search" section as written; ParseSearchSpec resolves what it leaves out from the batch.

/// An entry of "space.classes"; x and y default to the landscape, known once resolved.
struct SearchClassSection {
  std::string path_name;
  uint32_t max_count = search::ActorClassSpace{}.max_count;
  std::optional<search::Range> x, y;  ///< [m]
  search::Range yaw = search::ActorClassSpace{}.yaw;
  search::Range scale = search::ActorClassSpace{}.scale;
  bool obstacle = search::ActorClassSpace{}.obstacle;
};
ASG_DECLARE_JSON(SearchClassSection);

/// "space.start": x, y [m] and yaw [deg]; absent ones come from the batch defaults.
struct SearchStart {
  std::optional<double> x, y, yaw;
};
ASG_DECLARE_JSON(SearchStart);

/// "space.goal": x, y [m].
struct SearchGoal {
  std::optional<double> x, y;
};
ASG_DECLARE_JSON(SearchGoal);

/// "space.landscape": the reference agent's bounds [m].
struct SearchLandscape {
  std::optional<double> min, max;
};
ASG_DECLARE_JSON(SearchLandscape);

/// "space" as written.
struct SearchSpaceSection {
  std::vector<SearchClassSection> classes;
  uint32_t min_obstacles = search::SearchSpace{}.min_obstacles;
  SearchStart start;
  SearchGoal goal;
  std::optional<double> sim_timeout;  ///< [s]
  SearchLandscape landscape;
  double start_clearance = search::SearchSpace{}.start_clearance;  ///< [m]
  double goal_clearance = search::SearchSpace{}.goal_clearance;    ///< [m]
  double path_clearance = search::SearchSpace{}.path_clearance;    ///< [m]
};
ASG_DECLARE_JSON(SearchSpaceSection);

/// "budget".
struct SearchBudget {
  uint32_t scenarios = 0;  ///< candidates to run, 1..65535
};
ASG_DECLARE_JSON(SearchBudget);

/// The "search" section as written.
struct SearchSection {
  std::string strategy;
  Json strategy_settings = Json::object();
  std::optional<uint64_t> seed;  ///< absent: the batch seed
  SearchBudget budget;
  uint32_t generation_size = 50;
  uint32_t runs_per_scenario = 1;
  SearchSpaceSection space;
};
ASG_DECLARE_JSON(SearchSection);

/// A parsed "search" section.
struct SearchSpec {
  std::string strategy;  ///< a name search::MakeStrategy knows, or kExternalStrategy
  Json strategy_settings = Json::object();  ///< passed to search::MakeStrategy as given
  uint64_t seed = 0;                        ///< the strategy's seed
  uint32_t budget_scenarios = 0;            ///< candidates to run in all, >= 1
  uint32_t generation_size = 50;            ///< candidates asked at once, >= 1
  uint32_t runs_per_scenario = 1;           ///< runs per candidate, >= 1
  search::SearchSpace space;                ///< classes, start, goal, clearances
  Json space_json = Json::object();         ///< `space` as resolved, for search.json
};

/// Parses a "search" section found at JSON path `path` of `origin`, with the batch `defaults`
/// (the merged base request JSON) and `batch_seed` supplying what the section leaves out. Throws
/// BatchError "<origin>: <path>.<key>: <problem>" for unknown keys, wrong types and bad values,
/// e.g. "batch.json: search.space.classes[0].max_count: expected an unsigned integer, got ...".
SearchSpec ParseSearchSpec(const Json& section, const Json& defaults, uint64_t batch_seed,
                           const std::string& origin, const std::string& path);

/// Resolves a decoded section as ParseSearchSpec does; `path` names it in errors.
SearchSpec ResolveSearchSpec(const SearchSection& section, const Json& defaults,
                             uint64_t batch_seed, const std::string& origin,
                             const std::string& path);

/// The space as JSON (classes with their ranges, start, goal, bounds, clearances).
Json SearchSpaceToJson(const search::SearchSpace& space);

}  // namespace asg::client
