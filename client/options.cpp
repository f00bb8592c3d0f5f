// asg-client's options and their checks: the values are read once, then each command takes its
// own (schema, report, check, run, replay; run and replay share the farm options).
#include "client/options.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdlib>
#include <sstream>
#include <thread>
#include <vector>

#include "core/install_layout.h"
#include "protocol/endpoint.h"
#include "protocol/messages.h"
#include "protocol/token.h"

namespace asg::client {

namespace po = boost::program_options;

namespace {

constexpr const char* kUsage = R"(Usage:
  asg-client run BATCH.json --out DIR [--workers N] [--resume | --retry failed | --force]
                 [--listen HOST:PORT] [--launcher local|slurm|none]
                 [--partition P] [--time HH:MM:SS] [--cpus-per-worker C] [--sbatch-arg A ...]
                 [--token T] [--worker-exe PATH] [--catalog FILE] [--quiet] [--allow-invalid]
  asg-client check BATCH.json
  asg-client import FILE.json [--out BATCH.json]
  asg-client schema [batch | nodes | worker]
  asg-client report DIR
  asg-client failures DIR [--catalog FILE]
  asg-client export mcap DIR [--out FILE] [--catalog FILE]
  asg-client replay DIR --out NEW_DIR [--top N | --top-runs N] [--runs K] [--captures]
                    [--workers N] [...]
  asg-client --version | --help

Runs every scenario of a batch file on a pool of asg-worker processes and writes one folder per
scenario (DIR/scenario_NNNN/: request.json, result.json, timing.json, trajectory.csv), plus
DIR/summary.json, DIR/summary.csv, the distinct failures DIR/failures.csv and failures.json (each
failing scenario's result.json names its failure_id; each failure's representative is run again
failures.reproduce times into DIR/reproduce/ to see whether it reproduces; docs/failures.md), the
log DIR/asg_log.txt and the workers' own logs in DIR/logs/. A worker that crashes, hangs past
the batch's scenario_timeout_s or misbehaves is replaced and its scenario run again, up to the
batch's max_attempts. Ctrl-C (SIGINT) or SIGTERM
stops handing out scenarios, abandons the runs in flight, writes the summary and stops the
workers; --resume then runs only what is missing, and --retry failed also what failed. DIR
records the batch it holds (DIR/batch_identity.json): --resume into a folder of another batch
is refused, naming the first scenario that differs, and so is a run into a non-empty DIR without
--resume (--force empties it first). The farm follows no symbolic link inside DIR: a DIR to
resume or empty that holds one is refused, naming it (DIR itself may be a link). Logs of earlier
runs are kept as DIR/logs.1, logs.2, ...

A batch with a "search" section searches: a strategy (random, grid, ga, bacre, bacre-novelty,
map-elites) proposes scenarios generation by generation from the regrets of the last ones, until
its budget is spent (DIR/search.csv, DIR/search.json, a map-elites search's DIR/archive.csv,
docs/search-strategies.md). With the strategy
"external" the proposals come from a generator of your own that connects to --listen
(docs/generator-protocol.md); the client waits for it and says where.

Before anything runs, every scenario of the batch is planned and checked; when one is invalid
(a wrong field, a bad value: the error names the file and the JSON path where it was written,
e.g. defaults.goal_radius), run prints the first errors and exits 2 without running anything,
unless --allow-invalid (the invalid ones are recorded as such, the rest run). check does only
that: it prints the errors and the number of valid and invalid scenarios, and exits 0 when all
are valid, else 2. Runs that would hardly mean anything (a start or goal on the landscape's edge,
a goal within goal_radius of the start) and stuck and idling timeouts left off are warnings:
check prints them, and so does run on standard error before anything runs, each once with the
scenarios it concerns. schema prints the JSON Schema (draft 2020-12) of batch files, for editors to
complete and check them with (docs/batch-reference.md describes every key); schema nodes prints
that of every frame's JSON a vehicle node sends or receives (docs/vehicle-nodes.md), schema
worker that of every frame between client and worker, with the named values of its enumerated
fields (docs/conformance.md compares both with AutoSceneGen's messages).

import reads RunScenario requests written in AutoSceneGen's own form (centimetres in Unreal's
left-handed frame, as its scenario builder sends them): one request object, a JSON array of
them, or a batch file with "units": "autoscenegen". It converts them exactly to the farm's
metres in north-west-up and writes a batch file in the farm's units (one scenario per request,
its scenario_number kept where given; no "units") to --out, else to standard output, for check
and run. A request that does not decode is an error naming the file, the JSON path and the value
(exit 2); docs/batch-reference.md, "Importing AutoSceneGen requests".

replay re-runs the --top N distinct failures of the finished batch folder DIR (DIR/failures.json:
one representative each, the highest max_regret first, ties by failure_id; a folder without
failures falls back to the runs), or with --top-runs N its N highest-regret scenarios (ranked by
result.json regret, ties by scenario number), each --runs K times (variation.run 0..K-1), as a
new batch NEW_DIR/replay_batch.json run like `run`; NEW_DIR/replay.json maps each new scenario to
the one it replays. --captures adds an annotated ortho aerial to every run and draws
NEW_DIR/family_trees.png: one row per top scenario, its search ancestry oldest on the left.

export mcap writes the MCAP recording of a finished run (see asg-client export --help).

failures finds the distinct failures of DIR again from its folders alone and rewrites
failures.csv, failures.json, the failure_ids and the failures page (see asg-client failures
--help).

report rebuilds the batch's HTML report from the folders of DIR alone (run writes it at the end
of every batch): DIR/index.html with the outcome counts, the failing scenarios beside the
distinct failures, histograms of sim time and regret, the end points on the landscape, a
map-elites search's archive map and a sortable, filterable table; DIR/failures.html (from
DIR/failures.json) with a card per distinct failure, most reproducible first;
DIR/scenario_NNNN/index.html with the captures, the trajectory and its speed, roll, pitch and
yaw, and a searched scenario's origin, parents and generation; page code in DIR/report/. It
opens as a file in a browser, without network or server; the same folders give the same bytes.

