// The command line shared by the example nodes:
//   --connect HOST:PORT --worker-id N --name NAME [--token T] [extra options] [--help]
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "nodes/vehicle_node.h"

namespace asg::nodes::examples {

/// A numeric option of one example, e.g. --speed 5.
struct NumberOption {
  std::string name;  ///< without the leading dashes
  std::string help;  ///< one line, with the unit
  double* value;     ///< receives the parsed value; holds the default before parsing
};

/// A text option of one example, e.g. --role mapper.
struct TextOption {
  std::string name;    ///< without the leading dashes
  std::string help;    ///< one line
  std::string* value;  ///< receives the value; holds the default before parsing
};

/// What an example says about itself in --help.
struct ExampleUsage {
  std::string program;                ///< executable name
  std::string description;            ///< one paragraph
  std::vector<NumberOption> numbers;  ///< options beyond the common ones
  std::vector<TextOption> texts;      ///< text options beyond the common ones
};

/// Parses argv into settings (token: --token, else ASG_TOKEN). Returns -1 when the node should
/// run, else the exit code: 0 after --help (usage on out), 2 after a usage error (message and
/// usage on err). Not thread-safe (writes the NumberOption targets).
int ParseExampleCommandLine(int argc, const char* const* argv, const ExampleUsage& usage,
                            NodeSettings* settings, std::ostream& out, std::ostream& err);

}  // namespace asg::nodes::examples
