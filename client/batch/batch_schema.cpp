// The batch file's JSON Schema from the field lists that decode it: the batch's own sections
// strict, the requests' overrides as the protocol's partial definitions.
#include "client/batch/batch_schema.h"

#include <string>

#include "client/batch/batch_file.h"
#include "client/batch/search_spec.h"
#include "json/schema.h"
#include "search/strategy_registry.h"

namespace asg::client {
namespace {

// The settings of every strategy, one definition each, and the clauses picking them by name.
Json StrategyClauses(json::SchemaBuilder& builder, Json* names) {
  Json clauses = Json::array();
  std::vector<std::string> strategies = search::StrategyNames();
  strategies.push_back(kExternalStrategy);
  for (const std::string& name : strategies) {
    const Json settings = name == kExternalStrategy
                              ? json::SchemaRef<ExternalSettings>(builder)
                              : search::DescribeStrategySettings(name, builder);
    names->push_back(name);
    clauses.push_back(
        {{"if", {{"properties", {{"strategy", {{"const", name}}}}}, {"required", {"strategy"}}}},
         {"then", {{"properties", {{"strategy_settings", settings}}}}}});
  }
  return clauses;
}

}  // namespace

Json BatchSchema() {
  json::SchemaBuilder builder(json::SchemaBuilder::Mode::kStrict);
  json::SchemaRef<BatchFile>(builder);
  Json names = Json::array();
  Json clauses = StrategyClauses(builder, &names);
  Json defs = builder.defs();

  // What the field lists cannot say: keys that exclude each other, the settings a strategy
  // takes, and the sizes the decoders check.
  Json& batch = defs["Batch"];
  batch["not"] = {{"required", {"search", "variants"}}};
  batch["properties"]["variants"]["minItems"] = 1;
  batch["properties"]["variants"]["maxItems"] = 256;
  defs["BatchVehicleNodes"]["properties"]["count"]["maximum"] = kMaxNodeCount;
  defs["SearchSpace"]["properties"]["classes"]["minItems"] = 1;
  defs["GenerateActor"]["properties"]["path_name"]["minLength"] = 1;
  defs["SearchClass"]["properties"]["path_name"]["minLength"] = 1;
  Json& search = defs["Search"];
  search["properties"]["strategy"]["enum"] = names;
  search["properties"]["strategy_settings"] = {{"type", "object"}};
  search["allOf"] = std::move(clauses);

  Json schema = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                 {"title", "ASG Farm batch file"},
                 {"description",
                  "A batch of RunScenario requests for asg-client; docs/batch-reference.md "
                  "describes every key."},
                 {"$ref", "#/$defs/Batch"},
                 {"$defs", std::move(defs)}};
  return schema;
}

}  // namespace asg::client
