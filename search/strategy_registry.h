// Makes a strategy by name from a JSON settings object, e.g. a batch file's
//   "search": {"strategy": "bacre", "strategy_settings": {"curation_ratio": 0.05}}
// The names and every settings key are listed in docs/search-strategies.md; each key is the
// field of the strategy's settings struct of the same name (declared in strategy_settings.cpp),
// and an absent key keeps its default.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "json/schema.h"
#include "search/space.h"
#include "search/strategy.h"

namespace asg::search {

/// The strategy names MakeStrategy knows: "random", "grid", "ga", "bacre", "bacre-novelty",
/// "map-elites".
std::vector<std::string> StrategyNames();

/// A new strategy `name` over `space` (copied), configured by `settings` (null or an object)
/// and seeded with `seed`. Throws std::invalid_argument naming an unknown strategy (and listing
/// the known ones), an unknown or ill-typed setting (naming it and its value), or a value the
/// strategy rejects.
std::unique_ptr<Strategy> MakeStrategy(const std::string& name, const json::Json& settings,
                                       const SearchSpace& space, uint64_t seed);

/// {"$ref": "#/$defs/StrategySettings:<name>"}, the JSON Schema of strategy `name`'s settings
/// object (every key MakeStrategy reads, with its type and default) written into `builder`.
/// Throws std::invalid_argument for an unknown name.
json::Json DescribeStrategySettings(const std::string& name, json::SchemaBuilder& builder);

}  // namespace asg::search
