// Parsing the "search" section strictly, with the batch defaults filling what it leaves out.
#include "client/batch/search_spec.h"

#include <cmath>
#include <initializer_list>
#include <set>
#include <stdexcept>

#include "client/batch/batch_keys.h"
#include "search/settings_reader.h"
#include "search/strategy_registry.h"

namespace asg::client {

namespace {

void RequireObject(const Json& value, const std::string& origin, const std::string& path) {
  if (!value.is_object()) FailAt(origin, path, "expected an object, got " + DescribeValue(value));
}

void CheckKeys(const Json& object, const std::set<std::string>& known, const std::string& origin,
               const std::string& path) {
  RequireObject(object, origin, path);
  for (const auto& [key, value] : object.items()) {
    if (known.contains(key)) continue;
    std::string list;
    for (const std::string& name : known) list += (list.empty() ? "" : ", ") + name;
    FailAt(origin, path + "." + key, "unknown key (expected " + list + ")");
  }
}

double Number(const Json& value, const std::string& origin, const std::string& path) {
  if (!value.is_number() || !std::isfinite(value.get<double>())) {
    FailAt(origin, path, "expected a number, got " + DescribeValue(value));
  }
  return value.get<double>();
}

uint32_t Unsigned(const Json& value, uint64_t min, uint64_t max, const std::string& origin,
                  const std::string& path) {
  if (!value.is_number_unsigned()) {
    FailAt(origin, path, "expected an unsigned integer, got " + DescribeValue(value));
  }
  const uint64_t number = value.get<uint64_t>();
  if (number < min || number > max) {
    FailAt(origin, path,
           "expected " + std::to_string(min) + ".." + std::to_string(max) + ", got " +
               std::to_string(number));
  }
  return static_cast<uint32_t>(number);
}

/// A number (fixed) or [min, max] with min <= max.
search::Range ParseRange(const Json& value, const std::string& origin, const std::string& path) {
  if (value.is_array()) {
    if (value.size() != 2) FailAt(origin, path, "expected [min, max], got " + ShortDump(value));
    const search::Range range{Number(value[0], origin, path + "[0]"),
                              Number(value[1], origin, path + "[1]")};
    if (range.min > range.max) FailAt(origin, path, "min > max in " + ShortDump(value));
    return range;
  }
  const double fixed = Number(value, origin, path);
  return {fixed, fixed};
}

/// The number at `keys` in `defaults`, or `fallback` when absent or not a number.
double DefaultNumber(const Json& defaults, std::initializer_list<const char*> keys,
                     double fallback) {
  const Json* value = &defaults;
  for (const char* name : keys) {
    if (!value->is_object() || !value->contains(name)) return fallback;
    value = &(*value)[name];
  }
  return value->is_number() ? value->get<double>() : fallback;
}

search::ActorClassSpace ParseClass(const Json& object, const std::string& origin,
                                   const std::string& path, double landscape_max) {
  CheckKeys(object, batch_keys::kSearchClass, origin, path);
  search::ActorClassSpace actor;
  actor.x = {0.0, landscape_max};
  actor.y = {0.0, landscape_max};
  if (!object.contains("path_name") || !object["path_name"].is_string() ||
      object["path_name"].get<std::string>().empty()) {
    FailAt(origin, path + ".path_name",
           "expected a non-empty string, got " +
               (object.contains("path_name") ? DescribeValue(object["path_name"]) : "nothing"));
  }
  actor.path_name = object["path_name"].get<std::string>();
  if (object.contains("max_count")) {
    actor.max_count = Unsigned(object["max_count"], 1, 65535, origin, path + ".max_count");
  }
  if (object.contains("x")) actor.x = ParseRange(object["x"], origin, path + ".x");
  if (object.contains("y")) actor.y = ParseRange(object["y"], origin, path + ".y");
  if (object.contains("yaw")) actor.yaw = ParseRange(object["yaw"], origin, path + ".yaw");
  if (object.contains("scale")) actor.scale = ParseRange(object["scale"], origin, path + ".scale");
  if (actor.scale.min <= 0.0) FailAt(origin, path + ".scale", "must be > 0");
  if (object.contains("obstacle")) {
    if (!object["obstacle"].is_boolean()) {
      FailAt(origin, path + ".obstacle",
             "expected a boolean, got " + DescribeValue(object["obstacle"]));
    }
    actor.obstacle = object["obstacle"].get<bool>();
  }
  return actor;
}

search::SearchSpace ParseSpace(const Json& object, const Json& defaults, const std::string& origin,
                               const std::string& path) {
  CheckKeys(object, batch_keys::kSearchSpace, origin, path);
  search::SearchSpace space;
  space.landscape_min = 0.0;
  space.landscape_max =
      DefaultNumber(defaults, {"scene_description", "landscape", "nominal_size"}, 60.0);
  space.start = {DefaultNumber(defaults, {"vehicle_start_location", "x"}, space.start.x()),
                 DefaultNumber(defaults, {"vehicle_start_location", "y"}, space.start.y())};
  space.start_yaw = DefaultNumber(defaults, {"vehicle_start_yaw"}, space.start_yaw);
  space.goal = {DefaultNumber(defaults, {"vehicle_goal_location", "x"}, space.goal.x()),
                DefaultNumber(defaults, {"vehicle_goal_location", "y"}, space.goal.y())};
  // A request's sim_timeout_period of 0 (unset) keeps the space's default.
  if (const double timeout = DefaultNumber(defaults, {"sim_timeout_period"}, 0.0); timeout > 0.0) {
    space.sim_timeout = timeout;
  }
  if (object.contains("landscape")) {
    const std::string landscape_path = path + ".landscape";
    CheckKeys(object["landscape"], batch_keys::kSearchLandscape, origin, landscape_path);
    if (object["landscape"].contains("min")) {
      space.landscape_min = Number(object["landscape"]["min"], origin, landscape_path + ".min");
    }
    if (object["landscape"].contains("max")) {
      space.landscape_max = Number(object["landscape"]["max"], origin, landscape_path + ".max");
    }
    if (space.landscape_min >= space.landscape_max) {
      FailAt(origin, landscape_path, "min must be < max");
    }
  }
  if (!object.contains("classes") || !object["classes"].is_array() || object["classes"].empty()) {
    FailAt(origin, path + ".classes",
           "expected a non-empty array of actor classes, got " +
               (object.contains("classes") ? DescribeValue(object["classes"]) : "nothing"));
  }
  for (size_t i = 0; i < object["classes"].size(); ++i) {
    space.classes.push_back(ParseClass(object["classes"][i], origin,
                                       path + ".classes[" + std::to_string(i) + "]",
                                       space.landscape_max));
  }
  if (object.contains("min_obstacles")) {
    space.min_obstacles =
        Unsigned(object["min_obstacles"], 0, 65535, origin, path + ".min_obstacles");
  }
  if (object.contains("start")) {
    const std::string start_path = path + ".start";
    CheckKeys(object["start"], batch_keys::kStart, origin, start_path);
    const Json& start = object["start"];
    if (start.contains("x")) space.start.x() = Number(start["x"], origin, start_path + ".x");
    if (start.contains("y")) space.start.y() = Number(start["y"], origin, start_path + ".y");
    if (start.contains("yaw")) space.start_yaw = Number(start["yaw"], origin, start_path + ".yaw");
  }
  if (object.contains("goal")) {
    const std::string goal_path = path + ".goal";
    CheckKeys(object["goal"], batch_keys::kGoal, origin, goal_path);
    const Json& goal = object["goal"];
    if (goal.contains("x")) space.goal.x() = Number(goal["x"], origin, goal_path + ".x");
    if (goal.contains("y")) space.goal.y() = Number(goal["y"], origin, goal_path + ".y");
  }
  const std::pair<const char*, double*> positives[] = {
      {"sim_timeout", &space.sim_timeout},
      {"start_clearance", &space.start_clearance},
      {"goal_clearance", &space.goal_clearance},
      {"path_clearance", &space.path_clearance},
  };
  for (const auto& [key, field] : positives) {
    if (!object.contains(key)) continue;
    *field = Number(object[key], origin, path + "." + key);
    if (*field < 0.0)
      FailAt(origin, path + "." + key, "must be >= 0, got " + ShortDump(object[key]));
  }
  if (space.sim_timeout <= 0.0) FailAt(origin, path + ".sim_timeout", "must be > 0");
  return space;
}

Json RangeToJson(const search::Range& range) { return Json::array({range.min, range.max}); }

}  // namespace

Json SearchSpaceToJson(const search::SearchSpace& space) {
  Json classes = Json::array();
  for (const search::ActorClassSpace& actor : space.classes) {
    classes.push_back({{"path_name", actor.path_name},
                       {"max_count", actor.max_count},
                       {"x", RangeToJson(actor.x)},
                       {"y", RangeToJson(actor.y)},
                       {"yaw", RangeToJson(actor.yaw)},
                       {"scale", RangeToJson(actor.scale)},
                       {"obstacle", actor.obstacle}});
  }
  return {{"classes", classes},
          {"min_obstacles", space.min_obstacles},
          {"start", {{"x", space.start.x()}, {"y", space.start.y()}, {"yaw", space.start_yaw}}},
          {"goal", {{"x", space.goal.x()}, {"y", space.goal.y()}}},
          {"sim_timeout", space.sim_timeout},
          {"landscape", {{"min", space.landscape_min}, {"max", space.landscape_max}}},
          {"start_clearance", space.start_clearance},
          {"goal_clearance", space.goal_clearance},
          {"path_clearance", space.path_clearance}};
}

SearchSpec ParseSearchSpec(const Json& section, const Json& defaults, uint64_t batch_seed,
                           const std::string& origin, const std::string& path) {
  CheckKeys(section, batch_keys::kSearch, origin, path);
  SearchSpec spec;
  spec.seed = batch_seed;
  if (!section.contains("strategy") || !section["strategy"].is_string()) {
    FailAt(origin, path + ".strategy",
           "expected a strategy name (a string), got " +
               (section.contains("strategy") ? DescribeValue(section["strategy"]) : "nothing"));
  }
  spec.strategy = section["strategy"].get<std::string>();
  if (section.contains("strategy_settings")) {
    RequireObject(section["strategy_settings"], origin, path + ".strategy_settings");
    spec.strategy_settings = section["strategy_settings"];
  }
  if (section.contains("seed")) {
    if (!section["seed"].is_number_unsigned()) {
      FailAt(origin, path + ".seed",
             "expected a non-negative integer, got " + DescribeValue(section["seed"]));
    }
    spec.seed = section["seed"].get<uint64_t>();
  }
  if (!section.contains("budget")) FailAt(origin, path + ".budget", "is required");
  CheckKeys(section["budget"], batch_keys::kSearchBudget, origin, path + ".budget");
  if (!section["budget"].contains("scenarios")) {
    FailAt(origin, path + ".budget.scenarios", "is required");
  }
  spec.budget_scenarios =
      Unsigned(section["budget"]["scenarios"], 1, 65535, origin, path + ".budget.scenarios");
  if (section.contains("generation_size")) {
    spec.generation_size =
        Unsigned(section["generation_size"], 1, 65535, origin, path + ".generation_size");
  }
  if (section.contains("runs_per_scenario")) {
    spec.runs_per_scenario =
        Unsigned(section["runs_per_scenario"], 1, 65535, origin, path + ".runs_per_scenario");
  }
  if (!section.contains("space")) FailAt(origin, path + ".space", "is required");
  spec.space = ParseSpace(section["space"], defaults, origin, path + ".space");
  spec.space_json = SearchSpaceToJson(spec.space);
  // The strategy is made once here so that a bad name or setting is a batch error.
  try {
    if (spec.strategy == kExternalStrategy) {
      ParseExternalSettings(spec.strategy_settings);
    } else {
      search::MakeStrategy(spec.strategy, spec.strategy_settings, spec.space, spec.seed);
    }
  } catch (const std::invalid_argument& error) {
    std::string problem = error.what();
    if (problem.starts_with("unknown search strategy"))
      problem += ", " + std::string(kExternalStrategy);
    FailAt(origin,
           path + (section.contains("strategy_settings") && !problem.starts_with("unknown")
                       ? ".strategy_settings"
                       : ".strategy"),
           problem);
  }
  return spec;
}

namespace {

ExternalSettings ReadExternalSettings(search::SettingsReader& reader) {
  ExternalSettings s;
  reader.Read("connect_timeout", &s.connect_timeout);
  reader.Read("reply_timeout", &s.reply_timeout);
  reader.Read("max_rounds", &s.max_rounds);
  const nlohmann::ordered_json& generator = reader.Raw("generator", {{"default", s.generator}});
  if (!generator.is_null()) s.generator = generator;
  return s;
}

}  // namespace

nlohmann::ordered_json ExternalSettingsSchema() {
  search::SettingsReader reader("external", nullptr);
  ReadExternalSettings(reader);
  return reader.Schema();
}

ExternalSettings ParseExternalSettings(const nlohmann::ordered_json& settings) {
  search::SettingsReader reader("external", settings);
  const ExternalSettings s = ReadExternalSettings(reader);
  reader.Finish();
  if (!(s.connect_timeout > 0.0 && s.connect_timeout <= 86400.0)) {
    throw std::invalid_argument("external setting \"connect_timeout\" is " +
                                NumberText(s.connect_timeout) + ": expected (0, 86400] seconds");
  }
  if (!(s.reply_timeout > 0.0 && s.reply_timeout <= 86400.0)) {
    throw std::invalid_argument("external setting \"reply_timeout\" is " +
                                NumberText(s.reply_timeout) + ": expected (0, 86400] seconds");
  }
  if (s.max_rounds < 1 || s.max_rounds > 1000) {
    throw std::invalid_argument("external setting \"max_rounds\" is " +
                                std::to_string(s.max_rounds) + ": expected 1..1000");
  }
  return s;
}

}  // namespace asg::client
