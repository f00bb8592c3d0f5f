// asg-ctl's options and their checks.
#include "ctl/ctl_options.h"

#include <boost/program_options.hpp>
#include <cmath>
#include <sstream>

#include "json/parse.h"
#include "protocol/endpoint.h"
#include "protocol/local_channel.h"

namespace asg::ctl {

namespace po = boost::program_options;

namespace {

constexpr const char* kUsage = R"(Usage:
  asg-ctl HOST:PORT SERVICE ['{json}'] [--token T] [--out DIR] [--timeout SECONDS] [--follow]
  asg-ctl HOST:PORT --list [--token T]
  asg-ctl --help

Calls one service of an interactive worker (asg-worker --serve HOST:PORT, docs/interactive.md)
and prints the body of its reply as JSON on stdout. The request's body is the JSON object given
(default {}), e.g. asg-ctl 127.0.0.1:7000 StepSimulation '{"steps": 10}'. With a token (--token,
else the environment variable ASG_TOKEN) the connection first presents it as Hello {token}.
--list prints the worker's services (ListServices) as a table: name, family, description.

Attachments: each item of the reply's "images" or "readings" array that has a "name", an
"offset" and a "size" (bytes into the reply's binary attachment) is saved as DIR/<name>.png
(images) or DIR/<name>.bin (readings), DIR being --out (default: the current directory) and the
name's characters other than A-Z a-z 0-9 . _ - replaced by _; the printed item gains "saved":
its path. Any other attachment is saved whole as DIR/<SERVICE>.bin (the printed body gains
"saved"). The saved paths are also printed on stderr.

SimulateSteps is an action: after its reply (accepted, goal_id) its SimulateStepsFeedback
frames are printed on stderr, one JSON line each: the first, the last and each one that reaches
a further whole percent of the goal (at most 102 lines); the SimulateStepsResult is printed on
stdout and decides the exit code. Ctrl-C (SIGINT) or SIGTERM meanwhile sends
CancelSimulateSteps and waits for the result (a second one stops waiting). --follow (for
SubscribeEvents) prints, after the reply, the body of every Event frame on stdout as one JSON
line until the worker closes the connection or SIGINT or SIGTERM arrives.

Exit codes: 0 success; 1 an error result (an Error reply, a body whose result.result is not 1
(RESULT_OK), "success": false or "accepted": false) or an attachment that could not be saved;
2 usage (bad arguments, a JSON argument that does not parse or is not an object); 3 connection
failure (cannot connect, the connection closed, no reply within --timeout).

Options)";

/// The text of an argument as quoted in a message, cut after 200 characters.
std::string Quote(const std::string& text) {
  constexpr size_t kMaxQuoted = 200;
  return "'" + (text.size() <= kMaxQuoted ? text : text.substr(0, kMaxQuoted) + "...") + "'";
}

/// Parses the JSON argument: strict JSON (no repeated keys) that is an object.
json::Json ParseRequestBody(const std::string& text) {
  json::Json body;
  try {
    body = json::ParseJsonStrict<json::Json>(text);
  } catch (const std::exception& error) {
    throw UsageError("the JSON argument " + Quote(text) + " does not parse: " + error.what());
  }
  if (!body.is_object()) {
    throw UsageError("the JSON argument " + Quote(text) + " is " + body.type_name() +
                     ", expected an object {...}");
  }
  return body;
}

/// The options shown by --help (the positional ones are not).
po::options_description NamedOptions() {
  po::options_description options(kUsage);
  // clang-format off
  options.add_options()
    ("help,h", "print this help and exit")
    ("list", "list the worker's services (ListServices) as a table: name, family, description")
    ("token", po::value<std::string>(),
     "shared secret presented first as Hello {token} (default: environment variable ASG_TOKEN)")
    ("out,o", po::value<std::string>(),
     "folder the reply's attachments are saved in, created when missing (default: the current "
     "directory)")
    ("timeout", po::value<double>()->default_value(kDefaultTimeoutSeconds),
     "seconds to connect and to wait for the reply, > 0")
    ("follow,f", "after the reply, print every Event frame's body as one JSON line until the "
     "connection closes or SIGINT / SIGTERM (for SubscribeEvents)");
  // clang-format on
  return options;
}

/// The mode, service, request body and --follow of `command`: --list, or SERVICE ['{json}'].
void SetService(const po::variables_map& values, CtlCommand* command) {
  if (values.count("list")) {
    if (values.count("service")) {
      throw UsageError("--list takes no SERVICE (got \"" + values["service"].as<std::string>() +
                       "\")");
    }
    if (values.count("follow")) throw UsageError("--list and --follow do not go together");
    command->mode = CtlCommand::Mode::kList;
    command->service = "ListServices";
    return;
  }
  if (!values.count("service")) {
    throw UsageError("no SERVICE given after " + command->address + " (or --list)");
  }
  command->mode = CtlCommand::Mode::kCall;
  command->service = values["service"].as<std::string>();
  if (command->service.empty()) throw UsageError("the SERVICE is empty");
  if (values.count("json")) command->request = ParseRequestBody(values["json"].as<std::string>());
  command->follow = values.count("follow") > 0;
}

/// --timeout in whole milliseconds (at least 1); a UsageError unless in (0, 1e6] seconds.
std::chrono::milliseconds TimeoutOption(const po::variables_map& values) {
  const double seconds = values["timeout"].as<double>();
  if (!std::isfinite(seconds) || seconds <= 0 || seconds > 1e6) {
    std::ostringstream text;
    text << "--timeout " << seconds << " is not in (0, 1e6] seconds";
    throw UsageError(text.str());
  }
  return std::chrono::milliseconds(std::max<int64_t>(1, std::llround(std::ceil(seconds * 1000))));
}

}  // namespace

CtlCommand ParseCtlCommandLine(const std::vector<std::string>& args,
                               const std::optional<std::string>& env_token) {
  const po::options_description options = NamedOptions();
  po::options_description positional_options;
  // clang-format off
  positional_options.add_options()
    ("address", po::value<std::string>(),
     "HOST:PORT of the interactive worker (on this host its same-host socket is used when it "
     "offers one), or unix:PATH of that socket")
    ("service", po::value<std::string>(), "the service to call")
    ("json", po::value<std::string>(), "the request's body, a JSON object");
  // clang-format on
  po::options_description all_options;
  all_options.add(options).add(positional_options);
  po::positional_options_description positional;
  positional.add("address", 1).add("service", 1).add("json", 1);
  po::variables_map values;
  try {
    po::store(po::command_line_parser(args).options(all_options).positional(positional).run(),
              values);
    po::notify(values);
  } catch (const po::error& error) {
    throw UsageError(error.what());
  }

  CtlCommand command;
  std::ostringstream help;
  help << options;
  command.help = help.str();
  if (values.count("help")) return command;

  if (!values.count("address")) {
    throw UsageError(args.empty() ? "no arguments given; expected HOST:PORT SERVICE ['{json}']"
                                  : "expected HOST:PORT first");
  }
  command.address = values["address"].as<std::string>();
  try {
    // "unix:PATH" names the worker's same-host socket; HOST:PORT of this host finds it too.
    if (!command.address.starts_with(protocol::kUnixEndpointPrefix)) {
      protocol::ParseHostPort(command.address);
    }
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
  SetService(values, &command);
  command.timeout = TimeoutOption(values);
  if (values.count("out")) {
    command.out_dir = values["out"].as<std::string>();
    if (command.out_dir.empty()) throw UsageError("--out is empty");
  }
  if (values.count("token")) {
    command.token = values["token"].as<std::string>();
  } else if (env_token) {
    command.token = *env_token;
  }
  return command;
}

}  // namespace asg::ctl
