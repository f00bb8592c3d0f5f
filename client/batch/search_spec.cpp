// The "search" section: its field lists, and the batch defaults filling what it leaves out.
#include "client/batch/search_spec.h"

#include <initializer_list>
#include <stdexcept>

#include "client/batch/batch_wording.h"
#include "json/range.h"
#include "search/strategy_registry.h"
#include "search/strategy_settings.h"

namespace asg::json {

template <>
struct Schema<client::ExternalSettings> {
  static constexpr const char* kName = "StrategySettings:external";
  static constexpr const Wording* kWording = &search::kSettingsWording;
  static constexpr Limit kTimeout{0.0, 86400.0, true, false};
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("connect_timeout", m.connect_timeout, kTimeout);
    v.Optional("reply_timeout", m.reply_timeout, kTimeout);
    v.Optional("max_rounds", m.max_rounds, Between(1, 1000));
    v.Optional("generator", m.generator);
  }
};

template <>
struct Schema<client::SearchClassSection> {
  static constexpr const char* kName = "SearchClass";
  static constexpr const Wording* kWording = &client::kSearchWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("path_name", m.path_name);
    v.Optional("max_count", m.max_count, Between(1, 65535));
    v.Optional("x", m.x, kNumberOrRange);
    v.Optional("y", m.y, kNumberOrRange);
    v.Optional("yaw", m.yaw, kNumberOrRange);
    v.Optional("scale", m.scale, NumberOrRange{kPositive});
    v.Optional("obstacle", m.obstacle);
  }
  static void Check(const client::SearchClassSection& m, const FieldReader& reader) {
    if (m.path_name.empty()) {
      throw DecodeError(reader.Child("path_name"), "expected a non-empty string, got \"\"");
    }
  }
};

template <>
struct Schema<client::SearchStart> {
  static constexpr const Wording* kWording = &client::kSearchWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("x", m.x);
    v.Optional("y", m.y);
    v.Optional("yaw", m.yaw);
  }
};

template <>
struct Schema<client::SearchGoal> {
  static constexpr const Wording* kWording = &client::kSearchWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("x", m.x);
    v.Optional("y", m.y);
  }
};

template <>
struct Schema<client::SearchLandscape> {
  static constexpr const Wording* kWording = &client::kSearchWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("min", m.min);
    v.Optional("max", m.max);
  }
};

template <>
struct Schema<client::SearchSpaceSection> {
  static constexpr const char* kName = "SearchSpace";
  static constexpr const Wording* kWording = &client::kSearchWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("classes", m.classes);
    v.Optional("min_obstacles", m.min_obstacles, Between(0, 65535));
    v.Optional("start", m.start);
    v.Optional("goal", m.goal);
    v.Optional("sim_timeout", m.sim_timeout, kPositive);
    v.Optional("landscape", m.landscape);
    v.Optional("start_clearance", m.start_clearance, kNonNegative);
    v.Optional("goal_clearance", m.goal_clearance, kNonNegative);
    v.Optional("path_clearance", m.path_clearance, kNonNegative);
  }
  static void Check(const client::SearchSpaceSection& m, const FieldReader& reader) {
    if (m.classes.empty()) {
      throw DecodeError(reader.Child("classes"),
                        "expected a non-empty array of actor classes, got []");
    }
  }
};

template <>
struct Schema<client::SearchBudget> {
  static constexpr const Wording* kWording = &client::kSearchWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("scenarios", m.scenarios, Between(1, 65535));
  }
};

template <>
struct Schema<client::SearchSection> {
  static constexpr const char* kName = "Search";
  static constexpr const Wording* kWording = &client::kSearchWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("strategy", m.strategy, Expecting{"a strategy name (a string)"});
    v.Optional("strategy_settings", m.strategy_settings);
    v.Optional("seed", m.seed);
    v.Required("budget", m.budget);
    v.Optional("generation_size", m.generation_size, Between(1, 65535));
    v.Optional("runs_per_scenario", m.runs_per_scenario, Between(1, 65535));
    v.Required("space", m.space);
  }
  static void Check(const client::SearchSection& m, const FieldReader& reader) {
    if (!m.strategy_settings.is_object()) {
      throw DecodeError(reader.Child("strategy_settings"),
                        "expected an object, got " + client::DescribeValue(m.strategy_settings));
    }
  }
};

}  // namespace asg::json

