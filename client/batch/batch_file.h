// The batch file's top level as written (batch.h describes every key), declared once with the
// field visitor (json/fields.h): decoding with JSON paths, and the JSON Schema `asg-client schema`
// prints (batch_schema.h). ParseBatch plans scenarios from it.
//
// "defaults", the listed scenarios and the variants are requests' overrides: JSON merged over the
// defaults and decoded as RunScenarioRequests scenario by scenario, so here they are only checked
// to be objects (and for the keys set per scenario or per layout).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "client/batch/batch.h"
#include "client/batch/generate.h"
#include "client/batch/search_spec.h"
#include "json/declare.h"

namespace asg::client {

/// "defaults": overrides every scenario starts from; no "scenario_number" or "seed".
struct DefaultOverrides {
  Json json = Json::object();
};
ASG_DECLARE_JSON(DefaultOverrides);

/// An entry of "scenarios": a request's overrides, "scenario_number" and "seed" included.
struct ScenarioOverrides {
  Json json = Json::object();
};
ASG_DECLARE_JSON(ScenarioOverrides);

/// An entry of "variants": its name and the overrides merged over each layout (every key but
/// "name"; no "scenario_number" or "seed").
struct VariantOverrides {
  std::string name;
  Json overrides = Json::object();
};
ASG_DECLARE_JSON(VariantOverrides);

/// The whole file as written.
struct BatchFile {
  std::string schema;                        ///< "$schema": where editors find the schema
  std::optional<std::string> name;           ///< "name"; absent: the file's stem
  BatchSettings settings;                    ///< seed, vehicle_nodes, max_attempts, timeout
  DefaultOverrides defaults;                 ///< "defaults"
  std::vector<ScenarioOverrides> scenarios;  ///< "scenarios"
  std::optional<GenerateSpec> generate;      ///< "generate"
  std::optional<SearchSection> search;       ///< "search"
  std::optional<std::vector<VariantOverrides>> variants;  ///< "variants"
  /// "units": "autoscenegen" when defaults, scenarios and variants are written in AutoSceneGen's
  /// units (protocol/autoscenegen_units.h); DecodeBatchFile converts them and clears it.
  std::optional<std::string> units;
};
ASG_DECLARE_JSON(BatchFile);

/// `root` decoded strictly, the overrides in the farm's units; throws BatchError
/// "<origin>: <path>: <problem>".
BatchFile DecodeBatchFile(const Json& root, const std::string& origin);

/// Most vehicle nodes per worker, and most accepted reruns per scenario.
inline constexpr uint32_t kMaxNodeCount = 255;

}  // namespace asg::client
