// RunFarm, stage by stage: prepare (output folder, log, the book of scenarios), listen (the port,
// signals), launch (the feed's first scenarios, the workers) and loop; the reproduction runs are
// in farm_reproduce.cpp, finish in farm_finish.cpp.
#include "client/farm/farm.h"

#include <csignal>
#include <memory>
#include <ostream>
#include <utility>

#include "client/farm/farm_run.h"
#include "client/farm/output_folder.h"
#include "protocol/endpoint.h"
#include "recording/export.h"
#include "report/report.h"

namespace asg::client {

namespace {

/// How often a running batch's HTML report is refreshed at most (report.h).
constexpr std::chrono::milliseconds kReportPeriod{5000};

/// Re-arms itself so that a second signal is also seen (and ignored) while shutting down. A
/// feed waiting for its scenario generator stops waiting.
void WaitForSignal(boost::asio::signal_set* signals, EventQueue* events, GeneratorPort* generator) {
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

/// The address launched workers connect to. Listening on every interface: loopback for local
/// workers, the host's first non-loopback address for those on other hosts.
std::string ConnectHost(const std::string& listen_host, LauncherKind launcher) {
  if (listen_host != "0.0.0.0" && listen_host != "::") {
    return listen_host.find(':') != std::string::npos ? "[" + listen_host + "]" : listen_host;
  }
  if (launcher != LauncherKind::kLocal) {
    if (const std::string host = protocol::FirstNonLoopbackAddress(); !host.empty()) return host;
  }
  return listen_host == "::" ? "[::1]" : "127.0.0.1";
}

/// With the batch's record.mcap, the result writer's hook that records every run into its folder
/// (run.mcap), obstacles drawn with the workers' catalog (default shapes when it cannot be read);
/// else none.
StageHook RecordingHook(const Batch& batch, const FarmSettings& settings) {
  if (!batch.settings.record.mcap) return {};
  // Shared by the copies of the hook the writer's threads hold.
  std::shared_ptr<const catalog::ActorCatalog> actors;
  try {
    actors = std::make_shared<catalog::ActorCatalog>(
        catalog::ActorCatalog::FromFile(settings.catalog.string()));
  } catch (const catalog::CatalogError&) {
    actors = nullptr;
  }
  return [actors](const results::ScenarioRecord& record, const std::filesystem::path& staged) {
    recording::WriteRunRecording(record, staged, actors.get());
  };
}

/// "batch "demo" from demo.json: 10 scenarios (1 invalid) and a ga search of 40, results in DIR"
std::string BatchLine(const Batch& batch, const FarmSettings& settings) {
  return "batch \"" + batch.settings.name + "\" from " + batch.origin + ": " +
         std::to_string(batch.scenarios.size()) + " scenarios (" +
         std::to_string(batch.CountInvalid()) + " invalid)" +
         (batch.search ? " and a " + batch.search->strategy + " search of " +
                             std::to_string(batch.search->budget_scenarios)
                       : std::string()) +
         ", results in " + settings.out_dir.string();
}

/// Where the workers come from; nothing is launched when nothing is left to run.
LauncherSettings LaunchSettings(const FarmRun& run) {
  const FarmSettings& settings = run.settings;
  const bool idle = settings.workers == 0 || run.records->book().scheduler().queued() == 0;
  LauncherSettings launch;
  launch.kind = idle ? LauncherKind::kNone : settings.launcher;
  launch.workers = settings.workers;
  launch.worker_executable = settings.worker_executable;
  launch.connect = run.address;
  launch.token = settings.token;
  launch.worker_arguments = settings.worker_arguments;
  launch.first_launch_arguments = settings.first_launch_arguments;
  launch.log_folder = settings.out_dir / "logs";
  launch.partition = settings.slurm_partition;
  launch.time_limit = settings.slurm_time;
  launch.cpus_per_worker = settings.cpus_per_worker;
  launch.sbatch_arguments = settings.sbatch_arguments;
  return launch;
}

/// Prepare: the output folder, the log, the vehicle nodes' files and control plane, the writer,
/// the progress line, the feed, and the book with every scenario of the batch (kept from an
/// earlier run, recorded invalid, or queued).
void Prepare(FarmRun& run, const FeedMaker& make_feed) {
  const Batch& batch = run.batch;
  const FarmSettings& settings = run.settings;
  run.total =
      batch.scenarios.size() +
      (batch.search ? size_t{batch.search->budget_scenarios} * batch.search->runs_per_scenario : 0);
  PrepareOutputFolder(batch, settings.out_dir,
                      {settings.resume, settings.force, settings.output_checked});
  core::Logger& logger = run.logger.emplace(settings.out_dir / "asg_log.txt", false);
  logger.Info(BatchLine(batch, settings));
  if (const size_t removed = results::RemoveStagingFolders(settings.out_dir); removed > 0) {
    logger.Info("removed " + std::to_string(removed) + " partial folders of an earlier run");
  }
  if (const size_t removed = RemoveStaleTemporaries(settings.out_dir); removed > 0) {
    logger.Info("removed " + std::to_string(removed) + " temporary files of an earlier run");
  }
  run.io.emplace(1);
  // Vehicle nodes' files: staged ones of complete scenarios moved in, the rest dropped (their
  // scenarios run again and the nodes upload anew), see node_files.h.
  NodeFileStore& node_files = run.node_files.emplace(settings.out_dir, batch.variants);
  if (const size_t moved = node_files.Recover(); moved > 0) {
    logger.Info("moved staged node files into " + std::to_string(moved) + " scenario folders");
  }
  run.nodes.emplace(NodeSettingsFor(batch, settings), &node_files, &logger);
  run.writer.emplace(settings.out_dir, &node_files, RecordingHook(batch, settings));
  ProgressSettings progress;
  progress.enabled = !settings.quiet;
  progress.live = settings.live_progress;
  progress.show_regret = batch.search.has_value();
  run.progress.emplace(run.total, progress, run.out);
  if (make_feed) run.feed = make_feed(&logger);
  run.records.emplace(
      SchedulerSettingsFor(batch, settings),
      RecordsContext{&settings, &logger, &*run.progress, &*run.writer, run.feed.get()});
  for (const PlannedScenario& planned : batch.scenarios) run.records->Admit(&planned);
}

/// Listen: one port for workers, vehicle nodes and a feed's scenario generator, and the
/// signals that stop the run.
void Listen(FarmRun& run) {
  const FarmSettings& settings = run.settings;
  core::Logger& logger = *run.logger;
  GeneratorPort* generator = run.feed ? run.feed->generator() : nullptr;
  const LinkSettings link_settings{settings.listen_host, settings.listen_port, settings.token,
                                   settings.connection};
  const WorkerLinks& links = run.links.emplace(run.io->context().get_executor(), link_settings,
                                               &run.events, &logger, generator);
  run.signals.emplace(run.io->context(), SIGINT, SIGTERM);
  WaitForSignal(&*run.signals, &run.events, generator);
  const std::string port = std::to_string(links.port());
  run.address = ConnectHost(settings.listen_host, settings.launcher) + ":" + port;
  logger.Info("listening on " + settings.listen_host + ":" + port +
              (settings.token.empty() ? "" : ", token required"));
  if (const uint32_t count = run.batch.settings.vehicle_nodes.spec.count; count > 0) {
    const std::string where = "vehicle nodes: " + std::to_string(count) +
                              " per worker, registering on " + settings.listen_host + ":" + port;
    logger.Info(where);
    run.out << where << " (docs/vehicle-nodes.md)\n" << std::flush;
  }
}

/// The feed's first scenarios, once the port is open (an external search's generator registers
/// there first). Those kept whole from an earlier run are told at once, so the feed is asked on
/// until it has given something to run or has nothing more to give.
void TakeFirstScenarios(FarmRun& run) {
  if (run.feed->generator() != nullptr) {
    run.out << "waiting for a scenario generator on " << run.settings.listen_host << ":"
            << run.links->port() << " (docs/generator-protocol.md)\n"
            << std::flush;
  }
  const Scheduler& scheduler = run.records->book().scheduler();
  const size_t queued_before = scheduler.queued();
  bool wait = false;
  for (;;) {
    for (PlannedScenario& planned : run.feed->Take(wait)) run.records->Admit(std::move(planned));
    if (scheduler.queued() > queued_before || !run.feed->Busy()) return;
    wait = true;
  }
}

/// What a resumed run keeps and runs: the batch's scenarios, then its reproduction runs when
/// they are planned already.
void LogResume(FarmRun& run) {
  const FarmRecords& records = *run.records;
  const size_t reproduction_queued = records.reproduction_runs() - records.reproduction_recorded();
  std::string line = "resume: " + std::to_string(records.OutcomesOfBatch().kept) +
                     " scenarios already complete, " +
                     std::to_string(records.book().scheduler().queued() - reproduction_queued) +
                     " to run";
  if (records.reproduction_runs() > 0) {
    line += "; reproduction runs: " + std::to_string(records.reproduction_recorded()) +
            " already complete, " + std::to_string(reproduction_queued) + " to run";
  }
  run.logger->Info(line);
}

/// Launch: the feed's first scenarios (and, when every scenario of the batch is recorded
/// already, the reproduction runs), the launcher (none when nothing is left to run) and the loop
/// over them, which plans the reproduction runs once the batch's scenarios are done.
void Launch(FarmRun& run) {
  if (run.feed) TakeFirstScenarios(run);
  const ScenarioBook& book = run.records->book();
  if (book.scheduler().queued() == 0 && !(run.feed && run.feed->Busy())) PlanReproduction(run);
  if (run.settings.resume) LogResume(run);
  const LauncherSettings launch = LaunchSettings(run);
  run.launched = launch.kind;
  run.launcher = MakeLauncher(launch, &*run.logger);
  run.loop.emplace(FarmLoopContext{&run.batch.settings.vehicle_nodes, &*run.logger, &run.events,
                                   run.launcher.get(), &*run.progress, &*run.records, &*run.nodes,
                                   run.feed.get(), [&run] { PlanReproduction(run); }});
}

/// Loop: runs the queued scenarios while the HTML report follows the run.
void Loop(FarmRun& run) {
  if (run.records->book().scheduler().queued() == 0) return;
  if (run.launched == LauncherKind::kNone) {
    run.out << "waiting for workers on " << run.settings.listen_host << ":" << run.links->port()
            << "\n"
            << std::flush;
  }
  // DIR/index.html follows the run (report.h); the final one is written by Finish.
  core::Logger* logger = &*run.logger;
  const report::ReportRefresher refresher(
      run.settings.out_dir, kReportPeriod,
      [logger](const std::string& e) { logger->Warning("report: " + e); }, &run.report_cache);
  run.loop->Run();
}

}  // namespace

int RunFarm(const Batch& batch, const FarmSettings& settings, std::ostream& out,
            const FeedMaker& make_feed) {
  FarmRun run(batch, settings, out);
  Prepare(run, make_feed);
  Listen(run);
  Launch(run);
  Loop(run);
  return Finish(run);
}

}  // namespace asg::client
