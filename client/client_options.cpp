// asg-client's options and their checks.
#include "client/client_options.h"

#include <boost/program_options.hpp>
#include <charconv>
#include <cstdlib>
#include <sstream>
#include <thread>
#include <vector>

namespace asg::client {

namespace po = boost::program_options;

namespace {

constexpr const char* kUsage = R"(Usage:
  asg-client run BATCH.json --out DIR [--workers N] [--resume] [--listen HOST:PORT]
                 [--token T] [--worker-exe PATH] [--catalog FILE] [--quiet]
  asg-client replay DIR --out NEW_DIR [--top N] [--runs K] [--captures] [--workers N] [...]
  asg-client --version | --help

Runs every scenario of a batch file on a pool of asg-worker processes and writes one folder per
scenario (DIR/scenario_NNNN/: request.json, result.json, timing.json, trajectory.csv), plus
DIR/summary.json, DIR/summary.csv, the log DIR/asg_log.txt and the workers' own logs in
DIR/logs/. A worker that crashes, hangs past the batch's scenario_timeout_s or misbehaves is
replaced and its scenario run again, up to the batch's max_attempts. Ctrl-C (SIGINT) or SIGTERM
stops handing out scenarios, abandons the runs in flight, writes the summary and stops the
workers; --resume then runs only what is missing.

replay re-runs the --top N highest-regret scenarios of the finished batch folder DIR (ranked by
result.json regret, ties by scenario number), each --runs K times (variation.run 0..K-1), as a
new batch NEW_DIR/replay_batch.json run like `run`; NEW_DIR/replay.json maps each new scenario to
the one it replays. --captures adds an annotated ortho aerial to every run and draws
NEW_DIR/family_trees.png: one row per top scenario, its search ancestry oldest on the left.

Exit codes: 0 batch completed (every scenario done or invalid), 1 some scenarios failed (or the
farm could not go on), 2 usage or batch-file error (nothing ran), 130 interrupted.

Options)";

/// Parses --listen "HOST:PORT" or "[IPV6]:PORT" with PORT 0..65535 (0: any free port).
void ParseListen(const std::string& text, FarmSettings* settings) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    throw UsageError("--listen \"" + text + "\": expected HOST:PORT");
  }
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  const std::string port = text.substr(colon + 1);
  uint32_t number = 0;
  const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), number);
  if (error != std::errc() || end != port.data() + port.size() || number > 65535) {
    throw UsageError("--listen \"" + text + "\": port \"" + port + "\" is not in 0..65535");
  }
  settings->listen_host = host;
  settings->listen_port = static_cast<uint16_t>(number);
}

bool IsLoopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

}  // namespace

