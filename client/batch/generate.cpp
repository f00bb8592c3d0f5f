// Parsing of the "generate" section and sampling of one scenario from its seed.
#include "client/batch/generate.h"

#include <cmath>
#include <limits>
#include <set>

#include "client/batch/batch_keys.h"
#include "client/batch/batch_seed.h"
#include "protocol/messages.h"

namespace asg::client {

namespace {

void CheckKeys(const Json& object, const std::set<std::string>& known, const std::string& origin,
               const std::string& path) {
  if (!object.is_object()) FailAt(origin, path, "expected an object, got " + ShortDump(object));
  for (const auto& [key, value] : object.items()) {
    if (!known.contains(key)) FailAt(origin, path + "." + key, "unknown field");
  }
}

double ParseNumber(const Json& value, const std::string& origin, const std::string& path) {
  if (!value.is_number() || !std::isfinite(value.get<double>())) {
    FailAt(origin, path, "expected a finite number, got " + ShortDump(value));
  }
  return value.get<double>();
}

SampledRange ParseRange(const Json& value, const std::string& origin, const std::string& path) {
  if (value.is_number()) {
    const double fixed = ParseNumber(value, origin, path);
    return {fixed, fixed};
  }
  if (!value.is_array() || value.size() != 2) {
    FailAt(origin, path, "expected a number or [min, max], got " + ShortDump(value));
  }
  const SampledRange range{ParseNumber(value[0], origin, path + "[0]"),
                           ParseNumber(value[1], origin, path + "[1]")};
  if (range.min > range.max) FailAt(origin, path, "min > max in " + ShortDump(value));
  return range;
}

std::optional<SampledRange> OptionalRange(const Json& object, const char* key,
                                          const std::string& origin, const std::string& path) {
  const auto found = object.find(key);
  if (found == object.end()) return std::nullopt;
  return ParseRange(*found, origin, path + "." + key);
}

int64_t ParseCount(const Json& value, int64_t max, const std::string& origin,
                   const std::string& path) {
  if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<int64_t>() > max) {
    FailAt(origin, path,
           "expected an integer in 0.." + std::to_string(max) + ", got " + ShortDump(value));
  }
  return value.get<int64_t>();
}

GeneratedActorSpec ParseActor(const Json& actor, const std::string& origin,
                              const std::string& path) {
  CheckKeys(actor, batch_keys::kGenerateActor, origin, path);
  for (const char* required : {"path_name", "count", "x", "y"}) {
    if (!actor.contains(required)) FailAt(origin, path + "." + required, "missing required field");
  }
  GeneratedActorSpec spec;
  if (!actor["path_name"].is_string() || actor["path_name"].get<std::string>().empty()) {
    FailAt(origin, path + ".path_name",
           "expected a non-empty string, got " + ShortDump(actor["path_name"]));
  }
  spec.path_name = actor["path_name"].get<std::string>();
  const Json& count = actor["count"];
  constexpr int64_t kMaxInstances = std::numeric_limits<uint16_t>::max();
  if (count.is_array() && count.size() == 2) {
    spec.count_min = ParseCount(count[0], kMaxInstances, origin, path + ".count[0]");
    spec.count_max = ParseCount(count[1], kMaxInstances, origin, path + ".count[1]");
    if (spec.count_min > spec.count_max) FailAt(origin, path + ".count", "min > max");
  } else {
    spec.count_min = spec.count_max = ParseCount(count, kMaxInstances, origin, path + ".count");
  }
  spec.x = ParseRange(actor["x"], origin, path + ".x");
  spec.y = ParseRange(actor["y"], origin, path + ".y");
  if (actor.contains("yaw")) spec.yaw = ParseRange(actor["yaw"], origin, path + ".yaw");
  if (actor.contains("scale")) {
    spec.scale = ParseRange(actor["scale"], origin, path + ".scale");
    if (spec.scale.min <= 0.0) FailAt(origin, path + ".scale", "scale must be > 0");
  }
  if (actor.contains("cast_shadow")) {
    if (!actor["cast_shadow"].is_boolean()) {
      FailAt(origin, path + ".cast_shadow",
             "expected a boolean, got " + ShortDump(actor["cast_shadow"]));
    }
    spec.cast_shadow = actor["cast_shadow"].get<bool>();
  }
  return spec;
}

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

std::string FormatMetres(double value) {
  Json number = value;
  return number.dump() + " m";
}

}  // namespace

