// Batch summary counting and formatting.
#include "report/summary.h"

#include <algorithm>
#include <cstdio>

#include "results/files.h"
#include "results/trajectory_csv.h"

namespace asg::report {

using json::Json;

namespace {

std::string ReasonName(const results::ScenarioResult& result) {
  return std::string(protocol::TerminationReasonName(result.termination_reason));
}

std::vector<const results::ScenarioOutcome*> SortedByNumber(
    const std::vector<results::ScenarioOutcome>& outcomes) {
  std::vector<const results::ScenarioOutcome*> sorted;
  for (const results::ScenarioOutcome& outcome : outcomes) sorted.push_back(&outcome);
  std::sort(sorted.begin(), sorted.end(),
            [](const results::ScenarioOutcome* a, const results::ScenarioOutcome* b) {
              return a->result.scenario_number < b->result.scenario_number;
            });
  return sorted;
}

std::string Format(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

}  // namespace

namespace {

// The outcome of a result for comparing variants: the reason name when done, else the status.
std::string OutcomeLabel(const results::ScenarioResult& result) {
  return result.status == results::ScenarioStatus::kDone
             ? ReasonName(result)
             : std::string(results::ScenarioStatusName(result.status));
}

void CompareVariants(const std::vector<results::ScenarioOutcome>& outcomes, BatchSummary* summary) {
  std::map<uint32_t, std::vector<const results::ScenarioResult*>> by_layout;
  for (const results::ScenarioOutcome* outcome : SortedByNumber(outcomes)) {
    const results::ScenarioResult& result = outcome->result;
    if (result.variant.empty()) continue;
    auto counts = std::find_if(summary->variants.begin(), summary->variants.end(),
                               [&](const VariantCounts& c) { return c.name == result.variant; });
    if (counts == summary->variants.end()) {
      summary->variants.push_back({result.variant, 0, {}, {}});
      counts = summary->variants.end() - 1;
      for (const char* status : {"done", "invalid", "failed"}) counts->status_counts[status] = 0;
    }
    ++counts->total;
    ++counts->status_counts[std::string(results::ScenarioStatusName(result.status))];
    if (result.status == results::ScenarioStatus::kDone)
      ++counts->reason_counts[ReasonName(result)];
    by_layout[result.layout].push_back(&result);
  }
  summary->layouts = by_layout.size();
  for (const auto& [layout, results_of_layout] : by_layout) {
    VariantDifference difference{layout, {}};
    bool differs = false;
    for (const results::ScenarioResult* result : results_of_layout) {
      difference.outcomes.emplace_back(result->variant, OutcomeLabel(*result));
      differs = differs || difference.outcomes.back().second != difference.outcomes.front().second;
    }
    if (differs) summary->differences.push_back(std::move(difference));
  }
}

}  // namespace

BatchSummary Summarize(const std::string& batch_name, uint64_t seed,
                       const std::vector<results::ScenarioOutcome>& outcomes, double wall_time_s,
                       size_t kept, size_t kept_done) {
  BatchSummary summary;
  summary.batch_name = batch_name;
  summary.seed = seed;
  summary.total = outcomes.size();
  for (results::ScenarioStatus status :
       {results::ScenarioStatus::kDone, results::ScenarioStatus::kInvalid,
        results::ScenarioStatus::kFailed}) {
    summary.status_counts[std::string(results::ScenarioStatusName(status))] = 0;
  }
  for (const results::ScenarioOutcome& outcome : outcomes) {
    ++summary.status_counts[std::string(results::ScenarioStatusName(outcome.result.status))];
    if (outcome.result.status == results::ScenarioStatus::kDone) {
      ++summary.reason_counts[ReasonName(outcome.result)];
    }
  }
  CompareVariants(outcomes, &summary);
  summary.wall_time_s = wall_time_s;
  summary.kept = kept;
  const size_t done = summary.status_counts["done"];
  summary.done_run = done - std::min(done, kept_done);
  if (wall_time_s > 0.0) {
    summary.scenarios_per_s = static_cast<double>(summary.done_run) / wall_time_s;
  }
  return summary;
}

double EarlierWallTime(const std::filesystem::path& batch_dir) {
  try {
    const Json summary = results::ReadJsonFile(batch_dir / "summary.json");
    if (summary.is_object() && summary.contains("wall_time_s") &&
        summary["wall_time_s"].is_number() && summary["wall_time_s"].get<double>() >= 0.0) {
      return summary["wall_time_s"].get<double>();
    }
  } catch (const std::exception&) {
    // No earlier summary (a killed run) or an unreadable one: the earlier runs' time is unknown.
  }
  return 0.0;
}

void AddEarlierRuns(BatchSummary* summary, double earlier_wall_time_s) {
  const auto done = summary->status_counts.find("done");
  const size_t done_count = done == summary->status_counts.end() ? 0 : done->second;
  const double run_wall_time_s = summary->wall_time_s;
  ResumedRun resumed;
  resumed.wall_time_s = run_wall_time_s;
  resumed.scenarios_per_s = summary->scenarios_per_s;
  resumed.scenarios_run = summary->done_run;
  summary->resumed_run = resumed;
  summary->wall_time_s = earlier_wall_time_s + run_wall_time_s;
  summary->scenarios_per_s =
      summary->wall_time_s > 0.0 ? static_cast<double>(done_count) / summary->wall_time_s : 0.0;
}

Json SummaryToJson(const BatchSummary& summary,
                   const std::vector<results::ScenarioOutcome>& outcomes) {
  Json json = {{"batch", summary.batch_name},
               {"seed", summary.seed},
               {"total", summary.total},
               {"status_counts", summary.status_counts},
               {"reason_counts", summary.reason_counts}};
  if (summary.failing_scenarios && summary.distinct_failures) {
    json["failing_scenarios"] = *summary.failing_scenarios;
    json["distinct_failures"] = *summary.distinct_failures;
  }
  if (summary.reproduction) {
    json["reliable_failures"] = summary.reproduction->reliable_failures;
    json["reproduction_runs"] = summary.reproduction->reproduction_runs;
  }
  if (summary.contacts) json["contacts"] = *summary.contacts;
  json["wall_time_s"] = summary.wall_time_s;
  json["scenarios_per_s"] = summary.scenarios_per_s;
  if (summary.resumed_run) {
    json["resumed_run"] = {{"wall_time_s", summary.resumed_run->wall_time_s},
                           {"scenarios_run", summary.resumed_run->scenarios_run},
                           {"scenarios_per_s", summary.resumed_run->scenarios_per_s}};
  }
  if (!summary.variants.empty()) {
    Json variants = Json::array();
    for (const VariantCounts& counts : summary.variants) {
      variants.push_back({{"name", counts.name},
                          {"total", counts.total},
                          {"status_counts", counts.status_counts},
                          {"reason_counts", counts.reason_counts}});
    }
    json["variants"] = std::move(variants);
    json["layouts"] = summary.layouts;
    Json differences = Json::array();
    for (const VariantDifference& difference : summary.differences) {
      Json outcomes = Json::object();
      for (const auto& [variant, outcome] : difference.outcomes) outcomes[variant] = outcome;
      differences.push_back({{"layout", difference.layout}, {"outcomes", std::move(outcomes)}});
    }
    json["variant_differences"] = std::move(differences);
  }
  json["scenarios"] = Json::array();
  for (const results::ScenarioOutcome* outcome : SortedByNumber(outcomes)) {
    const results::ScenarioResult& result = outcome->result;
    Json row = {{"scenario_number", result.scenario_number},
                {"status", results::ScenarioStatusName(result.status)},
                {"attempts", outcome->timing.attempts.size()},
                {"seed", result.seed},
                {"wall_time_s", outcome->timing.wall_time_s},
                {"worker_id", outcome->timing.worker_id}};
    if (!result.variant.empty()) {
      row["variant"] = result.variant;
      row["layout"] = result.layout;
    }
    if (result.status == results::ScenarioStatus::kDone) {
      row["termination_reason_name"] = ReasonName(result);
      row["vehicle_sim_time"] = result.vehicle_sim_time;
      if (result.regret.computed) row["regret"] = result.regret.regret;
    } else {
      row["error"] = result.error;
    }
    json["scenarios"].push_back(std::move(row));
  }
  return json;
}

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

std::string SummaryToCsv(const std::vector<results::ScenarioOutcome>& outcomes,
                         const std::map<uint32_t, std::string>& drivers) {
  std::string csv(kSummaryCsvHeader);
  csv += '\n';
  for (const results::ScenarioOutcome* outcome : SortedByNumber(outcomes)) {
    const results::ScenarioResult& result = outcome->result;
    const bool done = result.status == results::ScenarioStatus::kDone;
    csv += std::to_string(result.scenario_number) + ',';
    csv += std::string(results::ScenarioStatusName(result.status)) + ',';
    csv += (done ? ReasonName(result) : std::string()) + ',';
    csv += (done ? results::FormatCsvNumber(result.vehicle_sim_time) : std::string()) + ',';
    csv += Format("%.3f", outcome->timing.wall_time_s) + ',';
    csv += (outcome->timing.worker_id >= 0 ? std::to_string(outcome->timing.worker_id)
                                           : std::string()) +
           ',';
    csv += std::to_string(outcome->timing.attempts.size());
    // Regret and its parts (docs/regret.md), empty when the run has none.
    const protocol::RegretReport& regret = result.regret;
    for (const double value :
         {regret.regret, regret.cost_term, regret.time_term, regret.cost_position_term,
          regret.time_position_term, regret.cost, regret.time, regret.cost_opt, regret.time_opt}) {
      csv += ',';
      if (done && regret.computed) csv += results::FormatCsvNumber(value);
    }
    csv += ',' + std::to_string(result.seed) + ',';
    if (const auto driver = drivers.find(result.scenario_number); driver != drivers.end()) {
      csv += driver->second;
    }
    csv += ',' + result.variant + ',';
    if (!result.variant.empty()) csv += std::to_string(result.layout);
    const protocol::RunCounters& counters = result.counters;
    for (const double value :
         {counters.distance_travelled, static_cast<double>(counters.collisions_touched),
          counters.max_abs_roll, counters.max_abs_pitch,
          static_cast<double>(counters.control_messages),
          static_cast<double>(counters.physics_steps), counters.settle_time}) {
      csv += ',';
      if (done) csv += results::FormatCsvNumber(value);
    }
    csv += ',' + CsvField(result.error) + '\n';
  }
  return csv;
}

void WriteSummary(const std::filesystem::path& batch_dir, const BatchSummary& summary,
                  const std::vector<results::ScenarioOutcome>& outcomes,
                  const std::map<uint32_t, std::string>& drivers) {
  std::error_code error;
  std::filesystem::create_directories(batch_dir, error);
  if (error) throw results::ResultError(batch_dir.string() + ": cannot create: " + error.message());
  results::WriteFileAtomically(batch_dir / "summary.json",
                               results::JsonFileText(SummaryToJson(summary, outcomes)));
  results::WriteFileAtomically(batch_dir / "summary.csv", SummaryToCsv(outcomes, drivers));
}

std::string FormatOutcomeTable(const BatchSummary& summary) {
  const double total = static_cast<double>(std::max<size_t>(summary.total, 1));
  std::string text =
      "batch " + summary.batch_name + " (seed " + std::to_string(summary.seed) +
      "): " + std::to_string(summary.total) + " scenarios" +
      (summary.kept > 0 ? " (" + std::to_string(summary.kept) + " kept from an earlier run)"
                        : std::string()) +
      " in " + Format("%.1f", summary.wall_time_s) + " s, " +
      Format("%.2f", summary.scenarios_per_s) + " scenarios/s\n";
  if (summary.resumed_run) {
    text += "  resumed run: " + std::to_string(summary.resumed_run->scenarios_run) +
            " scenarios run in " + Format("%.1f", summary.resumed_run->wall_time_s) + " s, " +
            Format("%.2f", summary.resumed_run->scenarios_per_s) + " scenarios/s\n";
  }
  auto add_row = [&](const std::string& label, size_t count, const std::string& after = "") {
    char line[160];
    std::snprintf(line, sizeof(line), "  %-32s %6zu %6.1f%%%s\n", label.c_str(), count,
                  100.0 * static_cast<double>(count) / total, after.c_str());
    text += line;
  };
  for (const char* status : {"done", "invalid", "failed"}) {
    const auto found = summary.status_counts.find(status);
    add_row(status, found == summary.status_counts.end() ? 0 : found->second);
  }
  for (const auto& [reason, count] : summary.reason_counts) add_row("  " + reason, count);
  if (summary.failing_scenarios && summary.distinct_failures) {
    add_row("failing scenarios", *summary.failing_scenarios,
            ", " + std::to_string(*summary.distinct_failures) + " distinct" +
                (summary.reproduction
                     ? ", " + std::to_string(summary.reproduction->reliable_failures) + " reliable"
                     : std::string()) +
                " (failures.csv)");
  }
  if (summary.contacts) {
    add_row("near misses (contact)", *summary.contacts,
            ", successes that touched an obstacle (failures.json)");
  }
  if (const std::optional<ReproductionCounts>& counts = summary.reproduction) {
    text += "  reproduction runs " + std::to_string(counts->reproduction_runs) + ", beside the " +
            std::to_string(summary.total) + " scenarios: up to " +
            std::to_string(counts->reproduce) +
            " of each distinct failure; reliable when reproduced in at least " +
            std::to_string(counts->reliable_minimum) + "\n";
  }
  if (!summary.variants.empty()) {
    text += "variants, side by side over " + std::to_string(summary.layouts) + " layouts:\n";
    for (const VariantCounts& counts : summary.variants) {
      text += "  " + counts.name + ":";
      for (const auto& [reason, count] : counts.reason_counts) {
        text += " " + reason + " " + std::to_string(count);
      }
      for (const char* status : {"invalid", "failed"}) {
        const auto found = counts.status_counts.find(status);
        if (found != counts.status_counts.end() && found->second > 0) {
          text += std::string(" ") + status + " " + std::to_string(found->second);
        }
      }
      text += "\n";
    }
    text += "  layouts whose variants ended differently: " +
            std::to_string(summary.differences.size()) + " of " + std::to_string(summary.layouts) +
            " (summary.json variant_differences)\n";
  }
  return text;
}

}  // namespace asg::report
