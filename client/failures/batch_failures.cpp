// The failures pass over a batch folder: read, judge, cluster, write.
#include "client/failures/batch_failures.h"

#include <utility>

#include "client/failures/failures_file.h"
#include "client/failures/reproduction.h"
#include "results/files.h"

namespace asg::client {

namespace fs = std::filesystem;

BatchFailures FindBatchFailures(const fs::path& batch_dir, FailureReader& reader,
                                double threshold) {
  BatchFailures found;
  found.regret_threshold = threshold;
  std::vector<failures::Failure> failing;
  for (const auto& [number, variant] : results::ListScenarioFolders(batch_dir)) {
    const fs::path folder = results::ScenarioFolder(batch_dir, number, variant);
    const fs::path result_file = folder / "result.json";
    const results::ScenarioResult result =
        results::ResultFromJson(results::ReadJsonFile(result_file), result_file.string());
    if (result.status != results::ScenarioStatus::kDone) continue;
    found.done.push_back({number, variant, result.failure_id});
    if (FailureReader::KindOf(result, threshold) == failures::FailureKind::kContact) {
      found.contact_scenarios.push_back(number);
    }
    if (!FailureReader::MayFail(result, threshold)) continue;
    std::optional<failures::Failure> failure =
        reader.Describe(results::ReadScenarioFolder(folder), folder, threshold);
    if (failure) failing.push_back(std::move(*failure));
  }
  found.failing_scenarios = static_cast<uint32_t>(failing.size());
  found.clusters = failures::ClusterFailures(failing);
  found.failing = std::move(failing);
  return found;
}

std::map<uint32_t, uint32_t> FailureIds(const BatchFailures& batch_failures) {
  std::map<uint32_t, uint32_t> ids;
  for (const failures::FailureCluster& cluster : batch_failures.clusters) {
    for (const uint32_t member : cluster.members) ids[member] = static_cast<uint32_t>(cluster.id);
  }
  return ids;
}

size_t WriteFailureIds(const fs::path& batch_dir, const BatchFailures& batch_failures) {
  const std::map<uint32_t, uint32_t> ids = FailureIds(batch_failures);
  std::vector<results::FileContent> changed;
  for (const DoneScenario& done : batch_failures.done) {
    const auto id = ids.find(done.scenario_number);
    const uint32_t failure_id = id == ids.end() ? 0 : id->second;
    if (failure_id == done.stored_failure_id) continue;
    const fs::path file =
        results::ScenarioFolder(batch_dir, done.scenario_number, done.variant) / "result.json";
    results::ScenarioResult result =
        results::ResultFromJson(results::ReadJsonFile(file), file.string());
    result.failure_id = failure_id;
    changed.push_back({file, results::JsonFileText(results::ResultToJson(result))});
  }
  results::WriteFilesAtomically(changed);
  return changed.size();
}

void WriteBatchFailures(const fs::path& batch_dir, FailureReader& reader, uint32_t reproduce,
                        BatchFailures* found) {
  CheckReproductions(batch_dir, reader, reproduce, found);
  WriteFailuresFiles(batch_dir, *found);
  WriteFailureIds(batch_dir, *found);
}

BatchFailures UpdateBatchFailures(const fs::path& batch_dir, FailureReader& reader,
                                  double threshold, uint32_t reproduce) {
  BatchFailures found = FindBatchFailures(batch_dir, reader, threshold);
  WriteBatchFailures(batch_dir, reader, reproduce, &found);
  return found;
}

}  // namespace asg::client
