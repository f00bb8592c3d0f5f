// One run of the farm as its stages build it up (farm.cpp: prepare, listen, launch, loop;
// farm_reproduce.cpp: the reproduction runs, planned once the batch's scenarios are done;
// farm_finish.cpp: finish). Internal to client/farm.
#pragma once

#include <boost/asio/signal_set.hpp>
#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "client/batch/batch.h"
#include "client/failures/batch_failures.h"
#include "client/farm/farm.h"
#include "client/farm/farm_events.h"
#include "client/farm/farm_links.h"
#include "client/farm/farm_loop.h"
#include "client/farm/farm_records.h"
#include "client/farm/progress.h"
#include "client/farm/result_writer.h"
#include "client/farm/scenario_feed.h"
#include "client/launch/launcher.h"
#include "client/nodes/node_control.h"
#include "client/nodes/node_files.h"
#include "core/log.h"
#include "protocol/io_threads.h"
#include "report/report.h"

namespace asg::client {

/// Everything one farm run holds. The stages make the members in declaration order, so they go
/// in reverse: the io thread outlives every object that holds a connection (the node control,
/// the feed's generator, the links, the loop's channels), and the feed outlives the links that
/// hand it its generator.
struct FarmRun {
  FarmRun(const Batch& batch, const FarmSettings& settings, std::ostream& out)
      : batch(batch), settings(settings), out(out), started(SteadyClock::now()) {}

  const Batch& batch;
  const FarmSettings& settings;
  std::ostream& out;  ///< progress, messages and the outcome table
  SteadyClock::time_point started;
  /// Scenarios the run may record: the batch's, and the search's budget of runs.
  size_t total = 0;

  // Prepare.
  std::optional<core::Logger> logger;  ///< out_dir/asg_log.txt
  EventQueue events;
  std::optional<protocol::IoThreads> io;
  std::optional<NodeFileStore> node_files;
  std::optional<NodeControl> nodes;
  std::optional<ResultWriter> writer;
  std::optional<Progress> progress;
  std::unique_ptr<ScenarioFeed> feed;  ///< null without one
  std::optional<FarmRecords> records;  ///< the book of every scenario
  // Listen.
  std::optional<WorkerLinks> links;
  std::optional<boost::asio::signal_set> signals;
  std::string address;  ///< "HOST:PORT" launched workers connect to
  // Launch.
  LauncherKind launched = LauncherKind::kNone;  ///< the kind actually launched
  std::unique_ptr<Launcher> launcher;
  std::optional<FarmLoop> loop;
  /// What the report written during the run read of each folder, for the final report.
  report::ReportCache report_cache;
  // Reproduce.
  bool reproduction_planned = false;  ///< PlanReproduction ran (it runs once)
  /// The batch's distinct failures as PlanReproduction found them, before their reproduction
  /// runs were judged: the finish stage judges those and writes the files; empty when not found.
  std::optional<BatchFailures> batch_failures;
};

/// The reproduction stage (client/failures/reproduction.h), once the batch's own scenarios are
/// all recorded (before the launch when none is left to run, else when the loop drains): finds
/// the batch's distinct failures from its folders and admits failures.reproduce runs of each
/// representative into the records. Runs once; does nothing when failures.reproduce is 0 or the
/// run was stopped early (a signal, a breakdown, a search that stopped). A failure to plan is
/// logged and printed: the batch's results stand.
void PlanReproduction(FarmRun& run);

/// The finish stage: tears the run down (the links, a feed's generator, the workers), writes
/// failures.csv, failures.json and the failure_ids, then summary.json, summary.csv,
/// results.junit.xml and the HTML report, prints the outcome table and returns the exit code
/// (farm.h).
int Finish(FarmRun& run);

}  // namespace asg::client
