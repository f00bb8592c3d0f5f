// Sampling scenarios the way AutoSceneGen's scenario builder does: every quantity uniform in a
// range, actor positions rejection-sampled away from the vehicle's start and goal.
//
// The "generate" section of a batch file (every key optional except count and, per actor,
// path_name, count, x and y; a value is a number or a [min, max] range):
//   {"count": 500, "start_number": 101, "max_tries": 1000,
//    "actors": [{"path_name": "/Game/...", "count": 6 or [min, max], "x": [0, 60],
//                "y": [0, 60], "yaw": [0, 360], "scale": 1, "cast_shadow": true}],
//    "start": {"x": .., "y": .., "yaw": ..}, "goal": {"x": .., "y": ..}, "goal_radius": ..,
//    "sim_timeout_period": .., "vehicle_idling_timeout_period": ..,
//    "vehicle_stuck_timeout_period": .., "sunlight_inclination": .., "sunlight_yaw_angle": ..,
//    "start_clearance": 10, "goal_clearance": 10, "min_start_goal_distance": 20}
// Units: metres, degrees, seconds. Quantities not in the section come from the batch defaults.
//
// Sampling order (fixed, so a scenario is reproducible from its seed alone): start x, y, yaw;
// goal x, y (start and goal redrawn together until min_start_goal_distance holds); goal_radius;
// the three timeouts; sunlight inclination and yaw; then per actor class in listed order: the
// instance count, then per instance x and y (redrawn until at least start_clearance from the
// start and goal_clearance from the goal, 2-D), yaw and scale. A fixed number draws nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "client/batch/batch_json.h"
#include "json/declare.h"

namespace asg::client {

/// A sampled quantity: uniform in [min, max]; min == max is a fixed value.
struct SampledRange {
  double min = 0.0;  ///< lower bound (unit of the quantity)
  double max = 0.0;  ///< upper bound, >= min
  bool operator==(const SampledRange&) const = default;
};

/// One actor class to scatter over the landscape.
struct GeneratedActorSpec {
  std::string path_name;         ///< actor class, a key of the actor catalog
  int64_t count_min = 0;         ///< fewest instances, >= 0
  int64_t count_max = 0;         ///< most instances, count_min..65535
  SampledRange x;                ///< [m] north
  SampledRange y;                ///< [m] west
  SampledRange yaw{0.0, 360.0};  ///< [deg]
  SampledRange scale{1.0, 1.0};  ///< uniform scale, > 0
  bool cast_shadow = true;       ///< cast_shadow of every instance
};
ASG_DECLARE_JSON(GeneratedActorSpec);

/// A parsed "generate" section.
struct GenerateSpec {
  uint32_t count = 0;                      ///< scenarios to generate
  std::optional<uint32_t> start_number;    ///< number of the first one (default: after listed)
  uint32_t max_tries = 1000;               ///< rejection-sampling tries per position, >= 1
  std::vector<GeneratedActorSpec> actors;  ///< replaces scene_description.ssa_array when given
  std::optional<SampledRange> start_x, start_y, start_yaw;    ///< [m], [m], [deg]
  std::optional<SampledRange> goal_x, goal_y;                 ///< [m]
  std::optional<SampledRange> goal_radius;                    ///< [m]
  std::optional<SampledRange> sim_timeout_period;             ///< [s]
  std::optional<SampledRange> vehicle_idling_timeout_period;  ///< [s]
  std::optional<SampledRange> vehicle_stuck_timeout_period;   ///< [s]
  std::optional<SampledRange> sunlight_inclination;           ///< [deg]
  std::optional<SampledRange> sunlight_yaw_angle;             ///< [deg]
  double start_clearance = 10.0;                  ///< [m] no actor closer than this to the start
  double goal_clearance = 10.0;                   ///< [m] no actor closer than this to the goal
  std::optional<double> min_start_goal_distance;  ///< [m] when set, start and goal this far apart
};
ASG_DECLARE_JSON(GenerateSpec);

/// Parses a "generate" section found at JSON path `path` of `origin` (its fields are declared in
/// generate_json.cpp); throws BatchError "<origin>: <path>.<key>: <problem>" for wrong types,
/// unknown keys (with the likely key meant) or min > max.
GenerateSpec ParseGenerateSpec(const Json& section, const std::string& origin,
                               const std::string& path);

/// A scenario whose sampling failed within the tries allowed, e.g.
/// `actor "/Game/X": no position 10 m from the start and 10 m from the goal in 1000 tries`.
class GenerateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The full request JSON of one generated scenario: the sampled values (from Random(seed), in
/// the order above) merged over `defaults`, with "scenario_number" and "seed" set. Start and
/// goal not sampled are read from the defaults (0 when absent). When `sampled` is given it receives
/// the sampled values alone (what the scenario changes over `defaults`, like a listed scenario's
/// overrides). Throws GenerateError.
Json GenerateScenario(const GenerateSpec& spec, const Json& defaults, uint32_t scenario_number,
                      uint64_t seed, Json* sampled = nullptr);

}  // namespace asg::client
