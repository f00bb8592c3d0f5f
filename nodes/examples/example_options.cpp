// Hand-rolled parsing of the examples' few options, so the SDK needs no option library.
#include "nodes/examples/example_options.h"

#include <stdexcept>

#include "protocol/endpoint.h"

namespace asg::nodes::examples {

namespace {

void PrintUsage(const ExampleUsage& usage, std::ostream& out) {
  out << "usage: " << usage.program
      << " --connect HOST:PORT --worker-id N --name NAME [--token T] [options]\n\n"
      << usage.description << "\n\n"
      << "  --connect HOST:PORT  the client's node port (asg-client --listen)\n"
      << "  --worker-id N        the worker whose vehicle this node drives, 0..65535\n"
      << "  --name NAME          node name, unique among the worker's nodes\n"
      << "  --token T            shared secret (default: environment variable ASG_TOKEN)\n";
  for (const NumberOption& option : usage.numbers) {
    out << "  --" << option.name << " X  " << option.help << " (default " << *option.value << ")\n";
  }
  for (const TextOption& option : usage.texts) {
    out << "  --" << option.name << " TEXT  " << option.help
        << (option.value->empty() ? std::string() : " (default " + *option.value + ")") << "\n";
  }
  out << "  --help               this text\n";
}

double ParseNumber(const std::string& name, const std::string& text) {
  size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    throw std::invalid_argument("--" + name + " \"" + text + "\": not a number");
  }
  return value;
}

}  // namespace

int ParseExampleCommandLine(int argc, const char* const* argv, const ExampleUsage& usage,
                            NodeSettings* settings, std::ostream& out, std::ostream& err) {
  bool have_connect = false, have_worker = false, have_name = false;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        PrintUsage(usage, out);
        return 0;
      }
      if (arg.rfind("--", 0) != 0) throw std::invalid_argument("unexpected argument " + arg);
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      const std::string name = arg.substr(2);
      const std::string value = argv[++i];
      if (name == "connect") {
        protocol::ParseHostPort(value);  // throws naming the text
        settings->client_endpoint = value;
        have_connect = true;
      } else if (name == "worker-id") {
        const double id = ParseNumber(name, value);
        if (id < 0 || id > 65535 || id != static_cast<int>(id)) {
          throw std::invalid_argument("--worker-id " + value + ": not an integer in 0..65535");
        }
        settings->worker_id = static_cast<uint16_t>(id);
        have_worker = true;
      } else if (name == "name") {
        if (value.empty()) throw std::invalid_argument("--name is empty");
        settings->node_name = value;
        have_name = true;
      } else if (name == "token") {
        settings->token = value;
      } else {
        bool known = false;
        for (const NumberOption& option : usage.numbers) {
          if (option.name == name) {
            *option.value = ParseNumber(name, value);
            known = true;
          }
        }
        for (const TextOption& option : usage.texts) {
          if (option.name == name) {
            *option.value = value;
            known = true;
          }
        }
        if (!known) throw std::invalid_argument("unknown option " + arg);
      }
    }
    if (!have_connect || !have_worker || !have_name) {
      throw std::invalid_argument("--connect, --worker-id and --name are required");
    }
  } catch (const std::exception& error) {
    err << usage.program << ": " << error.what() << "\n\n";
    PrintUsage(usage, err);
    return 2;
  }
  if (settings->token.empty()) {
    if (const char* token = std::getenv("ASG_TOKEN")) settings->token = token;
  }
  return -1;
}

}  // namespace asg::nodes::examples
