// Strategy names -> settings parsing -> construction.
#include "search/strategy_registry.h"

#include <stdexcept>

#include "search/bacre_strategy.h"
#include "search/ga_strategy.h"
#include "search/grid_strategy.h"
#include "search/novelty_strategy.h"
#include "search/random_strategy.h"
#include "search/settings_reader.h"

namespace asg::search {
namespace {

RandomSettings ReadRandom(SettingsReader& reader) {
  RandomSettings s;
  reader.Read("min_obstacles", &s.min_obstacles);
  reader.Read("max_obstacles", &s.max_obstacles);
  reader.Read("max_tries", &s.max_tries);
  return s;
}

// "fixed": [{"class": "tree", "x": 30, "y": 30}, ...]; yaw and scale optional.
const nlohmann::ordered_json kFixedSchema = {{"type", "array"},
                                             {"items",
                                              {{"type", "object"},
                                               {"properties",
                                                {{"class", {{"type", "string"}}},
                                                 {"x", {{"type", "number"}}},
                                                 {"y", {{"type", "number"}}},
                                                 {"yaw", {{"type", "number"}, {"default", 0}}},
                                                 {"scale", {{"type", "number"}, {"default", 1}}}}},
                                               {"required", {"class", "x", "y"}},
                                               {"additionalProperties", false}}}};

std::vector<Obstacle> ReadFixed(SettingsReader& reader, const SearchSpace& space) {
  const nlohmann::ordered_json& fixed = reader.Raw("fixed", kFixedSchema);
  std::vector<Obstacle> out;
  if (fixed.is_null()) return out;
  if (!fixed.is_array())
    throw std::invalid_argument(reader.Prefix("fixed", fixed) + "needs a list");
  for (size_t i = 0; i < fixed.size(); ++i) {
    const nlohmann::ordered_json& item = fixed[i];
    const std::string key = "fixed[" + std::to_string(i) + "]";
    SettingsReader item_reader("grid " + key, item);
    std::string class_name;
    Obstacle obstacle;
    item_reader.Read("class", &class_name);
    item_reader.Read("x", &obstacle.x);
    item_reader.Read("y", &obstacle.y);
    item_reader.Read("yaw", &obstacle.yaw);
    item_reader.Read("scale", &obstacle.scale);
    item_reader.Finish();
    bool found = false;
    for (size_t c = 0; c < space.classes.size() && !found; ++c) {
      if (space.classes[c].path_name == class_name) {
        obstacle.actor_class = static_cast<uint32_t>(c);
        found = true;
      }
    }
    if (!found) {
      throw std::invalid_argument(reader.Prefix(key, item) + "class \"" + class_name +
                                  "\" is not a class of the space");
    }
    out.push_back(obstacle);
  }
  return out;
}

GridSettings ReadGrid(SettingsReader& reader, const SearchSpace& space) {
  GridSettings s;
  reader.Read("actor_class", &s.actor_class);
  reader.Read("x_count", &s.x_count);
  reader.Read("y_count", &s.y_count);
  s.fixed = ReadFixed(reader, space);
  return s;
}

GaSettings ReadGa(SettingsReader& reader) {
  GaSettings s;
  reader.Read("population", &s.population);
  reader.Read("parents", &s.parents);
  reader.Read("generations", &s.generations);
  reader.Read("obstacle_count", &s.obstacle_count);
  reader.Read("mutation_probability", &s.mutation_probability);
  reader.Read("max_tries", &s.max_tries);
  return s;
}

BacreSettings ReadBacre(SettingsReader& reader) {
  BacreSettings s;
  reader.Read("seed_count", &s.seed_count);
  reader.Read("seed_obstacles", &s.seed_obstacles);
  reader.Read("random_parent_probability", &s.random_parent_probability);
  reader.Read("curation_ratio", &s.curation_ratio);
  reader.Read("annealing", &s.annealing);
  reader.Read("annealing_random_parent_probability", &s.annealing_random_parent_probability);
  reader.Read("annealing_curation_ratio", &s.annealing_curation_ratio);
  reader.Read("annealing_iterations", &s.annealing_iterations);
  reader.Read("mutations_per_child", &s.mutations_per_child);
  reader.Read("add_probability", &s.add_probability);
  reader.Read("remove_probability", &s.remove_probability);
  reader.Read("move_probability", &s.move_probability);
  reader.Read("max_tries", &s.max_tries);
  return s;
}

NoveltySettings ReadNovelty(SettingsReader& reader) {
  NoveltySettings s;
  reader.Read("seed_count", &s.seed_count);
  reader.Read("seed_obstacles", &s.seed_obstacles);
  reader.Read("random_parent_probability", &s.random_parent_probability);
  reader.Read("curation_ratio", &s.curation_ratio);
  reader.Read("novelty_radius", &s.novelty_radius);
  reader.Read("novelty_weight", &s.novelty_weight);
  reader.Read("add_probability", &s.add_probability);
  reader.Read("remove_probability", &s.remove_probability);
  reader.Read("move_probability", &s.move_probability);
  reader.Read("nudge_probability", &s.nudge_probability);
  reader.Read("nudge_sigma", &s.nudge_sigma);
  reader.Read("operator_floor", &s.operator_floor);
  reader.Read("credit_rate", &s.credit_rate);
  reader.Read("max_tries", &s.max_tries);
  return s;
}

// Reads `name`'s settings and makes the strategy, or with space null only reads them.
std::unique_ptr<Strategy> ReadAndMake(const std::string& name, SettingsReader& reader,
                                      const SearchSpace* space, uint64_t seed) {
  const SearchSpace no_space;
  const SearchSpace& s = space ? *space : no_space;
  std::unique_ptr<Strategy> strategy;
  if (name == "random") {
    const RandomSettings settings = ReadRandom(reader);
    reader.Finish();
    if (space) strategy = std::make_unique<RandomStrategy>(s, settings, seed);
  } else if (name == "grid") {
    const GridSettings settings = ReadGrid(reader, s);
    reader.Finish();
    if (space) strategy = std::make_unique<GridStrategy>(s, settings);
  } else if (name == "ga") {
    const GaSettings settings = ReadGa(reader);
    reader.Finish();
    if (space) strategy = std::make_unique<GaStrategy>(s, settings, seed);
  } else if (name == "bacre") {
    const BacreSettings settings = ReadBacre(reader);
    reader.Finish();
    if (space) strategy = std::make_unique<BacreStrategy>(s, settings, seed);
  } else if (name == "bacre-novelty") {
    const NoveltySettings settings = ReadNovelty(reader);
    reader.Finish();
    if (space) strategy = std::make_unique<NoveltyStrategy>(s, settings, seed);
  } else {
    std::string known;
    for (const std::string& n : StrategyNames()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown search strategy \"" + name + "\"; known: " + known);
  }
  return strategy;
}

}  // namespace

std::vector<std::string> StrategyNames() {
  return {"random", "grid", "ga", "bacre", "bacre-novelty"};
}

std::unique_ptr<Strategy> MakeStrategy(const std::string& name,
                                       const nlohmann::ordered_json& settings,
                                       const SearchSpace& space, uint64_t seed) {
  SettingsReader reader(name, settings);
  return ReadAndMake(name, reader, &space, seed);
}

nlohmann::ordered_json StrategySettingsSchema(const std::string& name) {
  SettingsReader reader(name, nullptr);
  ReadAndMake(name, reader, nullptr, 0);
  return reader.Schema();
}

}  // namespace asg::search
