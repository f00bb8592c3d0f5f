// RunFarm: the set-up around the farm loop (output folder, log, resume, listening, signals,
// local workers) and the tear-down (stop the workers, write the summary, print the table).
#include "client/farm/farm.h"

#include <sys/resource.h>

#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>

#include "client/farm/farm_links.h"
#include "client/farm/farm_loop.h"
#include "client/farm/output_folder.h"
#include "client/search/external_strategy.h"
#include "client/search/search_run.h"
#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "report/junit_report.h"
#include "report/report.h"
#include "report/summary.h"

namespace asg::client {

namespace {

/// How often a running batch's HTML report is refreshed at most (report.h).
constexpr std::chrono::milliseconds kReportPeriod{5000};

/// Re-arms itself so that a second signal is also seen (and ignored) while shutting down. A
/// search waiting for its scenario generator stops waiting.
void WaitForSignal(boost::asio::signal_set* signals, EventQueue* events, GeneratorLink* generator) {
  signals->async_wait(
      [signals, events, generator](const boost::system::error_code& error, int number) {
        if (error) return;
        events->Push(FarmEvent{0, farm_event::Signal{number}});
        if (generator != nullptr) {
          generator->Cancel("interrupted by signal " + std::to_string(number));
        }
        WaitForSignal(signals, events, generator);
      });
}

/// What an external search's generator is told when it registers.
json::Json GeneratorSearchInfo(const SearchSpec& spec) {
  const ExternalSettings settings = ParseExternalSettings(spec.strategy_settings);
  return {{"seed", spec.seed},
          {"budget_scenarios", spec.budget_scenarios},
          {"generation_size", spec.generation_size},
          {"runs_per_scenario", spec.runs_per_scenario},
          {"space", spec.space_json},
          {"settings", settings.generator}};
}

/// [s] user + system CPU time of this process (RUSAGE_SELF) or its reaped children.
double CpuSeconds(int who) {
  rusage usage{};
  ::getrusage(who, &usage);
  const auto seconds = [](const timeval& time) { return time.tv_sec + time.tv_usec * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// The address launched workers connect to. Listening on every interface: loopback for local
/// workers, the host's first non-loopback address for those on other hosts.
std::string ConnectHost(const std::string& listen_host, const std::string& launcher) {
  if (listen_host != "0.0.0.0" && listen_host != "::") {
    return listen_host.find(':') != std::string::npos ? "[" + listen_host + "]" : listen_host;
  }
  if (launcher != "local") {
    if (const std::string host = protocol::FirstNonLoopbackAddress(); !host.empty()) return host;
  }
  return listen_host == "::" ? "[::1]" : "127.0.0.1";
}

results::ScenarioRecord InvalidRecord(const PlannedScenario& planned) {
  results::ScenarioRecord record;
  record.request = planned.request_json;
  record.result = results::UnrunnableResult(
      planned.scenario_number, results::ScenarioStatus::kInvalid, planned.error, planned.seed);
  record.result.variant = planned.variant;
  record.result.layout = planned.layout;
  return record;
}

/// Done scenarios among `all` that are not among `ran` (kept from an earlier run).
size_t KeptDone(const std::vector<results::ScenarioOutcome>& all,
                const std::map<uint32_t, results::ScenarioOutcome>& ran) {
  size_t kept = 0;
  for (const results::ScenarioOutcome& outcome : all) {
    if (outcome.result.status == results::ScenarioStatus::kDone &&
        !ran.contains(outcome.result.scenario_number)) {
      ++kept;
    }
  }
  return kept;
}

}  // namespace

int RunFarm(const Batch& loaded, const FarmSettings& settings, std::ostream& out) {
  const auto started = SteadyClock::now();
  // A search appends its scenarios to the batch as it runs.
  Batch batch = loaded;
  const size_t total =
      batch.scenarios.size() +
      (batch.search ? size_t{batch.search->budget_scenarios} * batch.search->runs_per_scenario : 0);
  PrepareOutputFolder(batch, settings.out_dir,
                      {settings.resume, settings.force, settings.output_checked});
  core::Logger logger(settings.out_dir / "asg_log.txt", false);
  logger.Info("batch \"" + batch.settings.name + "\" from " + batch.origin + ": " +
              std::to_string(batch.scenarios.size()) + " scenarios (" +
              std::to_string(batch.CountInvalid()) + " invalid)" +
              (batch.search ? " and a " + batch.search->strategy + " search of " +
                                  std::to_string(batch.search->budget_scenarios)
                            : std::string()) +
              ", results in " + settings.out_dir.string());
  if (const size_t removed = results::RemoveStagingFolders(settings.out_dir); removed > 0) {
    logger.Info("removed " + std::to_string(removed) + " partial folders of an earlier run");
  }

  // The io thread outlives every object holding a connection (the node control, the links):
  // a connection must be destroyed while its io_context exists.
  EventQueue events;
  protocol::IoThreads io(1);

  // Vehicle nodes' files: staged ones of complete scenarios moved in, the rest dropped (their
  // scenarios run again and the nodes upload anew), see node_files.h.
  NodeFileStore node_files(settings.out_dir, batch.variants);
  if (const size_t moved = node_files.Recover(); moved > 0) {
    logger.Info("moved staged node files into " + std::to_string(moved) + " scenario folders");
  }
  NodeControl nodes(NodeSettingsFor(batch, settings), &node_files, &logger);
  ResultWriter writer(settings.out_dir, &node_files);
  ProgressSettings progress_settings;
  progress_settings.enabled = !settings.quiet;
  progress_settings.live = settings.live_progress;
  progress_settings.show_regret = batch.search.has_value();
  Progress progress(total, progress_settings, out);

  // Scenarios kept from an earlier run, invalid ones recorded at once, the rest to run.
  std::map<uint32_t, results::ScenarioOutcome> recorded;
  std::vector<uint32_t> to_run;
  size_t resumed = 0;
  for (const PlannedScenario& planned : batch.scenarios) {
    const uint32_t number = planned.scenario_number;
    std::optional<results::ScenarioOutcome> kept;
    if (settings.resume) {
      kept = KeptOutcome(settings.out_dir, number, settings.retry_failed, planned.variant);
    }
    if (kept) {
      recorded[number] = std::move(*kept);
      progress.CountPrevious(recorded[number].result);
      ++resumed;
    } else if (planned.status == PlanStatus::kInvalid) {
      results::ScenarioRecord record = InvalidRecord(planned);
      recorded[number] = results::ScenarioOutcome{record.result, record.timing};
      progress.Count(record.result);
      logger.Warning("scenario " + std::to_string(number) + " invalid: " + planned.error);
      writer.Submit(std::move(record));
    } else {
      to_run.push_back(number);
    }
  }
  // Listening starts before the search: an external search's generator registers first.
  std::optional<GeneratorLink> generator;
  if (batch.search && batch.search->strategy == kExternalStrategy) {
    generator.emplace(GeneratorSearchInfo(*batch.search), settings.token);
  }
  LinkSettings link_settings{settings.listen_host, settings.listen_port, settings.token,
                             settings.connection};
  WorkerLinks links(io.context().get_executor(), link_settings, &events, &logger,
                    generator ? &*generator : nullptr);
  boost::asio::signal_set signals(io.context(), SIGINT, SIGTERM);
  WaitForSignal(&signals, &events, generator ? &*generator : nullptr);
  const std::string address =
      ConnectHost(settings.listen_host, settings.launcher) + ":" + std::to_string(links.port());
  logger.Info("listening on " + settings.listen_host + ":" + std::to_string(links.port()) +
              (settings.token.empty() ? "" : ", token required"));
  if (const uint32_t count = batch.settings.vehicle_nodes.spec.count; count > 0) {
    const std::string where = "vehicle nodes: " + std::to_string(count) +
                              " per worker, registering on " + settings.listen_host + ":" +
                              std::to_string(links.port());
    logger.Info(where);
    out << where << " (docs/vehicle-nodes.md)\n" << std::flush;
  }

  // The search's first generations (kept folders and invalid candidates recorded at once).
  std::optional<SearchRun> search;
  if (batch.search) {
    if (generator) {
      out << "waiting for a scenario generator on " << settings.listen_host << ":" << links.port()
          << " (docs/generator-protocol.md)\n"
          << std::flush;
    }
    search.emplace(SearchRunContext{&batch, settings.out_dir, settings.resume, &logger, &progress,
                                    &writer, generator ? &*generator : nullptr,
                                    settings.retry_failed});
    const std::vector<uint32_t> first = search->Start();
    to_run.insert(to_run.end(), first.begin(), first.end());
    resumed += search->resumed();
  }
  if (settings.resume) {
    logger.Info("resume: " + std::to_string(resumed) + " scenarios already complete, " +
                std::to_string(to_run.size()) + " to run");
  }

  // Where the workers come from; nothing is launched when nothing is left to run.
  LauncherSettings launch;
  launch.kind = settings.workers == 0 || to_run.empty() ? "none" : settings.launcher;
  launch.workers = settings.workers;
  launch.worker_executable = settings.worker_executable;
  launch.connect = address;
  launch.token = settings.token;
  launch.worker_arguments = settings.worker_arguments;
  launch.first_launch_arguments = settings.first_launch_arguments;
  launch.log_folder = settings.out_dir / "logs";
  launch.partition = settings.slurm_partition;
  launch.time_limit = settings.slurm_time;
  launch.cpus_per_worker = settings.cpus_per_worker;
  launch.sbatch_arguments = settings.sbatch_arguments;
  const std::unique_ptr<Launcher> launcher = MakeLauncher(launch, &logger);
  FarmLoopContext context{&batch,  &settings,      &logger,
                          &events, launcher.get(), &progress,
                          &writer, &nodes,         search ? &*search : nullptr};
  FarmLoop loop(context, to_run);
  if (!to_run.empty()) {
    if (launch.kind == "none") {
      out << "waiting for workers on " << settings.listen_host << ":" << links.port() << "\n"
          << std::flush;
    }
    // DIR/index.html follows the run (report.h); the final one is written below.
    const report::ReportRefresher refresher(
        settings.out_dir, kReportPeriod,
        [&logger](const std::string& e) { logger.Warning("report: " + e); });
    loop.Run();
  }

  // Tear-down: no new workers, close every connection, give the processes time to exit.
  links.Stop();
  const bool interrupted = loop.interrupted() || (generator.has_value() && generator->cancelled() &&
                                                  search && !search->error().empty());
  if (generator) {
    generator->End(interrupted               ? "search interrupted"
                   : search->error().empty() ? "search finished"
                                             : "search stopped: " + search->error());
  }
  loop.CloseAll(loop.interrupted() ? "batch interrupted" : "batch finished");
  if (const size_t killed = launcher->Stop(settings.shutdown_grace); killed > 0) {
    logger.Warning("stopped " + std::to_string(killed) + " workers that did not exit in time");
  }
  writer.Drain();
  progress.Finish(SteadyClock::now());

  if (search) {
    for (const auto& [number, outcome] : search->kept()) recorded[number] = outcome;
  }
  for (const auto& [number, outcome] : loop.outcomes()) recorded[number] = outcome;
  std::vector<results::ScenarioOutcome> outcomes;
  for (auto& [number, outcome] : recorded) outcomes.push_back(outcome);
  const double wall_time_s = std::chrono::duration<double>(SteadyClock::now() - started).count();
  const report::BatchSummary summary =
      report::Summarize(batch.settings.name, batch.settings.seed, outcomes, wall_time_s, resumed,
                        KeptDone(outcomes, loop.outcomes()));
  std::map<uint32_t, std::string> drivers;
  for (const PlannedScenario& planned : batch.scenarios) {
    if (planned.status != PlanStatus::kValid) continue;
    drivers[planned.scenario_number] =
        planned.request.vehicle_nodes.count > 0
            ? "nodes"
            : json::Json(planned.request.driver)["type"].get<std::string>();
  }
  report::WriteSummary(settings.out_dir, summary, outcomes, drivers);
  report::WriteJunitReport(settings.out_dir, summary, outcomes);
  // The results stand whatever becomes of the report: a failure to write it is only reported.
  try {
    report::WriteBatchReport(settings.out_dir);
  } catch (const std::exception& error) {
    logger.Error(std::string("the HTML report could not be written: ") + error.what());
    out << "warning: the HTML report could not be written: " << error.what() << "\n";
  }
  logger.Info("summary written: " + std::to_string(outcomes.size()) + " of " +
              std::to_string(total) + " scenarios recorded");
  char usage[160];
  std::snprintf(usage, sizeof usage,
                "resource usage: wall %.3f s, client cpu %.3f s, local workers cpu %.3f s",
                wall_time_s, CpuSeconds(RUSAGE_SELF), CpuSeconds(RUSAGE_CHILDREN));
  logger.Info(usage);

  out << report::FormatOutcomeTable(summary);
  if (search && !search->log().rows().empty()) {
    const SearchGenerationRow& last = search->log().rows().back();
    out << "search: " << batch.search->strategy << ", " << search->proposed()
        << " candidates proposed, " << search->log().rows().size()
        << " generations told, best regret " << last.best_regret << " (scenario "
        << last.best_scenario << "), at or above";
    for (size_t i = 0; i < std::size(kRegretThresholds); ++i) {
      out << " " << kRegretThresholds[i] << ": " << last.at_or_above[i];
    }
    out << " (search.csv, search.json)\n";
  }
  out << "results: " << settings.out_dir.string()
      << " (index.html, summary.json, summary.csv, results.junit.xml, asg_log.txt)\n";
  if (!writer.error().empty()) {
    logger.Error("writing results failed: " + writer.error());
    out << "error: writing results failed: " << writer.error() << "\n";
    return kExitSomeFailed;
  }
  if (!loop.breakdown().empty()) {
    logger.Error(loop.breakdown());
    out << "error: " << loop.breakdown() << "\n";
    return kExitSomeFailed;
  }
  if (search && !search->error().empty() && !interrupted) {
    out << "error: search stopped: " << search->error() << "\n";
    return kExitSomeFailed;
  }
  if (interrupted) {
    const size_t missing = total - outcomes.size();
    out << "interrupted: " << missing << " scenarios not run; run again with --resume\n";
    return kExitInterrupted;
  }
  // A search records its infeasible candidates as invalid: that is its way of working.
  const bool invalid =
      summary.status_counts.at("invalid") > 0 && !settings.allow_invalid && !batch.search;
  if (invalid) {
    out << "error: " << summary.status_counts.at("invalid")
        << " scenarios were found invalid by the workers (see their result.json error); "
           "--allow-invalid accepts them\n";
  }
  return summary.status_counts.at("failed") > 0 || invalid ? kExitSomeFailed : kExitCompleted;
}

}  // namespace asg::client
