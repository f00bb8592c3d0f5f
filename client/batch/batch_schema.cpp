// The batch file's JSON Schema: the protocol's definitions in partial mode (a batch's requests
// are overrides deep-merged over defaults), the batch's own objects described key by key.
#include "client/batch/batch_schema.h"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "client/batch/batch.h"
#include "client/batch/batch_keys.h"
#include "client/batch/generate.h"
#include "client/batch/search_spec.h"
#include "json/schema.h"
#include "protocol/messages_json.h"
#include "search/strategy_registry.h"

namespace asg::client {
namespace {

using batch_keys::KeySet;

constexpr uint64_t kMaxNumber = std::numeric_limits<uint16_t>::max();
constexpr uint64_t kMaxScenario = protocol::kMaxScenarioNumber;

Json Ref(const std::string& name) { return {{"$ref", "#/$defs/" + name}}; }

Json Integer(uint64_t min, uint64_t max) {
  return {{"type", "integer"}, {"minimum", min}, {"maximum", max}};
}

Json Number() { return {{"type", "number"}}; }

Json NonNegative() { return {{"type", "number"}, {"minimum", 0}}; }

Json Positive() { return {{"type", "number"}, {"exclusiveMinimum", 0}}; }

Json WithDefault(Json schema, Json value) {
  schema["default"] = std::move(value);
  return schema;
}

// An object whose properties are exactly the keys its decoder accepts. Throws std::logic_error
// naming `what` and the key when the two lists differ.
Json Object(const std::string& what, const KeySet& keys, Json properties,
            const std::vector<std::string>& required = {}) {
  for (const std::string& key : keys) {
    if (!properties.contains(key)) {
      throw std::logic_error("batch schema: " + what + " accepts \"" + key +
                             "\", which the schema does not describe");
    }
  }
  for (const auto& [key, schema] : properties.items()) {
    if (!keys.contains(key)) {
      throw std::logic_error("batch schema: " + what + " describes \"" + key +
                             "\", which its decoder does not accept");
    }
  }
  Json object = {{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) object["required"] = required;
  object["additionalProperties"] = false;
  return object;
}

Json RangeSchema() {
  return {{"description", "a number (fixed) or [min, max] sampled uniformly, min <= max"},
          {"oneOf",
           {Number(),
            {{"type", "array"},
             {"prefixItems", {Number(), Number()}},
             {"minItems", 2},
             {"maxItems", 2}}}}};
}

Json RangeWithDefault(double min, double max) {
  return {{"$ref", "#/$defs/Range"}, {"default", Json::array({min, max})}};
}

void AddGenerate(Json& defs) {
  const GeneratedActorSpec actor;
  defs["GenerateActor"] =
      Object("generate.actors[]", batch_keys::kGenerateActor,
             {{"path_name", {{"type", "string"}, {"minLength", 1}}},
              {"count",
               {{"description", "an instance count or [min, max]"},
                {"oneOf",
                 {Integer(0, kMaxNumber),
                  {{"type", "array"},
                   {"prefixItems", {Integer(0, kMaxNumber), Integer(0, kMaxNumber)}},
                   {"minItems", 2},
                   {"maxItems", 2}}}}}},
              {"x", Ref("Range")},
              {"y", Ref("Range")},
              {"yaw", RangeWithDefault(actor.yaw.min, actor.yaw.max)},
              {"scale", RangeWithDefault(actor.scale.min, actor.scale.max)},
              {"cast_shadow", WithDefault({{"type", "boolean"}}, actor.cast_shadow)}},
             {"path_name", "count", "x", "y"});
  defs["GenerateStart"] = Object("generate.start", batch_keys::kStart,
                                 {{"x", Ref("Range")}, {"y", Ref("Range")}, {"yaw", Ref("Range")}});
  defs["GenerateGoal"] =
      Object("generate.goal", batch_keys::kGoal, {{"x", Ref("Range")}, {"y", Ref("Range")}});
  const GenerateSpec spec;
  defs["Generate"] = Object("generate", batch_keys::kGenerate,
                            {{"count", Integer(0, kMaxNumber)},
                             {"start_number", Integer(1, kMaxScenario)},
                             {"max_tries", WithDefault(Integer(1, 100'000'000), spec.max_tries)},
                             {"actors", {{"type", "array"}, {"items", Ref("GenerateActor")}}},
                             {"start", Ref("GenerateStart")},
                             {"goal", Ref("GenerateGoal")},
                             {"goal_radius", Ref("Range")},
                             {"sim_timeout_period", Ref("Range")},
                             {"vehicle_idling_timeout_period", Ref("Range")},
                             {"vehicle_stuck_timeout_period", Ref("Range")},
                             {"sunlight_inclination", Ref("Range")},
                             {"sunlight_yaw_angle", Ref("Range")},
                             {"start_clearance", WithDefault(NonNegative(), spec.start_clearance)},
                             {"goal_clearance", WithDefault(NonNegative(), spec.goal_clearance)},
                             {"min_start_goal_distance", NonNegative()}},
                            {"count"});
}

// The settings of every strategy, one definition each, and the clauses picking them by name.
Json AddStrategySettings(Json& defs, Json* names) {
  Json clauses = Json::array();
  std::vector<std::pair<std::string, Json>> strategies;
  for (const std::string& name : search::StrategyNames()) {
    strategies.emplace_back(name, search::StrategySettingsSchema(name));
  }
  strategies.emplace_back(kExternalStrategy, ExternalSettingsSchema());
  for (auto& [name, schema] : strategies) {
    std::string def = "StrategySettings:" + name;
    names->push_back(name);
    defs[def] = std::move(schema);
    clauses.push_back(
        {{"if", {{"properties", {{"strategy", {{"const", name}}}}}, {"required", {"strategy"}}}},
         {"then", {{"properties", {{"strategy_settings", Ref(def)}}}}}});
  }
  return clauses;
}

void AddSearch(Json& defs) {
  const search::ActorClassSpace actor;
  defs["SearchClass"] = Object("search.space.classes[]", batch_keys::kSearchClass,
                               {{"path_name", {{"type", "string"}, {"minLength", 1}}},
                                {"max_count", WithDefault(Integer(1, kMaxNumber), actor.max_count)},
                                {"x", Ref("Range")},
                                {"y", Ref("Range")},
                                {"yaw", RangeWithDefault(actor.yaw.min, actor.yaw.max)},
                                {"scale", RangeWithDefault(actor.scale.min, actor.scale.max)},
                                {"obstacle", WithDefault({{"type", "boolean"}}, actor.obstacle)}},
                               {"path_name"});
  defs["SearchStart"] = Object("search.space.start", batch_keys::kStart,
                               {{"x", Number()}, {"y", Number()}, {"yaw", Number()}});
  defs["SearchGoal"] =
      Object("search.space.goal", batch_keys::kGoal, {{"x", Number()}, {"y", Number()}});
  defs["SearchLandscape"] = Object("search.space.landscape", batch_keys::kSearchLandscape,
                                   {{"min", Number()}, {"max", Number()}});
  const search::SearchSpace space;
  defs["SearchSpace"] =
      Object("search.space", batch_keys::kSearchSpace,
             {{"classes", {{"type", "array"}, {"items", Ref("SearchClass")}, {"minItems", 1}}},
              {"min_obstacles", WithDefault(Integer(0, kMaxNumber), space.min_obstacles)},
              {"start", Ref("SearchStart")},
              {"goal", Ref("SearchGoal")},
              {"sim_timeout", Positive()},
              {"landscape", Ref("SearchLandscape")},
              {"start_clearance", WithDefault(NonNegative(), space.start_clearance)},
              {"goal_clearance", WithDefault(NonNegative(), space.goal_clearance)},
              {"path_clearance", WithDefault(NonNegative(), space.path_clearance)}},
             {"classes"});
  defs["SearchBudget"] = Object("search.budget", batch_keys::kSearchBudget,
                                {{"scenarios", Integer(1, kMaxNumber)}}, {"scenarios"});
  Json names = Json::array();
  Json clauses = AddStrategySettings(defs, &names);
  const SearchSpec spec;
  Json search =
      Object("search", batch_keys::kSearch,
             {{"strategy", {{"type", "string"}, {"enum", names}}},
              {"strategy_settings", {{"type", "object"}}},
              {"seed", Integer(0, std::numeric_limits<uint64_t>::max())},
              {"budget", Ref("SearchBudget")},
              {"generation_size", WithDefault(Integer(1, kMaxNumber), spec.generation_size)},
              {"runs_per_scenario", WithDefault(Integer(1, kMaxNumber), spec.runs_per_scenario)},
              {"space", Ref("SearchSpace")}},
             {"strategy", "budget", "space"});
  search["allOf"] = std::move(clauses);
  defs["Search"] = std::move(search);
}

// A copy of the request's definition without the keys set per scenario.
Json WithoutPerScenarioKeys(Json request) {
  request["properties"].erase("scenario_number");
  request["properties"].erase("seed");
  return request;
}

}  // namespace

Json BatchSchema() {
  json::SchemaBuilder builder(json::SchemaBuilder::Mode::kPartial);
  json::SchemaRef<protocol::RunScenarioRequest>(builder);
  Json defs = builder.defs();
  Json request = defs["RunScenarioRequest"];  // a copy: inserting into defs moves its entries
  request["properties"]["sim_timeout_period"]["default"] = kDefaultSimTimeout;
  request["properties"]["scenario_number"] = Integer(1, kMaxScenario);
  defs["RunScenarioRequest"] = request;

  const BatchSettings settings;
  defs["Range"] = RangeSchema();
  defs["BatchDefaults"] = WithoutPerScenarioKeys(request);
  Json variant = WithoutPerScenarioKeys(request);
  variant["properties"]["name"] = {{"type", "string"}, {"pattern", "^[A-Za-z0-9_.-]{1,32}$"}};
  variant["required"] = {"name"};
  defs["Variant"] = std::move(variant);
  Json nodes = defs["VehicleNodesSpec"];
  nodes["properties"]["max_reruns"] =
      WithDefault(Integer(0, 255), settings.vehicle_nodes.max_reruns);
  nodes["properties"]["save_minimal"] =
      WithDefault({{"type", "boolean"}}, settings.vehicle_nodes.save_minimal);
  nodes["properties"]["ready_timeout"] =
      WithDefault(Positive(), settings.vehicle_nodes.ready_timeout);
  nodes["properties"]["count"]["maximum"] = 255;
  for (const std::string& key : batch_keys::kNodeSettings) {
    if (!nodes["properties"].contains(key)) {
      throw std::logic_error("batch schema: vehicle_nodes accepts \"" + key +
                             "\", which the schema does not describe");
    }
  }
  defs["BatchVehicleNodes"] = std::move(nodes);
  AddGenerate(defs);
  AddSearch(defs);
  defs["Batch"] = Object(
      "the batch", batch_keys::kBatch,
      {{"$schema",
        {{"type", "string"},
         {"description", "where an editor finds this schema (asg-client schema); ignored"}}},
       {"name", {{"type", "string"}}},
       {"seed", WithDefault(Integer(0, std::numeric_limits<uint64_t>::max()), settings.seed)},
       {"defaults", Ref("BatchDefaults")},
       {"scenarios", {{"type", "array"}, {"items", Ref("RunScenarioRequest")}}},
       {"generate", Ref("Generate")},
       {"search", Ref("Search")},
       {"variants",
        {{"type", "array"}, {"items", Ref("Variant")}, {"minItems", 1}, {"maxItems", 256}}},
       {"vehicle_nodes", Ref("BatchVehicleNodes")},
       {"max_attempts", WithDefault(Integer(1, 1000), settings.max_attempts)},
       {"scenario_timeout_s", WithDefault(Positive(), settings.scenario_timeout_s)}});
  defs["Batch"]["not"] = {{"required", {"search", "variants"}}};

  Json schema = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                 {"title", "ASG Farm batch file"},
                 {"description",
                  "A batch of RunScenario requests for asg-client; docs/batch-reference.md "
                  "describes every key."},
                 {"$ref", "#/$defs/Batch"},
                 {"$defs", Json::object()}};
  // The batch first, then its own objects, then the protocol's messages.
  Json& ordered = schema["$defs"];
  ordered["Batch"] = defs["Batch"];
  for (const auto& [name, def] : defs.items()) {
    if (!ordered.contains(name)) ordered[name] = def;
  }
  return schema;
}

}  // namespace asg::client
