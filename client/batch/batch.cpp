// Planning a batch: top-level checks, numbering, seeding, merging and strict decoding.
#include "client/batch/batch.h"

#include <algorithm>
#include <map>

#include "client/batch/batch_file.h"
#include "client/batch/batch_seed.h"
#include "client/batch/generate.h"
#include "client/batch/scene_checks.h"
#include "protocol/messages_json.h"

namespace asg::client {

namespace {

using protocol::kMaxScenarioNumber;

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

// A layout's JSON before decoding, and the values it sets over "defaults" (a listed scenario's
// entry, a generated one's sampled values), which name where a warned value was written.
struct LayoutJson {
  Json merged;
  Json own;
};

// Every layout of `layouts` once per variant (see batch.h); `merged` holds each layout's JSON
// (absent when it could not be generated).
std::vector<PlannedScenario> CrossVariants(const std::vector<PlannedScenario>& layouts,
                                           const std::map<uint32_t, LayoutJson>& merged,
                                           const std::vector<VariantOverrides>& variants,
                                           const Json& defaults, const ActorClasses* classes,
                                           const std::string& origin) {
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
        Json request = DeepMerge(json->second.merged, variants[v].overrides);
        request["scenario_number"] = planned.scenario_number;
        request["seed"] = layout.seed;
        DecodePlannedRequest(request, where, &planned, &variants[v].overrides, nullptr);
        const Json own = DeepMerge(json->second.own, variants[v].overrides);
        CheckPlannedScene(classes, &own, &defaults, &planned);
        if (planned.status == PlanStatus::kInvalid) planned.error += " (for " + layout.source + ")";
      } else if (planned.request_json.is_object()) {
        planned.request_json["scenario_number"] = planned.scenario_number;
      }
      crossed.push_back(std::move(planned));
    }
  }
  return crossed;
}

/// What the planning stages of ParseBatch share.
struct BatchPlan {
  BatchPlan(const std::string& file, const ActorClasses* actor_classes, bool keep)
      : origin(file), classes(actor_classes), keep_layouts(keep) {}

  const std::string& origin;    ///< the batch file's name, for errors
  const ActorClasses* classes;  ///< the catalog's classes, or null
  bool keep_layouts = false;    ///< whether layout_json is kept (the batch has variants)
  Batch batch;                  ///< the batch so far
  Json base;                    ///< the base request: defaults over a default-constructed one
  std::map<uint32_t, std::string> used;        ///< each scenario number taken, by its source
  std::map<uint32_t, LayoutJson> layout_json;  ///< each layout's JSON, for variants
};

// The base request: fields absent from defaults and overrides take a default-constructed
// request's values, except vehicle_nodes and regret, which are the batch's top-level settings
// (defaults and overrides may still change them per scenario); regret is written only when not
// the default.
Json BaseRequest(const Batch& batch) {
  protocol::RunScenarioRequest base_request;
  base_request.vehicle_nodes = batch.settings.vehicle_nodes.spec;
  if (batch.settings.regret.spec != protocol::RegretSpec{}) {
    base_request.regret = batch.settings.regret.spec;
  }
  return DeepMerge(Json(base_request), batch.defaults);
}

// The numbers of the listed scenarios: given numbers first, then 1, 2, 3... for the rest,
// skipping used ones; each is claimed in `used`.
std::vector<uint32_t> NumberListed(const Json& listed, const std::string& origin,
                                   std::map<uint32_t, std::string>* used) {
  std::vector<uint32_t> numbers(listed.size(), 0);
  for (size_t i = 0; i < listed.size(); ++i) {
    const std::string path = "scenarios[" + std::to_string(i) + "]";
    numbers[i] = GivenNumber(listed[i], origin, path);
    if (numbers[i] != 0) Claim(used, numbers[i], path, origin, path + ".scenario_number");
  }
  uint32_t next = 1;
  for (size_t i = 0; i < listed.size(); ++i) {
    if (numbers[i] != 0) continue;
    while (used->contains(next)) ++next;
    const std::string path = "scenarios[" + std::to_string(i) + "]";
    if (next > kMaxScenarioNumber) FailAt(origin, path, "no scenario number left (max 2147483647)");
    numbers[i] = next;
    Claim(used, next, path, origin, path);
  }
  return numbers;
}

// Plans the listed scenarios: numbered, seeded, merged over the base and decoded.
void PlanListed(const std::vector<ScenarioOverrides>& scenarios, BatchPlan* plan) {
  Batch& batch = plan->batch;
  Json listed = Json::array();
  for (const ScenarioOverrides& scenario : scenarios) listed.push_back(scenario.json);
  const std::vector<uint32_t> numbers = NumberListed(listed, plan->origin, &plan->used);
  for (size_t i = 0; i < listed.size(); ++i) {
    PlannedScenario planned;
    planned.scenario_number = numbers[i];
    planned.source = "scenarios[" + std::to_string(i) + "]";
    planned.seed =
        SeedFor(listed[i], batch.settings.seed, numbers[i], plan->origin, planned.source);
    Json merged = DeepMerge(plan->base, listed[i]);
    merged["scenario_number"] = planned.scenario_number;
    merged["seed"] = planned.seed;
    if (plan->keep_layouts) plan->layout_json[planned.scenario_number] = {merged, listed[i]};
    DecodePlannedRequest(merged, planned.source, &planned, &listed[i], &batch.defaults);
    CheckPlannedScene(plan->classes, &listed[i], &batch.defaults, &planned);
    batch.scenarios.push_back(std::move(planned));
  }
}

