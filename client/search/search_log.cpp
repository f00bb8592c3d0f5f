// search.csv and search.json, rebuilt from the rows after every generation.
#include "client/search/search_log.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "results/files.h"

namespace asg::client {

namespace {

std::string Fixed(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", value);
  return text;
}

/// "<prefix>_0.375", "<prefix>_1.0".
std::string ThresholdName(const char* prefix, double threshold) {
  char text[48];
  std::snprintf(text, sizeof text, "%s_%.3g", prefix, threshold);
  std::string name = text;
  if (name.find('.') == std::string::npos) name += ".0";
  return name;
}

Json RowToJson(const SearchGenerationRow& row) {
  Json json = {{"generation", row.generation},
               {"proposals", row.proposals},
               {"first_scenario", row.first_scenario},
               {"last_scenario", row.last_scenario},
               {"mean_regret", row.mean_regret},
               {"max_regret", row.max_regret},
               {"failures", row.failures},
               {"best_regret", row.best_regret},
               {"best_scenario", row.best_scenario}};
  for (size_t i = 0; i < std::size(kRegretThresholds); ++i) {
    json[ThresholdName("at_or_above", kRegretThresholds[i])] = row.at_or_above[i];
  }
  for (size_t i = 0; i < std::size(kRegretThresholds); ++i) {
    json[ThresholdName("distinct_failures", kRegretThresholds[i])] = row.distinct_failures[i];
  }
  return json;
}

}  // namespace

SearchLog::SearchLog(const SearchSpec& spec, std::filesystem::path out_dir)
    : spec_(spec),
      out_dir_(std::move(out_dir)),
      distinct_(std::vector<double>(std::begin(kRegretThresholds), std::end(kRegretThresholds))) {}

SearchCandidateRow MakeCandidateRow(uint64_t candidate_id, uint32_t generation,
                                    std::vector<uint32_t> scenarios,
                                    const std::vector<double>& regrets, size_t failures) {
  SearchCandidateRow row;
  row.candidate_id = candidate_id;
  row.generation = generation;
  row.scenarios = std::move(scenarios);
  row.failures = failures;
  if (regrets.empty()) return row;
  row.min_regret = *std::min_element(regrets.begin(), regrets.end());
  row.max_regret = *std::max_element(regrets.begin(), regrets.end());
  for (const double regret : regrets) row.mean_regret += regret;
  row.mean_regret /= static_cast<double>(regrets.size());
  for (const double regret : regrets) {
    row.std_regret += (regret - row.mean_regret) * (regret - row.mean_regret);
  }
  row.std_regret = std::sqrt(row.std_regret / static_cast<double>(regrets.size()));
  return row;
}

const SearchGenerationRow& SearchLog::Add(uint32_t generation,
                                          const std::vector<SearchCandidateRow>& candidates,
                                          const std::vector<failures::Failure>& failures) {
  SearchGenerationRow row = totals_;
  row.generation = generation;
  row.proposals = candidates.size();
  row.failures = 0;
  row.mean_regret = 0.0;
  row.max_regret = 0.0;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const SearchCandidateRow& candidate = candidates[i];
    const double regret = candidate.mean_regret;
    if (i == 0) row.first_scenario = candidate.scenarios.front();
    row.last_scenario = candidate.scenarios.back();
    row.failures += candidate.failures > 0 ? 1 : 0;
    row.mean_regret += regret;
    row.max_regret = i == 0 ? regret : std::max(row.max_regret, regret);
    if (!any_ || regret > row.best_regret) {
      row.best_regret = regret;
      row.best_scenario = candidate.scenarios.front();
      any_ = true;
    }
    for (size_t t = 0; t < std::size(kRegretThresholds); ++t) {
      if (regret >= kRegretThresholds[t]) ++row.at_or_above[t];
    }
    candidates_.push_back(candidate);
  }
  if (!candidates.empty()) row.mean_regret /= static_cast<double>(candidates.size());
  for (const failures::Failure& failure : failures) distinct_.Add(failure);
  const std::vector<size_t> distinct = distinct_.Counts();
  std::copy(distinct.begin(), distinct.end(), std::begin(row.distinct_failures));
  totals_ = row;
  rows_.push_back(row);
  return rows_.back();
}

void SearchLog::Write() const {
  std::string csv =
      "generation,proposals,first_scenario,last_scenario,mean_regret,max_regret,failures,"
      "best_regret,best_scenario";
  for (const char* prefix : {"at_or_above", "distinct_failures"}) {
    for (const double threshold : kRegretThresholds) {
      csv += ',';
      csv += ThresholdName(prefix, threshold);
    }
  }
  csv += "\n";
  Json generations = Json::array();
  for (const SearchGenerationRow& row : rows_) {
    csv += std::to_string(row.generation) + "," + std::to_string(row.proposals) + "," +
           std::to_string(row.first_scenario) + "," + std::to_string(row.last_scenario) + "," +
           Fixed(row.mean_regret) + "," + Fixed(row.max_regret) + "," +
           std::to_string(row.failures) + "," + Fixed(row.best_regret) + "," +
           std::to_string(row.best_scenario);
    for (const size_t count : row.at_or_above) {
      csv += ',';
      csv += std::to_string(count);
    }
    for (const size_t count : row.distinct_failures) {
      csv += ',';
      csv += std::to_string(count);
    }
    csv += "\n";
    generations.push_back(RowToJson(row));
  }
  Json json = {{"strategy", spec_.strategy},
               {"strategy_settings", spec_.strategy_settings},
               {"seed", spec_.seed},
               {"budget", {{"scenarios", spec_.budget_scenarios}}},
               {"generation_size", spec_.generation_size},
               {"runs_per_scenario", spec_.runs_per_scenario},
               {"space", spec_.space_json},
               {"generations", std::move(generations)}};
  if (!rows_.empty()) {
    json["best"] = {{"scenario_number", rows_.back().best_scenario},
                    {"regret", rows_.back().best_regret}};
  }
  std::string candidates_csv =
      "candidate_id,generation,scenarios,mean_regret,std_regret,min_regret,max_regret,failures\n";
  for (const SearchCandidateRow& candidate : candidates_) {
    std::string numbers;
    for (const uint32_t number : candidate.scenarios) {
      if (!numbers.empty()) numbers += ' ';
      numbers += std::to_string(number);
    }
    candidates_csv += std::to_string(candidate.candidate_id) + "," +
                      std::to_string(candidate.generation) + "," + numbers + "," +
                      Fixed(candidate.mean_regret) + "," + Fixed(candidate.std_regret) + "," +
                      Fixed(candidate.min_regret) + "," + Fixed(candidate.max_regret) + "," +
                      std::to_string(candidate.failures) + "\n";
  }
  results::WriteFileAtomically(out_dir_ / "search.csv", csv);
  results::WriteFileAtomically(out_dir_ / "search_candidates.csv", candidates_csv);
  results::WriteFileAtomically(out_dir_ / "search.json", results::JsonFileText(json));
}

}  // namespace asg::client
