// Planning one scenario of a batch: strict decoding with errors named where the value was
// written, the default sim timeout, the scene checks, and the report of `asg-client check`.
#include <algorithm>
#include <string>

#include "client/batch/batch.h"
#include "client/batch/scene_checks.h"
#include "protocol/messages_json.h"

namespace asg::client {

size_t JsonPathDepth(const Json& json, const std::string& path) {
  const Json* at = &json;
  size_t depth = 0;
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') ++i;
    if (i < path.size() && path[i] == '[') {
      const size_t close = path.find(']', i);
      if (close == std::string::npos || !at->is_array()) return depth;
      const std::string digits = path.substr(i + 1, close - i - 1);
      if (digits.empty() || digits.size() > 9 ||
          digits.find_first_not_of("0123456789") != std::string::npos) {
        return depth;
      }
      const size_t index = std::stoul(digits);
      if (index >= at->size()) return depth;
      at = &(*at)[index];
      i = close + 1;
    } else {
      const size_t end = path.find_first_of(".[", i);
      const std::string key = path.substr(i, end == std::string::npos ? end : end - i);
      if (!at->is_object() || !at->contains(key)) return depth;
      at = &(*at)[key];
      i = end == std::string::npos ? path.size() : end;
    }
    ++depth;
  }
  return depth;
}

void DecodePlannedRequest(const Json& merged, const std::string& source, PlannedScenario* planned,
                          const Json* overrides, const Json* defaults) {
  try {
    protocol::Decode(merged, "", &planned->request);
    ResolveSimTimeout(&planned->request);
    planned->status = PlanStatus::kValid;
    planned->error.clear();
    planned->request_json = planned->request;
  } catch (const json::DecodeError& error) {
    planned->status = PlanStatus::kInvalid;
    planned->error = LocatedError(error.path(), error.problem(), source, overrides, defaults);
    planned->request_json = merged;
  }
}

std::string LocatedError(const std::string& path, const std::string& problem,
                         const std::string& source, const Json* overrides, const Json* defaults) {
  if (path.empty()) return source + ": " + problem;
  // The value came from where more of its path was written: the scenario's own overrides
  // (ties included) or else the batch's defaults.
  if (defaults != nullptr) {
    const size_t in_defaults = JsonPathDepth(*defaults, path);
    const size_t in_overrides = overrides ? JsonPathDepth(*overrides, path) : 0;
    if (in_defaults > in_overrides) {
      return "defaults." + path + ": " + problem + " (in " + source + ")";
    }
  }
  return source + "." + path + ": " + problem;
}

std::string CheckReport(const Batch& batch, size_t max_errors) {
  std::string report;
  size_t shown = 0;
  const size_t invalid = batch.CountInvalid();
  for (const PlannedScenario& planned : batch.scenarios) {
    if (planned.status != PlanStatus::kInvalid) continue;
    if (shown++ == max_errors) break;
    report += batch.origin + ": scenario " + std::to_string(planned.scenario_number) + ": " +
              planned.error + "\n";
  }
  if (invalid > max_errors) {
    report += "... and " + std::to_string(invalid - max_errors) + " more invalid scenarios\n";
  }
  report += batch.origin + ": " + std::to_string(batch.scenarios.size()) +
            " scenarios: " + std::to_string(batch.scenarios.size() - invalid) + " valid, " +
            std::to_string(invalid) + " invalid";
  if (batch.search) {
    report += "; and a " + batch.search->strategy + " search of " +
              std::to_string(batch.search->budget_scenarios) + " candidates";
  }
  return report + "\n";
}

void ResolveSimTimeout(protocol::RunScenarioRequest* request) {
  if (!(request->sim_timeout_period >= 0.0)) request->sim_timeout_period = kDefaultSimTimeout;
}

void CheckPlannedScene(const ActorClasses* classes, const Json* overrides, const Json* defaults,
                       PlannedScenario* planned) {
  if (planned->status != PlanStatus::kValid) return;
  const std::optional<SceneProblem> problem = CheckScene(planned->request, classes);
  if (!problem) return;
  planned->status = PlanStatus::kInvalid;
  planned->error =
      LocatedError(problem->path, problem->problem, planned->source, overrides, defaults);
}

}  // namespace asg::client