Workers come from the launcher. local (the default) starts --workers processes on this machine
and starts one again when it dies. slurm submits ONE Slurm job array (sbatch --array=1-N,
N = --workers) whose tasks run `asg-worker --connect HOST:PORT --id $SLURM_ARRAY_TASK_ID` and
connect back to --listen (default: this host's first non-loopback address), with the token
(created when none is given) in their environment; the progress line shows the array's pending
and running tasks (squeue), the array is cancelled (scancel) when the batch ends, on Ctrl-C and
when the client fails, a lost task's scenario runs on the other tasks, and a new array is
submitted for the remainder when every task is gone. none launches nothing and waits for
workers started by any other means (docs/development.md, "Beyond one machine").

Exit codes: 0 batch completed (every scenario done, or invalid with --allow-invalid), 1 some
scenarios failed or a worker found one invalid (or the farm or the search could not go on), 2
usage, batch-file or output-folder error (nothing ran), 3 output could not be written (e.g. a
full disk: the first failure is named, no more scenarios are handed out; --resume runs the
rest), 130 interrupted.

Options)";

constexpr const char* kFailuresUsage = R"(Usage:
  asg-client failures DIR [--catalog FILE]

Finds the distinct failures of the finished batch folder DIR from its scenario folders alone
(docs/failures.md): every done scenario is judged at the batch's regret threshold (the one
DIR/failures.json records, else 0.75), the failing ones are signed and clustered, each
representative's reproduction runs in DIR/reproduce/ are judged against it (as many as
DIR/failures.json's reproduce, else none; nothing is run), and DIR/failures.csv,
DIR/failures.json, the failure_id in each done scenario's result.json and the report's failures
page DIR/failures.html are written again: the same folders give the same bytes as the run that
wrote them. Prints the failing scenarios, the
distinct and reliable failures and one line per distinct failure.

The scenes' actors are classed by the actor catalog: --catalog FILE (give the one the workers
used), else <executable's folder>/../share/asg-farm/actors.json.

Exit codes: 0 written; 1 a file of DIR cannot be read, judged or written (the error names it);
2 usage: DIR is not a batch folder or holds a symbolic link (named), or the catalog cannot be
read.