namespace asg::client {

ASG_DEFINE_JSON(ExternalSettings)
ASG_DEFINE_JSON(SearchClassSection)
ASG_DEFINE_JSON(SearchStart)
ASG_DEFINE_JSON(SearchGoal)
ASG_DEFINE_JSON(SearchLandscape)
ASG_DEFINE_JSON(SearchSpaceSection)
ASG_DEFINE_JSON(SearchBudget)
ASG_DEFINE_JSON(SearchSection)

namespace {

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

// The space of `section`, with the batch defaults for start, goal, timeout and landscape.
search::SearchSpace ResolveSpace(const SearchSpaceSection& section, const Json& defaults,
                                 const std::string& origin, const std::string& path) {
  search::SearchSpace space;
  space.landscape_min = section.landscape.min.value_or(0.0);
  space.landscape_max = section.landscape.max.value_or(
      DefaultNumber(defaults, {"scene_description", "landscape", "nominal_size"}, 60.0));
  if ((section.landscape.min || section.landscape.max) &&
      space.landscape_min >= space.landscape_max) {
    FailAt(origin, path + ".landscape", "min must be < max");
  }
  space.start = {section.start.x.value_or(
                     DefaultNumber(defaults, {"vehicle_start_location", "x"}, space.start.x())),
                 section.start.y.value_or(
                     DefaultNumber(defaults, {"vehicle_start_location", "y"}, space.start.y()))};
  space.start_yaw =
      section.start.yaw.value_or(DefaultNumber(defaults, {"vehicle_start_yaw"}, space.start_yaw));
  space.goal = {section.goal.x.value_or(
                    DefaultNumber(defaults, {"vehicle_goal_location", "x"}, space.goal.x())),
                section.goal.y.value_or(
                    DefaultNumber(defaults, {"vehicle_goal_location", "y"}, space.goal.y()))};
  // A request's sim_timeout_period of 0 (unset) keeps the space's default.
  if (const double timeout = DefaultNumber(defaults, {"sim_timeout_period"}, 0.0); timeout > 0.0) {
    space.sim_timeout = timeout;
  }
  space.sim_timeout = section.sim_timeout.value_or(space.sim_timeout);
  for (const SearchClassSection& written : section.classes) {
    search::ActorClassSpace actor;
    actor.path_name = written.path_name;
    actor.max_count = written.max_count;
    actor.x = written.x.value_or(search::Range{0.0, space.landscape_max});
    actor.y = written.y.value_or(search::Range{0.0, space.landscape_max});
    actor.yaw = written.yaw;
    actor.scale = written.scale;
    actor.obstacle = written.obstacle;
    space.classes.push_back(actor);
  }
  space.min_obstacles = section.min_obstacles;
  space.start_clearance = section.start_clearance;
  space.goal_clearance = section.goal_clearance;
  space.path_clearance = section.path_clearance;
  return space;
}

// A resolved space as the section would write it.
SearchSpaceSection SectionOf(const search::SearchSpace& space) {
  SearchSpaceSection section;
  for (const search::ActorClassSpace& actor : space.classes) {
    section.classes.push_back({actor.path_name, actor.max_count, actor.x, actor.y, actor.yaw,
                               actor.scale, actor.obstacle});
  }
  section.min_obstacles = space.min_obstacles;
  section.start = {space.start.x(), space.start.y(), space.start_yaw};
  section.goal = {space.goal.x(), space.goal.y()};
  section.sim_timeout = space.sim_timeout;
  section.landscape = {space.landscape_min, space.landscape_max};
  section.start_clearance = space.start_clearance;
  section.goal_clearance = space.goal_clearance;
  section.path_clearance = space.path_clearance;
  return section;
}

}  // namespace

Json SearchSpaceToJson(const search::SearchSpace& space) { return SectionOf(space); }

SearchSpec ResolveSearchSpec(const SearchSection& section, const Json& defaults,
                             uint64_t batch_seed, const std::string& origin,
                             const std::string& path) {
  SearchSpec spec;
  spec.strategy = section.strategy;
  spec.strategy_settings = section.strategy_settings;
  spec.seed = section.seed.value_or(batch_seed);
  spec.budget_scenarios = section.budget.scenarios;
  spec.generation_size = section.generation_size;
  spec.runs_per_scenario = section.runs_per_scenario;
  spec.space = ResolveSpace(section.space, defaults, origin, path + ".space");
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
    const bool unknown = problem.starts_with("unknown");
    if (problem.starts_with("unknown search strategy")) {
      problem += ", " + std::string(kExternalStrategy);
    }
    const bool settings_given = !section.strategy_settings.empty();
    FailAt(origin, path + (settings_given && !unknown ? ".strategy_settings" : ".strategy"),
           problem);
  }
  return spec;
}

SearchSpec ParseSearchSpec(const Json& section, const Json& defaults, uint64_t batch_seed,
                           const std::string& origin, const std::string& path) {
  SearchSection decoded;
  try {
    Decode(section, path, &decoded);
  } catch (const json::DecodeError& error) {
    throw BatchError(origin + ": " + error.what());
  }
  return ResolveSearchSpec(decoded, defaults, batch_seed, origin, path);
}

ExternalSettings ParseExternalSettings(const Json& settings) {
  ExternalSettings decoded = search::DecodeSettings<ExternalSettings>(kExternalStrategy, settings);
  if (decoded.generator.is_null()) decoded.generator = Json::object();
  return decoded;
}

}  // namespace asg::client
