// Ranking a batch folder's scenarios by regret.
#include "client/replay/replay_rank.h"

#include <algorithm>
#include <map>
#include <string>
#include <system_error>

#include "client/failures/failures_file.h"
#include "protocol/messages.h"
#include "results/folder.h"

namespace asg::client {

namespace fs = std::filesystem;

void SortByRegret(std::vector<RankedScenario>* scenarios) {
  std::sort(scenarios->begin(), scenarios->end(),
            [](const RankedScenario& a, const RankedScenario& b) {
              if (a.regret != b.regret) return a.regret > b.regret;
              return a.scenario_number < b.scenario_number;
            });
}

std::vector<std::pair<uint32_t, std::string>> ListScenarioFolders(const fs::path& batch_dir) {
  try {
    return results::ListScenarioFolders(batch_dir);
  } catch (const results::ResultError& error) {
    throw ReplayError(error.what());
  }
}

std::vector<uint32_t> ListScenarioNumbers(const fs::path& batch_dir) {
  std::vector<uint32_t> numbers;
  for (const auto& [number, variant] : ListScenarioFolders(batch_dir)) numbers.push_back(number);
  return numbers;
}

std::vector<RankedScenario> RankByRegret(const fs::path& batch_dir) {
  const std::vector<std::pair<uint32_t, std::string>> folders = ListScenarioFolders(batch_dir);
  if (folders.empty()) {
    throw ReplayError(batch_dir.string() + ": no scenario folders (scenario_NNNN) to replay");
  }
  std::vector<RankedScenario> ranked;
  for (const auto& [number, variant] : folders) {
    std::optional<results::ScenarioOutcome> outcome;
    try {
      outcome = results::LoadScenarioOutcome(batch_dir, number, variant);
    } catch (const results::ResultError& error) {
      throw ReplayError(error.what());
    }
    if (!outcome || outcome->result.status != results::ScenarioStatus::kDone ||
        !outcome->result.regret.computed) {
      continue;
    }
    ranked.push_back({number, outcome->result.regret.regret, variant});
  }
  if (ranked.empty()) {
    throw ReplayError(batch_dir.string() + ": none of its " + std::to_string(folders.size()) +
                      " scenario folders has a regret in result.json");
  }
  SortByRegret(&ranked);
  return ranked;
}

std::vector<RankedScenario> RankDistinctFailures(const fs::path& batch_dir) {
  std::vector<failures::FailureCluster> clusters;
  try {
    clusters = ReadFailuresJson(batch_dir).clusters;
  } catch (const results::ResultError& error) {
    throw ReplayError(error.what());
  }
  std::stable_sort(clusters.begin(), clusters.end(),
                   [](const failures::FailureCluster& a, const failures::FailureCluster& b) {
                     if (a.max_regret.has_value() != b.max_regret.has_value()) {
                       return a.max_regret.has_value();
                     }
                     if (a.max_regret && *a.max_regret != *b.max_regret) {
                       return *a.max_regret > *b.max_regret;
                     }
                     return a.id < b.id;
                   });
  std::map<uint32_t, std::string> variants;
  for (auto& [number, variant] : ListScenarioFolders(batch_dir)) variants[number] = variant;
  std::vector<RankedScenario> ranked;
  for (const failures::FailureCluster& cluster : clusters) {
    const auto variant = variants.find(cluster.representative);
    ranked.push_back({cluster.representative, cluster.max_regret.value_or(0.0),
                      variant == variants.end() ? std::string() : variant->second});
  }
  return ranked;
}

std::vector<RankedScenario> TopScenarios(const std::vector<RankedScenario>& ranked, size_t count) {
  return {ranked.begin(),
          ranked.begin() + static_cast<std::ptrdiff_t>(std::min(count, ranked.size()))};
}

}  // namespace asg::client