Options)";

constexpr const char* kExportUsage = R"(Usage:
  asg-client export mcap DIR/scenario_NNNN [--out FILE] [--catalog FILE]
  asg-client export mcap DIR [--catalog FILE]

Writes the MCAP recording of a finished run from its scenario folder alone (request.json,
result.json, trajectory.csv): the vehicle's transform (/tf), pose (/vehicle/pose) and odometry
(/vehicle/odometry) at every trajectory sample, the scene (/scene: terrain, start, goal,
obstacles, reference and driven paths), the termination (/events, /log) and a metadata record of the
scenario, in Foxglove's well-known JSON schemas, chunks compressed with zstd, indexed and
summarised so that a viewer (Foxglove, Lichtblick) seeks without reading the whole file
(docs/recordings.md). The recording goes to --out FILE, else DIR/scenario_NNNN/run.mcap. DIR, a
batch folder: every scenario of it that ran is recorded into its folder's run.mcap (the others
are skipped and named). Each file is written atomically: a temporary file renamed into place.

Obstacles are drawn with the sizes and colours of the actor catalog: --catalog FILE, else
<executable's folder>/../share/asg-farm/actors.json.

Exit codes: 0 written; 2 usage, or a folder that cannot be recorded (no trajectory.csv, a
scenario that failed or was invalid before running, not a scenario or batch folder) or a file
that cannot be written (the error names the file).

Options)";

/// Parses --listen "HOST:PORT" or "[IPV6]:PORT" with PORT 0..65535 (0: any free port); a host
/// name is resolved to its address.
void ParseListen(const std::string& text, FarmSettings* settings) {
  try {
    const protocol::HostPort address = protocol::ResolveListenAddress(text);
    settings->listen_host = address.host;
    settings->listen_port = address.port;
  } catch (const std::invalid_argument& error) {
    throw UsageError(std::string("--listen ") + error.what());
  }
}

/// --launcher and the Slurm options, which only --launcher slurm takes.
void ParseLauncher(const po::variables_map& values, FarmSettings* settings) {
  const std::string name = values["launcher"].as<std::string>();
  try {
    settings->launcher = ParseLauncherKind(name);
  } catch (const std::invalid_argument&) {
    throw UsageError("--launcher \"" + name + "\": expected local, slurm or none");
  }
  const bool slurm = settings->launcher == LauncherKind::kSlurm;
  for (const char* option : {"partition", "time", "sbatch-arg"}) {
    if (values.count(option) && !slurm) {
      throw UsageError(std::string("--") + option + " is an option of --launcher slurm");
    }
  }
  if (!values["cpus-per-worker"].defaulted() && !slurm) {
    throw UsageError("--cpus-per-worker is an option of --launcher slurm");
  }
  if (settings->launcher == LauncherKind::kNone) settings->workers = 0;
  if (slurm && settings->workers == 0) {
    throw UsageError("--launcher slurm needs --workers 1..65535 (the array's tasks)");
  }
  if (values.count("partition")) settings->slurm_partition = values["partition"].as<std::string>();
  if (values.count("time")) settings->slurm_time = values["time"].as<std::string>();
  const int cpus = values["cpus-per-worker"].as<int>();
  if (cpus < 1 || cpus > 1024) {
    throw UsageError("--cpus-per-worker " + std::to_string(cpus) + " is outside 1..1024");
  }
  settings->cpus_per_worker = static_cast<uint32_t>(cpus);
  if (values.count("sbatch-arg")) {
    settings->sbatch_arguments = values["sbatch-arg"].as<std::vector<std::string>>();
  }
}

