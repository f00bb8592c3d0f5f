// Strategy names -> settings decoding -> construction.
#include "search/strategy_registry.h"

#include <stdexcept>

#include "search/bacre_strategy.h"
#include "search/ga_strategy.h"
#include "search/grid_strategy.h"
#include "search/map_elites_strategy.h"
#include "search/novelty_strategy.h"
#include "search/random_strategy.h"
#include "search/strategy_settings.h"

namespace asg::search {
namespace {

// The grid's fixed obstacles with their classes looked up in the space.
GridSettings ResolveGrid(const GridSettingsJson& decoded, const SearchSpace& space) {
  GridSettings settings = decoded.settings;
  for (size_t i = 0; i < decoded.fixed.size(); ++i) {
    const FixedObstacle& fixed = decoded.fixed[i];
    Obstacle obstacle{0, fixed.x, fixed.y, fixed.yaw, fixed.scale};
    bool found = false;
    for (size_t c = 0; c < space.classes.size() && !found; ++c) {
      if (space.classes[c].path_name == fixed.class_name) {
        obstacle.actor_class = static_cast<uint32_t>(c);
        found = true;
      }
    }
    if (!found) {
      throw std::invalid_argument("grid setting \"fixed[" + std::to_string(i) + "]\": class \"" +
                                  fixed.class_name + "\" is not a class of the space");
    }
    settings.fixed.push_back(obstacle);
  }
  return settings;
}

[[noreturn]] void ThrowUnknown(const std::string& name) {
  std::string known;
  for (const std::string& n : StrategyNames()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown search strategy \"" + name + "\"; known: " + known);
}

}  // namespace

std::vector<std::string> StrategyNames() {
  return {"random", "grid", "ga", "bacre", "bacre-novelty", "map-elites"};
}

std::unique_ptr<Strategy> MakeStrategy(const std::string& name, const json::Json& settings,
                                       const SearchSpace& space, uint64_t seed) {
  if (name == "random") {
    return std::make_unique<RandomStrategy>(space, DecodeSettings<RandomSettings>(name, settings),
                                            seed);
  }
  if (name == "grid") {
    return std::make_unique<GridStrategy>(
        space, ResolveGrid(DecodeSettings<GridSettingsJson>(name, settings), space));
  }
  if (name == "ga") {
    return std::make_unique<GaStrategy>(space, DecodeSettings<GaSettings>(name, settings), seed);
  }
  if (name == "bacre") {
    return std::make_unique<BacreStrategy>(space, DecodeSettings<BacreSettings>(name, settings),
                                           seed);
  }
  if (name == "bacre-novelty") {
    return std::make_unique<NoveltyStrategy>(space, DecodeSettings<NoveltySettings>(name, settings),
                                             seed);
  }
  if (name == "map-elites") {
    return std::make_unique<MapElitesStrategy>(
        space, DecodeSettings<MapElitesSettings>(name, settings), seed);
  }
  ThrowUnknown(name);
}

json::Json DescribeStrategySettings(const std::string& name, json::SchemaBuilder& builder) {
  if (name == "random") return json::SchemaRef<RandomSettings>(builder);
  if (name == "grid") return json::SchemaRef<GridSettingsJson>(builder);
  if (name == "ga") return json::SchemaRef<GaSettings>(builder);
  if (name == "bacre") return json::SchemaRef<BacreSettings>(builder);
  if (name == "bacre-novelty") return json::SchemaRef<NoveltySettings>(builder);
  if (name == "map-elites") return json::SchemaRef<MapElitesSettings>(builder);
  ThrowUnknown(name);
}

}  // namespace asg::search
