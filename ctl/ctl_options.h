// The command line of asg-ctl (Boost.Program_options).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "protocol/messages_json.h"

namespace asg::ctl {

/// A command line that cannot be used; the message says why.
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// The default time to wait for a service's reply [s].
inline constexpr double kDefaultTimeoutSeconds = 30.0;

/// What the command line asks for.
struct CtlCommand {
  enum class Mode : uint8_t {
    kHelp,  ///< print `help` and exit 0
    kCall,  ///< call `service` with `request` and print the reply
    kList,  ///< call ListServices and print the services as a table
  };
  Mode mode = Mode::kHelp;
  std::string help;                           ///< the --help text
  std::string address;                        ///< HOST:PORT of the interactive worker
  std::string service;                        ///< kCall: the service (the request's type)
  json::Json request = json::Json::object();  ///< kCall: the request's body
  /// Presented first as Hello {token}; empty: no Hello is sent.
  std::string token;
  /// Where attachments are saved; empty: the current directory.
  std::filesystem::path out_dir;
  /// [ms] to connect, and to wait for each reply.
  std::chrono::milliseconds timeout{static_cast<int64_t>(kDefaultTimeoutSeconds * 1000)};
  bool follow = false;  ///< after the reply, print Event frames until the connection closes
};

/// Parses the arguments after the program name: `HOST:PORT SERVICE ['{json}'] [--token T]
/// [--out DIR] [--timeout SECONDS] [--follow]`, `HOST:PORT --list` or `--help`. The token comes
/// from --token, else from `env_token` (the environment variable ASG_TOKEN; null when unset).
/// The JSON argument must parse (a key repeated within one object is refused) and be an object.
/// Throws UsageError naming the argument or text at fault.
CtlCommand ParseCtlCommandLine(const std::vector<std::string>& args,
                               const std::optional<std::string>& env_token);

}  // namespace asg::ctl
