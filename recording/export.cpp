// Export of recordings: each scenario folder read back whole (results/), checked to hold a run,
// recorded and written atomically.
#include "recording/export.h"

#include "core/check.h"
#include "recording/run_recording.h"
#include "results/files.h"
#include "results/folder.h"

namespace asg::recording {

namespace fs = std::filesystem;

namespace {

/// The scenario folder `folder` read back, when it holds a run that can be recorded.
results::StoredScenario ReadRun(const fs::path& folder) {
  results::StoredScenario scenario;
  try {
    scenario = results::ReadScenarioFolder(folder);
  } catch (const results::ResultError& error) {
    throw RecordingError(error.what());
  }
  const results::ScenarioResult& result = scenario.result;
  if (result.status != results::ScenarioStatus::kDone) {
    throw RecordingError(
        (folder / "result.json").string() + ": the scenario did not run (status \"" +
        std::string(results::ScenarioStatusName(result.status)) + "\": " + result.error + ")");
  }
  const fs::path trajectory = folder / "trajectory.csv";
  std::error_code ignored;
  if (!fs::is_regular_file(trajectory, ignored)) {
    throw RecordingError(trajectory.string() + ": missing: the run has no trajectory to record");
  }
  if (scenario.trajectory.empty()) {
    throw RecordingError(trajectory.string() + ": no samples: the run has nothing to record");
  }
  return scenario;
}

/// The status result.json of `folder` records.
results::ScenarioStatus StatusOf(const fs::path& folder) {
  const fs::path file = folder / "result.json";
  try {
    return results::ResultFromJson(results::ReadJsonFile(file), file.string()).status;
  } catch (const results::ResultError& error) {
    throw RecordingError(error.what());
  }
}

}  // namespace

bool WriteRunRecording(const results::ScenarioRecord& record, const fs::path& folder,
                       const catalog::ActorCatalog* catalog) {
  if (record.result.status != results::ScenarioStatus::kDone || record.trajectory.empty()) {
    return false;
  }
  results::WriteFileUnsynced(folder / kRecordingFileName,
                             RecordRun(results::StoredScenarioOf(record), catalog));
  return true;
}

bool IsScenarioFolder(const fs::path& dir) {
  std::error_code ignored;
  return fs::is_regular_file(dir / "result.json", ignored);
}

size_t ExportScenario(const fs::path& folder, const fs::path& out,
                      const catalog::ActorCatalog* catalog) {
  if (!IsScenarioFolder(folder)) {
    throw RecordingError((folder / "result.json").string() + ": missing: not a scenario folder");
  }
  const std::string bytes = RecordRun(ReadRun(folder), catalog);
  try {
    results::WriteFileAtomically(out, bytes);
  } catch (const results::ResultError& error) {
    throw RecordingError(error.what());
  }
  return bytes.size();
}

ExportSummary ExportFolder(const fs::path& dir, const fs::path& out,
                           const catalog::ActorCatalog* catalog, std::ostream& log) {
  ExportSummary summary;
  if (IsScenarioFolder(dir)) {
    const fs::path target = out.empty() ? dir / kRecordingFileName : out;
    summary.bytes = ExportScenario(dir, target, catalog);
    summary.written = 1;
    log << target.string() << ": " << summary.bytes << " bytes\n";
    return summary;
  }
  ASG_CHECK(out.empty());
  std::vector<std::pair<uint32_t, std::string>> folders;
  try {
    folders = results::ListScenarioFolders(dir);
  } catch (const results::ResultError& error) {
    throw RecordingError(error.what());
  }
  if (folders.empty()) {
    throw RecordingError(dir.string() +
                         ": neither a scenario folder (no result.json) nor a batch folder (no "
                         "scenario_NNNN folder)");
  }
  for (const auto& [number, variant] : folders) {
    const fs::path folder = results::ScenarioFolder(dir, number, variant);
    const results::ScenarioStatus status = StatusOf(folder);
    if (status != results::ScenarioStatus::kDone) {
      log << folder.string() << ": skipped (status " << results::ScenarioStatusName(status)
          << ")\n";
      ++summary.skipped;
      continue;
    }
    const size_t bytes = ExportScenario(folder, folder / kRecordingFileName, catalog);
    log << (folder / kRecordingFileName).string() << ": " << bytes << " bytes\n";
    summary.bytes += bytes;
    ++summary.written;
  }
  return summary;
}

}  // namespace asg::recording
