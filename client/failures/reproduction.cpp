// Reproduction runs: their plan, their folders, and their judgement against the representative.
#include "client/failures/reproduction.h"

#include <algorithm>
#include <optional>

#include "failures/distance.h"
#include "protocol/messages.h"
#include "results/files.h"
#include "results/folder.h"

namespace asg::client {

namespace fs = std::filesystem;

namespace {

/// The judged failure of scenario `number` in `found` (it is failing), by binary search.
const failures::Failure& FailureOf(const BatchFailures& found, uint32_t number) {
  const auto it = std::lower_bound(
      found.failing.begin(), found.failing.end(), number,
      [](const failures::Failure& failure, uint32_t n) { return failure.scenario_number < n; });
  if (it == found.failing.end() || it->scenario_number != number) {
    throw FailuresError("scenario " + std::to_string(number) +
                        " is a representative but was not judged a failure");
  }
  return *it;
}

/// The variant of done scenario `number` in `found`, "" when none.
std::string VariantOf(const BatchFailures& found, uint32_t number) {
  const auto it = std::lower_bound(
      found.done.begin(), found.done.end(), number,
      [](const DoneScenario& done, uint32_t n) { return done.scenario_number < n; });
  return it != found.done.end() && it->scenario_number == number ? it->variant : std::string();
}

/// Judges the runs of one distinct failure: sets its reproduced, runs and reproduction_folders.
void CheckCluster(const fs::path& batch_dir, FailureReader& reader, uint32_t reproduce,
                  const BatchFailures& found, failures::FailureCluster* cluster) {
  const failures::Signature& representative = FailureOf(found, cluster->representative).signature;
  const std::string variant = VariantOf(found, cluster->representative);
  uint32_t reproduced = 0;
  std::vector<std::string> folders;
  for (uint32_t run = 1; run <= reproduce; ++run) {
    const std::string name = ReproductionFolderName(cluster->representative, variant, run);
    const fs::path folder = batch_dir / name;
    const fs::path result_file = folder / "result.json";
    std::error_code error;
    if (!fs::is_regular_file(result_file, error)) continue;
    const results::ScenarioResult result =
        results::ResultFromJson(results::ReadJsonFile(result_file), result_file.string());
    if (result.status != results::ScenarioStatus::kDone) continue;
    folders.push_back(name);
    if (!FailureReader::MayFail(result, found.regret_threshold)) continue;
    const std::optional<failures::Failure> failure =
        reader.Describe(results::ReadScenarioFolder(folder), folder, found.regret_threshold);
    if (failure && failures::SameFailure(representative, failure->signature)) ++reproduced;
  }
  if (folders.empty()) return;  // none ran: not judged
  cluster->reproduced = reproduced;
  cluster->runs = static_cast<uint32_t>(folders.size());
  cluster->reproduction_folders = std::move(folders);
}

}  // namespace

std::string ReproductionFolderName(uint32_t representative, std::string_view variant,
                                   uint32_t run) {
  return std::string(kReproductionFolder) + "/" +
         results::ScenarioFolderName(representative, variant) + "_run_" + std::to_string(run);
}

uint32_t ReliableMinimum(uint32_t reproduce) {
  // ceil(0.6 * reproduce) = ceil(3 * reproduce / 5), in integers.
  return (3 * reproduce + 4) / 5;
}

bool IsReliable(const failures::FailureCluster& cluster, uint32_t reproduce) {
  return reproduce > 0 && cluster.reproduced && *cluster.reproduced >= ReliableMinimum(reproduce);
}

size_t ReliableFailures(const BatchFailures& found) {
  return static_cast<size_t>(
      std::count_if(found.clusters.begin(), found.clusters.end(),
                    [&](const auto& cluster) { return IsReliable(cluster, found.reproduce); }));
}

size_t ReproductionRuns(const BatchFailures& found) {
  size_t runs = 0;
  for (const failures::FailureCluster& cluster : found.clusters) runs += cluster.runs.value_or(0);
  return runs;
}

std::vector<ReproductionRun> PlanReproductionRuns(const BatchFailures& found, uint32_t reproduce,
                                                  uint32_t first_number) {
  const uint64_t count = uint64_t{reproduce} * found.clusters.size();
  if (count > 0 && first_number + count - 1 > protocol::kMaxScenarioNumber) {
    throw FailuresError("the " + std::to_string(count) + " reproduction runs would be numbered " +
                        std::to_string(first_number) + " to " +
                        std::to_string(first_number + count - 1) + ", past the largest number " +
                        std::to_string(protocol::kMaxScenarioNumber));
  }
  std::vector<ReproductionRun> runs;
  uint32_t number = first_number;
  for (const failures::FailureCluster& cluster : found.clusters) {
    const std::string variant = VariantOf(found, cluster.representative);
    for (uint32_t run = 1; run <= reproduce; ++run) {
      runs.push_back({number++, cluster.representative, variant, run,
                      ReproductionFolderName(cluster.representative, variant, run)});
    }
  }
  return runs;
}

json::Json RepeatedRunRequest(const json::Json& request, uint32_t scenario_number, uint32_t run) {
  json::Json repeated = request;
  repeated["scenario_number"] = scenario_number;
  if (!repeated.contains("variation") || !repeated["variation"].is_object()) {
    repeated["variation"] = json::Json::object();
  }
  repeated["variation"]["run"] = run;
  return repeated;
}

json::Json ReproductionRequest(const json::Json& request, uint32_t scenario_number, uint32_t run) {
  json::Json reproduction = RepeatedRunRequest(request, scenario_number, run);
  if (!reproduction.value("scene_capture_only", false)) reproduction["take_scene_capture"] = false;
  return reproduction;
}

void CheckReproductions(const fs::path& batch_dir, FailureReader& reader, uint32_t reproduce,
                        BatchFailures* found) {
  found->reproduce = reproduce;
  if (reproduce == 0) return;
  for (failures::FailureCluster& cluster : found->clusters) {
    CheckCluster(batch_dir, reader, reproduce, *found, &cluster);
  }
}

}  // namespace asg::client
