// asg-worker's options and their checks.
#include "worker/worker_options.h"

#include <boost/program_options.hpp>
#include <cstdlib>
#include <sstream>

#include "core/install_layout.h"
#include "protocol/endpoint.h"

namespace asg::worker {

namespace po = boost::program_options;

namespace {

constexpr const char* kUsage = R"(Usage:
  asg-worker --connect HOST:PORT --id N [--token T] [--reconnect] [--catalog FILE]
  asg-worker --run-scenario REQUEST.json --out DIR [--id N] [--catalog FILE]
  asg-worker --serve HOST:PORT [--token T] [--open DIR/scenario_NNNN] [--foxglove HOST:PORT]
             [--catalog FILE]

Runs ASG Farm scenarios. With --connect it registers with an asg-client (which usually starts
it) and runs the RunScenario requests it is sent, one at a time, until the client goes away.
With --run-scenario it runs one request in-process and writes the same scenario folder as the
farm (DIR/scenario_NNNN/ with request.json, result.json, timing.json, trajectory.csv and
captures/), e.g. to replay a farm scenario from its request.json. With --serve it holds one
scenario open for interactive control (pause, step, inspect and move entities, capture) and
answers the services of docs/interactive.md (asg-ctl calls them); --open loads a scenario folder
of a result at start, paused at time 0. It prints "serving HOST:PORT" once it listens. With
--foxglove it is also a live view for Foxglove or Lichtblick (Foxglove WebSocket protocol: the
channels of a run's MCAP recording and the main services, docs/recordings.md) and prints
"foxglove ws://HOST:PORT"; with a token the viewer connects to ws://HOST:PORT/?token=T.

Exit codes: 0 the client finished with the worker (or the scenario ran), 1 runtime failure
(cannot connect, registration refused, scene not created, results not written), 2 usage error.

Options)";

/// This executable's path (/proc/self/exe), or argv[0] when it cannot be read.
std::filesystem::path SelfPath(const char* argv0) {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error || self.empty() ? std::filesystem::path(argv0 ? argv0 : "asg-worker") : self;
}

/// The address of `option` (--serve, --data-listen): `text` resolved
/// (protocol::ResolveListenAddress); one that other hosts can reach needs a token, else the
/// UsageError says that it accepts `peers` from other hosts.
protocol::HostPort ListenAddress(const std::string& option, const std::string& text,
                                 const std::string& token, const std::string& peers) {
  protocol::HostPort address;
  try {
    address = protocol::ResolveListenAddress(text);
  } catch (const std::invalid_argument& error) {
    throw UsageError(option + " " + error.what());
  }
  if (!protocol::IsLoopbackHost(address.host) && token.empty()) {
    throw UsageError(option + " " + address.host + " accepts " + peers +
                     " from other hosts: give --token (or set ASG_TOKEN)");
  }
  return address;
}

/// asg-worker's options; --id and --fault-inject are stored in `id` and `fault_spec`, which must
/// outlive the parse.
po::options_description WorkerOptions(const char* argv0, int* id, std::string* fault_spec) {
  po::options_description options(kUsage);
  // clang-format off
  options.add_options()
    ("help,h", "print this help and exit")
    ("print-service-schemas",
     "print the interactive services (--serve) with the JSON Schema of each one's request body, "
     "and the upstream constants they use, and exit")
    ("connect", po::value<std::string>(), "HOST:PORT of the asg-client to serve")
    ("id", po::value<int>(id)->default_value(0), "worker id 0..65535, echoed in every result")
    ("token", po::value<std::string>(),
     "shared secret presented to the client (default: environment variable ASG_TOKEN)")
    ("data-listen", po::value<std::string>()->default_value("127.0.0.1:0"),
     "HOST:PORT of the data port vehicle nodes attach to (port 0: a free port; a host name is "
     "resolved); any address other than loopback requires a token")
    ("node-spin-us", po::value<int>()->default_value(0),
     "lock-step runs with vehicle nodes: microseconds the simulation thread polls for a Step "
     "reply before it sleeps, 0..1000; a spin saves a wake-up per tick (faster runs) at the "
     "cost of CPU the nodes may need")
    ("reconnect", "when the client goes away, connect again (every 0.5 s) instead of exiting")
    ("catalog", po::value<std::string>()->default_value(
                    core::CatalogNextTo(SelfPath(argv0)).string(),
                    core::kCatalogNextToText),
     "actor catalog (JSON)")
    ("run-scenario", po::value<std::string>(), "run this RunScenario request file in-process")
    ("serve", po::value<std::string>(),
     "HOST:PORT to serve interactive clients on (port 0: a free port; a host name is "
     "resolved); any address other than loopback requires a token")
    ("open", po::value<std::string>(),
     "with --serve: a scenario folder of a result (DIR/scenario_NNNN) to load at start")
    ("foxglove", po::value<std::string>(),
     "with --serve: HOST:PORT of the live view, a Foxglove WebSocket server (port 0: a free "
     "port); any address other than loopback requires a token")
    ("out", po::value<std::string>(), "with --run-scenario: folder to write scenario_NNNN/ into")
    ("fault-inject", po::value<std::string>(fault_spec)->default_value(""),
     "TESTING ONLY, deliberate faults: comma-separated crash-on=N (SIGKILL itself when about "
     "to run scenario N), hang-on=N (never finish N), silent-on=N (accept N, never start it), "
     "mismatch-on=N (report N's result as N+1)");
  // clang-format on
  return options;
}

/// The token given with --token, else the environment variable ASG_TOKEN, else none.
std::string TokenOption(const po::variables_map& values) {
  if (values.count("token")) return values["token"].as<std::string>();
  if (const char* from_environment = std::getenv("ASG_TOKEN")) return from_environment;
  return {};
}

/// --serve: the interactive worker's settings.
void SetInteractive(const po::variables_map& values, const std::string& token, uint16_t id,
                    WorkerCommand* command) {
  command->mode = WorkerCommand::Mode::kInteractive;
  const protocol::HostPort address =
      ListenAddress("--serve", values["serve"].as<std::string>(), token, "clients");
  command->interactive.host = address.host;
  command->interactive.port = address.port;
  command->interactive.token = token;
  command->interactive.worker_id = id;
  if (values.count("open")) command->interactive.open = values["open"].as<std::string>();
  if (values.count("foxglove")) {
    const protocol::HostPort view =
        ListenAddress("--foxglove", values["foxglove"].as<std::string>(), token, "viewers");
    command->interactive.foxglove = true;
    command->interactive.foxglove_host = view.host;
    command->interactive.foxglove_port = view.port;
  }
}

/// --connect: the farm session's settings.
void SetFarmSession(const po::variables_map& values, const std::string& token,
                    const std::string& fault_spec, WorkerCommand* command) {
  command->mode = WorkerCommand::Mode::kServe;
  WorkerSettings& settings = command->settings;
  settings.connect = values["connect"].as<std::string>();
  try {
    protocol::ParseHostPort(settings.connect);
    settings.faults = ParseFaultInjection(fault_spec);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
  settings.token = token;
  settings.reconnect = values.count("reconnect") > 0;
  settings.data_listen = protocol::HostPortText(ListenAddress(
      "--data-listen", values["data-listen"].as<std::string>(), token, "vehicle nodes"));
  const int spin = values["node-spin-us"].as<int>();
  if (spin < 0 || spin > 1000) {
    throw UsageError("--node-spin-us " + std::to_string(spin) + " is outside 0..1000");
  }
  settings.node_spin = std::chrono::microseconds(spin);
}

}  // namespace

WorkerCommand ParseWorkerCommandLine(int argc, const char* const argv[]) {
  int id = 0;
  std::string fault_spec;
  const po::options_description options = WorkerOptions(argv[0], &id, &fault_spec);
  po::variables_map values;
  try {
    po::store(po::parse_command_line(argc, argv, options), values);
    po::notify(values);
  } catch (const po::error& error) {
    throw UsageError(error.what());
  }

  WorkerCommand command;
  std::ostringstream help;
  help << options;
  command.help = help.str();
  if (values.count("help")) return command;
  if (values.count("print-service-schemas")) {
    command.mode = WorkerCommand::Mode::kPrintServiceSchemas;
    return command;
  }
  if (id < 0 || id > 65535) throw UsageError("--id " + std::to_string(id) + " is outside 0..65535");
  command.catalog = values["catalog"].as<std::string>();
  command.settings.worker_id = static_cast<uint16_t>(id);

  const bool serve = values.count("connect") > 0;
  const bool run = values.count("run-scenario") > 0;
  const bool interactive = values.count("serve") > 0;
  if (int{serve} + int{run} + int{interactive} != 1) {
    throw UsageError("give exactly one of --connect, --run-scenario and --serve");
  }
  const std::string token = TokenOption(values);
  if (values.count("open") && !interactive) throw UsageError("--open needs --serve");
  if (values.count("foxglove") && !interactive) throw UsageError("--foxglove needs --serve");
  if (interactive) {
    SetInteractive(values, token, static_cast<uint16_t>(id), &command);
  } else if (run) {
    if (!values.count("out")) throw UsageError("--run-scenario needs --out DIR");
    command.mode = WorkerCommand::Mode::kRunScenario;
    command.request_file = values["run-scenario"].as<std::string>();
    command.out_dir = values["out"].as<std::string>();
  } else {
    SetFarmSession(values, token, fault_spec, &command);
  }
  return command;
}

}  // namespace asg::worker
