// Sampling of one scenario of the "generate" section from its seed.
#include "client/batch/generate.h"

#include <cmath>
#include <optional>
#include <utility>

#include "client/batch/batch_seed.h"

namespace asg::client {

namespace {

double Sample(Random& random, const SampledRange& range) {
  return range.min == range.max ? range.min : random.Uniform(range.min, range.max);
}

// Reads defaults[key].x / .y when they are numbers, else 0.
double DefaultCoordinate(const Json& defaults, const char* key, const char* axis) {
  if (!defaults.is_object() || !defaults.contains(key) || !defaults[key].is_object()) return 0.0;
  const Json& point = defaults[key];
  return point.contains(axis) && point[axis].is_number() ? point[axis].get<double>() : 0.0;
}

// Squared 2-D length; comparing squares avoids hypot, whose rounding varies between libraries.
double SquaredDistance(double dx, double dy) { return dx * dx + dy * dy; }

// Metres as JSON writes them ("10.0 m"), the form these messages have always had.
std::string FormatMetres(double value) { return Json(value).dump() + " m"; }

/// [m] The start and goal of a generated scenario.
struct Endpoints {
  double start_x = 0.0;  ///< [m]
  double start_y = 0.0;  ///< [m]
  double goal_x = 0.0;   ///< [m]
  double goal_y = 0.0;   ///< [m]
};

// Start and goal: the sampled ones written into `sampled`, redrawn together until far enough
// apart; the others are the defaults'.
Endpoints SampleEndpoints(const GenerateSpec& spec, const Json& defaults, Random& random,
                          Json* sampled) {
  Endpoints ends{DefaultCoordinate(defaults, "vehicle_start_location", "x"),
                 DefaultCoordinate(defaults, "vehicle_start_location", "y"),
                 DefaultCoordinate(defaults, "vehicle_goal_location", "x"),
                 DefaultCoordinate(defaults, "vehicle_goal_location", "y")};
  std::optional<double> start_yaw;
  for (uint32_t attempt = 0;; ++attempt) {
    if (attempt == spec.max_tries) {
      throw GenerateError("start and goal: no pair " + FormatMetres(*spec.min_start_goal_distance) +
                          " apart in " + std::to_string(spec.max_tries) + " tries");
    }
    if (spec.start_x) ends.start_x = Sample(random, *spec.start_x);
    if (spec.start_y) ends.start_y = Sample(random, *spec.start_y);
    if (spec.start_yaw) start_yaw = Sample(random, *spec.start_yaw);
    if (spec.goal_x) ends.goal_x = Sample(random, *spec.goal_x);
    if (spec.goal_y) ends.goal_y = Sample(random, *spec.goal_y);
    if (!spec.min_start_goal_distance ||
        SquaredDistance(ends.goal_x - ends.start_x, ends.goal_y - ends.start_y) >=
            *spec.min_start_goal_distance * *spec.min_start_goal_distance) {
      break;
    }
  }
  if (spec.start_x) (*sampled)["vehicle_start_location"]["x"] = ends.start_x;
  if (spec.start_y) (*sampled)["vehicle_start_location"]["y"] = ends.start_y;
  if (start_yaw) (*sampled)["vehicle_start_yaw"] = *start_yaw;
  if (spec.goal_x) (*sampled)["vehicle_goal_location"]["x"] = ends.goal_x;
  if (spec.goal_y) (*sampled)["vehicle_goal_location"]["y"] = ends.goal_y;
  return ends;
}

// The sampled radius, timeouts and sunlight, written into `sampled`.
void SampleSettings(const GenerateSpec& spec, Random& random, Json* sampled) {
  const std::pair<const char*, const std::optional<SampledRange>*> scalars[] = {
      {"goal_radius", &spec.goal_radius},
      {"sim_timeout_period", &spec.sim_timeout_period},
      {"vehicle_idling_timeout_period", &spec.vehicle_idling_timeout_period},
      {"vehicle_stuck_timeout_period", &spec.vehicle_stuck_timeout_period},
  };
  for (const auto& [key, range] : scalars) {
    if (*range) (*sampled)[key] = Sample(random, **range);
  }
  if (spec.sunlight_inclination) {
    (*sampled)["scene_description"]["sunlight_inclination"] =
        Sample(random, *spec.sunlight_inclination);
  }
  if (spec.sunlight_yaw_angle) {
    (*sampled)["scene_description"]["sunlight_yaw_angle"] =
        Sample(random, *spec.sunlight_yaw_angle);
  }
}

// [m] A uniform position of `actor` outside the clearance discs around start and goal.
std::pair<double, double> SamplePosition(const GenerateSpec& spec, const GeneratedActorSpec& actor,
                                         const Endpoints& ends, Random& random) {
  for (uint32_t attempt = 0;; ++attempt) {
    if (attempt == spec.max_tries) {
      throw GenerateError("actor \"" + actor.path_name + "\": no position " +
                          FormatMetres(spec.start_clearance) + " from the start and " +
                          FormatMetres(spec.goal_clearance) + " from the goal in " +
                          std::to_string(spec.max_tries) + " tries");
    }
    const double x = Sample(random, actor.x);
    const double y = Sample(random, actor.y);
    if (SquaredDistance(x - ends.start_x, y - ends.start_y) >=
            spec.start_clearance * spec.start_clearance &&
        SquaredDistance(x - ends.goal_x, y - ends.goal_y) >=
            spec.goal_clearance * spec.goal_clearance) {
      return {x, y};
    }
  }
}

// The layout of one generated actor class (null when it drew no instance).
Json SampleActor(const GenerateSpec& spec, const GeneratedActorSpec& actor, const Endpoints& ends,
                 Random& random) {
  const int64_t count = actor.count_min == actor.count_max
                            ? actor.count_min
                            : random.UniformInt(actor.count_min, actor.count_max);
  if (count == 0) return nullptr;
  Json layout = {{"path_name", actor.path_name}, {"num_instances", count},
                 {"visible", Json::array()},     {"cast_shadow", Json::array()},
                 {"x", Json::array()},           {"y", Json::array()},
                 {"yaw", Json::array()},         {"scale", Json::array()}};
  for (int64_t i = 0; i < count; ++i) {
    const auto [x, y] = SamplePosition(spec, actor, ends, random);
    layout["visible"].push_back(true);
    layout["cast_shadow"].push_back(actor.cast_shadow);
    layout["x"].push_back(x);
    layout["y"].push_back(y);
    layout["yaw"].push_back(Sample(random, actor.yaw));
    layout["scale"].push_back(Sample(random, actor.scale));
  }
  return layout;
}

}  // namespace

GenerateSpec ParseGenerateSpec(const Json& section, const std::string& origin,
                               const std::string& path) {
  GenerateSpec spec;
  try {
    Decode(section, path, &spec);
  } catch (const json::DecodeError& error) {
    throw BatchError(origin + ": " + error.what());
  }
  return spec;
}

Json GenerateScenario(const GenerateSpec& spec, const Json& defaults, uint32_t scenario_number,
                      uint64_t seed, Json* sampled_out) {
  Random random(seed);
  Json sampled = Json::object();
  const Endpoints ends = SampleEndpoints(spec, defaults, random, &sampled);
  SampleSettings(spec, random, &sampled);
  if (!spec.actors.empty()) {
    Json layouts = Json::array();
    for (const GeneratedActorSpec& actor : spec.actors) {
      Json layout = SampleActor(spec, actor, ends, random);
      if (!layout.is_null()) layouts.push_back(std::move(layout));
    }
    sampled["scene_description"]["ssa_array"] = std::move(layouts);
  }
  Json merged = DeepMerge(defaults.is_object() ? defaults : Json::object(), sampled);
  merged["scenario_number"] = scenario_number;
  merged["seed"] = seed;
  if (sampled_out != nullptr) *sampled_out = std::move(sampled);
  return merged;
}

}  // namespace asg::client
