// Ranking a finished batch's scenarios for `asg-client replay`: its distinct failures, one
// representative each (failures.json, client/failures/failures_file.h), from the highest
// max_regret down; or every scenario folder read back (results/folder.h), those whose
// result.json holds a regret ordered from the highest regret down.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace asg::client {

/// A replay that cannot start: the source folder has no scenario folders, none has a regret, or a
/// file cannot be read. The message names the folder or file.
class ReplayError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One scenario of a finished batch and its regret.
struct RankedScenario {
  uint32_t scenario_number = 0;  ///< the scenario's number in the source batch
  double regret = 0.0;           ///< result.json's regret.regret
  std::string variant;           ///< its variant in a batch with variants (in its folder's name)
  bool operator==(const RankedScenario&) const = default;
};

/// Sorts `scenarios` by regret, highest first; equal regrets by ascending scenario number.
void SortByRegret(std::vector<RankedScenario>* scenarios);

/// The number and variant ("" when none) of each folder "scenario_NNNN" or
/// "scenario_NNNN_<variant>" directly under `batch_dir`, by ascending number; other entries are
/// ignored. Throws ReplayError when `batch_dir` cannot be listed.
std::vector<std::pair<uint32_t, std::string>> ListScenarioFolders(
    const std::filesystem::path& batch_dir);
/// The numbers of those folders, ascending.
std::vector<uint32_t> ListScenarioNumbers(const std::filesystem::path& batch_dir);

/// Every scenario of `batch_dir` whose result.json has a computed regret (done scenarios only),
/// sorted by SortByRegret. Throws ReplayError naming `batch_dir` when it holds no scenario
/// folder, or none with a regret, and naming the file when a result cannot be read.
std::vector<RankedScenario> RankByRegret(const std::filesystem::path& batch_dir);

/// The representative of every distinct failure in `batch_dir`/failures.json, the highest
/// max_regret first (a failure whose members have no measured regret after every one that has),
/// ties by ascending failure_id; each with its max_regret (0 when none was measured) and its
/// folder's variant. Empty when failures.json lists none. Throws ReplayError naming the file
/// when it is missing or cannot be read.
std::vector<RankedScenario> RankDistinctFailures(const std::filesystem::path& batch_dir);

/// The first `count` of `ranked` (all of them when fewer).
std::vector<RankedScenario> TopScenarios(const std::vector<RankedScenario>& ranked, size_t count);

}  // namespace asg::client