ClientCommand ParseClientCommandLine(int argc, const char* const argv[],
                                     const std::filesystem::path& self_path) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  po::options_description options(kUsage);
  // clang-format off
  options.add_options()
    ("help,h", "print this help and exit")
    ("version", "print the version and exit")
    ("out,o", po::value<std::string>(), "output folder for the results (created when missing)")
    ("workers,w", po::value<int>()->default_value(static_cast<int>(std::min(cores, 255u))),
     "local worker processes to launch, 0..255 (default: number of cores); 0 serves workers "
     "started elsewhere")
    ("resume", "keep the scenario folders DIR already holds complete, run only the others")
    ("listen", po::value<std::string>()->default_value("127.0.0.1:0"),
     "HOST:PORT to accept workers on; port 0 picks a free one; any address other than loopback "
     "requires a token")
    ("token", po::value<std::string>(),
     "shared secret every worker must present (default: environment variable ASG_TOKEN)")
    ("worker-exe", po::value<std::string>(),
     "asg-worker executable (default: asg-worker next to this executable)")
    ("catalog", po::value<std::string>(), "actor catalog passed to the local workers")
    ("quiet,q", "no progress output (the outcome table is still printed)")
    ("top", po::value<int>()->default_value(10), "replay: how many highest-regret scenarios, >= 1")
    ("runs", po::value<int>()->default_value(3), "replay: runs of each scenario, 1..1000")
    ("captures", "replay: capture an annotated ortho aerial of every run and draw "
     "family_trees.png")
    ("start-timeout", po::value<double>()->default_value(30.0),
     "seconds a worker may hold an accepted scenario without starting it before it is "
     "resubmitted (twice at most, then the worker is replaced)")
    ("fault-inject", po::value<std::string>(),
     "TESTING ONLY: passed as --fault-inject to the initially launched workers (not to their "
     "replacements); see asg-worker --help");
  po::options_description positional_options;
  positional_options.add_options()
    ("command", po::value<std::string>(), "the command: run or replay")
    ("batch", po::value<std::string>(), "the batch file (run) or the finished folder (replay)");
  // clang-format on
  po::options_description all_options;
  all_options.add(options).add(positional_options);
  po::positional_options_description positional;
  positional.add("command", 1).add("batch", 1);
  po::variables_map values;
  try {
    po::store(po::command_line_parser(argc, argv).options(all_options).positional(positional).run(),
              values);
    po::notify(values);
  } catch (const po::error& error) {
    throw UsageError(error.what());
  }

  ClientCommand command;
  if (values.count("help") || argc <= 1) {
    std::ostringstream help;
    help << options;
    command.text = help.str();
    return command;
  }
  if (values.count("version")) {
    command.mode = ClientCommand::Mode::kVersion;
    command.text = std::string("asg-client ") + ASG_VERSION + "\n";
    return command;
  }
  const std::string name = values.count("command") ? values["command"].as<std::string>() : "";
  if (name != "run" && name != "replay") {
    throw UsageError("expected the command \"run\" or \"replay\"");
  }
  if (!values.count("batch")) {
    throw UsageError(name == "run" ? "run needs a batch file" : "replay needs a batch folder DIR");
  }
  if (!values.count("out")) throw UsageError(name + " needs --out DIR");

  if (name == "run") {
    command.mode = ClientCommand::Mode::kRun;
    command.batch_file = values["batch"].as<std::string>();
  } else {
    command.mode = ClientCommand::Mode::kReplay;
    ReplaySettings& replay = command.replay;
    replay.source_dir = values["batch"].as<std::string>();
    const int top = values["top"].as<int>();
    if (top < 1) throw UsageError("--top " + std::to_string(top) + " must be >= 1");
    const int runs = values["runs"].as<int>();
    if (runs < 1 || runs > 1000) {
      throw UsageError("--runs " + std::to_string(runs) + " is outside 1..1000");
    }
    replay.top = static_cast<uint32_t>(top);
    replay.runs = static_cast<uint32_t>(runs);
    replay.captures = values.count("captures") > 0;
  }
  FarmSettings& settings = command.settings;
  settings.out_dir = values["out"].as<std::string>();
  const int workers = values["workers"].as<int>();
  if (workers < 0 || workers > 255) {
    throw UsageError("--workers " + std::to_string(workers) + " is outside 0..255");
  }
  settings.workers = static_cast<uint32_t>(workers);
  settings.resume = values.count("resume") > 0;
  settings.quiet = values.count("quiet") > 0;
  ParseListen(values["listen"].as<std::string>(), &settings);
  if (values.count("token")) {
    settings.token = values["token"].as<std::string>();
  } else if (const char* token = std::getenv("ASG_TOKEN")) {
    settings.token = token;
  }
  if (!IsLoopback(settings.listen_host) && settings.token.empty()) {
    throw UsageError("--listen " + settings.listen_host +
                     " accepts workers from other hosts: give --token (or set ASG_TOKEN)");
  }
  settings.worker_executable = values.count("worker-exe")
                                   ? std::filesystem::path(values["worker-exe"].as<std::string>())
                                   : self_path.parent_path() / "asg-worker";
  if (values.count("catalog")) {
    settings.worker_arguments = {"--catalog",
                                 std::filesystem::absolute(values["catalog"].as<std::string>())};
  }
  if (values.count("fault-inject")) {
    settings.first_launch_arguments = {"--fault-inject", values["fault-inject"].as<std::string>()};
  }
  const double start_timeout = values["start-timeout"].as<double>();
  if (!(start_timeout > 0.0)) throw UsageError("--start-timeout must be > 0");
  settings.start_timeout =
      std::chrono::milliseconds(static_cast<int64_t>(start_timeout * 1000.0 + 0.5));
  return command;
}

}  // namespace asg::client
