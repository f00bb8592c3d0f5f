// The farm's records: every scenario enters the scenario book here, and every outcome leaves
// through here.
//
// A scenario the batch lists or generates, or one a feed plans, is admitted: with --resume, a
// complete folder of an earlier run keeps its outcome (with --retry failed, unless it failed) and
// the scenario is not run; else an invalid scenario is recorded invalid at once; else it is
// queued to run. A run's end is recorded done, or unrunnable (failed, invalid). Each record takes
// its attempts (timing.json) and reruns (result.json) from the scenario's one state, goes to the
// result writer, and is counted once by the progress line and told once to the feed; a rerun
// writes the folder again.
//
// Not thread-safe: the farm's thread owns it.
#pragma once

#include <cstdint>
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

/// The book of one farm run and the way into it and out of it (see above).
class FarmRecords {
 public:
  /// An empty book scheduled with `scheduling`; throws std::invalid_argument for bad settings.
  FarmRecords(const SchedulerSettings& scheduling, const RecordsContext& context);

  /// Admits a scenario of the batch (not copied: the batch outlives the records).
  void Admit(const PlannedScenario* planned);
  /// Admits a scenario a feed planned; the book keeps it.
  void Admit(PlannedScenario planned);

  /// Records the done result of the attempt `end` (accepted, and not an invalid run to repeat).
  void RecordDone(const AttemptEnd& end, protocol::AnalyzeScenarioRequest analysis,
                  std::vector<protocol::CaptureImage> captures);
  /// Records a scenario that will not run (again) as `status` (failed or invalid) with `error`.
  void RecordUnrunnable(uint32_t scenario_number, results::ScenarioStatus status,
                        const std::string& error);

  /// The book: every scenario's plan, state and scheduling.
  ScenarioBook& book() { return book_; }
  const ScenarioBook& book() const { return book_; }

 private:
  // Keeps, records invalid or queues a scenario just added to the book.
  void Settle(uint32_t scenario_number);
  void Submit(results::ScenarioRecord record);

  RecordsContext context_;
  ScenarioBook book_;
};

}  // namespace asg::client
