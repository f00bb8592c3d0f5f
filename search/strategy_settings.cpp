// The field lists of the strategies' settings and the settings' wording.
#include "search/strategy_settings.h"

#include <cmath>

#include "json/fields.h"
#include "search/bacre_strategy.h"
#include "search/ga_strategy.h"
#include "search/map_elites_strategy.h"
#include "search/novelty_strategy.h"
#include "search/random_strategy.h"

namespace asg::search {
namespace {

using json::Expected;
using json::Json;

// "setting "x" is <value>: " for messages about one setting.
std::string Prefix(const std::string& path, const Json& value) {
  return "setting " + json::Quoted(path) + " is " + value.dump() + ": ";
}

// "a non-negative integer below 2^32" for a whole unsigned type, else "an integer in 1..1000".
std::string IntegerText(const Expected& expected) {
  if (expected.whole_unsigned()) {
    return "a non-negative integer below 2^" +
           std::to_string(std::lround(std::log2(expected.type_max + 1.0)));
  }
  return "an integer in " + json::IntegerRange(expected.limit);
}

}  // namespace

void SettingsWording::CheckValue(const Json& j, const std::string& path,
                                 const Expected& expected) const {
  if (json::Fits(j, expected)) return;
  std::string need;
  switch (expected.kind) {
    case Expected::Kind::kBoolean:
      need = "true or false";
      break;
    case Expected::Kind::kNumber:
      need = j.is_number() ? "a number " + json::BoundText(expected.limit) : "a number";
      break;
    case Expected::Kind::kInteger:
      need = IntegerText(expected);
      break;
    case Expected::Kind::kArray:
      need = "a list";
      break;
    default:
      need = "a string";
      break;
  }
  throw json::DecodeError(path, Prefix(path, j) + "needs " + need);
}

json::DecodeError SettingsWording::NotAnObject(const std::string& path, const Json& j) const {
  if (path.empty())
    return json::DecodeError(path, "settings must be a JSON object, got " + j.dump());
  return json::DecodeError(path, Prefix(path, j) + "needs an object");
}

json::DecodeError SettingsWording::Unknown(const std::string& object_path,
                                           const json::UnknownKey& unknown) const {
  const std::string path = json::ChildPath(object_path, unknown.key);
  std::string known;
  for (const std::string_view key : unknown.known) {
    known += (known.empty() ? "" : ", ") + std::string(key);
  }
  return json::DecodeError(path, "has no setting " + json::Quoted(path) + " (value " +
                                     unknown.value.dump() + "); known: " + known);
}

json::DecodeError SettingsWording::Missing(const std::string& object_path, std::string_view key,
                                           std::string_view) const {
  const std::string path = json::ChildPath(object_path, key);
  return json::DecodeError(path, "setting " + json::Quoted(path) + " is missing");
}

}  // namespace asg::search

namespace asg::json {

template <>
struct Schema<search::RandomSettings> {
  static constexpr const char* kName = "StrategySettings:random";
  static constexpr const Wording* kWording = &search::kSettingsWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("min_obstacles", m.min_obstacles);
    v.Optional("max_obstacles", m.max_obstacles);
    v.Optional("max_tries", m.max_tries);
  }
};

template <>
struct Schema<search::FixedObstacle> {
  static constexpr const Wording* kWording = &search::kSettingsWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("class", m.class_name);
    v.Optional("x", m.x);
    v.Optional("y", m.y);
    v.Optional("yaw", m.yaw);
    v.Optional("scale", m.scale);
  }
};

template <>
struct Schema<search::GridSettingsJson> {
  static constexpr const char* kName = "StrategySettings:grid";
  static constexpr const Wording* kWording = &search::kSettingsWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("actor_class", m.settings.actor_class);
    v.Optional("x_count", m.settings.x_count);
    v.Optional("y_count", m.settings.y_count);
    v.Optional("fixed", m.fixed);
  }
};

template <>
struct Schema<search::GaSettings> {
  static constexpr const char* kName = "StrategySettings:ga";
  static constexpr const Wording* kWording = &search::kSettingsWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("population", m.population);
    v.Optional("parents", m.parents);
    v.Optional("generations", m.generations);
    v.Optional("obstacle_count", m.obstacle_count);
    v.Optional("mutation_probability", m.mutation_probability);
    v.Optional("max_tries", m.max_tries);
  }
};

template <>
struct Schema<search::BacreSettings> {
  static constexpr const char* kName = "StrategySettings:bacre";
  static constexpr const Wording* kWording = &search::kSettingsWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("seed_count", m.seed_count);
    v.Optional("seed_obstacles", m.seed_obstacles);
    v.Optional("random_parent_probability", m.random_parent_probability);
    v.Optional("curation_ratio", m.curation_ratio);
    v.Optional("annealing", m.annealing);
    v.Optional("annealing_random_parent_probability", m.annealing_random_parent_probability);
    v.Optional("annealing_curation_ratio", m.annealing_curation_ratio);
    v.Optional("annealing_iterations", m.annealing_iterations);
    v.Optional("mutations_per_child", m.mutations_per_child);
    v.Optional("add_probability", m.add_probability);
    v.Optional("remove_probability", m.remove_probability);
    v.Optional("move_probability", m.move_probability);
    v.Optional("max_tries", m.max_tries);
  }
};

template <>
struct Schema<search::NoveltySettings> {
  static constexpr const char* kName = "StrategySettings:bacre-novelty";
  static constexpr const Wording* kWording = &search::kSettingsWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("seed_count", m.seed_count);
    v.Optional("seed_obstacles", m.seed_obstacles);
    v.Optional("random_parent_probability", m.random_parent_probability);
    v.Optional("curation_ratio", m.curation_ratio);
    v.Optional("novelty_radius", m.novelty_radius);
    v.Optional("novelty_weight", m.novelty_weight);
    v.Optional("failure_novelty", m.failure_novelty);
    v.Optional("add_probability", m.add_probability);
    v.Optional("remove_probability", m.remove_probability);
    v.Optional("move_probability", m.move_probability);
    v.Optional("nudge_probability", m.nudge_probability);
    v.Optional("nudge_sigma", m.nudge_sigma);
    v.Optional("operator_floor", m.operator_floor);
    v.Optional("credit_rate", m.credit_rate);
    v.Optional("max_tries", m.max_tries);
  }
};

template <>
struct Schema<search::MapElitesSettings> {
  static constexpr const char* kName = "StrategySettings:map-elites";
  static constexpr const Wording* kWording = &search::kSettingsWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("seed_count", m.seed_count);
    v.Optional("seed_obstacles", m.seed_obstacles);
    v.Optional("grid_cells", m.grid_cells);
    v.Optional("near_path_bins", m.near_path_bins);
    v.Optional("mutations_per_child", m.mutations_per_child);
    v.Optional("add_probability", m.add_probability);
    v.Optional("remove_probability", m.remove_probability);
    v.Optional("move_probability", m.move_probability);
    v.Optional("nudge_probability", m.nudge_probability);
    v.Optional("nudge_sigma", m.nudge_sigma);
    v.Optional("max_tries", m.max_tries);
  }
};

}  // namespace asg::json

namespace asg::search {

ASG_DEFINE_JSON(RandomSettings)
ASG_DEFINE_JSON(FixedObstacle)
ASG_DEFINE_JSON(GridSettingsJson)
ASG_DEFINE_JSON(GaSettings)
ASG_DEFINE_JSON(BacreSettings)
ASG_DEFINE_JSON(NoveltySettings)
ASG_DEFINE_JSON(MapElitesSettings)

}  // namespace asg::search
