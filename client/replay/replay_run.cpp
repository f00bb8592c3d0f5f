// `asg-client replay`: rank, write the batch and its record, run it, draw the family trees.
#include "client/replay/replay_run.h"

#include <ostream>

#include "client/batch/batch.h"
#include "client/farm/batch_report.h"
#include "client/farm/output_folder.h"
#include "client/replay/mosaic_tree.h"
#include "results/files.h"

namespace asg::client {

namespace fs = std::filesystem;

namespace {

/// The scenarios to replay by `settings->ranking`: a source without distinct failures (none
/// listed, or no failures.json) has its runs ranked instead, which `out` is told and
/// `settings->ranking` records.
std::vector<RankedScenario> TopOfSource(ReplaySettings* settings, std::ostream& out) {
  const fs::path& source = settings->source_dir;
  if (settings->ranking == ReplayRanking::kDistinctFailures) {
    const bool listed = fs::exists(source / "failures.json");
    std::vector<RankedScenario> failures;
    if (listed) failures = RankDistinctFailures(source);
    if (!failures.empty()) return TopScenarios(failures, settings->top);
    out << "replay: " << source.string()
        << (listed ? " has no distinct failure" : " has no failures.json")
        << ": replaying its top runs by regret instead (as --top-runs " << settings->top << ")\n";
    settings->ranking = ReplayRanking::kRuns;
  }
  return TopScenarios(RankByRegret(source), settings->top);
}

}  // namespace

int RunReplay(const ReplaySettings& requested, const FarmSettings& farm, std::ostream& out,
              std::ostream& err) {
  ReplaySettings settings = requested;
  std::vector<ReplayRun> runs;
  const fs::path batch_file = farm.out_dir / "replay_batch.json";
  try {
    runs = PlanReplayRuns(TopOfSource(&settings, out), settings.runs);
    const Json batch_json = ReplayBatchJson(settings, runs);
    if (!farm.resume) RequireEmptyFolder(farm.out_dir, farm.force);
    if (farm.resume) RequireNoLinks(farm.out_dir);
    std::error_code error;
    fs::create_directories(farm.out_dir, error);
    if (error) {
      throw ReplayError(farm.out_dir.string() + ": cannot create the folder: " + error.message());
    }
    results::WriteFileAtomically(batch_file, results::JsonFileText(batch_json));
    results::WriteFileAtomically(farm.out_dir / "replay.json",
                                 results::JsonFileText(ReplayRecordJson(settings, runs)));
  } catch (const ReplayError& error) {
    err << "asg-client: replay: " << error.what() << "\n";
    return kExitUsage;
  } catch (const results::ResultError& error) {
    err << "asg-client: replay: " << error.what() << "\n";
    return kExitUsage;
  }

  // The same path as `asg-client run replay_batch.json`.
  Batch batch;
  try {
    batch = LoadBatchFile(batch_file);
  } catch (const BatchError& error) {
    err << "asg-client: " << error.what() << "\n";
    return kExitUsage;
  }
  FarmSettings checked = farm;
  checked.output_checked = true;
  const int code = RunFarm(batch, checked, out);
  if (!settings.captures || code == kExitInterrupted) return code;
  try {
    WriteFamilyTrees(settings.source_dir, farm.out_dir, runs);
    // The batch page shows the mosaic, which exists only now.
    WriteBatchReportWithFailures(farm.out_dir);
  } catch (const std::exception& error) {
    err << "asg-client: replay: family trees: " << error.what() << "\n";
    return code == kExitCompleted ? kExitSomeFailed : code;
  }
  return code;
}

}  // namespace asg::client