/// The options a person gives, with the usage text as their caption.
po::options_description VisibleOptions() {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  po::options_description options(kUsage);
  // clang-format off
  options.add_options()
    ("help,h", "print this help and exit")
    ("version", "print the version and exit")
    ("out,o", po::value<std::string>(), "output folder for the results (created when missing); "
     "import: the batch file to write (default: standard output)")
    ("workers,w", po::value<int>()->default_value(static_cast<int>(cores)),
     "workers to launch, 0..65535 (default: number of cores): local processes, or the tasks of "
     "the Slurm array; 0 launches none (as --launcher none)")
    ("launcher", po::value<std::string>()->default_value("local"),
     "where workers come from: local (processes on this machine), slurm (one Slurm job array "
     "that connects back) or none (workers started by other means connect)")
    ("partition", po::value<std::string>(), "slurm: the partition (sbatch --partition)")
    ("time", po::value<std::string>(), "slurm: each task's time limit HH:MM:SS (sbatch --time)")
    ("cpus-per-worker", po::value<int>()->default_value(1),
     "slurm: cores per task, 1..1024 (sbatch --cpus-per-task); also the worker's LP_NUM_THREADS "
     "(the software renderer's threads)")
    ("sbatch-arg", po::value<std::vector<std::string>>()->composing(),
     "slurm: one more sbatch argument, as it is, e.g. --sbatch-arg=--account=lab (repeatable)")
    ("resume", "continue the batch DIR holds: keep its complete scenario folders, run only the "
     "others (refused when DIR holds another batch)")
    ("retry", po::value<std::string>(), "--retry failed: like --resume, and run the scenarios "
     "recorded as failed again")
    ("force", "empty a non-empty DIR first (without it, a non-empty DIR is refused unless "
     "--resume)")
    ("listen", po::value<std::string>()->default_value("127.0.0.1:0"),
     "HOST:PORT the client listens on, for workers, external vehicle nodes (their control "
     "plane) and an external search's scenario generator alike; port 0 picks a free one (the "
     "log and the terminal say which); a host name is resolved to its address; any address "
     "other than loopback requires a token (default: 127.0.0.1:0; with --launcher slurm, this host's first non-loopback address)")
    ("token", po::value<std::string>(),
     "shared secret every worker, vehicle node and generator must present (default: environment "
     "variable ASG_TOKEN)")
    ("worker-exe", po::value<std::string>(),
     "asg-worker executable (default: asg-worker next to this executable)")
    ("catalog", po::value<std::string>(), "actor catalog passed to the local workers, and the "
     "one failures are judged with (default: the one next to the worker executable)")
    ("quiet,q", "no progress output (the outcome table is still printed)")
    ("allow-invalid", "run the valid scenarios of a batch that has invalid ones (recorded as "
     "invalid) instead of refusing it")
    ("top", po::value<int>()->default_value(10), "replay: how many distinct failures, >= 1 "
     "(DIR/failures.json, the highest max_regret first)")
    ("top-runs", po::value<int>(), "replay, instead of --top: how many highest-regret scenarios, "
     ">= 1, copies of one failure included")
    ("runs", po::value<int>()->default_value(3), "replay: runs of each scenario, 1..1000")
    ("captures", "replay: capture an annotated ortho aerial of every run and draw "
     "family_trees.png")
    ("start-timeout", po::value<double>()->default_value(30.0),
     "seconds a worker may hold an accepted scenario without starting it before it is "
     "resubmitted (twice at most, then the worker is replaced)")
    ("fault-inject", po::value<std::string>(),
     "TESTING ONLY: passed as --fault-inject to the initially launched workers (not to their "
     "replacements); see asg-worker --help");
  // clang-format on
  return options;
}

/// The command and its batch file or folder, given without an option name.
po::options_description PositionalOptions() {
  po::options_description positional_options;
  // clang-format off
  positional_options.add_options()
    ("command", po::value<std::string>(),
     "the command: run, check, import, schema, report, failures, export or replay")
    ("batch", po::value<std::string>(),
     "the batch file (run, check), the requests (import) or the batch folder (report, failures, "
     "replay); export: the format")
    ("target", po::value<std::string>(), "export: the scenario or batch folder");
  // clang-format on
  return positional_options;
}

/// The command line's values; throws UsageError for an unknown option or a bad value.
po::variables_map ParseValues(int argc, const char* const argv[],
                              const po::options_description& options) {
  po::options_description all_options;
  all_options.add(options).add(PositionalOptions());
  po::positional_options_description positional;
  positional.add("command", 1).add("batch", 1).add("target", 1);
  po::variables_map values;
  try {
    po::store(po::command_line_parser(argc, argv).options(all_options).positional(positional).run(),
              values);
    po::notify(values);
  } catch (const po::error& error) {
    throw UsageError(error.what());
  }
  return values;
}

