// Planning a batch: top-level checks, numbering, seeding, merging and strict decoding.
#include "client/batch/batch.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "client/batch/batch_keys.h"
#include "client/batch/batch_seed.h"
#include "client/batch/generate.h"
#include "client/batch/scene_checks.h"
#include "protocol/messages_json.h"

namespace asg::client {

namespace {

using protocol::kMaxScenarioNumber;

/// Most vehicle nodes per worker, and most accepted reruns per scenario.
constexpr uint64_t kMaxNodeCount = 255;

/// The top-level "vehicle_nodes" object: the client-only keys read here, the rest decoded
/// strictly as the requests' VehicleNodesSpec.
BatchNodeSettings ParseNodeSettings(const Json& object, const std::string& origin) {
  BatchNodeSettings settings;
  Json spec = object;
  if (const auto found = object.find("max_reruns"); found != object.end()) {
    if (!found->is_number_unsigned()) {
      FailAt(origin, "vehicle_nodes.max_reruns",
             "expected an unsigned integer, got " + DescribeValue(*found));
    }
    if (found->get<uint64_t>() > kMaxNodeCount) {
      FailAt(origin, "vehicle_nodes.max_reruns",
             "expected at most " + std::to_string(kMaxNodeCount) + ", got " + ShortDump(*found));
    }
    settings.max_reruns = found->get<uint32_t>();
    spec.erase("max_reruns");
  }
  if (const auto found = object.find("save_minimal"); found != object.end()) {
    if (!found->is_boolean()) {
      FailAt(origin, "vehicle_nodes.save_minimal",
             "expected a boolean, got " + DescribeValue(*found));
    }
    settings.save_minimal = found->get<bool>();
    spec.erase("save_minimal");
  }
  if (const auto found = object.find("ready_timeout"); found != object.end()) {
    if (!found->is_number() || !std::isfinite(found->get<double>()) || found->get<double>() <= 0) {
      FailAt(origin, "vehicle_nodes.ready_timeout",
             "expected a number of seconds > 0, got " + DescribeValue(*found));
    }
    settings.ready_timeout = found->get<double>();
    spec.erase("ready_timeout");
  }
  try {
    protocol::Decode(spec, "vehicle_nodes", &settings.spec);
  } catch (const json::DecodeError& error) {
    throw BatchError(origin + ": " + error.what());
  }
  if (settings.spec.count > kMaxNodeCount) {
    FailAt(origin, "vehicle_nodes.count",
           "expected at most " + std::to_string(kMaxNodeCount) + " nodes per worker, got " +
               std::to_string(settings.spec.count));
  }
  return settings;
}

BatchSettings ParseSettings(const Json& root, const std::string& origin,
                            const std::string& default_name) {
  BatchSettings settings;
  settings.name = default_name;
  if (root.contains("$schema") && !root["$schema"].is_string()) {
    FailAt(
        origin, "$schema",
        "expected a string (where an editor finds the schema), got " + ShortDump(root["$schema"]));
  }
  if (root.contains("name")) {
    if (!root["name"].is_string()) {
      FailAt(origin, "name", "expected a string, got " + ShortDump(root["name"]));
    }
    settings.name = root["name"].get<std::string>();
  }
  if (root.contains("seed")) {
    if (!root["seed"].is_number_unsigned()) {
      FailAt(origin, "seed", "expected a non-negative integer, got " + ShortDump(root["seed"]));
    }
    settings.seed = root["seed"].get<uint64_t>();
  }
  if (root.contains("vehicle_nodes")) {
    if (!root["vehicle_nodes"].is_object()) {
      FailAt(origin, "vehicle_nodes",
             "expected an object, got " + ShortDump(root["vehicle_nodes"]));
    }
    settings.vehicle_nodes = ParseNodeSettings(root["vehicle_nodes"], origin);
  }
  if (root.contains("max_attempts")) {
    const Json& value = root["max_attempts"];
    if (!value.is_number_unsigned() || value.get<uint64_t>() < 1 || value.get<uint64_t>() > 1000) {
      FailAt(origin, "max_attempts", "expected an integer in 1..1000, got " + ShortDump(value));
    }
    settings.max_attempts = value.get<uint32_t>();
  }
  if (root.contains("scenario_timeout_s")) {
    const Json& value = root["scenario_timeout_s"];
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() <= 0) {
      FailAt(origin, "scenario_timeout_s", "expected a number > 0, got " + ShortDump(value));
    }
    settings.scenario_timeout_s = value.get<double>();
  }
  return settings;
}

// A listed scenario's requested number, or 0 when it has none; throws for a bad value.
uint32_t GivenNumber(const Json& overrides, const std::string& origin, const std::string& path) {
  const auto found = overrides.find("scenario_number");
  if (found == overrides.end()) return 0;
  if (!found->is_number_unsigned() || found->get<uint64_t>() < 1 ||
      found->get<uint64_t>() > kMaxScenarioNumber) {
    FailAt(origin, path + ".scenario_number",
           "expected an integer in 1..2147483647 (0 is reserved), got " + ShortDump(*found));
  }
  return found->get<uint32_t>();
}

// The seed of a scenario: its override's "seed" when given (a non-negative integer, else a
// BatchError naming `path`.seed), else derived from the batch seed and its number.
uint64_t SeedFor(const Json& overrides, uint64_t batch_seed, uint32_t number,
                 const std::string& origin, const std::string& path) {
  const auto found = overrides.find("seed");
  if (found == overrides.end()) return ScenarioSeed(batch_seed, number);
  if (!found->is_number_unsigned()) {
    FailAt(origin, path + ".seed", "expected a non-negative integer, got " + ShortDump(*found));
  }
  return found->get<uint64_t>();
}

// Records `number` as used by `source`; throws when another scenario has it already.
void Claim(std::map<uint32_t, std::string>* used, uint32_t number, const std::string& source,
           const std::string& origin, const std::string& path) {
  const auto [it, inserted] = used->emplace(number, source);
  if (!inserted) {
    FailAt(origin, path,
           "scenario number " + std::to_string(number) + " is already used by " + it->second);
  }
}

// A "variants" entry: its name and the keys merged over each layout.
struct Variant {
  std::string name;
  Json overrides;
};

bool IsVariantName(const std::string& name) {
  if (name.empty() || name.size() > 32) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

std::vector<Variant> ParseVariants(const Json& section, const std::string& origin) {
  if (!section.is_array() || section.empty() || section.size() > 256) {
    FailAt(origin, "variants", "expected an array of 1..256 objects, got " + ShortDump(section));
  }
  std::vector<Variant> variants;
  std::set<std::string> names;
  for (size_t v = 0; v < section.size(); ++v) {
    const std::string path = "variants[" + std::to_string(v) + "]";
    if (!section[v].is_object())
      FailAt(origin, path, "expected an object, got " + ShortDump(section[v]));
    if (!section[v].contains("name") || !section[v]["name"].is_string() ||
        !IsVariantName(section[v]["name"].get<std::string>())) {
      FailAt(origin, path + ".name",
             "expected 1..32 letters, digits, '_', '-' or '.', got " +
                 (section[v].contains("name") ? DescribeValue(section[v]["name"]) : "nothing"));
    }
    Variant variant{section[v]["name"].get<std::string>(), section[v]};
    variant.overrides.erase("name");
    if (!names.insert(variant.name).second) {
      FailAt(origin, path + ".name", "\"" + variant.name + "\" is used by an earlier variant");
    }
    for (const char* key : {"scenario_number", "seed"}) {
      if (variant.overrides.contains(key)) {
        FailAt(origin, path + "." + key, "is set per layout, not per variant");
      }
    }
    variants.push_back(std::move(variant));
  }
  return variants;
}

// Every layout of `layouts` once per variant (see batch.h); `merged` holds each layout's JSON
// before decoding (absent when it could not be generated).
std::vector<PlannedScenario> CrossVariants(const std::vector<PlannedScenario>& layouts,
                                           const std::map<uint32_t, Json>& merged,
                                           const std::vector<Variant>& variants,
                                           const ActorClasses* classes, const std::string& origin) {
  const uint32_t count = static_cast<uint32_t>(variants.size());
  std::vector<PlannedScenario> crossed;
  for (const PlannedScenario& layout : layouts) {
    if (uint64_t{layout.scenario_number} * count > kMaxScenarioNumber) {
      FailAt(origin, "variants",
             "layout " + std::to_string(layout.scenario_number) + " x " + std::to_string(count) +
                 " variants would be numbered past the maximum 2147483647");
    }
    for (uint32_t v = 0; v < count; ++v) {
      const std::string where = "variants[" + std::to_string(v) + "]";
      PlannedScenario planned = layout;
      planned.scenario_number = (layout.scenario_number - 1) * count + v + 1;
      planned.variant = variants[v].name;
      planned.layout = layout.scenario_number;
      planned.source = layout.source + " " + where;
      const auto json = merged.find(layout.scenario_number);
      if (layout.status == PlanStatus::kValid && json != merged.end()) {
        Json request = DeepMerge(json->second, variants[v].overrides);
        request["scenario_number"] = planned.scenario_number;
        request["seed"] = layout.seed;
        DecodePlannedRequest(request, where, &planned, &variants[v].overrides, nullptr);
        CheckPlannedScene(classes, &variants[v].overrides, nullptr, &planned);
        if (planned.status == PlanStatus::kInvalid) planned.error += " (for " + layout.source + ")";
      } else if (planned.request_json.is_object()) {
        planned.request_json["scenario_number"] = planned.scenario_number;
      }
      crossed.push_back(std::move(planned));
    }
  }
  return crossed;
}

}  // namespace

size_t Batch::CountInvalid() const {
  return static_cast<size_t>(
      std::count_if(scenarios.begin(), scenarios.end(),
                    [](const PlannedScenario& s) { return s.status == PlanStatus::kInvalid; }));
}

const PlannedScenario* Batch::Find(uint32_t scenario_number) const {
  const auto it = std::lower_bound(
      scenarios.begin(), scenarios.end(), scenario_number,
      [](const PlannedScenario& s, uint32_t number) { return s.scenario_number < number; });
  return it != scenarios.end() && it->scenario_number == scenario_number ? &*it : nullptr;
}

Batch ParseBatch(const Json& root, const std::string& origin, const std::string& default_name,
                 const ActorClasses* classes) {
  if (!root.is_object()) {
    throw BatchError(origin + ": expected a JSON object at the top level, got " + ShortDump(root));
  }
  for (const auto& [key, value] : root.items()) {
    if (!batch_keys::kBatch.contains(key)) {
      FailAt(origin, key,
             "unknown top-level field (expected name, seed, defaults, scenarios, generate, search, "
             "variants, vehicle_nodes, max_attempts, scenario_timeout_s, $schema)");
    }
  }
  std::vector<Variant> variants;
  if (root.contains("variants")) {
    if (root.contains("search")) {
      FailAt(origin, "variants", "a batch with a \"search\" section cannot have variants");
    }
    variants = ParseVariants(root["variants"], origin);
  }
  std::map<uint32_t, Json> layout_json;  // each layout's JSON before decoding, for the variants
  Batch batch;
  batch.origin = origin;
  batch.settings = ParseSettings(root, origin, default_name);
  if (root.contains("defaults")) {
    batch.defaults = root["defaults"];
    if (!batch.defaults.is_object()) {
      FailAt(origin, "defaults", "expected an object, got " + ShortDump(batch.defaults));
    }
    for (const char* per_scenario : {"scenario_number", "seed"}) {
      if (batch.defaults.contains(per_scenario)) {
        FailAt(origin, std::string("defaults.") + per_scenario,
               "is set per scenario (derived, or given in a scenario's overrides)");
      }
    }
  }
  const Json listed = root.contains("scenarios") ? root["scenarios"] : Json::array();
  if (!listed.is_array()) {
    FailAt(origin, "scenarios", "expected an array, got " + ShortDump(listed));
  }

  // Fields absent from defaults and overrides take a default-constructed request's values,
  // except vehicle_nodes, which is the batch's top-level spec (defaults and overrides may still
  // change it per scenario).
  protocol::RunScenarioRequest base_request;
  base_request.vehicle_nodes = batch.settings.vehicle_nodes.spec;
  const Json base = DeepMerge(Json(base_request), batch.defaults);
  batch.base_request = base;

  // Listed scenarios: given numbers first, then 1, 2, 3... for the rest, skipping used ones.
  std::map<uint32_t, std::string> used;
  std::vector<uint32_t> numbers(listed.size(), 0);
  for (size_t i = 0; i < listed.size(); ++i) {
    const std::string path = "scenarios[" + std::to_string(i) + "]";
    if (!listed[i].is_object())
      FailAt(origin, path, "expected an object, got " + ShortDump(listed[i]));
    numbers[i] = GivenNumber(listed[i], origin, path);
    if (numbers[i] != 0) Claim(&used, numbers[i], path, origin, path + ".scenario_number");
  }
  uint32_t next = 1;
  for (size_t i = 0; i < listed.size(); ++i) {
    if (numbers[i] != 0) continue;
    while (used.contains(next)) ++next;
    const std::string path = "scenarios[" + std::to_string(i) + "]";
    if (next > kMaxScenarioNumber) FailAt(origin, path, "no scenario number left (max 2147483647)");
    numbers[i] = next;
    Claim(&used, next, path, origin, path);
  }
  for (size_t i = 0; i < listed.size(); ++i) {
    PlannedScenario planned;
    planned.scenario_number = numbers[i];
    planned.source = "scenarios[" + std::to_string(i) + "]";
    planned.seed = SeedFor(listed[i], batch.settings.seed, numbers[i], origin, planned.source);
    Json merged = DeepMerge(base, listed[i]);
    merged["scenario_number"] = planned.scenario_number;
    merged["seed"] = planned.seed;
    if (!variants.empty()) layout_json[planned.scenario_number] = merged;
    DecodePlannedRequest(merged, planned.source, &planned, &listed[i], &batch.defaults);
    CheckPlannedScene(classes, &listed[i], &batch.defaults, &planned);
    batch.scenarios.push_back(std::move(planned));
  }

  // Generated scenarios, numbered on from start_number or past the highest listed number.
  if (root.contains("generate")) {
    const GenerateSpec spec = ParseGenerateSpec(root["generate"], origin, "generate");
    if (base.contains("scene_description") && base["scene_description"].contains("landscape")) {
      protocol::LandscapeDescription landscape;
      try {
        protocol::Decode(base["scene_description"]["landscape"], "", &landscape);
        CheckGenerateSpec(spec, landscape, classes, origin);
      } catch (const json::DecodeError&) {
        // every generated scenario is invalid with the decoder's error
      }
    }
    const uint32_t first = spec.start_number.value_or(used.empty() ? 1 : used.rbegin()->first + 1);
    for (uint32_t i = 0; i < spec.count; ++i) {
      const std::string source = "generate[" + std::to_string(i) + "]";
      const uint32_t number = first + i;
      if (number > kMaxScenarioNumber) {
        FailAt(origin, "generate",
               source + " would be scenario " + std::to_string(number) +
                   ", past the maximum 2147483647");
      }
      Claim(&used, number, source, origin, "generate");
      PlannedScenario planned;
      planned.scenario_number = number;
      planned.source = source;
      planned.seed = ScenarioSeed(batch.settings.seed, number);
      try {
        const Json generated = GenerateScenario(spec, base, number, planned.seed);
        if (!variants.empty()) layout_json[number] = generated;
        DecodePlannedRequest(generated, source, &planned, nullptr, &batch.defaults);
        CheckPlannedScene(classes, nullptr, &batch.defaults, &planned);
      } catch (const GenerateError& error) {
        planned.status = PlanStatus::kInvalid;
        planned.error = source + ": " + error.what();
        planned.request_json =
            DeepMerge(base, {{"scenario_number", number}, {"seed", planned.seed}});
      }
      batch.scenarios.push_back(std::move(planned));
    }
  }
  // Searched scenarios: numbered on past every listed and generated one.
  if (root.contains("search")) {
    batch.search = ParseSearchSpec(root["search"], base, batch.settings.seed, origin, "search");
    if (classes != nullptr) {
      std::vector<std::string> names;
      for (const search::ActorClassSpace& actor : batch.search->space.classes) {
        names.push_back(actor.path_name);
      }
      CheckSearchClasses(names, *classes, origin);
    }
    batch.search_first_number = used.empty() ? 1 : used.rbegin()->first + 1;
    const uint64_t last = uint64_t{batch.search_first_number} + batch.search->budget_scenarios - 1;
    if (last > kMaxScenarioNumber) {
      FailAt(origin, "search.budget.scenarios",
             "the searched scenarios would be numbered up to " + std::to_string(last) +
                 ", past the maximum 2147483647");
    }
  }
  if (batch.scenarios.empty() && !batch.search) {
    throw BatchError(origin +
                     ": the batch has no scenarios (give \"scenarios\", \"generate\" or "
                     "\"search\")");
  }
  std::sort(batch.scenarios.begin(), batch.scenarios.end(),
            [](const PlannedScenario& a, const PlannedScenario& b) {
              return a.scenario_number < b.scenario_number;
            });
  if (!variants.empty()) {
    batch.scenarios = CrossVariants(batch.scenarios, layout_json, variants, classes, origin);
    for (const Variant& variant : variants) batch.variants.push_back(variant.name);
  }
  return batch;
}

Batch ParseBatchText(std::string_view text, const std::string& origin,
                     const std::string& default_name, const ActorClasses* classes) {
  return ParseBatch(ParseJsonText(text, origin), origin, default_name, classes);
}

Batch LoadBatchFile(const std::filesystem::path& file, const ActorClasses* classes) {
  return ParseBatchText(ReadTextFile(file), file.string(), file.stem().string(), classes);
}

}  // namespace asg::client
