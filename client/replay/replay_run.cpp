// `asg-client replay`: rank, write the batch and its record, run it, draw the family trees.
#include "client/replay/replay_run.h"

#include <ostream>

#include "client/batch/batch.h"
#include "client/farm/output_folder.h"
#include "client/replay/mosaic_tree.h"
#include "results/files.h"

namespace asg::client {

namespace fs = std::filesystem;

int RunReplay(const ReplaySettings& settings, const FarmSettings& farm, std::ostream& out,
              std::ostream& err) {
  std::vector<ReplayRun> runs;
  const fs::path batch_file = farm.out_dir / "replay_batch.json";
  try {
    const std::vector<RankedScenario> top =
        TopScenarios(RankByRegret(settings.source_dir), settings.top);
    runs = PlanReplayRuns(top, settings.runs);
    const Json batch_json = ReplayBatchJson(settings, runs);
    if (!farm.resume) RequireEmptyFolder(farm.out_dir, farm.force);
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
  } catch (const std::exception& error) {
    err << "asg-client: replay: family trees: " << error.what() << "\n";
    return code == kExitCompleted ? kExitSomeFailed : code;
  }
  return code;
}

}  // namespace asg::client
