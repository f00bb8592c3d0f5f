// Ranking a batch folder's scenarios by regret.
#include "client/replay_rank.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <system_error>

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

std::vector<uint32_t> ListScenarioNumbers(const fs::path& batch_dir) {
  constexpr std::string_view kPrefix = "scenario_";
  std::error_code error;
  fs::directory_iterator entries(batch_dir, error);
  if (error) {
    throw ReplayError(batch_dir.string() + ": cannot list the folder: " + error.message());
  }
  std::vector<uint32_t> numbers;
  for (const fs::directory_entry& entry : entries) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kPrefix, 0) != 0 || !entry.is_directory()) continue;
    // The digits after the prefix, all of them, as a number 1..65535.
    const char* first = name.data() + kPrefix.size();
    const char* last = name.data() + name.size();
    uint32_t number = 0;
    const auto [end, parse_error] = std::from_chars(first, last, number);
    if (parse_error != std::errc() || end != last || first == last || number == 0 ||
        number > 65535) {
      continue;
    }
    numbers.push_back(number);
  }
  std::sort(numbers.begin(), numbers.end());
  return numbers;
}

std::vector<RankedScenario> RankByRegret(const fs::path& batch_dir) {
  const std::vector<uint32_t> numbers = ListScenarioNumbers(batch_dir);
  if (numbers.empty()) {
    throw ReplayError(batch_dir.string() + ": no scenario folders (scenario_NNNN) to replay");
  }
  std::vector<RankedScenario> ranked;
  for (const uint32_t number : numbers) {
    std::optional<results::ScenarioOutcome> outcome;
    try {
      outcome = results::LoadScenarioOutcome(batch_dir, number);
    } catch (const results::ResultError& error) {
      throw ReplayError(error.what());
    }
    if (!outcome || outcome->result.status != results::ScenarioStatus::kDone ||
        !outcome->result.regret.computed) {
      continue;
    }
    ranked.push_back({number, outcome->result.regret.regret});
  }
  if (ranked.empty()) {
    throw ReplayError(batch_dir.string() + ": none of its " + std::to_string(numbers.size()) +
                      " scenario folders has a regret in result.json");
  }
  SortByRegret(&ranked);
  return ranked;
}

std::vector<RankedScenario> TopScenarios(const std::vector<RankedScenario>& ranked, size_t count) {
  return {ranked.begin(),
          ranked.begin() + static_cast<std::ptrdiff_t>(std::min(count, ranked.size()))};
}

}  // namespace asg::client
