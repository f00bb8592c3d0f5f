// The field lists of the batch file's top level and "vehicle_nodes", and the overrides' checks.
#include "client/batch/batch_file.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "client/batch/batch_wording.h"
#include "json/fields.h"
#include "protocol/autoscenegen_units.h"
#include "protocol/messages_json.h"
#include "protocol/regret_spec_schema.h"
#include "protocol/vehicle_nodes_schema.h"

namespace asg::client {
namespace {

constexpr const char* kPerScenario[] = {"scenario_number", "seed"};

json::Json Ref(const std::string& name) { return {{"$ref", "#/$defs/" + name}}; }

// Throws unless `j` at `path` is an object.
void RequireObject(const Json& j, const std::string& path) {
  if (!j.is_object()) throw json::DecodeError(path, "expected an object, got " + ShortDump(j));
}

// Throws when overrides at `path` name their units: a batch names them once, at its top.
void RefuseUnits(const Json& j, const std::string& path) {
  if (j.contains(protocol::kUnitsKey)) {
    throw json::DecodeError(json::ChildPath(path, protocol::kUnitsKey),
                            "is given at the top of the batch, for all its requests");
  }
}

bool IsVariantName(const std::string& name) {
  if (name.empty() || name.size() > 32) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

// The request's partial definition (the protocol's) as a batch uses it, and the definitions of
// "defaults" and of a variant, which are requests without the keys set per scenario.
void DefineRequests(json::SchemaBuilder& builder) {
  if (builder.defs().contains("BatchDefaults")) return;
  const auto mode = builder.SetMode(json::SchemaBuilder::Mode::kPartial);
  json::SchemaRef<protocol::RunScenarioRequest>(builder);
  builder.SetMode(mode);
  Json request = builder.defs().at("RunScenarioRequest");
  request["properties"]["sim_timeout_period"]["default"] = kDefaultSimTimeout;
  request["properties"]["scenario_number"] = {
      {"type", "integer"}, {"minimum", 1}, {"maximum", protocol::kMaxScenarioNumber}};
  builder.Define("RunScenarioRequest", request);
  for (const char* key : kPerScenario) request["properties"].erase(key);
  builder.Define("BatchDefaults", request);
  request["properties"]["name"] = {{"type", "string"}, {"pattern", "^[A-Za-z0-9_.-]{1,32}$"}};
  request["required"] = {"name"};
  builder.Define("Variant", request);
}

}  // namespace

void Decode(const Json& j, const std::string& path, DefaultOverrides* out) {
  RequireObject(j, path);
  RefuseUnits(j, path);
  for (const char* key : kPerScenario) {
    if (j.contains(key)) {
      throw json::DecodeError(json::ChildPath(path, key),
                              "is set per scenario (derived, or given in a scenario's overrides)");
    }
  }
  out->json = j;
}
void from_json(const Json& j, DefaultOverrides& out) { Decode(j, "", &out); }
void to_json(Json& j, const DefaultOverrides& value) { j = value.json; }
Json DescribeJson(const DefaultOverrides*, json::SchemaBuilder& builder) {
  DefineRequests(builder);
  return Ref("BatchDefaults");
}

void Decode(const Json& j, const std::string& path, ScenarioOverrides* out) {
  RequireObject(j, path);
  RefuseUnits(j, path);
  out->json = j;
}
void from_json(const Json& j, ScenarioOverrides& out) { Decode(j, "", &out); }
void to_json(Json& j, const ScenarioOverrides& value) { j = value.json; }
Json DescribeJson(const ScenarioOverrides*, json::SchemaBuilder& builder) {
  DefineRequests(builder);
  return Ref("RunScenarioRequest");
}

void Decode(const Json& j, const std::string& path, VariantOverrides* out) {
  RequireObject(j, path);
  const auto name = j.find("name");
  if (name == j.end() || !name->is_string() || !IsVariantName(name->get<std::string>())) {
    throw json::DecodeError(json::ChildPath(path, "name"),
                            "expected 1..32 letters, digits, '_', '-' or '.', got " +
                                (name == j.end() ? "nothing" : DescribeValue(*name)));
  }
  RefuseUnits(j, path);
  out->name = name->get<std::string>();
  out->overrides = j;
  out->overrides.erase("name");
  for (const char* key : kPerScenario) {
    if (j.contains(key)) {
      throw json::DecodeError(json::ChildPath(path, key), "is set per layout, not per variant");
    }
  }
}
void from_json(const Json& j, VariantOverrides& out) { Decode(j, "", &out); }
void to_json(Json& j, const VariantOverrides& value) {
  j = {{"name", value.name}};
  j.update(value.overrides);
}
Json DescribeJson(const VariantOverrides*, json::SchemaBuilder& builder) {
  DefineRequests(builder);
  return Ref("Variant");
}

}  // namespace asg::client

namespace asg::json {

template <>
struct Schema<client::BatchNodeSettings> {
  static constexpr const char* kName = "BatchVehicleNodes";
  static constexpr const Wording* kWording = &client::kBatchWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    Schema<protocol::VehicleNodesSpec>::Fields(v, m.spec);  // every request's vehicle_nodes
    v.Optional("max_reruns", m.max_reruns, Between(0, client::kMaxNodeCount));
    v.Optional("save_minimal", m.save_minimal);
    v.Optional("ready_timeout", m.ready_timeout, kPositive);
  }
  static void Check(const client::BatchNodeSettings& m, const FieldReader& reader) {
    if (m.spec.count > client::kMaxNodeCount) {
      throw DecodeError(reader.Child("count"),
                        "expected at most " + std::to_string(client::kMaxNodeCount) +
                            " nodes per worker, got " + std::to_string(m.spec.count));
    }
    Schema<protocol::VehicleNodesSpec>::Check(m.spec, reader);
  }
};

template <>
struct Schema<client::BatchFailureSettings> {
  static constexpr const char* kName = "BatchFailures";
  static constexpr const Wording* kWording = &client::kBatchWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("regret_threshold", m.regret_threshold, kPositive);
    v.Optional("reproduce", m.reproduce, Between(0, 1000));
  }
};

