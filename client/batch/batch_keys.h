// The keys of the batch file's hand-decoded objects, shared by their decoders (batch.cpp,
// generate.cpp, search_spec.cpp) and the batch file's JSON Schema (batch_schema.cpp): a key one
// accepts, the other must describe, or the schema throws.
#pragma once

#include <set>
#include <string>

namespace asg::client::batch_keys {

using KeySet = std::set<std::string>;

/// "$schema" names the batch file's JSON Schema for editors (asg-client schema); it is ignored.
inline const KeySet kBatch = {
    "$schema", "name",     "seed",          "defaults",     "scenarios",         "generate",
    "search",  "variants", "vehicle_nodes", "max_attempts", "scenario_timeout_s"};
/// "vehicle_nodes" keys the client reads; the rest are a VehicleNodesSpec.
inline const KeySet kNodeSettings = {"max_reruns", "save_minimal", "ready_timeout"};

inline const KeySet kGenerate = {"count",
                                 "start_number",
                                 "max_tries",
                                 "actors",
                                 "start",
                                 "goal",
                                 "goal_radius",
                                 "sim_timeout_period",
                                 "vehicle_idling_timeout_period",
                                 "vehicle_stuck_timeout_period",
                                 "sunlight_inclination",
                                 "sunlight_yaw_angle",
                                 "start_clearance",
                                 "goal_clearance",
                                 "min_start_goal_distance"};
inline const KeySet kGenerateActor = {"path_name", "count", "x",          "y",
                                      "yaw",       "scale", "cast_shadow"};
/// "start" of "generate" and of a search space.
inline const KeySet kStart = {"x", "y", "yaw"};
/// "goal" of "generate" and of a search space.
inline const KeySet kGoal = {"x", "y"};

inline const KeySet kSearch = {"strategy",        "strategy_settings", "seed", "budget",
                               "generation_size", "runs_per_scenario", "space"};
inline const KeySet kSearchBudget = {"scenarios"};
inline const KeySet kSearchSpace = {
    "classes",   "min_obstacles",   "start",          "goal",          "sim_timeout",
    "landscape", "start_clearance", "goal_clearance", "path_clearance"};
inline const KeySet kSearchLandscape = {"min", "max"};
inline const KeySet kSearchClass = {"path_name", "max_count", "x", "y", "yaw", "scale", "obstacle"};

}  // namespace asg::client::batch_keys
