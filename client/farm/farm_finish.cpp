// RunFarm's finish stage: tear down, the distinct failures (with their reproduction runs
// judged), the summary, JUnit and the HTML report with its failures page, the terminal's outcome
// table, and the exit code.
#include <sys/resource.h>

#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <ostream>

#include "client/failures/batch_failures.h"
#include "client/failures/reproduction.h"
#include "client/farm/batch_report.h"
#include "client/farm/farm_run.h"
#include "report/junit_report.h"
#include "report/report.h"
#include "report/summary.h"
#include "results/folder.h"

namespace asg::client {

namespace {

/// [s] user + system CPU time of this process (RUSAGE_SELF) or its reaped children.
double CpuSeconds(int who) {
  rusage usage{};
  ::getrusage(who, &usage);
  const auto seconds = [](const timeval& time) { return time.tv_sec + time.tv_usec * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// Stops taking workers, ends the feed (its generator told), closes every worker connection
/// and gives the processes time to exit; waits for the writer. Returns whether a signal stopped
/// the run (the loop, or a feed waiting for its generator).
bool TearDown(FarmRun& run) {
  run.links->Stop();
  FarmLoop& loop = *run.loop;
  const bool interrupted = loop.interrupted() || (run.feed && run.feed->interrupted());
  if (run.feed) run.feed->End(interrupted);
  loop.CloseAll(loop.interrupted() ? "batch interrupted" : "batch finished");
  if (const size_t killed = run.launcher->Stop(run.settings.shutdown_grace); killed > 0) {
    run.logger->Warning("stopped " + std::to_string(killed) + " workers that did not exit in time");
  }
  run.writer->Drain();
  run.records->TakeWritten();
  if (!run.writer->error().empty()) {
    // A folder that failed half-way through its rename leaves its old copy aside.
    try {
      results::RemoveStagingFolders(run.settings.out_dir);
    } catch (const std::exception& error) {
      run.logger->Error(error.what());
    }
  }
  run.progress->Finish(SteadyClock::now());
  return interrupted;
}

/// Runs `write`; when it throws, says in the log and on the terminal that `what` could not be
/// written and why, and returns the reason (else "").
std::string TryWrite(FarmRun& run, const std::string& what, const std::function<void()>& write) {
  try {
    write();
    return {};
  } catch (const std::exception& error) {
    run.logger->Error(what + " could not be written: " + error.what());
    run.out << "error: " << what << " could not be written: " << error.what() << "\n";
    return error.what();
  }
}

/// What drove each valid scenario, for the summary: "nodes" when vehicle nodes did, else the
/// built-in driver's type.
std::map<uint32_t, std::string> Drivers(const ScenarioBook& book) {
  std::map<uint32_t, std::string> drivers;
  for (const auto& [number, planned] : book.plans()) {
    if (planned->status != PlanStatus::kValid) continue;
    drivers[number] = planned->request.vehicle_nodes.count > 0
                          ? "nodes"
                          : std::string(protocol::DriverTypeName(planned->request.driver.type));
  }
  return drivers;
}

/// The distinct failures of every folder of the batch (kept ones too), as the reproduction
/// stage found them or else found now, with their reproduction runs judged: failures.csv,
/// failures.json and the failing scenarios' failure_id. A failure to find them is only reported
/// (nullopt): the results stand.
std::optional<BatchFailures> WriteFailures(FarmRun& run) {
  const BatchFailureSettings& settings = run.batch.settings.failures;
  try {
    FailureReader reader(run.settings.catalog);
    BatchFailures found = run.batch_failures ? std::move(*run.batch_failures)
                                             : FindBatchFailures(run.settings.out_dir, reader,
                                                                 settings.regret_threshold);
    WriteBatchFailures(run.settings.out_dir, reader, settings.reproduce, &found);
    run.logger->Info("failures: " + std::to_string(found.failing_scenarios) +
                     " failing scenarios, " + std::to_string(found.clusters.size()) +
                     " distinct, " + std::to_string(ReliableFailures(found)) +
                     " reliable (failures.csv), " + std::to_string(found.contact_scenarios.size()) +
                     " near misses");
    return found;
  } catch (const std::exception& error) {
    run.logger->Error(std::string("the failures could not be written: ") + error.what());
    run.out << "warning: the failures could not be written: " << error.what() << "\n";
    return std::nullopt;
  }
}

/// Writes summary.json (with the counts of `failures`, when found), summary.csv,
/// results.junit.xml and the HTML report with the failures page of `failures`, when found (a
/// failure to write the report is only reported: the results stand); logs the resource usage.
/// Each is written even when one before it could not be; `*unwritten` gets the first reason
/// the summary or the JUnit report could not be written.
report::BatchSummary WriteSummaries(FarmRun& run, const std::optional<BatchFailures>& failures,
                                    std::string* unwritten) {
  const ScenarioBook& book = run.records->book();
  const BatchOutcomes batch = run.records->OutcomesOfBatch();
  const std::vector<results::ScenarioOutcome>& outcomes = batch.outcomes;
  const double wall_time_s =
      std::chrono::duration<double>(SteadyClock::now() - run.started).count();
  report::BatchSummary summary =
      report::Summarize(run.batch.settings.name, run.batch.settings.seed, outcomes, wall_time_s,
                        batch.kept, batch.kept_done);
  // A resumed batch keeps its own wall time and throughput; this run's are shown beside them.
  if (run.settings.resume)
    report::AddEarlierRuns(&summary, report::EarlierWallTime(run.settings.out_dir));
  if (failures) {
    summary.failing_scenarios = failures->failing_scenarios;
    summary.distinct_failures = failures->clusters.size();
    if (failures->reproduce > 0) {
      summary.reproduction =
          report::ReproductionCounts{failures->reproduce, ReliableMinimum(failures->reproduce),
                                     ReliableFailures(*failures), ReproductionRuns(*failures)};
    }
    summary.contacts = failures->contact_scenarios.size();
  }
  const std::filesystem::path& out_dir = run.settings.out_dir;
  *unwritten = TryWrite(run, "the summary (summary.json, summary.csv)",
                        [&] { report::WriteSummary(out_dir, summary, outcomes, Drivers(book)); });
  const std::string junit = TryWrite(run, "the JUnit report (results.junit.xml)",
                                     [&] { report::WriteJunitReport(out_dir, summary, outcomes); });
  if (unwritten->empty()) *unwritten = junit;
  try {
    report::WriteBatchReport(out_dir, &run.report_cache);
    if (failures) WriteFailuresPage(out_dir, *failures);
  } catch (const std::exception& error) {
    run.logger->Error(std::string("the HTML report could not be written: ") + error.what());
    run.out << "warning: the HTML report could not be written: " << error.what() << "\n";
  }
  run.logger->Info("summary written: " + std::to_string(outcomes.size()) + " of " +
                   std::to_string(run.total) + " scenarios recorded");
  char usage[160];
  std::snprintf(usage, sizeof usage,
                "resource usage: wall %.3f s, client cpu %.3f s, local workers cpu %.3f s",
                wall_time_s, CpuSeconds(RUSAGE_SELF), CpuSeconds(RUSAGE_CHILDREN));
  run.logger->Info(usage);
  return summary;
}

/// The exit code (farm.h), with the terminal's line that explains one other than 0;
/// `unwritten`: why the summary or the JUnit report could not be written, else empty.
int ExitCode(FarmRun& run, const report::BatchSummary& summary, bool interrupted,
             const std::string& unwritten) {
  std::ostream& out = run.out;
  if (const std::string error = run.writer->error(); !error.empty() || !unwritten.empty()) {
    const std::string first = error.empty() ? unwritten : error;
    const std::string line = "output could not be written: " + first + "; " +
                             std::to_string(summary.total) + " of " + std::to_string(run.total) +
                             " scenarios are on disk, whole; make room and run again with --resume";
    run.logger->Error(line);
    out << "error: " << line << "\n";
    return kExitOutputFailed;
  }
  if (const std::string& breakdown = run.loop->breakdown(); !breakdown.empty()) {
    run.logger->Error(breakdown);
    out << "error: " << breakdown << "\n";
    return kExitSomeFailed;
  }
  if (run.feed && !run.feed->error().empty() && !interrupted) {
    out << "error: search stopped: " << run.feed->error() << "\n";
    return kExitSomeFailed;
  }
  if (interrupted) {
    const size_t missing = run.total - summary.total;
    const FarmRecords& records = *run.records;
    const size_t reproduction = records.reproduction_runs() - records.reproduction_recorded();
    out << "interrupted: " << missing << " scenarios"
        << (reproduction > 0 ? " and " + std::to_string(reproduction) + " reproduction runs"
                             : std::string())
        << " not run; run again with --resume\n";
    return kExitInterrupted;
  }
  // A search records its infeasible candidates as invalid: that is its way of working.
  const size_t invalid_count = summary.status_counts.at("invalid");
  const bool invalid = invalid_count > 0 && !run.settings.allow_invalid && !run.batch.search;
  if (invalid) {
    out << "error: " << invalid_count
        << " scenarios were found invalid by the workers (see their result.json error); "
           "--allow-invalid accepts them\n";
  }
  return summary.status_counts.at("failed") > 0 || invalid ? kExitSomeFailed : kExitCompleted;
}

}  // namespace

int Finish(FarmRun& run) {
  const bool interrupted = TearDown(run);
  std::string unwritten;
  const report::BatchSummary summary = WriteSummaries(run, WriteFailures(run), &unwritten);
  run.out << report::FormatOutcomeTable(summary);
  if (run.feed) run.out << run.feed->Summary();
  run.out << "results: " << run.settings.out_dir.string()
          << " (index.html, failures.html, summary.json, summary.csv, failures.csv, "
             "results.junit.xml, asg_log.txt)\n";
  return ExitCode(run, summary, interrupted, unwritten);
}

}  // namespace asg::client