/// `schema [batch | nodes | worker]`.
ClientCommand SchemaCommand(const po::variables_map& values) {
  ClientCommand command;
  command.mode = ClientCommand::Mode::kSchema;
  command.schema = values.count("batch") ? values["batch"].as<std::string>() : "batch";
  if (command.schema != "batch" && command.schema != "nodes" && command.schema != "worker") {
    throw UsageError("schema \"" + command.schema +
                     "\": expected batch (the default), nodes or worker");
  }
  return command;
}

/// `report DIR`.
ClientCommand ReportCommand(const po::variables_map& values) {
  ClientCommand command;
  command.mode = ClientCommand::Mode::kReport;
  command.report_dir = values["batch"].as<std::string>();
  return command;
}

/// --catalog, else the catalog next to asg-client (`self_path`).
std::filesystem::path CatalogOption(const po::variables_map& values,
                                    const std::filesystem::path& self_path) {
  return values.count("catalog") ? std::filesystem::path(values["catalog"].as<std::string>())
                                 : core::CatalogNextTo(self_path);
}

/// `failures DIR`: the catalog is --catalog, else the one next to asg-client.
ClientCommand FailuresCommand(const po::variables_map& values,
                              const std::filesystem::path& self_path) {
  ClientCommand command;
  command.mode = ClientCommand::Mode::kFailures;
  command.report_dir = values["batch"].as<std::string>();
  command.catalog = CatalogOption(values, self_path);
  return command;
}

/// `failures --help`: the command's own usage and the one option it takes.
std::string FailuresHelp() {
  po::options_description options(kFailuresUsage);
  // clang-format off
  options.add_options()
    ("catalog", po::value<std::string>(), "the actor catalog the scenes' actors are classed by "
     "(default: the one next to asg-client)")
    ("help,h", "print this help and exit");
  // clang-format on
  std::ostringstream help;
  help << options;
  return help.str();
}

/// `export mcap DIR [--out FILE]`: the catalog is --catalog, else the one next to asg-client.
ClientCommand ExportCommand(const po::variables_map& values,
                            const std::filesystem::path& self_path) {
  if (values["batch"].as<std::string>() != "mcap") {
    throw UsageError("export \"" + values["batch"].as<std::string>() +
                     "\": expected the format mcap");
  }
  if (!values.count("target")) throw UsageError("export mcap needs a scenario or batch folder DIR");
  ClientCommand command;
  command.mode = ClientCommand::Mode::kExport;
  command.export_dir = values["target"].as<std::string>();
  if (values.count("out")) command.export_out = values["out"].as<std::string>();
  command.catalog = CatalogOption(values, self_path);
  return command;
}

/// `export --help`: the command's own usage and its options.
std::string ExportHelp() {
  po::options_description options(kExportUsage);
  // clang-format off
  options.add_options()
    ("out,o", po::value<std::string>(), "the recording's file (a scenario folder only; default: "
     "DIR/run.mcap)")
    ("catalog", po::value<std::string>(), "the actor catalog obstacles are drawn with "
     "(default: the one next to asg-client)")
    ("help,h", "print this help and exit");
  // clang-format on
  std::ostringstream help;
  help << options;
  return help.str();
}

/// `check BATCH`: the catalog is --catalog, else the one next to asg-client.
ClientCommand CheckCommand(const po::variables_map& values,
                           const std::filesystem::path& self_path) {
  ClientCommand command;
  command.mode = ClientCommand::Mode::kCheck;
  command.batch_file = values["batch"].as<std::string>();
  command.catalog = CatalogOption(values, self_path);
  return command;
}

/// `import FILE [--out OUT.json]`.
ClientCommand ImportCommand(const po::variables_map& values) {
  ClientCommand command;
  command.mode = ClientCommand::Mode::kImport;
  command.batch_file = values["batch"].as<std::string>();
  if (values.count("out")) command.import_out = values["out"].as<std::string>();
  return command;
}