// Checks a generate section against the base request's landscape (when it decodes; otherwise
// every generated scenario is invalid with the decoder's error) and its start.
void CheckGenerate(const GenerateSpec& spec, const BatchPlan& plan) {
  const Json& base = plan.base;
  if (base.contains("scene_description") && base["scene_description"].contains("landscape")) {
    protocol::LandscapeDescription landscape;
    try {
      protocol::Decode(base["scene_description"]["landscape"], "", &landscape);
      CheckGenerateSpec(spec, landscape, plan.classes, plan.origin);
    } catch (const json::DecodeError&) {
      // every generated scenario is invalid with the decoder's error
    }
  }
  CheckGeneratedStart(spec, plan.batch.defaults, plan.origin);
}

// Plans one generated scenario; one that cannot be generated is invalid with the reason.
PlannedScenario PlanOneGenerated(const GenerateSpec& spec, uint32_t number,
                                 const std::string& source, BatchPlan* plan) {
  PlannedScenario planned;
  planned.scenario_number = number;
  planned.source = source;
  planned.seed = ScenarioSeed(plan->batch.settings.seed, number);
  try {
    Json sampled;
    const Json generated = GenerateScenario(spec, plan->base, number, planned.seed, &sampled);
    if (plan->keep_layouts) plan->layout_json[number] = {generated, sampled};
    DecodePlannedRequest(generated, source, &planned, &sampled, &plan->batch.defaults);
    CheckPlannedScene(plan->classes, &sampled, &plan->batch.defaults, &planned);
  } catch (const GenerateError& error) {
    planned.status = PlanStatus::kInvalid;
    planned.error = source + ": " + error.what();
    planned.request_json =
        DeepMerge(plan->base, {{"scenario_number", number}, {"seed", planned.seed}});
  }
  return planned;
}

// Plans the generated scenarios, numbered on from start_number or past the highest listed one.
void PlanGenerated(const GenerateSpec& spec, BatchPlan* plan) {
  CheckGenerate(spec, *plan);
  const std::map<uint32_t, std::string>& used = plan->used;
  const uint32_t first = spec.start_number.value_or(used.empty() ? 1 : used.rbegin()->first + 1);
  for (uint32_t i = 0; i < spec.count; ++i) {
    const std::string source = "generate[" + std::to_string(i) + "]";
    const uint32_t number = first + i;
    if (number > kMaxScenarioNumber) {
      FailAt(plan->origin, "generate",
             source + " would be scenario " + std::to_string(number) +
                 ", past the maximum 2147483647");
    }
    Claim(&plan->used, number, source, plan->origin, "generate");
    plan->batch.scenarios.push_back(PlanOneGenerated(spec, number, source, plan));
  }
}

// Resolves the search section; its scenarios are numbered on past every listed and generated one.
void PlanSearch(const SearchSection& section, BatchPlan* plan) {
  Batch& batch = plan->batch;
  batch.search =
      ResolveSearchSpec(section, plan->base, batch.settings.seed, plan->origin, "search");
  if (plan->classes != nullptr) {
    std::vector<std::string> names;
    for (const search::ActorClassSpace& actor : batch.search->space.classes) {
      names.push_back(actor.path_name);
    }
    CheckSearchClasses(names, *plan->classes, plan->origin);
  }
  batch.search_first_number = plan->used.empty() ? 1 : plan->used.rbegin()->first + 1;
  const uint64_t last = uint64_t{batch.search_first_number} + batch.search->budget_scenarios - 1;
  if (last > kMaxScenarioNumber) {
    FailAt(plan->origin, "search.budget.scenarios",
           "the searched scenarios would be numbered up to " + std::to_string(last) +
               ", past the maximum 2147483647");
  }
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
  const BatchFile file = DecodeBatchFile(root, origin);
  const std::vector<VariantOverrides> variants =
      file.variants.value_or(std::vector<VariantOverrides>{});
  BatchPlan plan(origin, classes, !variants.empty());
  plan.batch.origin = origin;
  plan.batch.settings = file.settings;
  plan.batch.settings.name = file.name.value_or(default_name);
  plan.batch.defaults = file.defaults.json;
  plan.base = BaseRequest(plan.batch);
  plan.batch.base_request = plan.base;

  PlanListed(file.scenarios, &plan);
  if (file.generate) PlanGenerated(*file.generate, &plan);
  if (file.search) PlanSearch(*file.search, &plan);
  Batch& batch = plan.batch;
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
    batch.scenarios =
        CrossVariants(batch.scenarios, plan.layout_json, variants, batch.defaults, classes, origin);
    for (const VariantOverrides& variant : variants) batch.variants.push_back(variant.name);
  }
  return std::move(plan.batch);
}

Batch ParseBatchText(std::string_view text, const std::string& origin,
                     const std::string& default_name, const ActorClasses* classes) {
  return ParseBatch(ParseJsonText(text, origin), origin, default_name, classes);
}

Batch LoadBatchFile(const std::filesystem::path& file, const ActorClasses* classes) {
  return ParseBatchText(ReadTextFile(file), file.string(), file.stem().string(), classes);
}

}  // namespace asg::client