GenerateSpec ParseGenerateSpec(const Json& section, const std::string& origin,
                               const std::string& path) {
  CheckKeys(section, batch_keys::kGenerate, origin, path);
  GenerateSpec spec;
  constexpr int64_t kMaxNumber = std::numeric_limits<uint16_t>::max();
  if (!section.contains("count")) FailAt(origin, path + ".count", "missing required field");
  spec.count =
      static_cast<uint32_t>(ParseCount(section["count"], kMaxNumber, origin, path + ".count"));
  if (section.contains("start_number")) {
    const int64_t start = ParseCount(section["start_number"], protocol::kMaxScenarioNumber, origin,
                                     path + ".start_number");
    if (start == 0) FailAt(origin, path + ".start_number", "0 is reserved, numbers start at 1");
    spec.start_number = static_cast<uint32_t>(start);
  }
  if (section.contains("max_tries")) {
    spec.max_tries = static_cast<uint32_t>(
        ParseCount(section["max_tries"], 100'000'000, origin, path + ".max_tries"));
    if (spec.max_tries == 0) FailAt(origin, path + ".max_tries", "must be >= 1");
  }
  if (section.contains("actors")) {
    const Json& actors = section["actors"];
    if (!actors.is_array()) {
      FailAt(origin, path + ".actors", "expected an array, got " + ShortDump(actors));
    }
    for (size_t i = 0; i < actors.size(); ++i) {
      spec.actors.push_back(
          ParseActor(actors[i], origin, path + ".actors[" + std::to_string(i) + "]"));
    }
  }
  if (section.contains("start")) {
    const std::string start_path = path + ".start";
    CheckKeys(section["start"], batch_keys::kStart, origin, start_path);
    spec.start_x = OptionalRange(section["start"], "x", origin, start_path);
    spec.start_y = OptionalRange(section["start"], "y", origin, start_path);
    spec.start_yaw = OptionalRange(section["start"], "yaw", origin, start_path);
  }
  if (section.contains("goal")) {
    const std::string goal_path = path + ".goal";
    CheckKeys(section["goal"], batch_keys::kGoal, origin, goal_path);
    spec.goal_x = OptionalRange(section["goal"], "x", origin, goal_path);
    spec.goal_y = OptionalRange(section["goal"], "y", origin, goal_path);
  }
  spec.goal_radius = OptionalRange(section, "goal_radius", origin, path);
  spec.sim_timeout_period = OptionalRange(section, "sim_timeout_period", origin, path);
  spec.vehicle_idling_timeout_period =
      OptionalRange(section, "vehicle_idling_timeout_period", origin, path);
  spec.vehicle_stuck_timeout_period =
      OptionalRange(section, "vehicle_stuck_timeout_period", origin, path);
  spec.sunlight_inclination = OptionalRange(section, "sunlight_inclination", origin, path);
  spec.sunlight_yaw_angle = OptionalRange(section, "sunlight_yaw_angle", origin, path);
  for (const char* key : {"start_clearance", "goal_clearance", "min_start_goal_distance"}) {
    if (!section.contains(key)) continue;
    const double value = ParseNumber(section[key], origin, path + "." + key);
    if (value < 0.0)
      FailAt(origin, path + "." + key, "must be >= 0, got " + ShortDump(section[key]));
    if (std::string(key) == "start_clearance") spec.start_clearance = value;
    if (std::string(key) == "goal_clearance") spec.goal_clearance = value;
    if (std::string(key) == "min_start_goal_distance") spec.min_start_goal_distance = value;
  }
  return spec;
}