/// --out, --workers, --launcher and its options, --resume, --retry and --force.
void ParseOutputAndWorkers(const po::variables_map& values, FarmSettings* settings) {
  settings->out_dir = values["out"].as<std::string>();
  std::error_code ignored;
  if (std::filesystem::exists(settings->out_dir, ignored) &&
      !std::filesystem::is_directory(settings->out_dir, ignored)) {
    throw UsageError("--out " + settings->out_dir.string() + ": exists and is not a folder");
  }
  const int workers = values["workers"].as<int>();
  if (workers < 0 || workers > static_cast<int>(protocol::kMaxWorkerId)) {
    throw UsageError("--workers " + std::to_string(workers) + " is outside 0..65535");
  }
  settings->workers = static_cast<uint32_t>(workers);
  ParseLauncher(values, settings);
  settings->resume = values.count("resume") > 0;
  if (values.count("retry")) {
    const std::string what = values["retry"].as<std::string>();
    if (what != "failed") throw UsageError("--retry \"" + what + "\": expected \"failed\"");
    settings->resume = true;
    settings->retry_failed = true;
  }
  settings->force = values.count("force") > 0;
  if (settings->force && settings->resume) {
    throw UsageError("--force empties DIR, --resume and --retry continue it: give one");
  }
}

/// --listen (with --launcher slurm, this host's first non-loopback address by default) and the
/// token: --token, else ASG_TOKEN, else a new one for Slurm's workers.
void ParseListenAndToken(const po::variables_map& values, FarmSettings* settings) {
  const bool slurm = settings->launcher == LauncherKind::kSlurm;
  if (slurm && values["listen"].defaulted()) {
    // Compute nodes must reach the client: the host's first non-loopback address.
    const std::string host = protocol::FirstNonLoopbackAddress();
    if (host.empty()) {
      throw UsageError("--launcher slurm: this host has no non-loopback address; give --listen");
    }
    settings->listen_host = host;
    settings->listen_port = 0;
  } else {
    ParseListen(values["listen"].as<std::string>(), settings);
  }
  if (values.count("token")) {
    settings->token = values["token"].as<std::string>();
  } else if (const char* token = std::getenv("ASG_TOKEN")) {
    settings->token = token;
  }
  if (slurm && settings->token.empty()) {
    settings->token = protocol::NewToken();  // goes to the workers through the environment only
  }
  if (!protocol::IsLoopbackHost(settings->listen_host) && settings->token.empty()) {
    throw UsageError("--listen " + settings->listen_host +
                     " accepts workers from other hosts: give --token (or set ASG_TOKEN)");
  }
}

/// The farm options of run and replay, into command->settings (and command->catalog).
void ParseFarmOptions(const po::variables_map& values, const std::filesystem::path& self_path,
                      ClientCommand* command) {
  FarmSettings& settings = command->settings;
  settings.allow_invalid = command->allow_invalid;
  ParseOutputAndWorkers(values, &settings);
  settings.quiet = values.count("quiet") > 0;
  ParseListenAndToken(values, &settings);
  settings.worker_executable = std::filesystem::absolute(
      values.count("worker-exe") ? std::filesystem::path(values["worker-exe"].as<std::string>())
                                 : self_path.parent_path() / "asg-worker");
  if (values.count("catalog")) {
    command->catalog = std::filesystem::absolute(values["catalog"].as<std::string>());
    settings.worker_arguments = {"--catalog", command->catalog.string()};
  } else if (settings.workers > 0) {
    command->catalog = core::CatalogNextTo(settings.worker_executable);
  }
  // Failures are judged with the workers' catalog, whether this run launches them or not.
  settings.catalog =
      values.count("catalog") ? command->catalog : core::CatalogNextTo(settings.worker_executable);
  if (values.count("fault-inject")) {
    settings.first_launch_arguments = {"--fault-inject", values["fault-inject"].as<std::string>()};
  }
  const double start_timeout = values["start-timeout"].as<double>();
  if (!(start_timeout > 0.0)) throw UsageError("--start-timeout must be > 0");
  settings.start_timeout =
      std::chrono::milliseconds(static_cast<int64_t>(start_timeout * 1000.0 + 0.5));
}

