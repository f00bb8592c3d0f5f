// Planning one scenario of a batch: strict decoding with errors named where the value was
// written, the default sim timeout, the scene checks, and the report of `asg-client check`.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

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

namespace {

// Messages of the same kind, each once with the scenarios it concerns, in order of appearance.
class GroupedLines {
 public:
  // Adds `message` of scenario `number`: a message that names its scenario's source last
  // ("defaults.<path>: <problem> (in <source>)", a value written in "defaults" or not at all) is
  // grouped with the same one of other scenarios; any other stands alone.
  void Add(uint32_t number, const std::string& message) {
    const size_t in = message.rfind(" (in ");
    if (in != std::string::npos && message.back() == ')') {
      const std::string key = message.substr(0, in);
      const auto [it, inserted] = grouped_.emplace(key, lines_.size());
      if (inserted) lines_.push_back({key, {}, true});
      lines_[it->second].numbers.push_back(number);
    } else {
      lines_.push_back({message, {number}, false});
    }
  }

  // At most `max_lines` lines "<origin>: <kind><text>", then "... and K more <more>" counting
  // the scenarios of the lines left out.
  std::string Format(const std::string& origin, const std::string& kind, size_t total,
                     size_t max_lines, const std::string& more) const {
    std::string text;
    size_t left_out = 0;
    for (size_t i = 0; i < lines_.size(); ++i) {
      const Line& line = lines_[i];
      if (i >= max_lines) {
        left_out += line.numbers.size();
        continue;
      }
      if (!line.grouped) {
        text += origin + ": " + kind + "scenario " + std::to_string(line.numbers[0]) + ": " +
                line.text + "\n";
      } else {
        text += origin + ": " + kind + line.text + " (in " + Scenarios(line.numbers, total) + ")\n";
      }
    }
    if (left_out > 0) text += "... and " + std::to_string(left_out) + " more " + more + "\n";
    return text;
  }

 private:
  struct Line {
    std::string text;
    std::vector<uint32_t> numbers;
    bool grouped = false;
  };

  // "all 200 scenarios", "scenario 4", or "3 scenarios: 1, 2, 5" (at most 5 numbers, then "...").
  static std::string Scenarios(const std::vector<uint32_t>& numbers, size_t total) {
    if (numbers.size() == total && total > 1) return "all " + std::to_string(total) + " scenarios";
    if (numbers.size() == 1) return "scenario " + std::to_string(numbers[0]);
    std::string text = std::to_string(numbers.size()) + " scenarios: ";
    for (size_t i = 0; i < numbers.size() && i < 5; ++i) {
      text += (i == 0 ? "" : ", ") + std::to_string(numbers[i]);
    }
    return numbers.size() > 5 ? text + ", ..." : text;
  }

  std::vector<Line> lines_;
  std::map<std::string, size_t> grouped_;
};

}  // namespace

std::string CheckErrors(const Batch& batch, size_t max_lines) {
  GroupedLines lines;
  for (const PlannedScenario& planned : batch.scenarios) {
    if (planned.status == PlanStatus::kInvalid) lines.Add(planned.scenario_number, planned.error);
  }
  return lines.Format(batch.origin, "", batch.scenarios.size(), max_lines, "invalid scenarios");
}

std::string CheckWarnings(const Batch& batch, size_t max_lines) {
  GroupedLines lines;
  for (const PlannedScenario& planned : batch.scenarios) {
    for (const std::string& warning : planned.warnings) lines.Add(planned.scenario_number, warning);
  }
  return lines.Format(batch.origin, "warning: ", batch.scenarios.size(), max_lines, "warnings");
}

std::string TimeoutNote(const Batch& batch) {
  size_t valid = 0;
  size_t stuck_off = 0;
  size_t idling_off = 0;
  for (const PlannedScenario& planned : batch.scenarios) {
    if (planned.status != PlanStatus::kValid) continue;
    ++valid;
    if (!(planned.request.vehicle_stuck_timeout_period >= 0.0)) ++stuck_off;
    if (!(planned.request.vehicle_idling_timeout_period >= 0.0)) ++idling_off;
  }
  if (stuck_off == 0 && idling_off == 0) return "";
  const auto in = [&](size_t count) {
    return count == valid && valid > 1 ? "in all " + std::to_string(valid) + " valid scenarios"
                                       : "in " + std::to_string(count) + " of " +
                                             std::to_string(valid) + " valid scenarios";
  };
  std::string which;
  if (stuck_off > 0 && idling_off > 0 && stuck_off == idling_off) {
    which = "the stuck and idling timeouts are off (-1) " + in(stuck_off);
  } else if (stuck_off > 0 && idling_off > 0) {
    which = "the stuck timeout is off (-1) " + in(stuck_off) + " and the idling timeout " +
            in(idling_off);
  } else if (stuck_off > 0) {
    which = "the stuck timeout is off (-1) " + in(stuck_off);
  } else {
    which = "the idling timeout is off (-1) " + in(idling_off);
  }
  return batch.origin + ": note: " + which +
         ": a vehicle that stops is ended only by sim_timeout_period; set "
         "vehicle_stuck_timeout_period and vehicle_idling_timeout_period [s] in \"defaults\" to "
         "end such runs early\n";
}

std::string CheckReport(const Batch& batch, size_t max_errors) {
  const size_t invalid = batch.CountInvalid();
  std::string report =
      CheckErrors(batch, max_errors) + CheckWarnings(batch, max_errors) + TimeoutNote(batch);
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

namespace {

// A warning located like LocatedError, or, for a scenario whose value was written neither in its
// entry (a generated one's: its sampled values) nor in "defaults", "<path> (not set): <problem>
// (in <source>)", or, for a value a "generate" section sampled, "<path> (generated): <problem>
// (in generate[i])", so that the same warning of many scenarios is printed once.
std::string LocatedWarning(const SceneProblem& warning, const std::string& source,
                           const Json* overrides, const Json* defaults) {
  const size_t in_defaults = defaults != nullptr ? JsonPathDepth(*defaults, warning.path) : 0;
  const size_t in_overrides = overrides != nullptr ? JsonPathDepth(*overrides, warning.path) : 0;
  if (overrides != nullptr && in_defaults == 0 && in_overrides == 0) {
    return warning.path + " (not set): " + warning.problem + " (in " + source + ")";
  }
  if (source.rfind("generate[", 0) == 0 && in_overrides >= in_defaults) {
    return warning.path + " (generated): " + warning.problem + " (in " + source + ")";
  }
  return LocatedError(warning.path, warning.problem, source, overrides, defaults);
}

}  // namespace

void CheckPlannedScene(const ActorClasses* classes, const Json* overrides, const Json* defaults,
                       PlannedScenario* planned) {
  planned->warnings.clear();
  if (planned->status != PlanStatus::kValid) return;
  const std::optional<SceneProblem> problem = CheckScene(planned->request, classes);
  if (!problem) {
    for (const SceneProblem& warning : SceneWarnings(planned->request)) {
      planned->warnings.push_back(LocatedWarning(warning, planned->source, overrides, defaults));
    }
    return;
  }
  planned->status = PlanStatus::kInvalid;
  planned->error =
      LocatedError(problem->path, problem->problem, planned->source, overrides, defaults);
}

}  // namespace asg::client