Json GenerateScenario(const GenerateSpec& spec, const Json& defaults, uint32_t scenario_number,
                      uint64_t seed) {
  Random random(seed);
  Json sampled = Json::object();

  // Start and goal, redrawn together until far enough apart.
  double start_x = DefaultCoordinate(defaults, "vehicle_start_location", "x");
  double start_y = DefaultCoordinate(defaults, "vehicle_start_location", "y");
  double goal_x = DefaultCoordinate(defaults, "vehicle_goal_location", "x");
  double goal_y = DefaultCoordinate(defaults, "vehicle_goal_location", "y");
  std::optional<double> start_yaw;
  for (uint32_t attempt = 0;; ++attempt) {
    if (attempt == spec.max_tries) {
      throw GenerateError("start and goal: no pair " + FormatMetres(*spec.min_start_goal_distance) +
                          " apart in " + std::to_string(spec.max_tries) + " tries");
    }
    if (spec.start_x) start_x = Sample(random, *spec.start_x);
    if (spec.start_y) start_y = Sample(random, *spec.start_y);
    if (spec.start_yaw) start_yaw = Sample(random, *spec.start_yaw);
    if (spec.goal_x) goal_x = Sample(random, *spec.goal_x);
    if (spec.goal_y) goal_y = Sample(random, *spec.goal_y);
    if (!spec.min_start_goal_distance ||
        SquaredDistance(goal_x - start_x, goal_y - start_y) >=
            *spec.min_start_goal_distance * *spec.min_start_goal_distance) {
      break;
    }
  }
  if (spec.start_x) sampled["vehicle_start_location"]["x"] = start_x;
  if (spec.start_y) sampled["vehicle_start_location"]["y"] = start_y;
  if (start_yaw) sampled["vehicle_start_yaw"] = *start_yaw;
  if (spec.goal_x) sampled["vehicle_goal_location"]["x"] = goal_x;
  if (spec.goal_y) sampled["vehicle_goal_location"]["y"] = goal_y;

  const std::pair<const char*, const std::optional<SampledRange>*> scalars[] = {
      {"goal_radius", &spec.goal_radius},
      {"sim_timeout_period", &spec.sim_timeout_period},
      {"vehicle_idling_timeout_period", &spec.vehicle_idling_timeout_period},
      {"vehicle_stuck_timeout_period", &spec.vehicle_stuck_timeout_period},
  };
  for (const auto& [key, range] : scalars) {
    if (*range) sampled[key] = Sample(random, **range);
  }
  if (spec.sunlight_inclination) {
    sampled["scene_description"]["sunlight_inclination"] =
        Sample(random, *spec.sunlight_inclination);
  }
  if (spec.sunlight_yaw_angle) {
    sampled["scene_description"]["sunlight_yaw_angle"] = Sample(random, *spec.sunlight_yaw_angle);
  }

  // Actors: uniform positions outside the clearance discs around start and goal.
  if (!spec.actors.empty()) {
    Json layouts = Json::array();
    for (const GeneratedActorSpec& actor : spec.actors) {
      const int64_t count = actor.count_min == actor.count_max
                                ? actor.count_min
                                : random.UniformInt(actor.count_min, actor.count_max);
      if (count == 0) continue;
      Json layout = {{"path_name", actor.path_name}, {"num_instances", count},
                     {"visible", Json::array()},     {"cast_shadow", Json::array()},
                     {"x", Json::array()},           {"y", Json::array()},
                     {"yaw", Json::array()},         {"scale", Json::array()}};
      for (int64_t i = 0; i < count; ++i) {
        double x = 0.0;
        double y = 0.0;
        for (uint32_t attempt = 0;; ++attempt) {
          if (attempt == spec.max_tries) {
            throw GenerateError("actor \"" + actor.path_name + "\": no position " +
                                FormatMetres(spec.start_clearance) + " from the start and " +
                                FormatMetres(spec.goal_clearance) + " from the goal in " +
                                std::to_string(spec.max_tries) + " tries");
          }
          x = Sample(random, actor.x);
          y = Sample(random, actor.y);
          if (SquaredDistance(x - start_x, y - start_y) >=
                  spec.start_clearance * spec.start_clearance &&
              SquaredDistance(x - goal_x, y - goal_y) >=
                  spec.goal_clearance * spec.goal_clearance) {
            break;
          }
        }
        layout["visible"].push_back(true);
        layout["cast_shadow"].push_back(actor.cast_shadow);
        layout["x"].push_back(x);
        layout["y"].push_back(y);
        layout["yaw"].push_back(Sample(random, actor.yaw));
        layout["scale"].push_back(Sample(random, actor.scale));
      }
      layouts.push_back(std::move(layout));
    }
    sampled["scene_description"]["ssa_array"] = std::move(layouts);
  }

  Json merged = DeepMerge(defaults.is_object() ? defaults : Json::object(), sampled);
  merged["scenario_number"] = scenario_number;
  merged["seed"] = seed;
  return merged;
}

}  // namespace asg::client