template <>
struct Schema<client::BatchRecordSettings> {
  static constexpr const char* kName = "BatchRecord";
  static constexpr const Wording* kWording = &client::kBatchWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("mcap", m.mcap);
  }
};

template <>
struct Schema<client::BatchRegretSettings> {
  static constexpr const char* kName = "BatchRegret";
  static constexpr const Wording* kWording = &client::kBatchWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    Schema<protocol::RegretSpec>::Fields(v, m.spec);  // every request's regret
  }
};

namespace {

// A batch in AutoSceneGen's units lists its requests: generated and searched values are sampled
// in the farm's units.
void CheckBatchUnits(const client::BatchFile& m, const FieldReader& reader) {
  if (!m.units) return;
  const std::string path = reader.Child("units");
  protocol::CheckUnits(Json(*m.units), path);
  if (m.generate || m.search) {
    throw DecodeError(path,
                      std::string("applies to defaults, scenarios and variants; a batch with \"") +
                          (m.generate ? "generate" : "search") +
                          "\" gives its ranges in the farm's metres, so leave it out");
  }
}

}  // namespace

template <>
struct Schema<client::BatchFile> {
  static constexpr const char* kName = "Batch";
  static constexpr const Wording* kWording = &client::kBatchWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("$schema", m.schema, Expecting{"a string (where an editor finds the schema)"});
    v.Optional("name", m.name);
    v.Optional("seed", m.settings.seed);
    v.Optional("defaults", m.defaults);
    v.Optional("scenarios", m.scenarios);
    v.Optional("generate", m.generate);
    v.Optional("search", m.search);
    v.Optional("variants", m.variants);
    v.Optional("vehicle_nodes", m.settings.vehicle_nodes);
    v.Optional("failures", m.settings.failures);
    v.Optional("regret", m.settings.regret);
    v.Optional("record", m.settings.record);
    v.Optional("max_attempts", m.settings.max_attempts, Between(1, 1000));
    v.Optional("scenario_timeout_s", m.settings.scenario_timeout_s, kPositive);
    v.Optional("units", m.units,
               Expecting{"\"autoscenegen\": defaults, scenarios and variants in AutoSceneGen's "
                         "centimetres in Unreal's frame"});
  }
  static void Check(const client::BatchFile& m, const FieldReader& reader) {
    CheckBatchUnits(m, reader);
    if (!m.variants) return;
    const std::string path = reader.Child("variants");
    if (m.search) throw DecodeError(path, "a batch with a \"search\" section cannot have variants");
    if (m.variants->empty() || m.variants->size() > 256) {
      throw DecodeError(path, "expected an array of 1..256 objects, got " +
                                  client::ShortDump(WriteValue(*m.variants)));
    }
    std::set<std::string> names;
    for (size_t v = 0; v < m.variants->size(); ++v) {
      const std::string& name = (*m.variants)[v].name;
      if (!names.insert(name).second) {
        throw DecodeError(IndexPath(path, v) + ".name",
                          "\"" + name + "\" is used by an earlier variant");
      }
    }
  }
};

}  // namespace asg::json

namespace asg::client {

ASG_DEFINE_JSON(BatchNodeSettings)
ASG_DEFINE_JSON(BatchFailureSettings)
ASG_DEFINE_JSON(BatchRegretSettings)
ASG_DEFINE_JSON(BatchRecordSettings)
ASG_DEFINE_JSON(BatchFile)

BatchFile DecodeBatchFile(const Json& root, const std::string& origin) {
  BatchFile file;
  // Defaults, scenarios and variants merge into one request: one spelling of each field.
  Json spelled = root;
  protocol::SpellGoalSphereColor(&spelled);
  try {
    Decode(spelled, "", &file);
  } catch (const json::DecodeError& error) {
    throw BatchError(origin + ": " + error.what());
  }
  if (!file.units) return file;
  protocol::ConvertAutoSceneGenUnits(&file.defaults.json);
  for (ScenarioOverrides& scenario : file.scenarios)
    protocol::ConvertAutoSceneGenUnits(&scenario.json);
  if (file.variants) {
    for (VariantOverrides& variant : *file.variants) {
      protocol::ConvertAutoSceneGenUnits(&variant.overrides);
    }
  }
  file.units.reset();  // the overrides are in the farm's units now
  return file;
}

}  // namespace asg::client