/// `run BATCH --out DIR ...`.
ClientCommand RunCommand(const po::variables_map& values, const std::filesystem::path& self_path) {
  if (!values.count("out")) throw UsageError("run needs --out DIR");
  ClientCommand command;
  command.mode = ClientCommand::Mode::kRun;
  command.allow_invalid = values.count("allow-invalid") > 0;
  command.batch_file = values["batch"].as<std::string>();
  ParseFarmOptions(values, self_path, &command);
  return command;
}

/// `replay DIR --out NEW_DIR [--top N] [--runs K] [--captures] ...`.
ClientCommand ReplayCommand(const po::variables_map& values,
                            const std::filesystem::path& self_path) {
  if (!values.count("out")) throw UsageError("replay needs --out DIR");
  ClientCommand command;
  command.mode = ClientCommand::Mode::kReplay;
  command.allow_invalid = values.count("allow-invalid") > 0;
  ReplaySettings& replay = command.replay;
  replay.source_dir = values["batch"].as<std::string>();
  const bool by_runs = values.count("top-runs") > 0;
  if (by_runs && !values["top"].defaulted()) {
    throw UsageError("--top ranks distinct failures, --top-runs the runs: give one");
  }
  const char* top_option = by_runs ? "--top-runs " : "--top ";
  const int top = values[by_runs ? "top-runs" : "top"].as<int>();
  if (top < 1) throw UsageError(top_option + std::to_string(top) + " must be >= 1");
  const int runs = values["runs"].as<int>();
  if (runs < 1 || runs > 1000) {
    throw UsageError("--runs " + std::to_string(runs) + " is outside 1..1000");
  }
  replay.top = static_cast<uint32_t>(top);
  replay.ranking = by_runs ? ReplayRanking::kRuns : ReplayRanking::kDistinctFailures;
  replay.runs = static_cast<uint32_t>(runs);
  replay.captures = values.count("captures") > 0;
  ParseFarmOptions(values, self_path, &command);
  return command;
}

}  // namespace

ClientCommand ParseClientCommandLine(int argc, const char* const argv[],
                                     const std::filesystem::path& self_path) {
  const po::options_description options = VisibleOptions();
  const po::variables_map values = ParseValues(argc, argv, options);
  ClientCommand command;
  if (argc <= 1) {
    const std::string usage = kUsage;
    throw UsageError("no command given\n" + usage.substr(0, usage.find("\n\n")));
  }
  const std::string name = values.count("command") ? values["command"].as<std::string>() : "";
  if (values.count("help")) {
    std::ostringstream help;
    help << options;
    command.text = name == "failures" ? FailuresHelp()
                   : name == "export" ? ExportHelp()
                                      : help.str();
    return command;
  }
  if (values.count("version")) {
    command.mode = ClientCommand::Mode::kVersion;
    command.text = std::string("asg-client ") + ASG_VERSION + "\n";
    return command;
  }
  if (name != "run" && name != "check" && name != "import" && name != "schema" &&
      name != "report" && name != "failures" && name != "replay" && name != "export") {
    throw UsageError(
        "expected the command \"run\", \"check\", \"import\", \"schema\", \"report\", "
        "\"failures\", \"export\" or \"replay\"");
  }
  if (name != "export" && values.count("target")) {
    throw UsageError("unexpected argument \"" + values["target"].as<std::string>() + "\"");
  }
  if (name == "schema") return SchemaCommand(values);
  if (name == "export" && !values.count("batch")) {
    throw UsageError("export needs a format: export mcap DIR");
  }
  if (name == "export") return ExportCommand(values, self_path);
  if (!values.count("batch")) {
    throw UsageError(name == "replay" || name == "report" || name == "failures"
                         ? name + " needs a batch folder DIR"
                     : name == "import" ? "import needs a file of requests"
                                        : name + " needs a batch file");
  }
  if (name == "report") return ReportCommand(values);
  if (name == "failures") return FailuresCommand(values, self_path);
  if (name == "check") return CheckCommand(values, self_path);
  if (name == "import") return ImportCommand(values);
  if (name == "run") return RunCommand(values, self_path);
  return ReplayCommand(values, self_path);
}

}  // namespace asg::client
