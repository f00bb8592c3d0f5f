// The farm's records: every scenario enters the scenario book here, and every outcome leaves
// through here.
//
// A scenario the batch lists or generates, or one a feed plans, is admitted: with --resume, a
// complete folder of an earlier run, every file of it read back strictly, keeps its outcome (with
// --retry failed, unless it failed) and the scenario is not run; a folder that is not whole is
// named in the log and on the terminal and its scenario runs again; else an invalid scenario is
// recorded invalid at once; else it is queued to run. A run's end is recorded done, or
// unrunnable (failed, invalid). Each record takes its attempts (timing.json) and reruns
// (result.json) from the scenario's one state, goes to the result writer, and is told once to
// the feed; a rerun writes the folder again. The progress line counts a scenario once its folder
// is on disk (TakeWritten), and the batch's outcomes are those on disk.
//
// Reproduction runs (the farm's own runs after the batch's, client/failures/reproduction.h) go
// through here too, each to its own folder: kept from an earlier run's complete folder with
// --resume, written there, neither counted by the progress line nor told to the feed, and left
// out of the batch's outcomes (BatchOutcomes).
//
// Not thread-safe: the farm's thread owns it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "client/batch/batch.h"
#include "client/farm/farm.h"
#include "client/farm/progress.h"
#include "client/farm/result_writer.h"
#include "client/farm/scenario_book.h"
#include "client/farm/scenario_feed.h"
#include "core/log.h"

namespace asg::client {

/// What the records work with; owned by the caller, outliving the records.
struct RecordsContext {
  const FarmSettings* settings = nullptr;  ///< out_dir, resume and retry_failed
  core::Logger* logger = nullptr;
  Progress* progress = nullptr;
  ResultWriter* writer = nullptr;
  ScenarioFeed* feed = nullptr;  ///< told every result recorded; nullptr: none
};

/// The scheduling limits of a batch: its max_attempts and scenario_timeout_s, and the farm's
/// start timeout.
SchedulerSettings SchedulerSettingsFor(const Batch& batch, const FarmSettings& settings);

/// The outcomes of the batch's own scenarios (reproduction runs left out), for the summary.
struct BatchOutcomes {
  std::vector<results::ScenarioOutcome> outcomes;  ///< ascending scenario number
  size_t kept = 0;                                 ///< of them, kept from an earlier run (--resume)
  size_t kept_done = 0;                            ///< of those, the ones done
};

/// The book of one farm run and the way into it and out of it (see above).
class FarmRecords {
 public:
  /// An empty book scheduled with `scheduling`; throws std::invalid_argument for bad settings.
  FarmRecords(const SchedulerSettings& scheduling, const RecordsContext& context);

  /// Admits a scenario of the batch (not copied: the batch outlives the records).
  void Admit(const PlannedScenario* planned);
  /// Admits a scenario a feed planned; the book keeps it.
  void Admit(PlannedScenario planned);
  /// Admits a reproduction run (see above) whose folder is `folder`; the book keeps it.
  void AdmitReproduction(PlannedScenario planned, std::filesystem::path folder);

  /// Records the done result of the attempt `end` (accepted, and not an invalid run to repeat).
  void RecordDone(const AttemptEnd& end, protocol::AnalyzeScenarioRequest analysis,
                  std::vector<protocol::CaptureImage> captures);
  /// Records a scenario that will not run (again) as `status` (failed or invalid) with `error`.
  void RecordUnrunnable(uint32_t scenario_number, results::ScenarioStatus status,
                        const std::string& error);

  /// The book: every scenario's plan, state and scheduling.
  ScenarioBook& book() { return book_; }
  const ScenarioBook& book() const { return book_; }

  /// Whether scenario `scenario_number` is a reproduction run.
  bool IsReproduction(uint32_t scenario_number) const {
    return reproduction_folders_.contains(scenario_number);
  }
  /// The reproduction runs admitted, and those of them recorded so far.
  size_t reproduction_runs() const { return reproduction_folders_.size(); }
  size_t reproduction_recorded() const { return reproduction_recorded_; }
  /// Every outcome on disk but the reproduction runs' (kept, or written as TakeWritten last
  /// told), with the kept counts among them.
  BatchOutcomes OutcomesOfBatch() const;

  /// Takes what the writer has written since the last call: the progress line counts each
  /// scenario of the batch the first time its folder is on disk.
  void TakeWritten();
  /// The writer's first failure (ResultWriter::error), empty while every write succeeded.
  std::string WriteError() const { return context_.writer->error(); }

 private:
  // Keeps, records invalid or queues a scenario just added to the book.
  void Settle(uint32_t scenario_number);
  // Says that the folder of a scenario to keep is not whole (`problem`) and runs again.
  void NameFolderRunAgain(const std::string& problem);
  void Submit(results::ScenarioRecord record);

  // Keeps a reproduction run from an earlier run, or queues it.
  void SettleReproduction(uint32_t scenario_number);
  // The progress line's status while reproduction runs are recorded.
  void ShowReproduction();

  RecordsContext context_;
  ScenarioBook book_;
  std::map<uint32_t, std::filesystem::path> reproduction_folders_;  // by scenario number
  size_t reproduction_recorded_ = 0;
  // The outcomes written this run, by scenario number (reproduction runs left out).
  std::map<uint32_t, results::ScenarioOutcome> written_;
  size_t folders_run_again_ = 0;  // kept folders found not whole (NameFolderRunAgain)
};

}  // namespace asg::client
