// Tests for protocol/messages_json.h: the JSON Schema written from the decoders' field lists:
// required fields, ranges, defaults, tagged variants, and every encoded key described.
#include <gtest/gtest.h>

#include <string>

#include "json/schema.h"
#include "protocol/messages_json.h"

namespace asg::protocol {
namespace {

Json Defs(json::SchemaBuilder::Mode mode) {
  json::SchemaBuilder builder(mode);
  EXPECT_EQ(SchemaRef<RunScenarioRequest>(builder), (Json{{"$ref", "#/$defs/RunScenarioRequest"}}));
  return builder.defs();
}

const Json& Resolve(const Json& defs, const Json& schema) {
  if (!schema.contains("$ref")) return schema;
  const std::string ref = schema["$ref"].get<std::string>();
  return defs.at(ref.substr(std::string("#/$defs/").size()));
}

// Every key of `value` (an encoded message) is a property of `schema`, recursively.
void ExpectDescribed(const Json& defs, const Json& schema_or_ref, const Json& value,
                     const std::string& path, int* keys) {
  const Json& schema = Resolve(defs, schema_or_ref);
  if (value.is_object()) {
    ASSERT_TRUE(schema.contains("properties")) << path;
    for (const auto& [key, element] : value.items()) {
      ++*keys;
      ASSERT_TRUE(schema["properties"].contains(key)) << path << "." << key;
      ExpectDescribed(defs, schema["properties"][key], element, path + "." + key, keys);
    }
  } else if (value.is_array()) {
    for (const Json& element : value) ExpectDescribed(defs, schema["items"], element, path, keys);
  }
}

TEST(JsonSchema, EveryFieldOfAnEncodedRequestIsDescribed) {
  const Json defs = Defs(json::SchemaBuilder::Mode::kStrict);
  RunScenarioRequest request;
  request.scene_description.landscape.relief.resize(3);
  request.scene_description.landscape.relief[1].type = ReliefFeature::Type::kRamp;
  request.scene_description.landscape.relief[2].type = ReliefFeature::Type::kNoise;
  request.scene_description.ssa_array.resize(1);
  request.driver.type = DriverSpec::Type::kScripted;
  request.driver.commands.resize(2);
  request.vehicle_nodes.sensors.resize(2);
  request.vehicle_nodes.sensors[1].type = SensorSpec::Type::kLidar;
  int keys = 0;
  ExpectDescribed(defs, defs["RunScenarioRequest"], Json(request), "", &keys);
  EXPECT_GT(keys, 100);
}

TEST(JsonSchema, StrictDefinitionsRequireTheRequiredFieldsOnly) {
  const Json defs = Defs(json::SchemaBuilder::Mode::kStrict);
  const Json& landscape = defs["LandscapeDescription"];
  EXPECT_EQ(landscape["required"], (Json{"nominal_size", "subdivisions"}));
  EXPECT_EQ(landscape["additionalProperties"], false);
  EXPECT_EQ(landscape["properties"]["border"]["default"], 0.0);  // optional: has its default
  EXPECT_FALSE(landscape["properties"]["nominal_size"].contains("default"));
  const Json& request = defs["RunScenarioRequest"];
  EXPECT_EQ(request["required"].size(), 15u);  // the specification's fields, no extension
  for (const Json& key : request["required"]) EXPECT_NE(key, "driver");
}

TEST(JsonSchema, RangesAreTheDecodersLimits) {
  const Json defs = Defs(json::SchemaBuilder::Mode::kStrict);
  const Json& subdivisions = defs["LandscapeDescription"]["properties"]["subdivisions"];
  EXPECT_EQ(subdivisions["type"], "integer");
  EXPECT_EQ(subdivisions["minimum"], 0);
  EXPECT_EQ(subdivisions["maximum"], 10);
  const Json& nominal_size = defs["LandscapeDescription"]["properties"]["nominal_size"];
  EXPECT_EQ(nominal_size["exclusiveMinimum"], 0.0);
  EXPECT_FALSE(nominal_size.contains("minimum"));
  const Json& image_size = defs["SceneCaptureSettings"]["properties"]["image_size"];
  EXPECT_EQ(image_size["minimum"], 1);
  EXPECT_EQ(image_size["maximum"], 4096);
  // A limit on an array applies to its elements.
  const Json& scale = defs["StructuralSceneActorLayout"]["properties"]["scale"];
  EXPECT_EQ(scale["type"], "array");
  EXPECT_EQ(scale["items"]["exclusiveMinimum"], 0.0);
  const Json& scenario_number = defs["RunScenarioRequest"]["properties"]["scenario_number"];
  EXPECT_EQ(scenario_number["maximum"], 2147483647);  // int32
}

TEST(JsonSchema, TaggedMessagesListEachVariantsFields) {
  const Json defs = Defs(json::SchemaBuilder::Mode::kStrict);
  const Json& relief = defs["ReliefFeature"];
  EXPECT_EQ(relief["properties"]["type"]["enum"], (Json{"hill", "ramp", "noise"}));
  EXPECT_EQ(relief["required"], Json{"type"});
  ASSERT_EQ(relief["allOf"].size(), 3u);
  const Json& ramp = relief["allOf"][1];
  EXPECT_EQ(ramp["if"]["properties"]["type"]["const"], "ramp");
  EXPECT_EQ(ramp["then"]["propertyNames"]["enum"],
            (Json{"type", "height", "x0", "y0", "x1", "y1", "width"}));
  EXPECT_EQ(ramp["then"]["required"], (Json{"height", "x0", "y0", "x1", "y1", "width"}));
  // The union: every variant's fields are properties.
  for (const char* key : {"x", "radius", "x0", "amplitude", "octaves"}) {
    EXPECT_TRUE(relief["properties"].contains(key)) << key;
  }
  EXPECT_EQ(relief["properties"]["octaves"]["maximum"], 12);
  // A missing optional tag is its default variant: that clause applies without a tag too.
  const Json& driver = defs["DriverSpec"];
  EXPECT_EQ(driver["properties"]["type"]["default"], "planner");
  EXPECT_FALSE(driver["allOf"][0]["if"].contains("required"));
  EXPECT_EQ(driver["allOf"][1]["if"]["required"], Json{"type"});
  EXPECT_EQ(driver["allOf"][1]["then"]["propertyNames"]["enum"], (Json{"type", "speed"}));
}

TEST(JsonSchema, PartialDefinitionsRequireNothingButArrayElementsStayWhole) {
  const Json defs = Defs(json::SchemaBuilder::Mode::kPartial);
  const Json& request = defs["RunScenarioRequest"];
  EXPECT_FALSE(request.contains("required"));
  // Every field's default is a default-constructed request's value.
  const Json encoded = Json(RunScenarioRequest{});
  EXPECT_EQ(request["properties"]["goal_radius"]["default"], encoded["goal_radius"]);
  EXPECT_EQ(request["properties"]["sim_timeout_period"]["default"], -1.0);
  EXPECT_FALSE(defs["LandscapeDescription"].contains("required"));
  // A merge replaces arrays whole, so their elements are strict.
  EXPECT_EQ(defs["StructuralSceneActorLayout"]["required"].size(), 8u);
  EXPECT_EQ(defs["ReliefFeature"]["required"], Json{"type"});
  EXPECT_EQ(defs["ScriptedCommand"]["required"], Json{"t"});
  // In a partial override a missing tag may come from the defaults: clauses need a written tag.
  EXPECT_EQ(defs["DriverSpec"]["allOf"][0]["if"]["required"], Json{"type"});
}

TEST(JsonSchema, ADefinitionIsWrittenOnce) {
  json::SchemaBuilder builder(json::SchemaBuilder::Mode::kStrict);
  SchemaRef<RunScenarioRequest>(builder);
  const size_t count = builder.defs().size();
  EXPECT_EQ(SchemaRef<Point>(builder), (Json{{"$ref", "#/$defs/Point"}}));
  EXPECT_EQ(builder.defs().size(), count);
  EXPECT_TRUE(builder.defs().contains("SensorMount"));
}

}  // namespace
}  // namespace asg::protocol
